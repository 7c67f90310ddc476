#!/usr/bin/env bash
# test-analysis.sh: run the vector analysis on the fixtures in
# tests/analysis-fixtures/ and check the mask tables it writes.
#
# Usage:  tests/test-analysis.sh [FIXTURE...]
# Reads:  tests/analysis-fixtures/FIXTURE/*.c and expected-masks.txt
#         (one expected "<class> <mask>" line per case), optional
#         expected-evidence.txt (one "<class> <VEC> <function>" line per
#         case: the evidence chain for VEC must pass through function).
# Writes: "PASS/FAIL fixture:class" lines, then "N passed, N failed".
# Exit:   0 all passed, 1 a case failed, 2 missing tool or input.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"
# shellcheck source=tests/lib-test.sh
. "$TOP/tests/lib-test.sh"
stage=analysis-test

need_tool "$stage" spatch python3
base=$TOP/tests/analysis-fixtures
if [ $# -gt 0 ]; then
	fixtures=("$@")
else
	fixtures=()
	for d in "$base"/*/; do
		fixtures+=("$(basename "$d")")
	done
fi
[ ${#fixtures[@]} -gt 0 ] || die "$stage" "no fixtures in $base" 2

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for fx in "${fixtures[@]}"; do
	dir=$base/$fx
	[ -f "$dir/expected-masks.txt" ] || die "$stage" "no $dir/expected-masks.txt" 2
	out=$tmp/$fx
	if ! TREE=$dir OUT=$out "$TOP/scripts/analysis/analyze-vectors.sh" . \
		>"$tmp/$fx.log" 2>&1; then
		cat "$tmp/$fx.log"
		not_ok "$fx" "analysis failed"
		continue
	fi
	table=$out/analyze/masks.txt
	while read -r cls mask; do
		case $cls in '' | '#'*) continue ;; esac
		[ "$cls" = struct ] && { cls="struct ${mask%% *}"; mask=${mask#* }; }
		got=$(awk -v c="$cls" '!/^#/ { m = $NF; $NF = ""; sub(/ $/, "");
			if ($0 == c) print m }' "$table")
		if [ "$got" = "$mask" ]; then
			ok "$fx:$cls"
		else
			not_ok "$fx:$cls" "expected '$mask', got '${got:-no line}'"
		fi
	done <"$dir/expected-masks.txt"
	extra=$(grep -v '^#' "$table" | grep -vxF -f "$dir/expected-masks.txt" || true)
	if [ -z "$extra" ]; then
		ok "$fx:no-unexpected-lines"
	else
		not_ok "$fx:no-unexpected-lines" "$(echo "$extra" | tr '\n' ';')"
	fi
	if [ -f "$dir/expected-evidence.txt" ]; then
		while read -r s typ vec func; do
			case $s in '' | '#'*) continue ;; esac
			cls="$s $typ"
			if python3 - "$out/analyze/vectors.json" "$cls" "$vec" "$func" <<'PY'
import json, sys
data = json.load(open(sys.argv[1]))
chain = data.get(sys.argv[2], {}).get("evidence", {}).get(sys.argv[3], [])
sys.exit(0 if any(sys.argv[4] in step for step in chain) else 1)
PY
			then
				ok "$fx:$cls:$vec-via-$func"
			else
				not_ok "$fx:$cls:$vec-via-$func" "no such evidence chain"
			fi
		done <"$dir/expected-evidence.txt"
	fi
	if grep -q '^# CLOSED-WORLD' "$table"; then
		not_ok "$fx:open-world-table-unmarked" "the default analysis marked its table closed-world"
	else
		ok "$fx:open-world-table-unmarked"
	fi
	# CLOSED_WORLD=1 must mark its table, which convert-subsys.sh refuses.
	if CLOSED_WORLD=1 TREE=$dir OUT=$out.closed "$TOP/scripts/analysis/analyze-vectors.sh" . \
		>"$tmp/$fx.closed.log" 2>&1 &&
		grep -q '^# CLOSED-WORLD (UNSAFE)' "$out.closed/analyze/masks.txt"; then
		ok "$fx:closed-world-table-marked"
	else
		not_ok "$fx:closed-world-table-marked" "no '# CLOSED-WORLD (UNSAFE)' line (log: $tmp/$fx.closed.log)"
	fi
done
tally_result "$stage" || exit 1
