#!/usr/bin/env bash
# test-scripts.sh: the scripts' behaviour on bad input, fast, without a
# kernel: a missing tree, bad variable values, a patch that does not apply
# (the tree must come back clean), a tree with local changes, unknown plans
# and kernels.  Uses a small fake kernel repository in a scratch WORK.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=tests/lib-test.sh
. tests/lib-test.sh

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
[ -n "${KEEP:-}" ] && trap - EXIT
logs="$scratch/logs"
mkdir -p "$logs"

# A fake "kernel" repository: enough for the tree/apply/build checks.
fake="$scratch/work/linux"
mkdir -p "$fake"
printf 'kernelversion:\n\t@echo 6.1.0-fake\n' >"$fake/Makefile"
printf 'one\ntwo\nthree\n' >"$fake/file.txt"
git -C "$fake" init -q
git -C "$fake" -c user.name=t -c user.email=t@t add -A
git -C "$fake" -c user.name=t -c user.email=t@t commit -q -m base
git -C "$fake" tag base
fw=(env "WORK=$scratch/work" "TREE=$fake")

# Two patches: one that applies, one that does not.
mk_patch() { # mk_patch FILE OLD NEW SUBJECT
	local d="$scratch/mk"
	rm -rf "$d"
	git clone -q "$fake" "$d"
	sed -i "s/^$2\$/$3/" "$d/file.txt"
	git -C "$d" -c user.name=t -c user.email=t@t commit -q -am "$4"
	git -C "$d" format-patch -q -1 --stdout >"$1"
}
mkdir -p "$scratch/good" "$scratch/bad"
mk_patch "$scratch/good/0001-two.patch" two TWO "change two"
echo 0001-two.patch >"$scratch/good/series"
mk_patch "$scratch/bad/0001-two.patch" two TWO "change two"
sed 's/^-two$/-zwei/; s/^ one$/ eins/' "$scratch/bad/0001-two.patch" >"$scratch/bad/0002-broken.patch"
printf '0001-two.patch\n0002-broken.patch\n' >"$scratch/bad/series"

# --- missing inputs and bad values
expect_status "build without a tree exits 2" 2 "$logs/1" \
	env WORK="$scratch/none" scripts/kernel/build-kernel.sh base
expect_grep "build without a tree says what to run" "make tree" "$logs/1"
expect_status "build with JOBS=abc exits 2" 2 "$logs/2" env JOBS=abc "${fw[@]}" scripts/kernel/build-kernel.sh base
expect_status "build of an unknown revision exits 2" 2 "$logs/3" "${fw[@]}" scripts/kernel/build-kernel.sh nosuch
expect_status "build with BUILD_REUSE=yes exits 2" 2 "$logs/3b" env BUILD_REUSE=yes "${fw[@]}" scripts/kernel/build-kernel.sh base
expect_status "compile-wide with a folder that is no module exits 2" 2 "$logs/4" \
	"${fw[@]}" scripts/kernel/compile-wide.sh base base "$scratch"
expect_grep "the folder is named" "is not a module folder" "$logs/4"
expect_grep "unknown revision is named" "revision 'nosuch' not found" "$logs/3"
expect_status "tree with FORCE=2 exits 2" 2 "$logs/4" env FORCE=2 "${fw[@]}" scripts/kernel/setup-tree.sh
expect_status "tree without the tarball exits 2" 2 "$logs/5" \
	env WORK="$scratch/none" SRC_TARBALL=/nonexistent.tar.xz scripts/kernel/setup-tree.sh
expect_status "boot of a kernel that was never built exits 2" 2 "$logs/6" \
	env WORK="$scratch/none" scripts/kernel/boot-kernel.sh nosuch
expect_status "boot with an unknown plan exits 2" 2 "$logs/7" \
	"${fw[@]}" scripts/kernel/boot-kernel.sh base nosuchplan
expect_grep "unknown plan is named" "unknown plan 'nosuchplan'; plans: .*default" "$logs/7"
expect_status "boot with BOOT_TIMEOUT=soon exits 2" 2 "$logs/8" \
	env BOOT_TIMEOUT=soon "${fw[@]}" scripts/kernel/boot-kernel.sh base
expect_grep "bad timeout is named" "BOOT_TIMEOUT must be seconds" "$logs/8"
expect_status "make sparse passes WORK and NEW through (unknown NEW exits 2)" 2 "$logs/9" \
	make -s sparse WORK="$scratch/work" NEW=no-such-rev
expect_grep "make sparse names the unknown revision" "revision 'no-such-rev' not found" "$logs/9"
expect_status "sparse on a non-C file exits 2" 2 "$logs/10" "${fw[@]}" scripts/kernel/sparse-check.sh base base Makefile
expect_status "sparse with an unknown revision exits 2" 2 "$logs/11" "${fw[@]}" scripts/kernel/sparse-check.sh base no-such-rev
expect_grep "the unknown revision is named" "revision 'no-such-rev' not found" "$logs/11"
expect_grep "non-C file is named" "'Makefile' is not a .c file" "$logs/10"
expect_status "parse-boot-log on a missing log exits 2" 2 "$logs/11" scripts/kernel/parse-boot-log.py "$scratch/none.log"
expect_status "apply with a missing series exits 2" 2 "$logs/12" "${fw[@]}" scripts/kernel/apply-patches.sh "$scratch" base x
expect_grep "missing series is named" "no series file in" "$logs/12"

# --- patches: a good series applies and tags; a bad one leaves no trace
expect_status "a good series applies" 0 "$logs/20" "${fw[@]}" scripts/kernel/apply-patches.sh "$scratch/good" base good
if [ "$(git -C "$fake" rev-parse good)" != "$(git -C "$fake" rev-parse base)" ] &&
	grep -q TWO "$fake/file.txt"; then ok "good series tagged with its change"; else
	not_ok "good series tagged with its change" "tag or content missing"
fi
# APPLY_REUSE=1 (make-series.sh): the same patches on the same commit leave
# the tree alone; a changed patch is applied again.
git -C "$fake" checkout -q --detach base
expect_status "unchanged series with APPLY_REUSE=1 passes" 0 "$logs/22" \
	"${fw[@]}" APPLY_REUSE=1 scripts/kernel/apply-patches.sh "$scratch/good" base good
if grep -q "reused" "$logs/22" && [ "$(git -C "$fake" rev-parse HEAD)" = "$(git -C "$fake" rev-parse base)" ]; then
	ok "unchanged series is reused without a checkout"
else
	not_ok "unchanged series is reused without a checkout" "applied again or HEAD moved (see $logs/22)"
fi
echo "# changed" >>"$scratch/good/0001-two.patch"
expect_status "changed series with APPLY_REUSE=1 passes" 0 "$logs/23" \
	"${fw[@]}" APPLY_REUSE=1 scripts/kernel/apply-patches.sh "$scratch/good" base good
if ! grep -q "reused" "$logs/23" && grep -q TWO "$fake/file.txt"; then
	ok "changed series is applied again"
else
	not_ok "changed series is applied again" "it was reused (see $logs/23)"
fi
before=$(git -C "$fake" rev-parse HEAD)
expect_status "a patch that does not apply exits 1" 1 "$logs/21" "${fw[@]}" scripts/kernel/apply-patches.sh "$scratch/bad" base bad
expect_grep "the failing patch is named" "0002-broken.patch does not apply" "$logs/21"
if [ "$(git -C "$fake" rev-parse HEAD)" = "$before" ] &&
	[ ! -d "$fake/.git/rebase-apply" ] &&
	[ -z "$(git -C "$fake" status --porcelain)" ] &&
	! git -C "$fake" rev-parse -q --verify bad >/dev/null; then
	ok "no half-applied tree after a failed series"
else
	not_ok "no half-applied tree after a failed series" "HEAD moved, am in progress, tag set or tree dirty"
fi

# --- local changes are kept unless FORCE=1
echo local >>"$fake/file.txt"
expect_status "tree with local changes refuses" 1 "$logs/30" "${fw[@]}" scripts/kernel/setup-tree.sh
expect_grep "refusal says how to force" "FORCE=1" "$logs/30"
if grep -q local "$fake/file.txt"; then ok "local change kept"; else not_ok "local change kept" "it was discarded"; fi
expect_status "FORCE=1 discards local changes" 0 "$logs/31" env FORCE=1 "${fw[@]}" scripts/kernel/setup-tree.sh
if grep -q local "$fake/file.txt"; then not_ok "local change discarded" "still there"; else ok "local change discarded"; fi
expect_status "build refuses a dirty tree" 1 "$logs/32" \
	sh -c "echo x >>'$fake/file.txt' && env WORK='$scratch/work' TREE='$fake' scripts/kernel/build-kernel.sh base base"

# --- config checker
printf 'CONFIG_A=y\n# CONFIG_B is not set\n' >"$scratch/final"
printf 'CONFIG_A=y\n' >"$scratch/frag-ok"
printf 'CONFIG_A=y\nCONFIG_B=y\n' >"$scratch/frag-bad"
expect_status "config check passes when options match" 0 "$logs/40" scripts/kernel/check-config.py "$scratch/final" "$scratch/frag-ok"
expect_status "config check fails on a missing option" 1 "$logs/41" scripts/kernel/check-config.py "$scratch/final" "$scratch/frag-bad"
expect_grep "missing option is named" "CONFIG_B=y asked by" "$logs/41"

# --- conversion input: the mask table (nothing is written on refusal)
mkdir -p "$fake/sub"
expect_status "convert without a mask table exits 2" 2 "$logs/50" \
	"${fw[@]}" scripts/convert/convert-subsys.sh sub "$scratch/no-such-table.txt"
printf 'struct foo.lock TIMER|BOGUS\n' >"$scratch/masks-bad"
expect_status "convert refuses a malformed mask" 2 "$logs/51" \
	"${fw[@]}" scripts/convert/convert-subsys.sh sub "$scratch/masks-bad"
expect_grep "malformed line is named" "masks-bad:1:" "$logs/51"
printf 'site sub/a.c:12 TIMER\nsite sub/a.c:0 NET_RX\n' >"$scratch/sites-bad"
expect_status "convert refuses a site line without a line number" 2 "$logs/53" \
	"${fw[@]}" scripts/convert/convert-subsys.sh sub "$scratch/sites-bad"
expect_grep "malformed site line is named" "sites-bad:2:" "$logs/53"
printf '# CLOSED-WORLD (UNSAFE): test\nstruct foo.lock TIMER\n' >"$scratch/masks-closed"
expect_status "convert refuses a closed-world table" 2 "$logs/52" \
	"${fw[@]}" scripts/convert/convert-subsys.sh sub "$scratch/masks-closed"
expect_grep "refusal says why" "comes from CLOSED_WORLD=1" "$logs/52"
if [ ! -e conversions/sub ] && [ ! -e audit-notes/sub.md ]; then
	ok "refused conversions write nothing into the checkout"
else
	not_ok "refused conversions write nothing into the checkout" "conversions/sub or audit-notes/sub.md appeared"
	rm -rf conversions/sub audit-notes/sub.md
fi

# --- no check reads a previous run's output
stale="$scratch/work/out/boot/nosuch-default"
mkdir -p "$stale" "$scratch/work/out/bisect"
echo "Good, all 358 testcases passed!" >"$stale/console.log"
echo "git bisect start" >"$scratch/work/out/bisect/bisect.log"
expect_status "boot of a kernel that was never built exits 2 (stale outputs in place)" 2 "$logs/60" \
	"${fw[@]}" scripts/kernel/boot-kernel.sh nosuch
if [ ! -e "$stale" ]; then ok "boot clears its result folder before it can fail"; else
	not_ok "boot clears its result folder before it can fail" "$stale is still there"
fi
expect_status "boot with BOOT_EXPECT_SELFTESTS=many exits 2" 2 "$logs/61" \
	env BOOT_EXPECT_SELFTESTS=many "${fw[@]}" scripts/kernel/boot-kernel.sh base
expect_grep "bad self-test count is named" "BOOT_EXPECT_SELFTESTS must be a number" "$logs/61"
expect_status "bisect with TEST=bogus exits 2 (stale log in place)" 2 "$logs/62" \
	"${fw[@]}" scripts/bisect/bisect-boot.sh base base bogus
if [ ! -e "$scratch/work/out/bisect/bisect.log" ]; then ok "bisect clears its log before it can fail"; else
	not_ok "bisect clears its log before it can fail" "the previous bisect.log is still there"
fi

# --- the check helpers of tests/lib-test.sh fail on the broken behaviour
# selfcheck NAME WANT CMD...: run a helper in a subshell with its own
# counters; it must end PASS or FAIL as WANT says.
selfcheck() {
	local name=$1 want=$2 got
	shift 2
	got=$( (failed=0 && "$@" >"$logs/self.log" 2>&1 && [ "$failed" -eq 0 ] && echo PASS) || echo FAIL)
	if [ "$got" = "$want" ]; then ok "$name: $want"; else
		not_ok "$name: $want" "got $got:"
		sed 's/^/    /' "$logs/self.log"
	fi
}
fx=tests/fixtures
for p in "loopback tcp" "veth tcp" "veth udp"; do
	# shellcheck disable=SC2086 # two words on purpose
	selfcheck "traffic check, good $p" PASS expect_traffic $fx/summary-traffic-good.txt $p
	# shellcheck disable=SC2086
	selfcheck "traffic check, bad $p (lost bytes, nothing sent, negative loss)" FAIL \
		expect_traffic $fx/summary-traffic-bad.txt $p
done
selfcheck "bench verdict check, consistent table" PASS expect_bench_verdicts $fx/bench-table-good.md
selfcheck "bench verdict check, 'yes' for a 1.49x ratio" FAIL expect_bench_verdicts $fx/bench-table-bad.md
touch "$scratch/old"
sleep 1
touch "$scratch/stamp"
selfcheck "freshness check, file older than the run" FAIL expect_fresh old "$scratch/old" "$scratch/stamp"
selfcheck "freshness check, missing file" FAIL expect_fresh gone "$scratch/gone" "$scratch/stamp"
sleep 1
touch "$scratch/new"
selfcheck "freshness check, file written in the run" PASS expect_fresh new "$scratch/new" "$scratch/stamp"

# --- the converter reads the files at tag base, whatever is checked out
# (a tree left at a stacked series, where the section is converted
# already, gave an empty conversion)
ct=$scratch/conv/linux
mkdir -p "$ct/sub"
printf 'struct foo {\n\tspinlock_t lock;\n\tint n;\n};\n\nvoid foo_inc(struct foo *f)\n{\n\tspin_lock_bh(&f->lock);\n\tf->n++;\n\tspin_unlock_bh(&f->lock);\n}\n' >"$ct/sub/a.c"
git -C "$ct" init -q
git -C "$ct" -c user.name=t -c user.email=t@t add -A
git -C "$ct" -c user.name=t -c user.email=t@t commit -q -m base
git -C "$ct" tag base
sed -i 's/spin_lock_bh(&f->lock)/spin_lock_bh_mask(\&f->lock, 0)/' "$ct/sub/a.c"
git -C "$ct" -c user.name=t -c user.email=t@t commit -q -am converted
printf 'struct foo.lock TIMER\n' >"$scratch/conv/masks"
expect_status "convert with the tree at another commit" 0 "$logs/60" \
	env "WORK=$scratch/conv" "TREE=$ct" "CONV_DIR=$scratch/conv/out" "NOTE_OUT=$scratch/conv/note.md" \
	scripts/convert/convert-subsys.sh sub "$scratch/conv/masks"
expect_grep "the section at tag base is converted" '^\+.*spin_lock_bh_mask\(&f->lock, BIT\(TIMER_SOFTIRQ\)\)' \
	"$scratch/conv/out/0001-sub.patch"
if [ "$(git -C "$ct" log -1 --format=%s)" = converted ] && git -C "$ct" diff --quiet; then
	ok "the checkout is left as it was"
else
	not_ok "the checkout is left as it was" "HEAD or files changed"
fi

# --- suites that build on the core suite's state say so when run alone
for suite in bisect-lockdep bench; do
	expect_status "suite $suite alone (no tag core) exits 1" 1 "$logs/70-$suite" \
		"${fw[@]}" "tests/test-$suite.sh"
	expect_grep "suite $suite names what it needs" "needs the core suite's state.*SUITES=\"core $suite\"" "$logs/70-$suite"
done
# --- the end-to-end benchmark's trace figures, on a trace worked out by
# hand (tests/fixtures/e2e/README.md), with the guest's busybox awk
bb="$scratch/busybox"
mkdir -p "$bb"
for a in awk sort cut grep head wc sh mkdir rm; do ln -sf "$(command -v busybox)" "$bb/$a"; done
expect_status "e2e-trace-stats reads the fixture trace (busybox)" 0 "$logs/80" \
	env PATH="$bb:$PATH" sh scripts/guest/e2e-trace-stats tests/fixtures/e2e/trace.txt "$scratch/e2e-tmp"
expect_grep "a stretch that holds BLOCK back is blamed for its overlap" \
	'^BENCH-E2E blame vec=BLOCK label=stretch_tcp_sendmsg us=100\.0$' "$logs/80"
expect_grep "another vector's handler is blamed for its run" \
	'^BENCH-E2E blame vec=BLOCK label=softirq_NET_RX us=190\.0$' "$logs/80"
expect_grep "the rest of the wait is elsewhere" '^BENCH-E2E blame vec=BLOCK label=elsewhere us=110\.0$' "$logs/80"
expect_grep "a stretch that leaves HRTIMER running is not blamed" \
	'^BENCH-E2E blame vec=HRTIMER label=elsewhere us=800\.0$' "$logs/80"
expect_no_grep "no stretch blamed for HRTIMER" 'vec=HRTIMER label=stretch' "$logs/80"
expect_grep "soft hrtimer lateness from start to expiry" '^BENCH-E2E hrtimer-us 300\.0$' "$logs/80"
expect_grep "raise-to-entry percentiles" '^BENCH-E2E latency vec=BLOCK n=1 p50_us=400\.0 p99_us=400\.0 p999_us=400\.0 max_us=400\.0$' "$logs/80"
expect_grep "stretches by time held" '^BENCH-E2E held label=udp_x n=1 total_us=500\.0 max_us=500\.0$' "$logs/80"
expect_grep "a stretch begun in an out-of-line local_bh_disable() is named by its caller" \
	'^BENCH-E2E held label=tcp_recvmsg/local_bh_disable n=1 total_us=50\.0 max_us=50\.0$' "$logs/80"
expect_grep "so is one begun in an out-of-line *_bh() wrapper" \
	'^BENCH-E2E held label=dev_mc_add/netif_addr_lock_bh n=1 total_us=20\.0 max_us=20\.0$' "$logs/80"
expect_grep "a stretch begun in a real function keeps its name" \
	'^BENCH-E2E held label=tcp_sendmsg n=1 total_us=200\.0 max_us=200\.0$' "$logs/80"
expect_status "e2e-trace-stats reads a trace with unhashed-pointer placeholders" 0 "$logs/80p" \
	env PATH="$bb:$PATH" sh scripts/guest/e2e-trace-stats tests/fixtures/e2e/ptrval.txt "$scratch/e2e-tmp"
expect_no_grep "timers with placeholder addresses are not matched" 'hrtimer' "$logs/80p"
expect_status "e2e-trace-stats without a trace exits 2" 2 "$logs/81" \
	env PATH="$bb:$PATH" sh scripts/guest/e2e-trace-stats "$scratch/no-such-trace"

# --- the end-to-end summarizer: two kernels, the target judged in the same run
e2e="$scratch/e2e"
mkdir -p "$e2e"
{
	echo "VICTIMS block n=4 missed=0 errors=0 rate=200"
	echo "VICTIMS block-us 100.0 200.0 300.0 4000.0"
	echo "VICTIMS paced bytes=500000 rate=524288"
	echo "TRAFFIC path=loopback proto=tcp sent=1 received=1 lost=0 corrupt=0 seconds=1.0 MBps=1.50"
	grep '^BENCH-E2E' "$logs/80"
	echo "BENCH-E2E tracing=on lost=0 clock=mono stretches=yes"
	echo "BENCH-E2E-END"
} >"$e2e/slow.txt"
sed 's/ 4000\.0$/ 350.0/' "$e2e/slow.txt" >"$e2e/fast.txt"
expect_status "summarize-e2e: two kernels, rounds of one" 0 "$logs/82" \
	scripts/bench/summarize-e2e.py "$e2e/out" --run base="$e2e/slow.txt" --run base="$e2e/slow.txt" \
	--run net="$e2e/fast.txt" --blame "$e2e/fast.txt" --hz 250 --no-plots
expect_grep "BLOCK p99 ratio judged against 10x" '^- BLOCK p99 base / net = 4000\.0 / 350\.0 µs = 11\.43x .*: met$' "$e2e/out/e2e.md"
expect_grep "median and range over rounds" '^\| BLOCK read latency p99, µs \| 4000\.0 \[4000\.0-4000\.0\] \| 350\.0 \|$' "$e2e/out/e2e.md"
expect_grep "timer lateness in ms from HZ" '^\| timer_list lateness p99, ms \| 8\.0 ' "$e2e/out/e2e.md"
expect_grep "blame table names the stretch" '^\| stretch tcp_sendmsg \| 100 \| 25\.0% \|$' "$e2e/out/e2e.md"
expect_grep "the target says what masking could win at most" \
	'^- why, BLOCK .*: 25\.0% behind BH-disabled stretches .*, 47\.5% behind other .*, 27\.5% elsewhere .* at most 1\.33x$' "$e2e/out/e2e.md"
expect_grep "held table names the caller of an out-of-line wrapper" \
	'^\| tcp_recvmsg/local_bh_disable \| 1 \| 50 \| 50 \|$' "$e2e/out/e2e.md"
expect_no_grep "every stretch named when the kernel gives callers" '^Not named' "$e2e/out/e2e.md"
# shellcheck disable=SC2016 # backticks of the markdown, not a command
expect_grep "the a/b form is explained where it is used" '^`a/b`: the stretch began in `b`' "$e2e/out/e2e.md"
sed -e 's|label=tcp_recvmsg/local_bh_disable|label=local_bh_disable|' \
	-e 's|label=dev_mc_add/netif_addr_lock_bh|label=netif_addr_lock_bh|' "$e2e/fast.txt" >"$e2e/nofp.txt"
expect_status "summarize-e2e: a blame run without callers" 0 "$logs/82n" \
	scripts/bench/summarize-e2e.py "$e2e/nofp" --run base="$e2e/slow.txt" --run net="$e2e/fast.txt" \
	--blame "$e2e/nofp.txt" --hz 250 --no-plots
expect_grep "every stretch left unnamed is said so, by the rule e2e-trace-stats names them with" \
	'^Not named: local_bh_disable, netif_addr_lock_bh \(the kernel gave no caller' "$e2e/nofp/e2e.md"
# shellcheck disable=SC2016 # backticks of the markdown, not a command
expect_no_grep "no a/b explanation without a/b names" '^`a/b`' "$e2e/nofp/e2e.md"
expect_status "summarize-e2e: a missed target is reported, not failed" 0 "$logs/83" \
	scripts/bench/summarize-e2e.py "$e2e/miss" --run base="$e2e/fast.txt" --run net="$e2e/slow.txt" --no-plots
expect_grep "a missed target says by how much" '^- BLOCK p99 base / net = 350\.0 / 4000\.0 µs = 0\.09x .*missed: 0\.09x, 114\.3 times short of 10x$' "$e2e/miss/e2e.md"
grep -v 'BENCH-E2E-END\|block-us' "$e2e/fast.txt" >"$e2e/cut.txt"
expect_status "summarize-e2e: an unfinished run fails" 1 "$logs/84" \
	scripts/bench/summarize-e2e.py "$e2e/cut" --run base="$e2e/slow.txt" --run net="$e2e/cut.txt" --no-plots
expect_grep "the unfinished run is named" 'net .*no BENCH-E2E-END line' "$logs/84"
expect_grep "the run without BLOCK samples is named" 'net .*no BLOCK read latencies' "$logs/84"
expect_status "summarize-e2e: LABEL=CONSOLE required" 2 "$logs/85" \
	scripts/bench/summarize-e2e.py "$e2e/bad" --run "$e2e/fast.txt"
expect_status "run-bench-e2e: a malformed E2E_ROUNDS exits 2" 2 "$logs/86" \
	env E2E_ROUNDS=x scripts/bench/run-bench-e2e.sh
expect_status "run-bench-e2e: a kernel that does not exist exits 2" 2 "$logs/87" \
	env E2E_ROUNDS=1 "${fw[@]}" scripts/bench/run-bench-e2e.sh net=no-such-kernel
expect_status "build-e2e-kernels: an unknown variant exits 2" 2 "$logs/88" \
	scripts/bench/build-e2e-kernels.sh e2e-nothing

tally
