#!/usr/bin/env bash
# sparse-check.sh: run sparse on the .c files that differ between two
# revisions of the work tree, and on any other files named, and report only
# the warnings the second revision adds.
#
# Usage: sparse-check.sh OLD_REV NEW_REV [FILE...]   (FILE relative to the
#        tree, e.g. net/core/sock.c: a file the change affects through a
#        header, which the diff does not list)
# Reads:  $TREE, $OBJ (configured by a previous build-kernel.sh)
# Writes: $OUT/sparse/{old,new}.log, $OUT/sparse/new-warnings.txt
# Exit:   0 no new warning, 1 new warnings or a file failed to compile,
#         2 usage, missing tree or unknown file.
# Warnings are compared per file with line and column numbers stripped, as
# counts, so code that only moved does not look new.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

[ $# -ge 2 ] || die sparse "usage: $0 OLD_REV NEW_REV [FILE...]" 2
old=$1
new=$2
shift 2
need_tool sparse sparse make git python3
for f in "$@"; do
	case $f in *.c) ;; *) die sparse "'$f' is not a .c file" 2 ;; esac
done
need_tree sparse
need_revs sparse "$old" "$new"
# The named files, then those the diff changes, each once, in that order.
mapfile -t files < <({
	printf '%s\n' "$@"
	git -C "$TREE" diff --name-only "$old" "$new" -- '*.c'
} | awk 'NF && !seen[$0]++')
[ ${#files[@]} -gt 0 ] || die sparse "no .c file differs between $old and $new, and none was named" 2
[ -f "$OBJ/.config" ] || die sparse "no configured build in $OBJ; run 'make build' first" 2
need_clean_tree sparse

res="$OUT/sparse"
mkdir -p "$res"
start=$(git -C "$TREE" rev-parse HEAD)
trap 'git -C "$TREE" checkout -q --detach "$start"' EXIT

# run_sparse REV LOG: sparse every file at REV; a file that is new at REV
# and missing at the other revision simply has no warnings there.
run_sparse() {
	local rev=$1 out=$2 f
	shift 2
	git -C "$TREE" checkout -q --detach "$rev" ||
		die sparse "cannot check out '$rev' in $TREE" 2
	: >"$out"
	for f in "$@"; do
		if [ ! -f "$TREE/$f" ]; then
			log sparse "$rev: $f does not exist there (counted as no warnings)"
			continue
		fi
		log sparse "$rev: $f"
		if ! make -C "$TREE" O="$OBJ" ARCH=x86_64 CC="ccache gcc" C=2 \
			"${f%.c}.o" >>"$out" 2>&1; then
			tail -n 20 "$out" >&2
			die sparse "$f did not compile at $rev (is it enabled in the config?); see $out" 1
		fi
	done
}

t0=$SECONDS
run_sparse "$(git -C "$TREE" rev-parse "$old")" "$res/old.log" "${files[@]}"
run_sparse "$(git -C "$TREE" rev-parse "$new")" "$res/new.log" "${files[@]}"
if "$TOP/scripts/kernel/compare-sparse.py" "$res/old.log" "$res/new.log" >"$res/new-warnings.txt"; then
	result sparse PASS "no new warnings in ${#files[@]} file(s) ($old -> $new, $((SECONDS - t0))s)"
else
	cat "$res/new-warnings.txt"
	result sparse FAIL "new sparse warnings in $old -> $new; see $res/new-warnings.txt"
	exit 1
fi
