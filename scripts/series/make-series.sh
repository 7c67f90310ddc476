#!/usr/bin/env bash
# make-series.sh: build the stacked tree: base, then core-patches/, then
# each conversions/<subsystem>/ series, as commits; tags mark "core", each
# subsystem ("conv-<subsystem>") and the top ("series").
#
# Usage: make-series.sh    (conversions in the order of conversions/ORDER
#                           when present, else alphabetical; net first)
# Reads:  core-patches/, conversions/*/series, $TREE
# Writes: commits and tags in $TREE (reapplying gives the same commit ids:
#         committer name and date are fixed)
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

need_tree series
# unchanged layers are reused, not checked out again (apply-patches.sh)
apply=(env APPLY_REUSE=1 "$TOP/scripts/kernel/apply-patches.sh")
"${apply[@]}" "$TOP/core-patches" base core
prev=core
if [ -f "$TOP/conversions/ORDER" ]; then
	mapfile -t subs < <(sed 's/#.*//; /^[[:space:]]*$/d' "$TOP/conversions/ORDER")
else
	mapfile -t subs < <(find "$TOP/conversions" -mindepth 2 -maxdepth 2 -name series -printf '%h\n' 2>/dev/null |
		xargs -r -n1 basename | sort)
fi
for s in "${subs[@]}"; do
	if [ ! -s "$TOP/conversions/$s/series" ]; then
		log series "conversions/$s has no patches, skipped"
		continue
	fi
	"${apply[@]}" "$TOP/conversions/$s" "$prev" "conv-$s"
	prev="conv-$s"
done
git -C "$TREE" tag -f series "$prev" >/dev/null
echo
git -C "$TREE" log --reverse --format='  %h %s' base..series
result series PASS "$(git -C "$TREE" rev-list --count base..series) commits on base: core${subs[*]:+ + ${subs[*]}}; tag series"
