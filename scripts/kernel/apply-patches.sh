#!/usr/bin/env bash
# apply-patches.sh: apply a patch series as commits on top of a revision of
# the work tree and tag the result.
#
# Usage: apply-patches.sh DIR ONTO TAG
#   DIR   a folder with a "series" file (patch names in apply order), e.g.
#         core-patches or conversions/net
#   ONTO  revision to start from (e.g. base)
#   TAG   tag to set on the last commit (e.g. core); moved if it exists
# Reads:  DIR/series, DIR/*.patch, $TREE
# Writes: commits and TAG in $TREE; the tree is left at TAG (detached).
# A patch that does not apply aborts "git am", returns the tree to where it
# was and exits 1 naming the patch: never a half-applied tree.
# Env: APPLY_REUSE=1 leaves the tree alone when TAG is still the commit a
#      previous run made from the same patches on the same ONTO commit
#      ($OUT/apply/TAG.stamp): checking the files out again would make
#      every object that depends on them look stale to kbuild (make-series.sh
#      sets it; the core suite, which tests applying, does not).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

if [ $# -ne 3 ]; then
	die apply "usage: $0 DIR ONTO TAG" 2
fi
dir=$1
onto=$2
tag=$3
need_tool apply git
need_tree apply
[ -f "$dir/series" ] || die apply "no series file in $dir" 2
git -C "$TREE" rev-parse -q --verify "$onto^{commit}" >/dev/null ||
	die apply "revision '$onto' not found in $TREE" 2
git check-ref-format "refs/tags/$tag" || die apply "bad tag name '$tag'" 2
need_clean_tree apply

mapfile -t patches < <(sed 's/#.*//; /^[[:space:]]*$/d' "$dir/series")
[ ${#patches[@]} -gt 0 ] || die apply "$dir/series lists no patches" 2
for p in "${patches[@]}"; do
	[ -f "$dir/$p" ] || die apply "$dir/series names $p, which does not exist" 2
done

mkdir -p "$OUT/apply"
stampf="$OUT/apply/$tag.stamp"
inputs=$({
	git -C "$TREE" rev-parse "$onto^{commit}"
	for p in "${patches[@]}"; do printf '%s\n' "$p"; cat "$dir/$p"; done
} | sha256sum | cut -d' ' -f1)
if [ "${APPLY_REUSE:-0}" = 1 ] && [ -f "$stampf" ] &&
	[ "$(cat "$stampf")" = "$inputs $(git -C "$TREE" rev-parse -q --verify "$tag^{commit}" || echo none)" ]; then
	result apply PASS "$tag: unchanged since the last run (${#patches[@]} patches from $dir on $onto), $(git -C "$TREE" rev-parse --short "$tag") reused"
	exit 0
fi
rm -f "$stampf"
start=$(git -C "$TREE" rev-parse HEAD)
git -C "$TREE" checkout -q --detach "$onto"
n=0
for p in "${patches[@]}"; do
	n=$((n + 1))
	log apply "[$n/${#patches[@]}] $p"
	# Committer identity and date are fixed so that reapplying the same
	# series gives the same commit ids (and ccache-friendly trees).
	if ! GIT_COMMITTER_NAME="Softirq Mask Campaign" \
		GIT_COMMITTER_EMAIL="campaign@example.org" \
		GIT_COMMITTER_DATE="2026-01-01T00:00:00Z" \
		git -C "$TREE" am -q -3 --keep-cr "$(realpath "$dir/$p")" >"$OUT/apply/am.log" 2>&1; then
		cat "$OUT/apply/am.log" >&2
		git -C "$TREE" am --abort >/dev/null 2>&1 || true
		git -C "$TREE" checkout -q --detach "$start"
		die apply "$p does not apply on $onto (+$((n - 1)) patches); the tree is back at ${start:0:12}" 1
	fi
done
git -C "$TREE" tag -f "$tag" >/dev/null
echo "$inputs $(git -C "$TREE" rev-parse HEAD)" >"$stampf"
result apply PASS "$tag: ${#patches[@]} patches from $dir on $onto -> $(git -C "$TREE" rev-parse --short HEAD)"
