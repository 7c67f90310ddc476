#!/usr/bin/env bash
# test-cocci.sh: run every semantic-patches/tests/NAME.c through the
# conversion and compare the result with NAME.res byte for byte
# (spatch --test exits 0 even on a wrong result, so we compare ourselves).
# Then, per case: NAME.c and NAME.res compile (gcc -fsyntax-only -Wall
# -Wextra -Werror against semantic-patches/tests/kernel-stub.h, which declares the mask API
# with its real signatures), and the reasons hold (below).
#
# Usage:  tests/test-cocci.sh [NAME...]
# Reads:  semantic-patches/tests/{NAME.c,NAME.res,masks.txt,pcpu.txt,
#         kernel-stub.h}, NAME.masks (the case's own mask table, instead of
#         masks.txt: a site table from the v2 analysis) and NAME.reason: '#' lines are comments, except
#         "# negative: WHY", which marks a case where nothing may change;
#         every other line must appear in report mode's output or in a
#         site record's reason for NAME.c.  A case whose .res equals its .c
#         must be marked negative (so it cannot pass because the converter
#         did nothing), a negative case's .res must equal its .c, and a
#         negative case without reason lines must give no site at all.
# Writes: "PASS name[:check]" / "FAIL name[:check]: why" lines (a diff on
#         failure), then "N passed, N failed".
# Exit:   0 all passed, 1 a case failed, 2 missing tool or input.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"
# shellcheck source=tests/lib-test.sh
. "$TOP/tests/lib-test.sh"
stage=cocci-test

need_tool "$stage" spatch python3 gcc
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

# check_reasons NAME: every reason line of NAME.reason is in report mode's
# output or a site record's reason for NAME.c; a negative case without
# reason lines must give no report line and no site record.
check_reasons() {
	local want missing=0 nlines=0
	rm -f "$tmp/$1.rec".*
	(cd "$dir" && spatch --sp-file "$TOP/semantic-patches/bh_lock_mask.cocci" \
		-D report -D "masks=$(masks_of "$1")" -D pcpu=pcpu.txt -D "records=$tmp/$1.rec" \
		--no-includes --very-quiet "$1.c") >"$tmp/$1.report" 2>&1 || true
	cat "$tmp/$1.rec".* 2>/dev/null | python3 -c '
import json, sys
for line in sys.stdin:
    print("record:", json.loads(line).get("reason", ""))' >>"$tmp/$1.report"
	while IFS= read -r want; do
		case $want in '' | '#'*) continue ;; esac
		nlines=$((nlines + 1))
		if ! grep -qF -- "$want" "$tmp/$1.report"; then
			echo "  report and records lack: $want"
			missing=1
		fi
	done <"$dir/$1.reason"
	if [ "$nlines" -eq 0 ] && [ -s "$tmp/$1.report" ]; then
		echo "  no reason lines, so no site was expected, but the converter reports:"
		missing=1
	fi
	[ "$missing" -eq 0 ] || sed 's/^/    | /' "$tmp/$1.report"
	return "$missing"
}

# masks_of NAME: the mask table of case NAME (relative to the tests folder).
masks_of() {
	if [ -f "$dir/$1.masks" ]; then echo "$1.masks"; else echo masks.txt; fi
}

# compiles FILE: gcc -fsyntax-only against the stub header.
compiles() {
	gcc -x c -std=gnu11 -fsyntax-only -Wall -Wextra -Werror \
		-include "$dir/kernel-stub.h" "$1" >"$tmp/cc.log" 2>&1
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
		"$TOP/scripts/convert/convert-file.sh" "$name.c" "$(masks_of "$name")") \
		>"$tmp/$name.out" 2>"$tmp/$name.err" &&
		cmp -s "$tmp/$name.out" "$dir/$name.res"; then
		ok "$name"
	else
		not_ok "$name" "output differs from $name.res (diff below)"
		cat "$tmp/$name.err"
		diff -u "$dir/$name.res" "$tmp/$name.out" || true
	fi

	for f in "$name.c" "$name.res"; do
		if compiles "$dir/$f"; then ok "$name:$f compiles"; else
			not_ok "$name:$f compiles" "gcc -fsyntax-only against kernel-stub.h:"
			sed 's/^/    /' "$tmp/cc.log" | first_lines 10
		fi
	done

	negative=0
	[ -f "$dir/$name.reason" ] && grep -q '^# negative: ..' "$dir/$name.reason" && negative=1
	if cmp -s "$dir/$name.c" "$dir/$name.res"; then
		if [ "$negative" -eq 1 ]; then ok "$name:negative case says why"; else
			not_ok "$name:negative case says why" "$name.res equals $name.c but $name.reason has no '# negative: WHY' line"
		fi
	elif [ "$negative" -eq 1 ]; then
		not_ok "$name:negative case converts nothing" "$name.reason says negative but $name.res differs from $name.c"
	fi
	if [ -f "$dir/$name.reason" ]; then
		if check_reasons "$name"; then ok "$name:reasons reported"; else
			not_ok "$name:reasons reported" "see the lines above"
		fi
	fi
done
tally_result "$stage" || exit 1
