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
# --- the end-to-end benchmark's trace analysis, on a trace worked out by
# hand (tests/fixtures/e2e/README.md)
e2e="$scratch/e2e"
mkdir -p "$e2e"
fx=tests/fixtures/e2e
expect_status "e2e-trace reads the fixture trace, victims raised in hard irq" 0 "$logs/80" \
	scripts/bench/e2e-trace.py "$fx/trace.txt" -o "$e2e/t.json" --require-hardirq
# jq-free look at the JSON: one line per fact
python3 - "$e2e/t.json" >"$e2e/t.txt" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for w in d["waits"]:
    print(f"wait {w['vec']} cpu={w['cpu']} us={w['us']} by={w['by']}")
    for c, parts in sorted(w["parts"].items()):
        for label, us in sorted(parts.items()):
            print(f"  part {w['vec']} {c} {label} = {us}")
print("raise_ctx", json.dumps(d["raise_ctx"], sort_keys=True))
print("hrtimer_late", d["hrtimer_late_us"])
for s in d["stretches"]:
    print(f"stretch {s['fn']} n={s['n']} total={s['total_us']}")
for v, r in sorted(d["handler_runs"].items()):
    print(f"run {v} p50={r['p50_us']}")
PY
expect_grep "a BLOCK wait behind the transmit path's stretch, served at its end" \
	'^wait BLOCK cpu=0 us=400.0 by=section end$' "$e2e/t.txt"
expect_grep "the stretch piece is named by the traced section that covers it" \
	'^  part BLOCK a stretch __dev_queue_xmit/rcu_read_lock_bh = 380.0$' "$e2e/t.txt"
expect_grep "the interrupt's own handler time is c2" '^  part BLOCK c2 hard interrupt handler = 10.0$' "$e2e/t.txt"
expect_grep "an HRTIMER wait behind the ksoftirqd gate, served by ksoftirqd" \
	'^wait HRTIMER cpu=0 us=1505.0 by=ksoftirqd$' "$e2e/t.txt"
expect_grep "ksoftirqd runnable while guest-traffic held the CPU is c1, with that task" \
	'^  part HRTIMER c1 ksoftirqd waits, CPU held by guest-traffic = 995.0$' "$e2e/t.txt"
expect_grep "another vector's handler is b" '^  part HRTIMER b softirq NET_RX = 490.0$' "$e2e/t.txt"
expect_grep "a BLOCK raise on an idle CPU is served at the interrupt's exit" \
	'^wait BLOCK cpu=0 us=20.0 by=interrupt exit$' "$e2e/t.txt"
expect_grep "a BLOCK raise whose interrupt came with BH off waits for the task's BH enable" \
	'^wait BLOCK cpu=1 us=90.0 by=BH enable in a task$' "$e2e/t.txt"
expect_grep "and that wait is a stretch of the interrupted task" '^  part BLOCK a stretch in softirq-victims = 80.0$' "$e2e/t.txt"
expect_grep "raise contexts counted" '^raise_ctx {"BLOCK": {"hardirq": 3}, "HRTIMER": {"hardirq": 1}}$' "$e2e/t.txt"
expect_grep "soft hrtimer lateness from start to expiry" '^hrtimer_late \[1520.0\]$' "$e2e/t.txt"
expect_grep "a stretch begun in an out-of-line local_bh_disable() is named by its caller" \
	'^stretch tcp_recvmsg/local_bh_disable n=1 total=50.0$' "$e2e/t.txt"
expect_grep "so is one begun in an out-of-line *_bh() wrapper" \
	'^stretch dev_mc_add/netif_addr_lock_bh n=1 total=30.0$' "$e2e/t.txt"
expect_grep "a stretch begun in a real function keeps its name" '^stretch lock_sock_nested n=1 total=20.0$' "$e2e/t.txt"
expect_grep "handler run times per vector" '^run NET_RX p50=490.0$' "$e2e/t.txt"
# The victim check: a BLOCK raise in task context (null_blk's, through a
# kblockd worker) must fail the run
sed '0,/D.h2.   100.000010: softirq_raise: vec=4/s//D..2.   100.000010: softirq_raise: vec=4/' \
	"$fx/trace.txt" >"$e2e/task-raise.txt"
expect_status "e2e-trace fails a BLOCK raise outside hard irq" 1 "$logs/80t" \
	scripts/bench/e2e-trace.py "$e2e/task-raise.txt" -o "$e2e/tr.json" --require-hardirq
expect_grep "and says which raise" '1 of 3 BLOCK raises outside hard interrupt context' "$logs/80t"
grep -v 'vec=8' "$fx/trace.txt" >"$e2e/no-hrtimer.txt"
expect_status "e2e-trace fails a trace without a victim raise" 1 "$logs/80n" \
	scripts/bench/e2e-trace.py "$e2e/no-hrtimer.txt" -o "$e2e/nh.json" --require-hardirq
expect_grep "and names the victim" 'no HRTIMER raise in the trace' "$logs/80n"
# The trace as the guest leaves it on its disk: between markers, zeros after
{ echo E2E-TRACE-BEGIN; cat "$fx/trace.txt"; echo E2E-TRACE-END; } >"$e2e/disk.img"
truncate -s 1M "$e2e/disk.img"
expect_status "e2e-trace reads the trace disk image" 0 "$logs/80d" \
	scripts/bench/e2e-trace.py "$e2e/disk.img" -o "$e2e/d.json"
expect_status "the image gives the same figures as the text" 0 /dev/null cmp -s "$e2e/t.json" "$e2e/d.json"
head -c 2000 "$e2e/disk.img" >"$e2e/cut.img"
truncate -s 1M "$e2e/cut.img"
expect_status "a trace disk cut before its end marker exits 2" 2 "$logs/80c" \
	scripts/bench/e2e-trace.py "$e2e/cut.img"
expect_grep "and says so" 'E2E-TRACE-BEGIN without E2E-TRACE-END' "$logs/80c"
expect_status "e2e-trace reads a trace with unhashed-pointer placeholders" 0 "$logs/80p" \
	scripts/bench/e2e-trace.py "$fx/ptrval.txt" -o "$e2e/p.json"
expect_grep "timers with placeholder addresses are not matched" '"hrtimer_late_us":\[\]' "$e2e/p.json"
expect_status "e2e-trace without a trace exits 2" 2 "$logs/81" \
	scripts/bench/e2e-trace.py "$scratch/no-such-trace"
expect_status "e2e-trace: an unknown victim vector exits 2" 2 "$logs/81v" \
	scripts/bench/e2e-trace.py "$fx/trace.txt" --victims BLOCK,NOPE

# --- the end-to-end summarizer: rounds of three kernels, traces of two
# (base, and defer as the best of the series), the tracing kernel
round() { # round FILE READ_P99_US MBPS
	{
		echo "HOST-LOAD before=1.50,1.20,1.00 after=1.60,1.20,1.00"
		echo "BENCH-E2E placement victim=vda irq=24 irq_cpu=0 load_cpu=0 reader_cpu=1 place=together"
		echo "VICTIMS block n=100 missed=0 errors=0 rate=200"
		for _ in $(seq 1 9); do echo "VICTIMS block-us 100.0 100.0 100.0 100.0 100.0 100.0 100.0 100.0 100.0 100.0"; done
		echo "VICTIMS block-us 100.0 100.0 100.0 100.0 100.0 100.0 100.0 100.0 $2 $2"
		echo "VICTIMS paced bytes=500000 rate=524288"
		echo "TRAFFIC path=loopback proto=tcp sent=1 received=1 lost=0 corrupt=0 seconds=1.0 MBps=$3"
		echo "BENCH-E2E softirqs cpu=0 vec=BLOCK count=100"
		echo "BENCH-E2E-END"
	} >"$1"
}
round "$e2e/base.txt" 4000.0 10.00
round "$e2e/defer.txt" 350.0 9.80
round "$e2e/net.txt" 500.0 9.90
expect_status "summarize-e2e: rounds and traces" 0 "$logs/82" \
	scripts/bench/summarize-e2e.py "$e2e/out" --run base="$e2e/base.txt" --run base="$e2e/base.txt" \
	--run defer="$e2e/defer.txt" --run net="$e2e/net.txt" --run hand="$e2e/net.txt" --trace base-t1="$e2e/t.json" \
	--trace defer-t1="$e2e/t.json" --trace blame="$e2e/t.json" --series defer,net --hz 250 --no-plots
md="$e2e/out/e2e.md"
# shellcheck disable=SC2016 # backticks of the markdown, not a command
expect_grep "the best kernel of the series is chosen by read latency p99" 'best by read latency p99: `defer`' "$md"
expect_grep "read latency p99 judged against 10x" \
	'^- read latency p99 base / defer = 4000\.0 / 350\.0 µs = 11\.43x \(target 10x\): met$' "$md"
expect_grep "throughput judged against 5%" '^- TCP throughput base / defer = 10\.0 / 9\.8 MB/s \(-2\.0%, .*at most 5% below\): met$' "$md"
expect_grep "whether the p99 ranges separate" 'base 4000\.0-4000\.0 µs, defer 350\.0-350\.0 µs: they separate$' "$md"
expect_grep "median and range over rounds" '^\| read latency p99, µs \| 4000\.0 \[4000\.0-4000\.0\] \| 350\.0 \| 500\.0 \| 500\.0 \|$' "$md"
expect_grep "the host's load is recorded" '^\| host load average before \| 1\.50 \[1\.50-1\.50\] \|' "$md"
expect_grep "raise-to-entry from the traces" '^\| BLOCK raise-to-entry p99 \| 400\.0 \| 400\.0 \|$' "$md"
# BLOCK's p99 tail is the 400 µs wait: 380 a, 20 c2 (interrupt handler, exit path)
expect_grep "the tail's split: a" '^\| a: behind a BH-disabled stretch \| 95\.0% \| 95\.0% \|$' "$md"
expect_grep "every piece of the fixture's tail is named" '^\| named \| 100\.0% \| 100\.0% \|$' "$md"
expect_grep "the HRTIMER tail is c1 and b" '^\| c1: ksoftirqd runnable, not running \| 66\.8% ' "$md"
expect_grep "who served the tail" '^\| base \| BLOCK \(tail\) \| 1 \| 0\.0% \| 0\.0% \| 100\.0% \| 0\.0% \|$' "$md"
# hand: the tracing kernel names the stretch __dev_queue_xmit, which the
# hand kernel masks: all of a is removable, 400 / 20 = 20x
expect_grep "deferral's bound counts c1 only" '^\| defer \| HRTIMER \| 66\.8% \| 0\.0% \| 3\.01x \|$' "$md"
expect_grep "the hand kernel's bound counts its sections' stretches" '^\| hand \| BLOCK \| 0\.0% \| 95\.0% \| 20\.00x \|$' "$md" 
expect_grep "TCG's distortion: handler runs" '^\| NET_RX handler run p50 / p99 / max, µs \| 490\.0 / 490\.0 / 490\.0 ' "$md"
expect_grep "the sections of the tracing kernel" '^\| __dev_queue_xmit/rcu_read_lock_bh \| 1 \| 450 \| 450 \| 450 \|$' "$md"
expect_no_grep "a complete run has nothing incomplete" '^## Incomplete' "$md"
expect_status "summarize-e2e: a trace with a task-context raise fails" 1 "$logs/83" \
	scripts/bench/summarize-e2e.py "$e2e/bad" --run base="$e2e/base.txt" --trace base-t1="$e2e/tr.json" --no-plots
expect_grep "and says which" 'base: BLOCK raised outside hard irq' "$logs/83"
grep -v 'BENCH-E2E-END\|block-us' "$e2e/net.txt" >"$e2e/cut.txt"
expect_status "summarize-e2e: an unfinished run fails" 1 "$logs/84" \
	scripts/bench/summarize-e2e.py "$e2e/cut" --run base="$e2e/base.txt" --run net="$e2e/cut.txt" --no-plots
expect_grep "the unfinished run is named" 'net .*did not finish the plan' "$logs/84"
expect_grep "the run without reads is named" 'net .*no read latencies' "$logs/84"
expect_status "summarize-e2e: LABEL=CONSOLE required" 2 "$logs/85" \
	scripts/bench/summarize-e2e.py "$e2e/bad" --run "$e2e/net.txt"
expect_status "summarize-e2e: a trace name that is no LABEL-tN exits 2" 2 "$logs/85t" \
	scripts/bench/summarize-e2e.py "$e2e/bad" --trace x="$e2e/t.json"
expect_status "run-bench-e2e: a malformed E2E_ROUNDS exits 2" 2 "$logs/86" \
	env E2E_ROUNDS=x scripts/bench/run-bench-e2e.sh
expect_status "run-bench-e2e: nothing to boot exits 2" 2 "$logs/86z" \
	env E2E_ROUNDS=0 E2E_TRACE_ROUNDS=0 scripts/bench/run-bench-e2e.sh
expect_status "run-bench-e2e: a control label not in the run exits 2" 2 "$logs/86c" \
	env E2E_CONTROL=nope "${fw[@]}" scripts/bench/run-bench-e2e.sh "base=$fx/trace.txt"
expect_status "run-bench-e2e: a kernel that does not exist exits 2" 2 "$logs/87" \
	env E2E_ROUNDS=1 "${fw[@]}" scripts/bench/run-bench-e2e.sh net=no-such-kernel
expect_status "build-e2e-kernels: an unknown variant exits 2" 2 "$logs/88" \
	scripts/bench/build-e2e-kernels.sh e2e-nothing

tally
