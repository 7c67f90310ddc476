#!/usr/bin/env bash
# check-rt-build.sh: compile the objects the core patches touch with
# CONFIG_PREEMPT_RT=y, where the mask API falls back to full BH disabling.
#
# Usage: check-rt-build.sh [REV] [OBJECT...]
#   REV defaults to the tag "core"; objects default to the files the series
#   changes: kernel/softirq.o, kernel/locking/spinlock.o,
#   kernel/locking/lockdep.o and lib/locking-selftest.o.
# Reads:  $TREE, scripts/kconfig/{guest,preempt-rt}.config
# Writes: $WORK/linux-rt (a scratch git worktree, removed afterwards),
#         $WORK/obj-rt (its own O= folder), $OUT/rt-build/log
# Linux 6.1 has no PREEMPT_RT support on x86 (ARCH_SUPPORTS_RT came to x86
# in 6.12), so the worktree gets a local, never committed "select
# ARCH_SUPPORTS_RT" in arch/x86/Kconfig: enough to compile the objects.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

rev=${1:-core}
[ $# -gt 0 ] && shift
objs=("$@")
[ ${#objs[@]} -gt 0 ] || objs=(kernel/softirq.o kernel/locking/spinlock.o kernel/locking/lockdep.o lib/locking-selftest.o)
need_tool rt-build make gcc ccache
need_tree rt-build
JOBS=${JOBS:-$(nproc)}
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
res="$OUT/rt-build"
ort="$WORK/obj-rt"
mkdir -p "$res" "$ort"
logf="$res/log"
: >"$logf"

commit=$(git -C "$TREE" rev-parse -q --verify "$rev^{commit}") ||
	die rt-build "revision '$rev' not found in $TREE (run 'make core' first)" 2
wt="$WORK/linux-rt"
git -C "$TREE" worktree remove --force "$wt" >/dev/null 2>&1 || rm -rf "$wt"
git -C "$TREE" worktree prune
git -C "$TREE" worktree add -q --detach "$wt" "$commit"
trap 'git -C "$TREE" worktree remove --force "$wt" >/dev/null 2>&1 || true' EXIT
grep -q 'select ARCH_SUPPORTS_RT' "$wt/arch/x86/Kconfig" ||
	sed -i 's/^config X86$/&\n\tselect ARCH_SUPPORTS_RT/' "$wt/arch/x86/Kconfig"

kmake=(make -C "$wt" ARCH=x86_64 O="$ort" CC="ccache gcc" HOSTCC="ccache gcc")
log rt-build "configuring PREEMPT_RT in $ort"
{
	"${kmake[@]}" tinyconfig
	"$wt/scripts/kconfig/merge_config.sh" -m -O "$ort" "$ort/.config" \
		"$TOP/scripts/kconfig/guest.config" "$TOP/scripts/kconfig/preempt-rt.config"
	"${kmake[@]}" olddefconfig
} >>"$logf" 2>&1 || die rt-build "configuration failed; see $logf" 1
"$TOP/scripts/kernel/check-config.py" "$ort/.config" "$TOP/scripts/kconfig/preempt-rt.config" ||
	die rt-build "PREEMPT_RT could not be enabled; see $logf" 1
log rt-build "compiling ${objs[*]} with PREEMPT_RT (-j$JOBS)"
if ! "${kmake[@]}" -j"$JOBS" "${objs[@]}" >>"$logf" 2>&1; then
	grep -E 'error|warning' "$logf" | first_lines 20 >&2 || true
	result rt-build FAIL "${objs[*]} do not compile with PREEMPT_RT at ${commit:0:12}; see $logf"
	exit 1
fi
if grep -E '^[^ ]+:[0-9]+:[0-9]+: warning:' "$logf" >&2; then
	result rt-build FAIL "compiler warnings with PREEMPT_RT; see $logf"
	exit 1
fi
result rt-build PASS "${objs[*]} compile with PREEMPT_RT at ${commit:0:12}"
