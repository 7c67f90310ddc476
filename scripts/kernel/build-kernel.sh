#!/usr/bin/env bash
# build-kernel.sh: build one kernel variant of the work tree.
#
# Usage: build-kernel.sh VARIANT [REV]
#   VARIANT  a name for the result folder (base, core, net, ...)
#   REV      git revision to build (default: the tag named VARIANT)
# Reads:  $TREE (checked out at REV, detached), scripts/kconfig/*.config
#         (fragments: $KFRAGMENTS, default guest.config, plus VARIANT.config
#         when it exists)
# Writes: $OBJ (the one O= folder, so ccache hits across variants),
#         $OUT/build/VARIANT/{bzImage,config,config.log,log,rev,key}
# Env:    JOBS (make -j), CCACHE_DIR/CCACHE_MAXSIZE, KFRAGMENTS,
#         BUILD_REUSE=1: when $OUT/build/VARIANT already holds a bzImage
#         of the same commit, the same final .config and the same
#         compiler, keep it and compile nothing (make check sets it; the
#         $OBJ folder then still holds whatever was built last, so a caller
#         that reads $OBJ's objects, like make analyze, must not set it)
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	die build "usage: $0 VARIANT [REV]" 2
fi
variant=$1
rev=${2:-$variant}
case $variant in *[!A-Za-z0-9_.-]* | '') die build "bad variant name '$variant'" 2 ;; esac
JOBS=${JOBS:-$(nproc)}
case $JOBS in '' | *[!0-9]*) die build "JOBS must be a number, not '$JOBS'" 2 ;; esac
case ${BUILD_REUSE:-0} in 0 | 1) ;; *) die build "BUILD_REUSE must be 0 or 1, not '$BUILD_REUSE'" 2 ;; esac
need_tool build git make gcc ccache flex bison bc
need_tree build

export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-20G}
res="$OUT/build/$variant"
mkdir -p "$res" "$OBJ"
logf="$res/log"
cfglog="$res/config.log"
: >"$cfglog"

commit=$(git -C "$TREE" rev-parse -q --verify "$rev^{commit}") ||
	die build "revision '$rev' not found in $TREE (run 'make tree', 'make core' or 'make series' first)" 2
need_clean_tree build
git -C "$TREE" checkout -q --detach "$commit"
log build "$variant: $(git -C "$TREE" log -1 --format='%h %s' "$commit")"

# Fragments: the guest config, plus a variant-specific one when present.
if [ -z "${KFRAGMENTS:-}" ]; then
	KFRAGMENTS="$TOP/scripts/kconfig/guest.config"
	[ -f "$TOP/scripts/kconfig/$variant.config" ] &&
		KFRAGMENTS="$KFRAGMENTS $TOP/scripts/kconfig/$variant.config"
fi
read -r -a frags <<<"$KFRAGMENTS"
for f in "${frags[@]}"; do [ -r "$f" ] || die build "config fragment $f not found" 2; done

# Configure in a scratch folder and copy only when different, so that an
# unchanged config does not make kbuild redo anything.
t0=$SECONDS
kmake=(make -C "$TREE" ARCH=x86_64)
cfgdir="$WORK/obj-config"
mkdir -p "$cfgdir"
log build "configuring: tinyconfig + ${frags[*]##*/}"
{
	"${kmake[@]}" O="$cfgdir" tinyconfig
	"$TREE/scripts/kconfig/merge_config.sh" -m -O "$cfgdir" "$cfgdir/.config" "${frags[@]}"
	"${kmake[@]}" O="$cfgdir" olddefconfig
} >>"$cfglog" 2>&1 || die build "configuration failed; see $cfglog" 1
"$TOP/scripts/kernel/check-config.py" "$cfgdir/.config" "${frags[@]}" ||
	die build "the final .config lacks options the fragments ask for (above); see $cfglog" 1
cmp -s "$cfgdir/.config" "$OBJ/.config" || cp "$cfgdir/.config" "$OBJ/.config"

# What the bzImage is a function of: the sources (the commit), the final
# configuration and the compiler.
key="commit $commit
config $(sha256sum <"$cfgdir/.config" | cut -d' ' -f1)
gcc $(gcc --version | first_lines 1)"
if [ "${BUILD_REUSE:-0}" = 1 ] && [ -s "$res/bzImage" ] && [ "$(cat "$res/key" 2>/dev/null)" = "$key" ]; then
	echo "reused $res/bzImage: same commit, configuration and compiler as its build (log: $logf)" >>"$cfglog"
	result build PASS "$variant at ${commit:0:12}: $res/bzImage up to date (same commit, .config and compiler; BUILD_REUSE=1), nothing compiled"
	exit 0
fi
rm -f "$res/key"
: >"$logf"

log build "compiling bzImage with -j$JOBS (ccache $CCACHE_DIR); log: $logf"
ccache -z >/dev/null
if ! "${kmake[@]}" O="$OBJ" CC="ccache gcc" HOSTCC="ccache gcc" -j"$JOBS" olddefconfig bzImage >>"$logf" 2>&1; then
	grep -E 'error|Error' "$logf" | first_lines 20 >&2 || true
	result build FAIL "$variant: compile failed; see $logf"
	exit 1
fi
cp "$OBJ/arch/x86/boot/bzImage" "$res/bzImage"
cp "$OBJ/.config" "$res/config"
printf '%s\n' "$commit" >"$res/rev"
printf '%s\n' "$key" >"$res/key"
hits=$(ccache -s 2>/dev/null | awk '/[Hh]its:/ && !h {h = $2} END {print h}')
result build PASS "$variant at ${commit:0:12}: $res/bzImage in $((SECONDS - t0))s, ccache hits ${hits:-?}"
