#!/usr/bin/env bash
# make-initramfs.sh: build the guest's initramfs: busybox-static, the init
# that runs a test plan, the plans, and the guest programs (C, static).
#
# Reads:  scripts/guest/{init,*.c,plans/*.plan} and executable scripts there,
#         /bin/busybox (busybox-static), and from $TREE's tag base the
#         networking self-tests the plans run through net-selftest
#         (tools/testing/selftests/net/PROGRAM.c, into /bin/selftests/),
#         conversions/*/lockdep-classes (into /etc/lockdep-classes)
# Writes: $OUT/initramfs/initramfs.cpio.gz (+ the staging folder root/)
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

need_tool initramfs gcc cpio gzip readelf
BUSYBOX=${BUSYBOX:-/bin/busybox}
[ -x "$BUSYBOX" ] || die initramfs "$BUSYBOX not found; run 'make deps' (busybox-static)" 2
if readelf -l "$BUSYBOX" | has_line 'INTERP'; then
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

# The kernel's networking self-tests that some plan runs: the word after
# "--" on a "net-selftest" step, compiled from the base tree's source
# (git archive, whatever the work tree has checked out) against the
# system's kernel headers (linux-libc-dev, the same 6.1 series).
mapfile -t progs < <(sed -n 's/^[^#]* net-selftest .* -- \([A-Za-z0-9_]*\).*/\1/p' "$guest"/plans/*.plan | LC_ALL=C sort -u)
if [ "${#progs[@]}" -gt 0 ]; then
	need_tree initramfs
	git -C "$TREE" rev-parse -q --verify "base^{commit}" >/dev/null ||
		die initramfs "no tag base in $TREE for the networking self-tests; run 'make tree'" 2
	st="$dest/selftests-src"
	rm -rf "$st"
	mkdir -p "$st" "$root/bin/selftests"
	git -C "$TREE" archive base tools/testing/selftests/net tools/testing/selftests/kselftest.h \
		tools/testing/selftests/kselftest_harness.h | tar -x -C "$st" ||
		die initramfs "could not read tools/testing/selftests from tag base of $TREE" 1
	sdir="$st/tools/testing/selftests/net"
	log initramfs "compiling ${#progs[@]} networking self-tests of the base tree"
	for p in "${progs[@]}"; do
		[ -f "$sdir/$p.c" ] || die initramfs "a plan runs self-test '$p', but $sdir/$p.c does not exist" 2
		# Their code, their warnings: no -Werror here.
		gcc -O2 -w -static -I"$sdir/.." -o "$root/bin/selftests/$p" "$sdir/$p.c" -lpthread ||
			die initramfs "compiling self-test $p.c failed" 1
	done
	rm -rf "$st"
fi
# The lockdep classes of the converted sections (conversions/*/
# lockdep-classes), which the campaign plans look up in /proc/lockdep.
: >"$root/etc/lockdep-classes"
for f in "$TOP"/conversions/*/lockdep-classes; do
	[ -f "$f" ] && sed 's/#.*//; /^[[:space:]]*$/d' "$f" >>"$root/etc/lockdep-classes"
done
LC_ALL=C sort -u -o "$root/etc/lockdep-classes" "$root/etc/lockdep-classes"
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
result initramfs PASS "$dest/initramfs.cpio.gz ($(du -k "$dest/initramfs.cpio.gz" | cut -f1) KiB, $nplans plans, ${#progs[@]} self-tests)"
