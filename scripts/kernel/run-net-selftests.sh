#!/usr/bin/env bash
# run-net-selftests.sh: boot two kernels under the same plan of networking
# self-tests (tools/testing/selftests/net, scripts/guest/net-selftest) and
# compare their verdicts test by test.
#
# Usage: run-net-selftests.sh PLAN BASE_VARIANT CONV_VARIANT
#   PLAN          net-selftests (the whole set) or net-selftests-quick
#   *_VARIANT     kernels built by build-kernel.sh, in the same configuration
# Writes: $OUT/boot/VARIANT-PLAN/ (each boot), $OUT/net-selftests/PLAN.md
#         (the side-by-side table; RESULTS_FILE=path writes a copy there)
# Exit:   0 same verdicts and clean boots, 1 a difference or a boot problem
#         (lockdep, warning, crash, a test missing), 2 usage or missing input.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

[ $# -eq 3 ] || die selftests "usage: $0 PLAN BASE_VARIANT CONV_VARIANT" 2
plan=$1
base=$2
conv=$3
planf="$TOP/scripts/guest/plans/$plan.plan"
[ -f "$planf" ] || die selftests "no plan $planf" 2
[ "$base" != "$conv" ] || die selftests "the two variants must differ (both '$base')" 2
for v in "$base" "$conv"; do
	[ -f "$OUT/build/$v/bzImage" ] ||
		die selftests "no kernel $OUT/build/$v/bzImage; build it first (scripts/kernel/build-kernel.sh $v REV)" 2
done

# Boot both; a failing self-test makes the plan (and boot-kernel.sh) fail,
# which the comparison below judges, so only usage errors (2) stop here.
for v in "$base" "$conv"; do
	log selftests "$v: booting under plan $plan"
	st=0
	"$TOP/scripts/kernel/boot-kernel.sh" "$v" "$plan" || st=$?
	[ "$st" -ne 2 ] || die selftests "booting $v failed to start (see above)" 2
	grep -E '^  (reason|selftest)' "$OUT/boot/$v-$plan/summary.txt" | first_lines 40 || true
done

table="$OUT/net-selftests/$plan.md"
st=0
"$TOP/scripts/kernel/compare-selftests.py" --plan "$planf" \
	--base "$OUT/boot/$base-$plan" --conv "$OUT/boot/$conv-$plan" \
	--base-label "$base" --conv-label "$conv" --out "$table" || st=$?
[ "$st" -ne 2 ] || die selftests "comparing the two boots failed (see above)" 2
if [ -n "${RESULTS_FILE:-}" ]; then
	cp "$table" "$RESULTS_FILE"
fi
tally=$(grep -E '^[0-9]+ self-tests;' "$table" || echo "no tally")
if [ "$st" -eq 0 ]; then
	result selftests PASS "$plan: $tally ($table)"
else
	result selftests FAIL "$plan: $tally; see the problems in $table"
	exit 1
fi
