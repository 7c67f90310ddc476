#!/usr/bin/env bash
# make-initramfs.sh: build the guest's initramfs: busybox-static, the init
# that runs a test plan, the plans, and the guest programs (C, static).
#
# Reads:  scripts/guest/{init,*.c,plans/*.plan} and executable scripts there,
#         /bin/busybox (busybox-static)
# Writes: $OUT/initramfs/initramfs.cpio.gz (+ the staging folder root/)
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

need_tool initramfs gcc cpio gzip readelf
BUSYBOX=${BUSYBOX:-/bin/busybox}
[ -x "$BUSYBOX" ] || die initramfs "$BUSYBOX not found; run 'make deps' (busybox-static)" 2
if readelf -l "$BUSYBOX" | grep -q 'INTERP'; then
	die initramfs "$BUSYBOX is dynamically linked; install busybox-static" 2
fi

guest="$TOP/scripts/guest"
dest="$OUT/initramfs"
root="$dest/root"
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,proc,sys,dev,tmp,plans,etc}

log initramfs "compiling guest programs"
for src in "$guest"/*.c; do
	name=$(basename "$src" .c)
	gcc -O2 -Wall -Wextra -Werror -static -o "$root/bin/$name" "$src" -lpthread ||
		die initramfs "compiling $src failed" 1
done
for f in "$guest"/*; do
	[ -f "$f" ] && [ -x "$f" ] && [ "${f##*/}" != init ] && cp "$f" "$root/bin/"
done
cp "$guest/init" "$root/init"
cp "$guest"/plans/*.plan "$root/plans/"
cp "$BUSYBOX" "$root/bin/busybox"
for applet in $("$BUSYBOX" --list); do
	[ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
done

(cd "$root" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc --owner 0:0 --quiet) | gzip -9 >"$dest/initramfs.cpio.gz.tmp"
mv "$dest/initramfs.cpio.gz.tmp" "$dest/initramfs.cpio.gz"
nplans=$(find "$root/plans" -name '*.plan' | wc -l)
result initramfs PASS "$dest/initramfs.cpio.gz ($(du -k "$dest/initramfs.cpio.gz" | cut -f1) KiB, $nplans plans)"
