#!/usr/bin/env bash
# test-cocci.sh: run every semantic-patches/tests/NAME.c through the
# conversion and compare the result with NAME.res byte for byte
# (spatch --test exits 0 even on a wrong result, so we compare ourselves).
#
# Usage:  tests/test-cocci.sh [NAME...]
# Reads:  semantic-patches/tests/{NAME.c,NAME.res,masks.txt,pcpu.txt} and
#         NAME.reason when present (lines report mode must print for NAME.c)
# Writes: one "PASS name" / "FAIL name: why" line per case (a diff on failure),
#         then "N passed, N failed".
# Exit:   0 all passed, 1 a case failed, 2 missing tool or input.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"
# shellcheck source=tests/lib-test.sh
. "$TOP/tests/lib-test.sh"
stage=cocci-test

need_tool "$stage" spatch python3
dir=$TOP/semantic-patches/tests
[ -f "$dir/masks.txt" ] || die "$stage" "missing $dir/masks.txt" 2

if [ $# -gt 0 ]; then
	cases=("$@")
else
	cases=()
	for c in "$dir"/*.c; do
		cases+=("$(basename "$c" .c)")
	done
fi
[ ${#cases[@]} -gt 0 ] || die "$stage" "no test cases in $dir" 2

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# check_reasons NAME: report mode must print every line of NAME.reason
# (the reasons a site is left alone) for NAME.c.
check_reasons() {
	local want missing=0
	(cd "$dir" && spatch --sp-file "$TOP/semantic-patches/bh_lock_mask.cocci" \
		-D report -D masks=masks.txt -D pcpu=pcpu.txt --no-includes \
		--very-quiet "$1.c") >"$tmp/$1.report" 2>&1 || true
	while IFS= read -r want; do
		if ! grep -qF -- "$want" "$tmp/$1.report"; then
			echo "  report lacks: $want"
			missing=1
		fi
	done <"$dir/$1.reason"
	[ "$missing" -eq 0 ] || cat "$tmp/$1.report"
	return "$missing"
}

log "$stage" "${#cases[@]} cases"
for name in "${cases[@]}"; do
	if [ ! -f "$dir/$name.res" ]; then
		not_ok "$name" "no $name.res"
		continue
	fi
	# Run from the tests folder so that file-qualified classes
	# ("static_global.c:slock") match the bare file names.
	if (cd "$dir" && PCPU_FUNCS=pcpu.txt \
		"$TOP/scripts/convert/convert-file.sh" "$name.c" masks.txt) \
		>"$tmp/$name.out" 2>"$tmp/$name.err" &&
		cmp -s "$tmp/$name.out" "$dir/$name.res"; then
		if [ -f "$dir/$name.reason" ] && ! check_reasons "$name"; then
			not_ok "$name" "report mode lacks the lines above"
			continue
		fi
		ok "$name"
	else
		not_ok "$name" "output differs from $name.res (diff below)"
		cat "$tmp/$name.err"
		diff -u "$dir/$name.res" "$tmp/$name.out" || true
	fi
done
tally_result "$stage" || exit 1
