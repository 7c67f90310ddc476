#!/usr/bin/env bash
# run-oracle.sh: check the vector analysis against what lockdep observed in
# boots under load (scripts/analysis/lockdep-oracle.py: every usage and
# dependency lockdep saw must be predicted).
#
# Usage:  run-oracle.sh VECTORS OUTDIR BOOT...
#   VECTORS  the analysis's vectors.json ($OUT/vectors/vectors.json after
#            make analyze; results/oracle/static-classes.json, the
#            committed class table of the analysis of record, in make check)
#   OUTDIR   where oracle.md, oracle.json and unmapped.txt go
#   BOOT     boot folder names under $OUT/boot whose plan ran lockdep-dump
#            (campaign-net-campaign, campaign-net-campaign-check)
# Env:    TABLE=FILE also writes the part of VECTORS the oracle reads
#         (make's stage writes results/oracle/analysis-classes.json.gz, which
#         make check's boot-net suite checks its boot against).
#         ANNOTATE=DIR writes the observed masks and the counts into the
#         analysis's own output (DIR/vectors.json, DIR/summary.txt).
# Exit:   0 nothing missed, 1 a miss, a nearly full lockdep table, or a
#         boot without a whole copy; 2 usage or missing input.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"
stage=oracle
[ $# -ge 3 ] || die "$stage" "usage: $0 VECTORS OUTDIR BOOT..." 2
vectors=$1
outdir=$2
shift 2
[ -f "$vectors" ] || die "$stage" "no $vectors; run 'make analyze' first" 2
args=()
for b in "$@"; do
	dir="$OUT/boot/$b"
	[ -f "$dir/verdict.json" ] || die "$stage" "no boot $dir; boot a kernel with the core series under plan campaign first" 2
	verdict=$(sed -n 's/^boot verdict: //p' "$dir/summary.txt" | first_lines 1)
	[ "$verdict" = PASS ] || die "$stage" "boot $b did not pass ($verdict): its observations are not evidence" 1
	mapfile -t copies < <(find "$dir/lockdep" -name '*.lockdep' 2>/dev/null | LC_ALL=C sort)
	[ "${#copies[@]}" -gt 0 ] ||
		die "$stage" "boot $b has no copy of /proc/lockdep (its plan has no lockdep-dump step, or the initramfs is older than the plan; run 'make initramfs' and boot again)" 1
	for c in "${copies[@]}"; do
		args+=(--lockdep "$c")
		[ -f "${c%.lockdep}.stats" ] && args+=(--stats "${c%.lockdep}.stats")
	done
done
log "$stage" "${#args[@]} arguments from $# boot(s) against $vectors"
status=0
[ -z "${TABLE:-}" ] || args+=(--write-table "$TABLE")
[ -z "${ANNOTATE:-}" ] || args+=(--annotate "$ANNOTATE")
# the functions whose sections held vectors back longest in the
# end-to-end tracing boot: "| stretch FUNCTION[/primitive] | ..." rows
while read -r fn; do
	args+=(--hot "$fn")
done < <(sed -n 's/^| stretch \([A-Za-z0-9_]*\)[/ ].*/\1/p' "$TOP/results/e2e.md" 2>/dev/null | LC_ALL=C sort -u)
"$TOP/scripts/analysis/lockdep-oracle.py" --vectors "$vectors" --out "$outdir" "${args[@]}" || status=$?
case $status in
0) result "$stage" PASS "nothing missed; $outdir/oracle.md" ;;
1) result "$stage" FAIL "lockdep observed what the analysis does not predict; $outdir/oracle.md" ;;
*) die "$stage" "lockdep-oracle.py failed (status $status)" 2 ;;
esac
exit "$status"
