#!/usr/bin/env bash
# convert-file.sh: print one C file converted to the per-vector BH mask API.
#
# Usage:  scripts/convert/convert-file.sh FILE MASKS
# Reads:  FILE, the mask table MASKS, semantic-patches/bh_lock_mask.cocci;
#         PCPU_FUNCS (optional file: functions known to touch per-CPU data),
#         JSON_PREFIX (optional: site records go to $JSON_PREFIX.<pid>.jsonl).
# Writes: the converted file on stdout (unchanged when nothing applies),
#         progress and errors on stderr.
# Exit:   0 done, 1 spatch failed, 2 usage error, missing tool or input.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"
stage=convert-file

[ $# -eq 2 ] || die "$stage" "usage: $0 FILE MASKS" 2
file=$1
masks=$2
[ -f "$file" ] || die "$stage" "no such file: $file" 2
[ -f "$masks" ] || die "$stage" "no such mask table: $masks" 2
need_tool "$stage" spatch python3
python3 "$TOP/scripts/convert/convert-masks.py" "$masks" || exit 2

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

args=(--sp-file "$TOP/semantic-patches/bh_lock_mask.cocci" -D patch
	-D "masks=$masks" --no-includes --very-quiet --no-show-diff
	-o "$tmp/out.c")
if [ -n "${PCPU_FUNCS:-}" ]; then
	[ -f "$PCPU_FUNCS" ] || die "$stage" "no such file: $PCPU_FUNCS" 2
	args+=(-D "pcpu=$PCPU_FUNCS")
fi
[ -z "${JSON_PREFIX:-}" ] || args+=(-D "records=$JSON_PREFIX")

if ! spatch "${args[@]}" "$file" >"$tmp/log" 2>&1; then
	cat "$tmp/log" >&2
	die "$stage" "spatch failed on $file" 1
fi
if grep -q '^EXN\|^Fatal error' "$tmp/log"; then
	cat "$tmp/log" >&2
	die "$stage" "spatch raised an error on $file" 1
fi
if [ ! -s "$tmp/out.c" ]; then
	cat "$file"
	exit 0
fi
python3 "$TOP/scripts/convert/wrap-masks.py" "$tmp/out.c" ||
	die "$stage" "cannot wrap the long mask lines of $tmp/out.c" 1
# Safety net: every generated variable must be declared in the function
# that uses it (mask-decls.py declares what spatch could not at the top
# of the body).  When that fails, the file is left unconverted.
if ! missing=$(python3 "$TOP/scripts/convert/mask-decls.py" --fix "$tmp/out.c"); then
	[ -n "$missing" ] || die "$stage" "cannot check the declarations of $tmp/out.c" 1
	log "$stage" "$file: no declaration for $(echo "$missing" | cut -d' ' -f2 | tr '\n' ' ')- left unconverted" >&2
	cat "$file"
	exit 0
fi
cat "$tmp/out.c"
