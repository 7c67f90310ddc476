#!/usr/bin/env bash
# convert-subsys.sh: convert every balanced BH lock section of one folder
# of the work tree, write the patches, the report and the audit skeleton.
#
# Usage:  scripts/convert/convert-subsys.sh SUBSYS [MASKS]
#         SUBSYS is a folder relative to $TREE (net, net/ipv4, ...);
#         MASKS defaults to $OUT/vectors/sites.txt (make analyze: the
#         v2 analysis's proven mask per section); a class table
#         ("<class> <mask>" lines, audit-notes/README.md, written by hand)
#         still works.
# Reads:  SUBSYS's files at tag base of $TREE (whatever is checked out),
#         MASKS (a table marked "# CLOSED-WORLD", as the retired v1
#         analysis wrote with CLOSED_WORLD=1, is refused unless
#         ALLOW_CLOSED_WORLD=1), and with a class table only: OVERRIDES
#         (optional auditors' table in the same format; its lines win),
#         PCPU_FUNCS (optional file of functions known to touch per-CPU
#         data); JOBS (default 2),
#         conversions/<name>/lockdep-observed when present (lockdep's usage
#         of the converted classes in a boot under load, for the note).
# Writes: conversions/<name>/NNNN-<dir>.patch, series, masks and
#         lockdep-classes (the lockdep names the guest looks up), the
#         lines of the table for SUBSYS (<name> is SUBSYS with '/' as '-';
#         CONV_DIR=dir writes them there instead; regenerating, from the
#         analysis or from that masks file, reproduces them byte for byte),
#         audit-notes/<name>.md when absent (else $OUT/convert/<name>/
#         audit-note.md and a note about the difference),
#         $OUT/convert/<name>/{report.md,sites.json,masks.txt,log}.
# Exit:   0 done, 1 spatch or a check failed, 2 usage error or missing input.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"
stage=convert

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	die "$stage" "usage: $0 SUBSYS [MASKS]" 2
fi
subsys=${1%/}
masks=${2:-$OUT/vectors/sites.txt}
name=${subsys//\//-}
need_tool "$stage" spatch python3 diff
[ -f "$masks" ] || die "$stage" "no mask table $masks; run 'make analyze' first" 2
# absolute: the script changes folder below, and a relative table read
# there again would be missing (the committed table was written empty)
masks=$(realpath -e "$masks")
# A closed-world table ignored every caller outside the analysed folders:
# its masks are not proven and must not reach a conversion patch.  Only
# the retired v1 analysis wrote such tables, but old ones may still lie
# in a work folder ($OUT/analyze/masks.txt).
if grep -q '^# CLOSED-WORLD' "$masks" && [ "${ALLOW_CLOSED_WORLD:-0}" != 1 ]; then
	die "$stage" "$masks comes from CLOSED_WORLD=1 of the retired v1 analysis (unproven masks); use make analyze's table, $OUT/vectors/sites.txt (ALLOW_CLOSED_WORLD=1 to try the pipeline anyway, never for patches to submit)" 2
fi
# A site table (v2) is proven as a whole: OVERRIDES there is the
# analysis's file of cut call edges (make analyze reads it), never masks.
mask_overrides=${OVERRIDES:-}
pcpu=${PCPU_FUNCS:-}
if grep -q '^site ' "$masks"; then
	mask_overrides=
	pcpu=
fi
# absolute, as the table: spatch runs from another folder
if [ -n "$pcpu" ]; then
	pcpu=$(realpath -e "$pcpu") || die "$stage" "no such file: PCPU_FUNCS=$PCPU_FUNCS" 2
fi
python3 "$TOP/scripts/convert/convert-masks.py" "$masks" ${mask_overrides:+"$mask_overrides"} ||
	exit 2
git -C "$TREE" rev-parse -q --verify 'base^{commit}' >/dev/null ||
	die "$stage" "$TREE has no tag base; run 'make tree'" 2
[ -n "$(git -C "$TREE" ls-tree base -- "$subsys")" ] ||
	die "$stage" "no such folder at tag base of $TREE: $subsys" 2

dest=$OUT/convert/$name
rm -rf "$dest"
mkdir -p "$dest/work" "$dest/records" "$dest/patches"
exec > >(tee "$dest/log") 2>&1
log "$stage" "start: $subsys with $masks (load: $(cut -d' ' -f1-3 /proc/loadavg))"

# The table spatch reads: the analysis table, override lines replacing,
# and ALL for every site the auditors veto in audit-notes/<name>.remarks
# ("<file>:<line> veto: <why>").
remarks=$TOP/audit-notes/$name.remarks
python3 - "$masks" "$mask_overrides" "$remarks" >"$dest/masks.txt" <<'PY'
import os
import sys
table = {}
for path in filter(None, sys.argv[1:3]):
    for raw in open(path, encoding="utf-8"):
        line = raw.split("#", 1)[0].split()
        if line:
            cls = " ".join(line[:-1])
            table[cls] = line[-1]
if os.path.exists(sys.argv[3]):
    for raw in open(sys.argv[3], encoding="utf-8"):
        words = raw.split()
        if len(words) > 1 and words[1] == "veto:":
            table["site " + words[0]] = "ALL"
for cls in sorted(table):
    print(cls, table[cls])
PY

# The files come from the commit tagged base, never from the checkout:
# the work tree may be at core or at a stacked series (a build, a
# bisection), where the sections are already converted or the files
# changed, and it is left as it is.
mkdir -p "$dest/orig"
git -C "$TREE" archive base -- "$subsys" | tar -x -C "$dest/orig" ||
	die "$stage" "cannot read $subsys at tag base from $TREE" 1
cd "$dest/orig"
find "$subsys" -name '*.[ch]' -type f | LC_ALL=C sort >"$dest/files.txt"
tr '\n' '\0' <"$dest/files.txt" |
	xargs -0 -r grep -lE \
		'\b((spin|read|write)_lock_bh|local_bh_disable|spin_trylock_bh)\b' |
	LC_ALL=C sort >"$dest/lockfiles.txt" || true
log "$stage" "$(wc -l <"$dest/files.txt") files, $(wc -l <"$dest/lockfiles.txt") with BH sections (tag base)"
while read -r f; do
	mkdir -p "$dest/work/$(dirname "$f")"
	cp "$f" "$dest/work/$f"
done <"$dest/lockfiles.txt"
awk '{ print; print "" }' "$dest/lockfiles.txt" >"$dest/groups"

args=(--sp-file "$TOP/semantic-patches/bh_lock_mask.cocci" -D patch
	-D "masks=$dest/masks.txt" -D "records=$dest/records/r"
	--no-includes --very-quiet --in-place -j "${JOBS:-2}"
	--file-groups "$dest/groups")
[ -z "$pcpu" ] || args+=(-D "pcpu=$pcpu")
log "$stage" "spatch"
(cd "$dest/work" && spatch "${args[@]}") >"$dest/spatch.log" 2>&1 ||
	die "$stage" "spatch failed, see $dest/spatch.log" 1
# spatch lays out the calls it writes: wrap the masks that pass 100 columns
(cd "$dest/work" && xargs -r python3 "$TOP/scripts/convert/wrap-masks.py" <"$dest/lockfiles.txt") ||
	die "$stage" "cannot wrap the long mask lines in $dest/work" 1

log "$stage" "report and patches"
python3 "$TOP/scripts/convert/convert-report.py" --tree "$dest/orig" --work "$dest/work" \
	--records "$dest/records" --masks "$dest/masks.txt" \
	--files "$dest/lockfiles.txt" --subsys "$subsys" \
	--spatch-log "$dest/spatch.log" --out "$dest" ||
	die "$stage" "report failed" 1

# Patches: one per folder, deterministic, applied in series order.
conv=${CONV_DIR:-$TOP/conversions/$name}
mkdir -p "$conv"
rm -f "$conv"/*.patch "$conv/series"
# The table the patches come from, SUBSYS's lines only: comments first,
# then the site lines in the table's order.
if [ "$(realpath -m "$masks")" != "$(realpath -m "$conv/masks")" ]; then
	{
		grep '^#' "$masks" || true
		grep -E "^site $subsys/" "$masks" || true
	} >"$conv/masks.new"
	mv "$conv/masks.new" "$conv/masks"
fi
n=0
while read -r dir; do
	[ -n "$dir" ] || continue
	n=$((n + 1))
	patch=$(printf '%04d-%s.patch' "$n" "$(echo "$dir" | tr '/' '-')")
	{
		cat "$dest/patches/$(echo "$dir" | tr '/' '-').msg"
		echo "---"
		while read -r f; do
			diff -u --label "a/$f" --label "b/$f" "$f" "$dest/work/$f" || true
		done <"$dest/patches/$(echo "$dir" | tr '/' '-').files"
		echo "-- "
		echo "generated by scripts/convert/convert-subsys.sh"
	} >"$conv/$patch"
	echo "$patch" >>"$conv/series"
done <"$dest/patches/dirs"
[ -f "$conv/series" ] || : >"$conv/series"

# The audit note: generated from the analysis's evidence when the table
# is a v2 site table. With the analysis's own table (vectors.json next to
# it) the evidence the note needs is written next to the patches first;
# with a table outside the analysis (the committed conversions/<name>/masks)
# that committed evidence is read. A class table gets the skeleton,
# written only when absent.
note=${NOTE_OUT:-$TOP/audit-notes/$name.md}
if grep -q '^site ' "$masks"; then
	vdir=$(dirname "$masks")
	ev=(--evidence "$conv/evidence.json")
	if [ -f "$vdir/vectors.json" ] && [ -f "$vdir/summary.txt" ]; then
		ev+=(--vectors "$vdir/vectors.json" --summary "$vdir/summary.txt")
	elif [ "$(realpath -m "$vdir")" != "$(realpath -m "$conv")" ]; then
		cp "$vdir/evidence.json" "$conv/evidence.json" 2>/dev/null ||
			die "$stage" "no vectors.json next to $masks and no evidence.json either" 2
	fi
	# lockdep's view of the converted classes in a boot under load: a
	# committed input, like the remarks (make's observe-net stage).
	observed=$TOP/conversions/$name/lockdep-observed
	[ -f "$observed" ] && ev+=(--observed "$observed")
	# the lockdep oracle's report (make's oracle-net stage): committed too
	oracle=$TOP/results/oracle/oracle.json
	[ -f "$oracle" ] && ev+=(--oracle "$oracle")
	python3 "$TOP/scripts/convert/audit-note.py" --subsys "$subsys" \
		--sites "$dest/sites.json" "${ev[@]}" --remarks "$remarks" --out "$note" \
		--lockdep-classes "$conv/lockdep-classes" ||
		die "$stage" "audit note failed" 1
	log "$stage" "wrote $note"
elif [ ! -f "$note" ]; then
	cp "$dest/audit-note.md" "$note"
	log "$stage" "wrote audit skeleton $note"
elif ! cmp -s "$note" "$dest/audit-note.md"; then
	log "$stage" "kept hand-edited $note; fresh skeleton in $dest/audit-note.md"
	log "$stage" "compare: diff -u $note $dest/audit-note.md"
fi
summary=$(head -n 1 "$dest/summary.txt")
log "$stage" "$summary; $n patches in $conv; report $dest/report.md"
result "$stage" PASS "$summary"
