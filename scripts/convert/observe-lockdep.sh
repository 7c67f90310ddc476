#!/usr/bin/env bash
# observe-lockdep.sh: put what lockdep saw of the converted lock classes in
# a boot under load into the conversion's audit note.
#
# Usage: observe-lockdep.sh SUBSYS BOOT
#   SUBSYS  as for convert-subsys.sh (net)
#   BOOT    a boot folder name under $OUT/boot (campaign-net-campaign), of
#           the kernel built from tag series, under a plan that looks the
#           classes up (campaign, campaign-check)
# Reads:  conversions/<name>/lockdep-classes, $OUT/boot/BOOT/verdict.json,
#         the commit of tag series (the observations are labelled with it;
#         that BOOT booted a build of it is the caller's word)
# Writes: conversions/<name>/lockdep-observed, then runs convert-subsys.sh
#         SUBSYS again, which reads it into audit-notes/<name>.md
# Exit:   0 done, 1 the boot failed or did not look a class up, 2 usage.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

[ $# -eq 2 ] || die observe "usage: $0 SUBSYS BOOT" 2
subsys=${1%/}
name=${subsys//\//-}
boot="$OUT/boot/$2"
conv="$TOP/conversions/$name"
[ -f "$conv/lockdep-classes" ] || die observe "no $conv/lockdep-classes; run 'make convert SUBSYS=$subsys' first" 2
[ -f "$boot/verdict.json" ] || die observe "no boot $boot; boot the converted kernel first" 2
rev=$(git -C "$TREE" rev-parse -q --verify 'series^{commit}') ||
	die observe "no tag series in $TREE; run 'make series' first" 2
"$TOP/scripts/convert/lockdep-observed.py" --boot "$boot" --classes "$conv/lockdep-classes" \
	--out "$conv/lockdep-observed" --rev "$rev" || die observe "no observation written" 1
log observe "regenerating the conversion and its note with the observations"
"$TOP/scripts/convert/convert-subsys.sh" "$subsys" || die observe "convert-subsys.sh $subsys failed" 1
result observe PASS "$(grep -vc '^#' "$conv/lockdep-observed") classes observed in $2 -> audit-notes/$name.md"
