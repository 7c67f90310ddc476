#!/usr/bin/env bash
# analyze-vectors.sh: find which softirq vectors can reach each BH lock
# class and write the mask table.
#
# Usage:  scripts/analysis/analyze-vectors.sh DIR...   (DIRs relative to $TREE)
# Reads:  $TREE (default $WORK/linux; any kernel source folder works),
#         semantic-patches/bh_vectors.cocci and bh_lock_mask.cocci,
#         JOBS (spatch -j, default 2), CLOSED_WORLD=1 (UNSAFE: assume no
#         caller outside DIRs; for trying the pipeline, never for audits).
# Writes: $OUT/analyze/{masks.txt,evidence.md,vectors.json,
#         pcpu-functions.txt,files.txt,log} and the raw facts/ and sites/.
# Exit:   0 done, 1 a spatch pass failed, 2 usage error or missing input.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"
stage=analyze

[ $# -gt 0 ] || die "$stage" "usage: $0 DIR... (relative to \$TREE)" 2
need_tool "$stage" spatch python3
[ -d "$TREE" ] || die "$stage" "no kernel tree at $TREE; run 'make tree' first" 2
for d in "$@"; do
	[ -d "$TREE/$d" ] || die "$stage" "no such folder: $TREE/$d" 2
done

dest=$OUT/analyze
rm -rf "$dest/facts" "$dest/sites"
mkdir -p "$dest/facts" "$dest/sites"
exec > >(tee "$dest/log") 2>&1
jobs=${JOBS:-2}

log "$stage" "start: $* in $TREE (load: $(cut -d' ' -f1-3 /proc/loadavg))"
cd "$TREE"
find "$@" -name '*.[ch]' -type f | LC_ALL=C sort >"$dest/files.txt"
# One file per group: spatch parallelizes groups with -j.
awk '{ print; print "" }' "$dest/files.txt" >"$dest/groups.all"
tr '\n' '\0' <"$dest/files.txt" |
	xargs -0 -r grep -lE \
		'\b((spin|read|write)_lock_bh|local_bh_disable|spin_trylock_bh)\b' |
	LC_ALL=C sort | awk '{ print; print "" }' >"$dest/groups.locks" || true
log "$stage" "$(wc -l <"$dest/files.txt") files, $(grep -c . "$dest/groups.locks" || true) with BH sections"

# spatch runs from a folder of symlinks to the tree's top entries, so the
# file names stay relative to the tree, but the kernel's .cocciconfig
# (read from the current folder) does not apply: its --use-gitgrep makes
# spatch run "git grep" over the whole tree once per file (minutes over
# net/).  Its --timeout 200 is kept explicitly.
src=$dest/src
rm -rf "$src"
mkdir -p "$src"
for e in "$TREE"/* "$TREE"/.[!.]*; do
	case ${e##*/} in '.[!.]*' | .git | .cocciconfig) continue ;; esac
	ln -s "$e" "$src/${e##*/}"
done
spatch_common=(--no-includes --very-quiet --timeout 200 -j "$jobs")

# spatch_failed PASS LOG: show the end of spatch's log, then stop.
spatch_failed() {
	tail -n 8 "$2" | sed 's/^/  spatch: /' >&2
	die "$stage" "spatch $1 pass failed, see $2" 1
}

log "$stage" "facts pass (call graph, entry points)"
(cd "$src" && BH_RECORDS=$dest/facts/f spatch --sp-file "$TOP/semantic-patches/bh_vectors.cocci" \
	"${spatch_common[@]}" --file-groups "$dest/groups.all") >"$dest/facts.log" 2>&1 ||
	spatch_failed facts "$dest/facts.log"

log "$stage" "sites pass (lock classes)"
: >"$dest/empty-masks.txt"
(cd "$src" && spatch --sp-file "$TOP/semantic-patches/bh_lock_mask.cocci" \
	-D "masks=$dest/empty-masks.txt" -D "records=$dest/sites/s" \
	"${spatch_common[@]}" --file-groups "$dest/groups.locks") >"$dest/sites.log" 2>&1 ||
	spatch_failed sites "$dest/sites.log"

log "$stage" "merge"
merge=(--root "$TREE" --facts "$dest/facts" --sites "$dest/sites" --out "$dest")
[ "${CLOSED_WORLD:-0}" != 1 ] || merge+=(--closed-world)
summary=$(python3 "$TOP/scripts/analysis/analyze-vectors.py" "${merge[@]}") ||
	die "$stage" "merge failed" 1
log "$stage" "$summary"
result "$stage" PASS "$summary; table in $dest/masks.txt"
