#!/usr/bin/env bash
# run-bench.sh: the per-vector softirq masking micro-benchmarks (make bench).
# Applies the benchmark patch (scripts/bench/series) on tag "core" as tag
# "bench", builds it without lock debugging, boots it in QEMU with the
# benchmark asked for on the command line, and summarizes the console.
# With BENCH_E2E set, it then runs scripts/bench/run-bench-e2e.sh on those kernels.
#
# Usage: run-bench.sh
# Reads:  scripts/bench/{series,*.patch,bench.config,tracing.config,nolockdep.sed},
#         scripts/kconfig/guest.config, $TREE (tag core)
# Writes: tag "bench" in $TREE, $OUT/build/$BENCH_VARIANT/, $OUT/bench/,
#         $OUT/boot/bench-micro/, and $RESULTS/{bench.md,*.png,data/,raw/}
# Env:    BENCH_ROUNDS (9), BENCH_ITERS (500000), BENCH_SAMPLES (300),
#         BENCH_D_US ("10 100 1000"), BENCH_PROBE_US (700),
#         BENCH_VARIANT (bench), BENCH_KFRAGMENTS (default: guest.config
#         without lockdep + tracing.config + bench.config), BENCH_BUILD
#         (1; 0 boots the kernel already built), BENCH_TIMEOUT (1800 s),
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
BENCH_VARIANT=${BENCH_VARIANT:-bench}
BENCH_BUILD=${BENCH_BUILD:-1}
BENCH_TIMEOUT=${BENCH_TIMEOUT:-1800}
BENCH_E2E=${BENCH_E2E:-}
RESULTS=${RESULTS:-$TOP/results}

[ $# -eq 0 ] || die bench "usage: $0 (settings come from the environment, see the header)" 2
for v in BENCH_ROUNDS BENCH_ITERS BENCH_SAMPLES BENCH_PROBE_US BENCH_TIMEOUT; do
	case ${!v} in '' | *[!0-9]*) die bench "$v must be a positive number, not '${!v}'" 2 ;; esac
	[ "${!v}" -gt 0 ] || die bench "$v must be a positive number, not '${!v}'" 2
done
read -r -a dlist <<<"$BENCH_D_US"
if [ ${#dlist[@]} -lt 1 ] || [ ${#dlist[@]} -gt 8 ]; then
	die bench "BENCH_D_US takes 1 to 8 section lengths, not '$BENCH_D_US'" 2
fi
for d in "${dlist[@]}"; do
	case $d in *[!0-9]* | 0*) die bench "BENCH_D_US: '$d' is not a positive number of microseconds" 2 ;; esac
done
case $BENCH_BUILD in 0 | 1) ;; *) die bench "BENCH_BUILD must be 0 or 1, not '$BENCH_BUILD'" 2 ;; esac
need_tool bench python3 sed

log bench "start: rounds=$BENCH_ROUNDS iters=$BENCH_ITERS samples=$BENCH_SAMPLES D_us='$BENCH_D_US' results in $RESULTS"
res="$OUT/bench"
mkdir -p "$res" "$RESULTS/raw"
bench="$TOP/scripts/bench"

# The guest fragment without lock debugging, derived from guest.config so
# that both stay in step; build-kernel.sh checks every option landed.
sed -f "$bench/nolockdep.sed" "$TOP/scripts/kconfig/guest.config" >"$res/guest-nolockdep.config"
KFRAGMENTS=${BENCH_KFRAGMENTS:-"$res/guest-nolockdep.config $bench/tracing.config $bench/bench.config"}

if [ "$BENCH_BUILD" = 1 ]; then
	log bench "applying scripts/bench/series on core as tag bench"
	"$TOP/scripts/kernel/apply-patches.sh" "$bench" core bench ||
		die bench "the benchmark patch does not apply on core; see above" 1
	log bench "building $BENCH_VARIANT (fragments: $(for f in $KFRAGMENTS; do printf '%s ' "${f##*/}"; done))"
	KFRAGMENTS=$KFRAGMENTS "$TOP/scripts/kernel/build-kernel.sh" "$BENCH_VARIANT" bench ||
		die bench "building the benchmark kernel failed; log: $OUT/build/$BENCH_VARIANT/log" 1
fi
kernel="$OUT/build/$BENCH_VARIANT/bzImage"
[ -f "$kernel" ] || die bench "no kernel at $kernel; run with BENCH_BUILD=1" 2
"$TOP/scripts/kernel/make-initramfs.sh" >/dev/null || die bench "building the initramfs failed" 1

dcsv=$(tr ' ' ',' <<<"${dlist[*]}")
append="softirq_mask_bench.run=overhead,latency softirq_mask_bench.rounds=$BENCH_ROUNDS"
append+=" softirq_mask_bench.iters=$BENCH_ITERS softirq_mask_bench.samples=$BENCH_SAMPLES"
append+=" softirq_mask_bench.d_us=$dcsv softirq_mask_bench.probe_us=$BENCH_PROBE_US"
# A fine-grained guest clock (TSC instead of jiffies): see the script.
clock=$("$bench/clock-params.sh") || die bench "cannot set up the guest clock (above)" 2
append+=" $clock"
log bench "booting $kernel: $append"
boot_status=0
APPEND="$append ${APPEND:-}" BOOT_NAME=bench-micro BOOT_TIMEOUT=$BENCH_TIMEOUT \
	"$TOP/scripts/kernel/boot-kernel.sh" "$kernel" smoke || boot_status=$?
console="$OUT/boot/bench-micro/console.log"
[ -s "$console" ] || die bench "the benchmark boot left no console log at $console" 1

# Raw outputs: the whole console, the BENCH lines alone, the kernel config.
cp "$console" "$RESULTS/raw/bench-micro-console.txt"
grep -E 'BENCH' "$console" | sed 's/^\[ *[0-9.]*\] //' >"$RESULTS/raw/bench-micro.txt" || true
cp "$OUT/build/$BENCH_VARIANT/config" "$RESULTS/raw/bench-kernel.config" 2>/dev/null || true

rev=$(cat "$OUT/build/$BENCH_VARIANT/rev" 2>/dev/null || echo unknown)
cond="Conditions: $(date -u +%Y-%m-%d), Linux $(make -s -C "$TREE" kernelversion 2>/dev/null || echo 6.1) + core-patches + scripts/bench (commit ${rev:0:12}),"
cond+=" config tinyconfig + $(for f in $KFRAGMENTS; do printf '%s ' "${f##*/}"; done)(guest-nolockdep.config: guest.config without PROVE_LOCKING, DEBUG_LOCKING_API_SELFTESTS, DEBUG_ATOMIC_SLEEP);"
cond+=" QEMU $(qemu-system-x86_64 --version | sed -n '1s/.*version \([^ ]*\).*/\1/p') TCG (no KVM), $(grep -A1 -- '-smp' "$TOP/scripts/qemu/x86_64.args" | tail -n 1) guest CPUs, -cpu max,"
cond+=" guest clock: TSC ($clock),"
cond+=" on a host with $(nproc) CPUs (load average $(cut -d' ' -f1-3 /proc/loadavg) at the end, QEMU included). Under TCG absolute times are inflated: compare the columns, not the numbers with real hardware."
sum_status=0
"$TOP/scripts/bench/summarize-bench.py" micro "$console" "$RESULTS" --expect-d "${dlist[*]}" \
	--expect-rounds "$BENCH_ROUNDS" --conditions "$cond" >"$res/summary.txt" || sum_status=$?
cat "$res/summary.txt"

e2e_status=0
if [ -n "$BENCH_E2E" ]; then
	read -r -a e2e <<<"$BENCH_E2E"
	RESULTS=$RESULTS "$TOP/scripts/bench/run-bench-e2e.sh" "${e2e[@]}" || e2e_status=$?
fi

if [ "$sum_status" -ne 0 ] || [ "$boot_status" -ne 0 ]; then
	result bench FAIL "micro-benchmarks incomplete (boot status $boot_status, summary status $sum_status); console: $console"
	exit 1
fi
if [ "$e2e_status" -ne 0 ]; then
	result bench FAIL "end-to-end comparison failed (status $e2e_status)"
	exit 1
fi
result bench PASS "$RESULTS/bench.md$([ -n "$BENCH_E2E" ] && echo " and $RESULTS/bench-e2e.md")"
