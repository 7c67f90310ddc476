#!/usr/bin/env bash
# test-conversions.sh: the committed conversions are what the pipeline
# makes, and their audit notes say the same as their patches.
#
# For every conversions/<name>/ (with a masks file): regenerate it from
# the committed table and evidence (scripts/convert/convert-subsys.sh on
# the files at tag base of the work tree, output to a scratch folder) and compare the
# patches, series, masks, evidence and audit note byte for byte with the
# committed ones; then check that audit-notes/<name>.md and the patches
# name the same converted sections with the same masks, nothing missing
# either way, that every patch applies to the base files in series
# order, and that each is checkpatch --strict clean (but for the
# Signed-off-by, which the person who submits the series adds).
#
# Needs: the work tree ($TREE, make tree), spatch. Ends with "N passed,
# N failed".
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"
# shellcheck source=tests/lib-test.sh
. "$TOP/tests/lib-test.sh"

need_tree conversions
scratch=$OUT/check/conversions
rm -rf "$scratch"
mkdir -p "$scratch"
# The conversions are made against the files at tag base, which the
# converter reads from git; the checkout is never touched.

# site lines of the patch bodies: "  <file>:<line> <func>(): <MASK>"
patch_sites() {
	sed -n 's/^  \([^ ]*:[0-9][0-9]*\) \([^ ]*\)(): \([A-Z_|]*\)$/\1 \2 \3/p' "$@" | LC_ALL=C sort
}
# sections of the note: "### <file>:<line> `<func>()`" then "- Mask: <MASK> ..."
note_sites() {
	awk '/^### /{ loc=$2; fn=$3; gsub(/[`()]/, "", fn) }
	     /^- Mask: / && loc != "" { print loc, fn, $3; loc="" }' "$1" | LC_ALL=C sort
}

found=0
for dir in "$TOP"/conversions/*/; do
	[ -f "$dir/masks" ] || continue
	found=$((found + 1))
	name=$(basename "$dir")
	subsys=${name//-//}
	note=$TOP/audit-notes/$name.md
	out=$scratch/$name
	mkdir -p "$out"
	log conversions "$name: regenerating from conversions/$name/masks"
	# the table by a path relative to the checkout, as a user types it
	# (convert-subsys.sh changes folder while it runs)
	if (cd "$TOP" && CONV_DIR=$out NOTE_OUT=$out/note.md \
		scripts/convert/convert-subsys.sh "$subsys" "conversions/$name/masks") \
		>"$scratch/$name.log" 2>&1; then
		ok "$name: regenerates from the committed table"
	else
		not_ok "$name: regenerates from the committed table" "see $scratch/$name.log"
		tail -n 15 "$scratch/$name.log" | sed 's/^/    /'
		continue
	fi
	for f in series masks evidence.json lockdep-classes $(cat "$dir/series"); do
		if cmp -s "$dir/$f" "$out/$f"; then
			ok "$name: $f is reproduced byte for byte"
		else
			not_ok "$name: $f is reproduced byte for byte" "diff -u $dir/$f $out/$f"
		fi
	done
	extra=$(comm -13 <(LC_ALL=C sort "$dir/series") \
		<(find "$out" -maxdepth 1 -name '*.patch' -printf '%f\n' | LC_ALL=C sort))
	if [ -z "$extra" ]; then
		ok "$name: no patch beyond the series"
	else
		not_ok "$name: no patch beyond the series" "regenerated but not committed: $extra"
	fi
	if cmp -s "$note" "$out/note.md"; then
		ok "$name: audit note is reproduced byte for byte"
	else
		not_ok "$name: audit note is reproduced byte for byte" "diff -u $note $out/note.md"
	fi
	# the note accounts for every section the converter found, the
	# ones it could not parse included
	conv_line=$(cat "$OUT/convert/$name/summary.txt" 2>/dev/null || true)
	want=$(sed -n 's/^\([0-9]*\) sections converted, \([0-9]*\) left alone.*/\1 \2/p' <<<"$conv_line")
	got=$(awk -F' *[|] *' '$2 == "converted" { c = $3 } $2 == "left alone" { l = $3 }
		END { if (c != "" && l != "") print c, l }' "$note")
	if [ -n "$want" ] && [ "$want" = "$got" ]; then
		ok "$name: the note counts what the converter counts (converted, left alone: $got)"
	else
		not_ok "$name: the note counts what the converter counts" \
			"converter: '${conv_line:-no summary}'; note: converted, left alone = '${got:-none}'"
	fi
	mapfile -t patches < <(sed "s|^|$dir|" "$dir/series")
	if [ "${#patches[@]}" -gt 0 ]; then
		patch_sites "${patches[@]}" >"$out/patch-sites"
	else
		: >"$out/patch-sites"
	fi
	note_sites "$note" >"$out/note-sites"
	if diff -u "$out/patch-sites" "$out/note-sites" >"$out/agree.diff"; then
		ok "$name: note and patches name the same $(wc -l <"$out/note-sites") sections and masks"
	else
		not_ok "$name: note and patches name the same sections and masks" \
			"see $out/agree.diff (- patches only, + note only)"
		sed 's/^/    /' "$out/agree.diff" | first_lines 20
	fi
	# every patch applies, in order, on a scratch copy of the base files
	apply=$out/apply
	mkdir -p "$apply"
	ok_apply=1
	for p in "${patches[@]}"; do
		while read -r f; do
			[ -f "$apply/$f" ] || { mkdir -p "$apply/$(dirname "$f")"; git -C "$TREE" show "base:$f" >"$apply/$f"; }
		done < <(sed -n 's|^+++ b/||p' "$p")
		if ! (cd "$apply" && git apply --check "$p" && git apply "$p"); then
			ok_apply=0
			not_ok "$name: $(basename "$p") applies in series order" "git apply fails on the base files"
		fi
	done
	[ "$ok_apply" = 0 ] || ok "$name: all ${#patches[@]} patches apply in series order"
	# kernel style: the submitter adds the Signed-off-by
	for p in "${patches[@]}"; do
		if cp_out=$(cd "$TREE" && perl scripts/checkpatch.pl --strict --no-signoff --quiet "$p" 2>&1); then
			ok "$name: $(basename "$p") is checkpatch --strict clean"
		else
			not_ok "$name: $(basename "$p") is checkpatch --strict clean" "checkpatch reports:"
			printf '%s\n' "$cp_out" | first_lines 20 | sed 's/^/    /'
		fi
	done
done
if [ "$found" -gt 0 ]; then
	ok "conversions found: $found"
else
	not_ok "conversions found" "no conversions/*/masks; run 'make convert SUBSYS=net' and commit its output"
fi
tally
