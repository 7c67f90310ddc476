#!/usr/bin/env bash
# build-e2e-kernels.sh: build the kernels of the end-to-end benchmark, all
# in the campaign configuration without lock debugging, with the softirq,
# timer and scheduler tracepoints (scripts/bench/tracing.config) and a
# virtio-blk disk driver (scripts/bench/e2e-devices.config):
#   e2e-base   tag base
#   e2e-defer  tag e2e-defer: base + the series' first patch (per-vector
#              deferral to ksoftirqd), nothing else
#   e2e-core   tag core (deferral, the API, nothing converted)
#   e2e-net    tag series (core + conversions/net, from make-series.sh)
#   e2e-hand   tag e2e-hand: series + scripts/bench/hand (the hot sections
#              masked by hand, BLOCK and SCHED let through: the upper bound
#              of a conversion, never proposed as a patch)
#   e2e-blame  tag bench-net: series + scripts/bench/series, with
#              CONFIG_SOFTIRQ_BH_BLAME and frame pointers (every BH section
#              out of line and traced with its caller: it names the
#              sections, it does not measure latency)
#   e2e-hand-lockdep  e2e-hand in the converted campaign kernel's
#              configuration (lock debugging on: NET_KFRAGMENTS), booted
#              once with plan e2e-load to show the hand masks are not wrong
#              (lockdep stays silent under the load); not built by default
#
# Usage: build-e2e-kernels.sh [VARIANT...]   (default: all but
#        e2e-hand-lockdep)
# Env:    BUILD_REUSE (default 1: keep a kernel whose inputs did not change)
# Reads:  $TREE (tags base, core, series), scripts/kconfig/{guest,campaign}.config,
#         scripts/bench/{nolockdep.sed,tracing.config,series}
# Writes: $OUT/build/e2e-*/ (build-kernel.sh), $OUT/bench-e2e/*.config,
#         tag bench-net in $TREE
# Exit:   0 every kernel built, 1 a build or the patches failed, 2 bad usage.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(e2e-base e2e-defer e2e-core e2e-net e2e-hand e2e-blame)
for v in "${variants[@]}"; do
	case $v in e2e-base | e2e-defer | e2e-core | e2e-net | e2e-hand | e2e-blame | e2e-hand-lockdep) ;;
	*) die e2e-build "unknown variant '$v' (e2e-base, e2e-defer, e2e-core, e2e-net, e2e-hand, e2e-blame, e2e-hand-lockdep)" 2 ;;
	esac
done
need_tool e2e-build sed
need_tree e2e-build
need_revs e2e-build base core series

bench="$TOP/scripts/bench"
cfg="$OUT/bench-e2e"
mkdir -p "$cfg"
sed -f "$bench/nolockdep.sed" "$TOP/scripts/kconfig/guest.config" >"$cfg/guest-nolockdep.config"
# Frame pointers let the stretch event name the caller of an out-of-line
# local_bh_disable() or rcu_read_lock_bh() (-Os makes such copies)
printf '%s\n' '# build-e2e-kernels.sh: name the sections that hold vectors back' \
	'CONFIG_SOFTIRQ_BH_BLAME=y' 'CONFIG_UNWINDER_FRAME_POINTER=y' >"$cfg/blame.config"
common="$cfg/guest-nolockdep.config $TOP/scripts/kconfig/campaign.config $bench/tracing.config $bench/e2e-devices.config"
# The deferral alone: the first patch of the core series on base
first=$(sed 's/#.*//; /^[[:space:]]*$/d' "$TOP/core-patches/series" | first_lines 1)
if [ -z "$first" ] || [ ! -f "$TOP/core-patches/$first" ]; then
	die e2e-build "core-patches/series names no first patch" 2
fi
rm -rf "$cfg/defer"
mkdir -p "$cfg/defer"
ln -s "$TOP/core-patches/$first" "$cfg/defer/$first"
printf '%s\n' "$first" >"$cfg/defer/series"

# A kernel whose commit, configuration and compiler did not change since
# its last build is kept (build-kernel.sh); BUILD_REUSE=0 rebuilds.
export BUILD_REUSE=${BUILD_REUSE:-1}
start=$SECONDS
i=0
for v in "${variants[@]}"; do
	i=$((i + 1))
	frags=$common
	case $v in
	e2e-base) rev=base ;;
	e2e-defer)
		rev=e2e-defer
		APPLY_REUSE=1 "$TOP/scripts/kernel/apply-patches.sh" "$cfg/defer" base e2e-defer ||
			die e2e-build "the deferral patch ($first) does not apply on base; see above" 1
		;;
	e2e-core) rev=core ;;
	e2e-net) rev=series ;;
	e2e-hand | e2e-hand-lockdep)
		rev=e2e-hand
		APPLY_REUSE=1 "$TOP/scripts/kernel/apply-patches.sh" "$bench/hand" series e2e-hand ||
			die e2e-build "scripts/bench/hand does not apply on series; see above" 1
		# the converted campaign kernel's configuration (lock debugging,
		# the KUnit suite): only what the hand patch touches compiles
		[ "$v" = e2e-hand ] || frags=$NET_KFRAGMENTS
		;;
	e2e-blame)
		rev="bench-net"
		"$TOP/scripts/kernel/apply-patches.sh" "$bench" series bench-net ||
			die e2e-build "scripts/bench/series does not apply on series; see above" 1
		frags="$common $bench/bench.config $cfg/blame.config"
		;;
	esac
	log e2e-build "[$i/${#variants[@]}] $v at $rev ($((SECONDS - start))s so far)"
	KFRAGMENTS=$frags "$TOP/scripts/kernel/build-kernel.sh" "$v" "$rev" ||
		die e2e-build "building $v failed; log: $OUT/build/$v/log" 1
	if [ "$v" = e2e-blame ]; then
		for o in CONFIG_SOFTIRQ_BH_BLAME CONFIG_FRAME_POINTER; do
			grep -q "^$o=y" "$OUT/build/$v/config" ||
				die e2e-build "$v: $o did not survive olddefconfig (see $OUT/build/$v/config)" 1
		done
	fi
done
result e2e-build PASS "${variants[*]} in $((SECONDS - start))s"
