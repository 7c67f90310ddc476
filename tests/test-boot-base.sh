#!/usr/bin/env bash
# test-boot-base.sh: integration test of the harness on the base kernel:
# build it (in the campaign configuration: variant "campaign", the kernel
# the masks are proven for, which the boot-net suite compares the
# converted kernel with), boot it under lockdep with the traffic plan and
# the quick networking self-tests, and check that a panicking guest and a
# failing plan step are reported as failures, fast.  Also checks that the
# sparse comparison flags a warning a commit adds.
#
# Env: BASE_SELFTESTS (lockdep self-tests the base kernel must pass, 358).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=tests/lib-test.sh
. tests/lib-test.sh
# shellcheck source=scripts/lib.sh
. scripts/lib.sh

logs="$OUT/check/boot-base"
rm -rf "$logs"
mkdir -p "$logs"
touch "$logs/.start"

expect_status "initramfs builds" 0 "$logs/initramfs.log" scripts/kernel/make-initramfs.sh
expect_status "base kernel builds (campaign configuration)" 0 "$logs/build.log" \
	scripts/kernel/build-kernel.sh campaign base
grep RESULT "$logs/build.log" || true
# The same commit, configuration and compiler again: with BUILD_REUSE=1
# nothing is compiled and the bzImage stays the one just built.
cp "$OUT/build/campaign/bzImage" "$logs/bzImage.first"
expect_status "an unchanged variant is reused with BUILD_REUSE=1" 0 "$logs/reuse.log" \
	env BUILD_REUSE=1 scripts/kernel/build-kernel.sh campaign base
expect_grep "the reuse says nothing was compiled" "up to date .*nothing compiled" "$logs/reuse.log"
if cmp -s "$logs/bzImage.first" "$OUT/build/campaign/bzImage"; then
	ok "the reused bzImage is the one built"
else
	not_ok "the reused bzImage is the one built" "$OUT/build/campaign/bzImage changed"
fi

selftests=${BASE_SELFTESTS:-358}
expect_status "base boots with the default plan ($selftests lockdep self-tests)" 0 "$logs/boot.log" \
	env BOOT_EXPECT_SELFTESTS="$selftests" scripts/kernel/boot-kernel.sh campaign default
sum="$OUT/boot/campaign-default/summary.txt"
expect_fresh "boot summary written by this run" "$sum" "$logs/.start"
sed 's/^/    /' "$sum" 2>/dev/null | first_lines 30 || true
expect_grep "lockdep self-tests: exactly $selftests passed" "lockdep self-tests: Good, all $selftests testcases passed" "$sum"
expect_traffic "$sum" loopback tcp
expect_traffic "$sum" veth tcp
expect_traffic "$sum" veth udp
expect_traffic "$sum" loopback6 tcp
expect_traffic "$sum" veth6 tcp
expect_traffic "$sum" veth6 udp
expect_grep "packet socket saw frames on veth and veth6" \
	"traffic veth6/packet: frames=[1-9][0-9]* " "$sum"
expect_grep "block I/O completed in softirq" "block-io PASS" "$sum"
quick=$(grep -c '^[a-z0-9-]* net-selftest ' scripts/guest/plans/net-selftests-quick.plan)
got=$(grep -cE '^  selftest [a-z0-9-]+: PASS ' "$sum" || true)
if [ "$quick" -gt 0 ] && [ "$got" -eq "$quick" ]; then
	ok "all $quick quick networking self-tests pass"
else
	not_ok "all $quick quick networking self-tests pass" "$got passed (see $sum)"
fi

# boot_fast NAME PLAN APPEND VERDICT REASON: a boot that must fail within
# 60 s with VERDICT and a reason matching REASON.
boot_fast() {
	local name=$1 plan=$2 append=$3 verdict=$4 reason=$5 t0=$SECONDS
	expect_status "$name fails" 1 "$logs/$name.log" \
		env APPEND="$append" BOOT_NAME="base-$name" BOOT_TIMEOUT=300 \
		scripts/kernel/boot-kernel.sh campaign "$plan"
	expect_grep "$name: verdict $verdict" "^boot verdict: $verdict" "$logs/$name.log"
	expect_grep "$name: reason given" "$reason" "$logs/$name.log"
	if [ $((SECONDS - t0)) -le 60 ]; then ok "$name reported within 60 s ($((SECONDS - t0)) s)"; else
		not_ok "$name reported within 60 s" "took $((SECONDS - t0)) s"
	fi
}
boot_fast panic smoke "rdinit=/nonexistent" CRASH "reason: crash: Kernel panic - not syncing"
boot_fast fail-step fail-step "" FAIL "reason: plan step 'deliberate-failure' failed"

# sparse: no new warnings between identical revisions; a commit that adds
# an address-space bug must be flagged (the commit is temporary).
expect_status "sparse: base vs base has no new warnings" 0 "$logs/sparse-same.log" \
	scripts/kernel/sparse-check.sh base base kernel/softirq.c
start=$(git -C "$TREE" rev-parse HEAD)
git -C "$TREE" checkout -q --detach base
printf '\nint sparse_probe(int __user *p);\nint sparse_probe(int __user *p)\n{\n\treturn *p;\n}\n' >>"$TREE/kernel/softirq.c"
git -C "$TREE" -c user.name=t -c user.email=t@t commit -q -am "sparse probe (temporary)"
probe=$(git -C "$TREE" rev-parse HEAD)
expect_status "sparse: an added warning fails the check" 1 "$logs/sparse-new.log" \
	scripts/kernel/sparse-check.sh base "$probe" kernel/softirq.c
expect_grep "sparse: the new warning is listed" "NEW kernel/softirq.c: warning: dereference of noderef expression" "$logs/sparse-new.log"
git -C "$TREE" checkout -q --detach "$start"
tally
