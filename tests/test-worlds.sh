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

# The analyses first, JOBS at a time (each is clang plus a solve, one
# core); then the checks, in order.
JOBS=${JOBS:-$(nproc)}
case $JOBS in '' | *[!0-9]* | 0) die "$stage" "JOBS must be a positive number, not '$JOBS'" 2 ;; esac
mkdir -p "$OUT/check/worlds"
run_world() {
	local st=0
	"$TOP/scripts/analysis/analyze-world.sh" "$base/$1" "$OUT/check/worlds/$1" \
		>"$OUT/check/worlds/$1.log" 2>&1 || st=$?
	echo "$st" >"$OUT/check/worlds/$1.status"
}
for wd in "${worlds[@]}"; do
	[ -f "$base/$wd/expected.txt" ] || die "$stage" "no $base/$wd/expected.txt" 2
	rm -f "$OUT/check/worlds/$wd.status"
done
for wd in "${worlds[@]}"; do
	while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || true; done
	run_world "$wd" &
done
wait

for wd in "${worlds[@]}"; do
	dir=$base/$wd
	out=$OUT/check/worlds/$wd
	if [ "$(cat "$out.status" 2>/dev/null)" != 0 ]; then
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
