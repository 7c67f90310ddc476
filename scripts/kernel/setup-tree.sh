#!/usr/bin/env bash
# setup-tree.sh: unpack the Debian linux-source-6.1 tarball into $TREE and
# make it a git repository whose first commit is the pristine base (tag
# "base").  Rerunning reuses an existing tree.
#
# Reads:  /usr/src/linux-source-6.1.tar.xz (or $SRC_TARBALL),
#         core-patches/BASE (the version the project was made on)
# Writes: $TREE (git repo), $OUT/tree/version
# Env:    FORCE=1 resets the tree to "base" even if it has local changes.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

SRC_TARBALL=${SRC_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
FORCE=${FORCE:-0}
case $FORCE in 0 | 1) ;; *) die tree "FORCE must be 0 or 1, not '$FORCE'" 2 ;; esac
need_tool tree git tar xz
mkdir -p "$OUT/tree"

expected=$(awk '{print $2}' "$TOP/core-patches/BASE" 2>/dev/null || true)
installed=$(dpkg-query -W -f '${Version}' linux-source-6.1 2>/dev/null || true)

if [ -d "$TREE/.git" ]; then
	git -C "$TREE" rev-parse -q --verify refs/tags/base >/dev/null ||
		die tree "$TREE is a git repository without a 'base' tag; move it away or set WORK=" 1
	# Local changes include untracked and ignored files: builds go to $OBJ,
	# so anything extra in the source tree was put there by a person.
	dirty=$(git -C "$TREE" status --porcelain --ignored | first_lines 5)
	if [ -n "$dirty" ]; then
		if [ "$FORCE" != 1 ]; then
			printf '%s\n' "$dirty" >&2
			die tree "$TREE has local changes (above); keep them, or rerun with FORCE=1 to discard them" 1
		fi
		log tree "FORCE=1: discarding local changes in $TREE"
		git -C "$TREE" reset -q --hard
		git -C "$TREE" clean -qfdx
	fi
	log tree "reusing $TREE at $(git -C "$TREE" describe --tags --always HEAD)"
else
	[ -r "$SRC_TARBALL" ] ||
		die tree "$SRC_TARBALL not found; run 'make deps' (installs linux-source-6.1)" 2
	log tree "unpacking $SRC_TARBALL"
	tmp="$WORK/linux.unpack.$$"
	rm -rf "$tmp"
	mkdir -p "$tmp"
	trap 'rm -rf "$tmp"' EXIT
	tar -xJf "$SRC_TARBALL" -C "$tmp"
	src=$(find "$tmp" -mindepth 1 -maxdepth 1 -type d | first_lines 1)
	[ -f "$src/Makefile" ] || die tree "$SRC_TARBALL does not hold a kernel tree" 1
	log tree "committing the pristine base (git add -f: Debian's .gitignore ignores the top level)"
	git -C "$src" init -q
	git -C "$src" config user.name "Softirq Mask Campaign"
	git -C "$src" config user.email "campaign@example.org"
	git -C "$src" config gc.auto 0
	git -C "$src" add -f -A
	git -C "$src" commit -q -m "base: pristine linux-source-6.1 ${installed:-unknown}" \
		-m "Unpacked from $(basename "$SRC_TARBALL") without changes."
	git -C "$src" tag base
	mv "$src" "$TREE"
	rm -rf "$tmp"
	trap - EXIT
fi

kver=$(make -s -C "$TREE" kernelversion)
printf 'package %s\nkernel %s\n' "${installed:-unknown}" "$kver" >"$OUT/tree/version"
if [ -n "$expected" ] && [ "$installed" != "$expected" ]; then
	log tree "NOTE: installed linux-source-6.1 is '$installed' but the project was made on '$expected'; patches are applied with a 3-way merge"
fi
result tree PASS "Linux $kver (package ${installed:-unknown}) at $TREE"
