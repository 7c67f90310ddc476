#!/usr/bin/env bash
# oracle-unsound.sh: show that the lockdep oracle catches an unsound
# analysis.  Solves the campaign world again (the facts of make analyze)
# with one rule switched off: tests/fixtures/oracle/unsound-timer.ovr
# cuts the call through which TIMER_SOFTIRQ runs every timer callback,
# so the analysis no longer sees what timer callbacks take.  The oracle
# must then report TIMER usages lockdep observed that this analysis does
# not predict.
#
# Usage:  oracle-unsound.sh BOOT...   (boot folders under $OUT/boot whose
#         plan ran lockdep-dump, as for run-oracle.sh)
# Reads:  $OUT/vectors/facts (make analyze), $WORK/src-analysis
# Writes: $OUT/vectors-unsound/ (the solve), results/oracle/unsound.md
# Exit:   0 the oracle caught it (TIMER misses), 1 it did not or a step
#         failed, 2 usage or missing input.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"
stage=oracle-unsound
[ $# -ge 1 ] || die "$stage" "usage: $0 BOOT..." 2
facts=$OUT/vectors/facts
src=$WORK/src-analysis
{ [ -d "$facts" ] && [ -d "$src" ]; } || die "$stage" "no $facts or $src; run 'make analyze' first" 2
dest=$OUT/vectors-unsound
rm -rf "$dest"
mkdir -p "$dest"
t0=$SECONDS
log "$stage" "solving the campaign world with the timer dispatcher cut (a few minutes)"
python3 "$TOP/scripts/analysis/vectors.py" --facts "$facts" --out "$dest" --world "unsound: timer dispatcher cut" \
	--srcroot "$src" --overrides "$TOP/tests/fixtures/oracle/unsound-timer.ovr" >"$dest/solve.log" 2>&1 ||
	die "$stage" "the solve failed; see $dest/solve.log" 1
status=0
"$TOP/scripts/analysis/run-oracle.sh" "$dest/vectors.json" "$dest/oracle" "$@" >"$dest/oracle.log" 2>&1 || status=$?
grep '^lockdep-oracle:' "$dest/oracle.log" || true
[ "$status" -ne 2 ] || die "$stage" "the oracle could not run; see $dest/oracle.log" 2
timer=$(grep -c '^- .*: lockdep saw [A-Z_ ]*TIMER' "$dest/oracle/oracle.md" || true)
{
	echo "# The oracle against a deliberately unsound analysis"
	echo
	echo "The campaign world solved again with the timer dispatcher's rule switched off"
	echo "(\`tests/fixtures/oracle/unsound-timer.ovr\` cuts"
	echo "\`expire_timers() -> call_timer_fn()\`), checked against the same boots"
	echo "($*) as the sound analysis in [oracle.md](oracle.md). Written by"
	echo "\`scripts/analysis/oracle-unsound.sh\` ($(date +%F))."
	echo
	grep '^lockdep-oracle:' "$dest/oracle.log" | sed 's/^lockdep-oracle: /Oracle: /' || true
	echo
	sed -n '/^## Usage missed/,/^## Taken in a vector/p' "$dest/oracle/oracle.md" | sed '$d'
} >"$TOP/results/oracle/unsound.md"
if [ "$status" -eq 1 ] && [ "$timer" -gt 0 ]; then
	result "$stage" PASS "caught: $timer TIMER usages missed by the cut analysis ($((SECONDS - t0))s); results/oracle/unsound.md"
else
	result "$stage" FAIL "the oracle did not catch the cut analysis (status $status, $timer TIMER misses); see $dest/oracle/oracle.md"
	exit 1
fi
