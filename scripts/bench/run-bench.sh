#!/usr/bin/env bash
# run-bench.sh: the per-vector softirq masking micro-benchmarks (make bench).
# Builds three kernels without lock debugging, in one configuration:
#   bench-base  pristine 6.1 + the benchmark driver (scripts/bench/pristine)
#   bench       core + scripts/bench (the series' KUnit suite built in)
#   bench-net   series (core + conversions) + scripts/bench, for the text
#               size of the converted objects
# boots bench-base and bench with the overhead, latency (bench only) and
# deferral benchmarks, boots both again under QEMU -icount for
# instructions per pair, and summarizes everything side by side.
# With BENCH_E2E set, it then runs scripts/bench/run-bench-e2e.sh on those kernels.
#
# Usage: run-bench.sh
# Reads:  scripts/bench/{series,pristine/series,*.patch,bench.config,
#         bench-kunit.config,tracing.config,nolockdep.sed},
#         scripts/kconfig/guest.config, $TREE (tags base, core, series)
# Writes: tags bench-base, bench and bench-net in $TREE,
#         $OUT/build/{bench-base,bench,bench-net}/ (with objs/: vmlinux and
#         the converted objects), $OUT/bench/, $OUT/boot/bench-*/, and
#         $RESULTS/{bench.md,*.png,data/,raw/}
# Env:    BENCH_ROUNDS (9), BENCH_ITERS (500000), BENCH_SAMPLES (300),
#         BENCH_D_US ("10 100 1000"), BENCH_PROBE_US (700),
#         BENCH_DEFER_MS (2000: each deferral run), BENCH_ICOUNT_ROUNDS (3;
#         0 skips the -icount boots), BENCH_VARIANT (bench),
#         BENCH_KFRAGMENTS (default: guest.config without lockdep +
#         tracing.config + e2e-devices.config + bench.config (the test
#         suite boots the end-to-end smoke on the same kernel); the series' kernels add
#         bench-kunit.config), BENCH_BUILD (1; 0 boots the kernels already
#         built), BENCH_BASE (1; 0 measures the series alone), BENCH_SIZES
#         (1; 0 skips bench-net and the size table), BENCH_TIMEOUT (1800 s),
#         RESULTS (results/ of the checkout), BENCH_E2E ("A B": kernels for
#         the end-to-end comparison, variants or bzImage paths; empty skips it)
# Exit:   0 all figures present and sane, 1 a stage failed, 2 bad usage.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

BENCH_ROUNDS=${BENCH_ROUNDS:-9}
BENCH_ITERS=${BENCH_ITERS:-500000}
BENCH_SAMPLES=${BENCH_SAMPLES:-300}
BENCH_D_US=${BENCH_D_US:-10 100 1000}
BENCH_PROBE_US=${BENCH_PROBE_US:-700}
BENCH_DEFER_MS=${BENCH_DEFER_MS:-2000}
BENCH_ICOUNT_ROUNDS=${BENCH_ICOUNT_ROUNDS:-3}
BENCH_VARIANT=${BENCH_VARIANT:-bench}
BENCH_BUILD=${BENCH_BUILD:-1}
BENCH_BASE=${BENCH_BASE:-1}
BENCH_SIZES=${BENCH_SIZES:-1}
BENCH_TIMEOUT=${BENCH_TIMEOUT:-1800}
BENCH_E2E=${BENCH_E2E:-}
RESULTS=${RESULTS:-$TOP/results}

[ $# -eq 0 ] || die bench "usage: $0 (settings come from the environment, see the header)" 2
for v in BENCH_ROUNDS BENCH_ITERS BENCH_SAMPLES BENCH_PROBE_US BENCH_DEFER_MS BENCH_TIMEOUT; do
	case ${!v} in '' | *[!0-9]*) die bench "$v must be a positive number, not '${!v}'" 2 ;; esac
	[ "${!v}" -gt 0 ] || die bench "$v must be a positive number, not '${!v}'" 2
done
case $BENCH_ICOUNT_ROUNDS in '' | *[!0-9]*) die bench "BENCH_ICOUNT_ROUNDS must be a number (0 skips), not '$BENCH_ICOUNT_ROUNDS'" 2 ;; esac
read -r -a dlist <<<"$BENCH_D_US"
if [ ${#dlist[@]} -lt 1 ] || [ ${#dlist[@]} -gt 8 ]; then
	die bench "BENCH_D_US takes 1 to 8 section lengths, not '$BENCH_D_US'" 2
fi
for d in "${dlist[@]}"; do
	case $d in *[!0-9]* | 0*) die bench "BENCH_D_US: '$d' is not a positive number of microseconds" 2 ;; esac
done
for v in BENCH_BUILD BENCH_BASE BENCH_SIZES; do
	case ${!v} in 0 | 1) ;; *) die bench "$v must be 0 or 1, not '${!v}'" 2 ;; esac
done
need_tool bench python3 sed size nm

log bench "start: rounds=$BENCH_ROUNDS iters=$BENCH_ITERS samples=$BENCH_SAMPLES D_us='$BENCH_D_US' deferral=${BENCH_DEFER_MS}ms results in $RESULTS"
res="$OUT/bench"
mkdir -p "$res" "$RESULTS/raw"
bench="$TOP/scripts/bench"
t_start=$SECONDS

# The guest fragment without lock debugging, derived from guest.config so
# that both stay in step; build-kernel.sh checks every option landed.
sed -f "$bench/nolockdep.sed" "$TOP/scripts/kconfig/guest.config" >"$res/guest-nolockdep.config"
KFRAGMENTS=${BENCH_KFRAGMENTS:-"$res/guest-nolockdep.config $bench/tracing.config $bench/e2e-devices.config $bench/bench.config"}
series_frags="$KFRAGMENTS $bench/bench-kunit.config"

# The objects a conversion changed, as build-folder paths (.o)
conv_objs() {
	cat "$TOP"/conversions/*/*.patch 2>/dev/null |
		sed -n 's|^+++ b/\(.*\)\.c$|\1.o|p' | sort -u
}

# build VARIANT TAG FRAGMENTS: build it, and keep vmlinux and the converted
# objects next to its bzImage (objs/), for object-sizes.sh
build() {
	local variant=$1 tag=$2 frags=$3 o
	log bench "building $variant from tag $tag (fragments: $(for f in $frags; do printf '%s ' "${f##*/}"; done))"
	KFRAGMENTS=$frags "$TOP/scripts/kernel/build-kernel.sh" "$variant" "$tag" ||
		die bench "building $variant failed; log: $OUT/build/$variant/log" 1
	rm -rf "$OUT/build/$variant/objs"
	mkdir -p "$OUT/build/$variant/objs"
	cp "$OBJ/vmlinux" "$OUT/build/$variant/objs/vmlinux"
	while read -r o; do
		[ -f "$OBJ/$o" ] || continue # not in this configuration
		mkdir -p "$OUT/build/$variant/objs/$(dirname "$o")"
		cp "$OBJ/$o" "$OUT/build/$variant/objs/$o"
	done < <(conv_objs)
}

if [ "$BENCH_BUILD" = 1 ]; then
	if [ "$BENCH_BASE" = 1 ]; then
		log bench "applying the benchmark driver on base (pristine 6.1) as tag bench-base"
		"$TOP/scripts/kernel/apply-patches.sh" "$bench/pristine" base bench-base ||
			die bench "the benchmark driver does not apply on base; see above" 1
		build bench-base bench-base "$KFRAGMENTS"
	fi
	log bench "applying scripts/bench/series on core as tag bench"
	"$TOP/scripts/kernel/apply-patches.sh" "$bench" core bench ||
		die bench "the benchmark patch does not apply on core; see above" 1
	build "$BENCH_VARIANT" bench "$series_frags"
	if [ "$BENCH_SIZES" = 1 ]; then
		# Right after bench, from the same folder: only the converted
		# files compile again.
		"$TOP/scripts/series/make-series.sh" >/dev/null || die bench "make-series.sh failed (see above)" 1
		"$TOP/scripts/kernel/apply-patches.sh" "$bench" series bench-net ||
			die bench "the benchmark patch does not apply on series; see above" 1
		build bench-net bench-net "$series_frags"
	fi
fi
kernel="$OUT/build/$BENCH_VARIANT/bzImage"
[ -f "$kernel" ] || die bench "no kernel at $kernel; run with BENCH_BUILD=1" 2
if [ "$BENCH_BASE" = 1 ]; then
	[ -f "$OUT/build/bench-base/bzImage" ] || die bench "no kernel at $OUT/build/bench-base/bzImage; run with BENCH_BUILD=1" 2
fi
"$TOP/scripts/kernel/make-initramfs.sh" >/dev/null || die bench "building the initramfs failed" 1

dcsv=$(tr ' ' ',' <<<"${dlist[*]}")
common="softirq_mask_bench.rounds=$BENCH_ROUNDS softirq_mask_bench.iters=$BENCH_ITERS"
common+=" softirq_mask_bench.samples=$BENCH_SAMPLES softirq_mask_bench.d_us=$dcsv"
common+=" softirq_mask_bench.probe_us=$BENCH_PROBE_US softirq_mask_bench.defer_ms=$BENCH_DEFER_MS"
# A fine-grained guest clock (TSC instead of jiffies): see the script.
clock=$("$bench/clock-params.sh") || die bench "cannot set up the guest clock (above)" 2

# boot NAME KERNEL RUN [QEMU_EXTRA] [APPEND]: one benchmark boot; sets $console
boot_status=0
boot() {
	local name=$1 kern=$2 run=$3 qextra=${4:-} app=$5
	log bench "booting $name: run=$run${qextra:+ with $qextra}"
	QEMU_EXTRA=$qextra APPEND="softirq_mask_bench.run=$run $app ${APPEND:-}" \
		BOOT_NAME="$name" BOOT_TIMEOUT=$BENCH_TIMEOUT \
		"$TOP/scripts/kernel/boot-kernel.sh" "$kern" smoke || boot_status=$?
	console="$OUT/boot/$name/console.log"
	[ -s "$console" ] || die bench "the benchmark boot $name left no console log at $console" 1
	cp "$console" "$RESULTS/raw/$name-console.txt"
}

boot bench-micro "$kernel" overhead,latency,deferral "" "$common $clock"
core_console=$console
grep -E 'BENCH' "$core_console" | sed 's/^\[ *[0-9.]*\] //' >"$RESULTS/raw/bench-micro.txt" || true
cp "$OUT/build/$BENCH_VARIANT/config" "$RESULTS/raw/bench-kernel.config" 2>/dev/null || true
sumargs=()
if [ "$BENCH_BASE" = 1 ]; then
	boot bench-base-micro "$OUT/build/bench-base/bzImage" overhead,deferral "" "$common $clock"
	sumargs+=(--base-console "$console")
fi
if [ "$BENCH_ICOUNT_ROUNDS" -gt 0 ]; then
	# One guest nanosecond per instruction: -icount shift=0 and a 1 GHz TSC;
	# one vCPU (with two, the boot stalls bringing up the second under -icount)
	icount="softirq_mask_bench.rounds=$BENCH_ICOUNT_ROUNDS softirq_mask_bench.iters=100000"
	icount+=" tsc_early_khz=1000000 tsc=reliable no_timer_check"
	boot bench-icount "$kernel" overhead "-icount shift=0 -smp 1" "$icount"
	sumargs+=(--icount-console "$console")
	if [ "$BENCH_BASE" = 1 ]; then
		boot bench-base-icount "$OUT/build/bench-base/bzImage" overhead "-icount shift=0 -smp 1" "$icount"
		sumargs+=(--base-icount-console "$console")
	fi
fi
if [ "$BENCH_SIZES" = 1 ] && [ "$BENCH_BASE" = 1 ]; then
	"$bench/object-sizes.sh" "$res/sizes.md" "pristine=$OUT/build/bench-base/objs" \
		"core=$OUT/build/$BENCH_VARIANT/objs" "converted=$OUT/build/bench-net/objs" ||
		die bench "measuring the object sizes failed (above)" 1
	sumargs+=(--sizes "$res/sizes.md")
fi

rev=$(cat "$OUT/build/$BENCH_VARIANT/rev" 2>/dev/null || echo unknown)
cond="Conditions: $(date -u +%Y-%m-%d), Linux $(make -s -C "$TREE" kernelversion 2>/dev/null || echo 6.1) + core-patches + scripts/bench (commit ${rev:0:12})$([ "$BENCH_BASE" = 1 ] && echo ", and pristine 6.1 + the benchmark driver"),"
cond+=" config tinyconfig + $(for f in $KFRAGMENTS; do printf '%s ' "${f##*/}"; done)(guest-nolockdep.config: guest.config without PROVE_LOCKING, DEBUG_LOCKING_API_SELFTESTS, DEBUG_ATOMIC_SLEEP; the series' kernels add bench-kunit.config);"
cond+=" QEMU $(qemu-system-x86_64 --version | sed -n '1s/.*version \([^ ]*\).*/\1/p') TCG (no KVM), $(grep -A1 -- '-smp' "$TOP/scripts/qemu/x86_64.args" | tail -n 1) guest CPUs, -cpu max,"
cond+=" guest clock: TSC ($clock),"
cond+=" on a host with $(nproc) CPUs (load average $(cut -d' ' -f1-3 /proc/loadavg) at the end, QEMU included). Under TCG absolute times are inflated: compare the columns, not the numbers with real hardware."
sum_status=0
"$TOP/scripts/bench/summarize-bench.py" micro "$core_console" "$RESULTS" --expect-d "${dlist[*]}" \
	--expect-rounds "$BENCH_ROUNDS" --conditions "$cond" "${sumargs[@]}" >"$res/summary.txt" || sum_status=$?
cat "$res/summary.txt"

e2e_status=0
if [ -n "$BENCH_E2E" ]; then
	read -r -a e2e <<<"$BENCH_E2E"
	RESULTS=$RESULTS "$TOP/scripts/bench/run-bench-e2e.sh" "${e2e[@]}" || e2e_status=$?
fi

if [ "$sum_status" -ne 0 ] || [ "$boot_status" -ne 0 ]; then
	result bench FAIL "micro-benchmarks incomplete (boot status $boot_status, summary status $sum_status); see $res/summary.txt"
	exit 1
fi
if [ "$e2e_status" -ne 0 ]; then
	result bench FAIL "end-to-end comparison failed (status $e2e_status)"
	exit 1
fi
result bench PASS "$RESULTS/bench.md$([ -n "$BENCH_E2E" ] && echo " and $RESULTS/bench-e2e.md") in $((SECONDS - t_start))s"
