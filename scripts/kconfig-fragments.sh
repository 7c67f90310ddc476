#!/usr/bin/env bash
# kconfig-fragments.sh: the config fragments to build a given commit with:
# scripts/kconfig/guest.config, plus each optional fragment (core.config)
# whose options all exist in the Kconfig files at that commit, so that the
# same list works on every commit of a stacked series.
#
# Usage: kconfig-fragments.sh REV     prints the fragment paths on one line
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || die fragments "usage: $0 REV" 2
rev=$1
need_tree fragments
frags="$TOP/scripts/kconfig/guest.config"
optional=("$TOP/scripts/kconfig/core.config")
for f in "${optional[@]}"; do
	ok=1
	while read -r sym; do
		git -C "$TREE" grep -q -E "^(menu)?config $sym\$" "$rev" -- '*Kconfig*' || ok=0
	done < <(sed -n 's/^CONFIG_\([A-Za-z0-9_]*\)=.*/\1/p' "$f")
	if [ "$ok" -eq 1 ]; then
		frags="$frags $f"
	fi
done
echo "$frags"
