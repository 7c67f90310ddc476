#!/usr/bin/env bash
# bisect-boot.sh: find the first commit between GOOD and BAD whose kernel
# fails the boot test, with "git bisect run" and scripts/bisect/bisect-step.sh.
#
# Usage: bisect-boot.sh GOOD BAD [TEST]   (TEST: boot, kunit or traffic;
#        default boot)
# Both endpoints are tested first (GOOD must pass, BAD must fail).  A build
# failure is a skip unless BISECT_BUILD_FAIL=bad.  The tree always goes
# back to the commit it started from, also when interrupted.
# Writes: $OUT/bisect/{bisect.log,run.log,result.txt}
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
	die bisect "usage: $0 GOOD BAD [boot|kunit|traffic]" 2
fi
good=$1
bad=$2
test=${3:-boot}
# Cleared before anything can fail: no check reads a previous bisect.log.
res="$OUT/bisect"
rm -rf "$res"
case $test in boot | kunit | traffic) ;; *) die bisect "TEST must be boot, kunit or traffic, not '$test'" 2 ;; esac
need_tree bisect
need_revs bisect "$good" "$bad"
git -C "$TREE" merge-base --is-ancestor "$good" "$bad" ||
	die bisect "GOOD ($good) is not an ancestor of BAD ($bad)" 2
[ ! -f "$TREE/.git/BISECT_START" ] ||
	die bisect "a bisection is already in progress in $TREE; end it with 'git -C $TREE bisect reset'" 1
need_clean_tree bisect
[ -f "$OUT/initramfs/initramfs.cpio.gz" ] || "$TOP/scripts/kernel/make-initramfs.sh"

mkdir -p "$res"
start=$(git -C "$TREE" rev-parse HEAD)
cleanup() {
	if [ -f "$TREE/.git/BISECT_START" ]; then
		git -C "$TREE" bisect log >"$res/bisect.log" 2>/dev/null || true
		git -C "$TREE" bisect reset >/dev/null 2>&1 || true
	fi
	git -C "$TREE" checkout -q --detach "$start"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
step="$TOP/scripts/bisect/bisect-step.sh"

# Endpoints first: a bisection between two passing commits names nothing.
git -C "$TREE" checkout -q --detach "$good"
st=0
"$step" "$test" || st=$?
[ "$st" -eq 0 ] || die bisect "GOOD ($good) does not pass the $test test (status $st); see $res/steps/" 1
git -C "$TREE" checkout -q --detach "$bad"
st=0
"$step" "$test" || st=$?
[ "$st" -eq 1 ] || die bisect "BAD ($bad) does not fail the $test test (status $st); nothing to bisect" 1

log bisect "bisecting $(git -C "$TREE" rev-list --count "$good..$bad") commits ($good..$bad, test $test)"
git -C "$TREE" bisect start "$bad" "$good" >/dev/null
st=0
git -C "$TREE" bisect run "$step" "$test" >"$res/run.log" 2>&1 || st=$?
grep -E '^\[[0-9:]{8}\] ' "$res/run.log" || true
first=$(git -C "$TREE" rev-parse -q --verify refs/bisect/bad || true)
if [ "$st" -ne 0 ] || [ -z "$first" ] || ! grep -q 'is the first bad commit' "$res/run.log"; then
	tail -n 15 "$res/run.log" >&2
	die bisect "git bisect run did not name a first bad commit (skipped commits?); see $res/run.log" 1
fi
{
	echo "first bad commit: $(git -C "$TREE" log -1 --format='%h %s' "$first")"
	summary="$OUT/boot/bisect-${first:0:12}/summary.txt"
	if [ -f "$summary" ]; then
		grep -E '^boot verdict|^  reason' "$summary"
		sed -n '/decisive console lines/,/console log/p' "$summary"
	fi
} >"$res/result.txt"
cleanup
trap - EXIT
cat "$res/result.txt"
result bisect PASS "first bad commit $(git -C "$TREE" log -1 --format='%h %s' "$first"); log: $res/bisect.log"
