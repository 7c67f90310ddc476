#!/usr/bin/env bash
# test-worlds.sh: run the vector analysis on every world in
# tests/analysis-worlds/ and check its masks and evidence against the
# world's expected.txt.
#
# Usage:  tests/test-worlds.sh [WORLD...]   (names under tests/analysis-worlds)
# Reads:  tests/analysis-worlds/WORLD/{*.c,expected.txt}; the format is in
#         tests/analysis-worlds/README.md.
# Writes: "PASS/FAIL world:check" lines, then "N passed, N failed";
#         the analysis outputs in $OUT/check/worlds/WORLD/.
# Exit:   0 all passed, 1 a check failed, 2 missing tool or input.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"
# shellcheck source=tests/lib-test.sh
. "$TOP/tests/lib-test.sh"
stage=worlds

need_tool "$stage" clang opt python3
base=$TOP/tests/analysis-worlds
if [ $# -gt 0 ]; then
	worlds=("$@")
else
	worlds=()
	for d in "$base"/*/; do
		d=$(basename "$d")
		[ "$d" = stub ] || worlds+=("$d")
	done
fi
[ ${#worlds[@]} -gt 0 ] || die "$stage" "no worlds in $base" 2

for wd in "${worlds[@]}"; do
	dir=$base/$wd
	[ -f "$dir/expected.txt" ] || die "$stage" "no $dir/expected.txt" 2
	out=$OUT/check/worlds/$wd
	mkdir -p "$OUT/check/worlds"
	if ! "$TOP/scripts/analysis/analyze-world.sh" "$dir" "$out" >"$out.log" 2>&1; then
		sed 's/^/    /' "$out.log" | tail -n 20
		not_ok "$wd" "the analysis failed (log: $out.log)"
		continue
	fi
	while IFS= read -r line; do
		printf '%s\n' "$line"
		case $line in PASS*) passed=$((passed + 1)) ;; FAIL*) failed=$((failed + 1)) ;; esac
	done < <(python3 "$TOP/tests/check-world.py" "$wd" "$dir/expected.txt" "$out")
done
tally_result "$stage" || exit 1
