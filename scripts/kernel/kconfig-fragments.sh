#!/usr/bin/env bash
# kconfig-fragments.sh: the config fragments to build a given commit with:
# scripts/kconfig/guest.config, plus the lines of each optional fragment
# (core.config) whose option exists in the Kconfig files at that commit,
# so that the same list works on every commit of a stacked series (the
# KUnit suite appears with patch 7, the lockdep test with patch 12).
#
# Usage:  kconfig-fragments.sh REV     prints the fragment paths on one line
# Env:    EXTRA_KFRAGMENTS: fragments added after guest.config on every
#         commit (scripts/kconfig/campaign.config for the converted
#         series, whose plan campaign-check needs bridging and nftables)
# Writes: $OUT/kconfig/<fragment>-<commit>.config (the filtered copies)
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

[ $# -eq 1 ] || die fragments "usage: $0 REV" 2
rev=$1
need_tree fragments
commit=$(git -C "$TREE" rev-parse --verify --short "$rev^{commit}" 2>/dev/null) ||
	die fragments "no such revision in $TREE: $rev" 2
frags="$TOP/scripts/kconfig/guest.config"
for f in ${EXTRA_KFRAGMENTS:-}; do
	[ -r "$f" ] || die fragments "EXTRA_KFRAGMENTS names $f, which cannot be read" 2
	frags="$frags $(realpath "$f")"
done
optional=("$TOP/scripts/kconfig/core.config")
mkdir -p "$OUT/kconfig"
for f in "${optional[@]}"; do
	kept="$OUT/kconfig/$(basename "$f" .config)-$commit.config"
	: >"$kept"
	while read -r sym; do
		if git -C "$TREE" grep -q -E "^(menu)?config $sym\$" "$commit" -- '*Kconfig*'; then
			grep -E "^CONFIG_$sym=" "$f" >>"$kept"
		fi
	done < <(sed -n 's/^CONFIG_\([A-Za-z0-9_]*\)=.*/\1/p' "$f")
	if [ -s "$kept" ]; then
		frags="$frags $kept"
	fi
done
echo "$frags"
