#!/usr/bin/env bash
# test-bench.sh: smoke test of the benchmarks (not a measurement).  Checks
# the benchmark patch with checkpatch --strict, replays the summarizer on the
# committed console log of the last full run, applies scripts/bench/ on tag
# core as tag "bench", builds it in the configuration make bench uses
# (guest.config without lock debugging, tracing.config, bench.config and
# bench-kunit.config: the core series' KUnit suite), boots a tiny benchmark
# (1 round, few iterations, one D) with the KUnit suite, and checks every
# BENCH line, the summary table and the KUnit cases of the fast path.
#
# Needs the core suite's state (tag core, the core kernel built from it):
# run after it (SUITES="core bench"); alone it fails at once, saying so.
#
# Env: BENCH_TEST_KFRAGMENTS overrides the fragments (e.g. to reuse another
#      build folder).  Ends with "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=tests/lib-test.sh
. tests/lib-test.sh
# shellcheck source=scripts/lib.sh
. scripts/lib.sh

logs="$OUT/check/bench"
rm -rf "$logs"
mkdir -p "$logs"
touch "$logs/.start"
require_core_state bench
# Every patch of the benchmark series, not only the first.
while read -r patch; do
	if [ -d "$TREE/.git" ] && out=$(cd "$TREE" && PATH=/usr/bin:$PATH scripts/checkpatch.pl --strict -q "$TOP/scripts/bench/$patch" 2>&1); then
		ok "checkpatch --strict $patch"
	else
		not_ok "checkpatch --strict $patch" "errors or warnings (or no tree at $TREE):"
		printf '%s\n' "${out:-}" | first_lines 20 | sed 's/^/    /'
	fi
done < <(sed 's/#.*//; /^[[:space:]]*$/d' scripts/bench/series)

# The summarizer on the saved console of the last full run (no kernel needed).
saved=results/raw/bench-micro-console.txt
if [ -f "$saved" ]; then
	expect_status "summarizer reads the saved full-run console" 0 "$logs/replay.log" \
		scripts/bench/summarize-bench.py micro "$saved" "$logs/replay" --no-plots
	expect_grep "replayed table has the overhead ratio" '^\| spin_lock_bh_mask \| idle \| [0-9.]+ ' "$logs/replay/bench.md"
	expect_bench_verdicts "$logs/replay/bench.md"
else
	echo "SKIPPED replay: no $saved yet (run make bench once)"
fi
# ... and on a truncated copy, which must be reported as incomplete.
if [ -f "$saved" ]; then
	grep -v 'BENCH-END' "$saved" | first_lines 200 >"$logs/truncated.txt"
	expect_status "summarizer flags a run without BENCH-END" 1 "$logs/truncated.log" \
		scripts/bench/summarize-bench.py micro "$logs/truncated.txt" "$logs/truncated" --no-plots
fi

# A tiny real run, on the kernel make bench measures: no lock debugging,
# so the inline fast path of the masking API is what runs, with the core
# series' KUnit suite built in (bench.config).  The lockdep kernels of the
# core suite never run that path; this boot is where the suite checks it.
sed -f scripts/bench/nolockdep.sed scripts/kconfig/guest.config >"$logs/guest-nolockdep.config"
frags=${BENCH_TEST_KFRAGMENTS:-"$logs/guest-nolockdep.config $TOP/scripts/bench/tracing.config $TOP/scripts/bench/e2e-devices.config $TOP/scripts/bench/bench.config $TOP/scripts/bench/bench-kunit.config"}
expect_status "benchmark patch applies on core (tag bench)" 0 "$logs/apply.log" \
	scripts/kernel/apply-patches.sh scripts/bench core bench
expect_status "bench kernel builds" 0 "$logs/build.log" \
	env KFRAGMENTS="$frags" scripts/kernel/build-kernel.sh bench bench
expect_status "initramfs builds" 0 "$logs/initramfs.log" scripts/kernel/make-initramfs.sh
append="softirq_mask_bench.run=overhead,latency,deferral softirq_mask_bench.rounds=1"
append+=" softirq_mask_bench.iters=2000 softirq_mask_bench.samples=20"
append+=" softirq_mask_bench.d_us=100 softirq_mask_bench.probe_us=500 softirq_mask_bench.defer_ms=1000"
append+=" $(scripts/bench/clock-params.sh 2>/dev/null || echo no_timer_check)"
expect_status "tiny benchmark boots without warnings or lockdep reports" 0 "$logs/boot.log" \
	env APPEND="$append" BOOT_NAME=bench-smoke BOOT_TIMEOUT=600 BOOT_EXPECT_KUNIT=softirq_mask \
	scripts/kernel/boot-kernel.sh bench smoke
console="$OUT/boot/bench-smoke/console.log"
expect_fresh "benchmark console written by this run" "$console" "$logs/.start"
[ -f "$console" ] || : >"$console" # the checks below then fail, one by one
bcfg="$OUT/build/bench/config"
expect_grep "the benchmark kernel's configuration was kept" '^CONFIG_SOFTIRQ_MASK_KUNIT_TEST=y$' "$bcfg"
expect_no_grep "the benchmark kernel has no lock debugging" '^CONFIG_(PROVE_LOCKING|DEBUG_SOFTIRQ_MASK|TRACE_IRQFLAGS)=y' "$bcfg"
# The cases that once failed only here (issue 34, item 10), and the cases
# of deferral and leaked sections, in the kernel production runs.
for c in masked_timer_fires_once_at_section_end masked_timer_fires_once_after_irqs_off_end \
	masked_timer_in_tasklet_fires_once_after unmasked_vectors_run_in_net_rx_section \
	each_vector_served_while_ksoftirqd_runnable flooding_vector_is_deferred_alone \
	leaked_section_is_forgotten each_vector_served_in_opening_window; do
	expect_grep "non-debug kernel: kunit case $c passed" "^    ok +softirq_mask\\.$c\$" "$OUT/boot/bench-smoke/summary.txt"
done
for v in HI TASKLET HI/whole-budget TASKLET/whole-budget; do
	expect_grep "non-debug kernel: a $v flood is deferred alone" "^    ok +flooding_vector_is_deferred_alone\\.$v\$" "$OUT/boot/bench-smoke/summary.txt"
done
for api in spin_lock_bh spin_lock_bh_mask local_bh_disable local_bh_disable_mask; do
	for path in idle pending; do
		expect_grep "overhead line for $api ($path)" "BENCH overhead api=$api path=$path round=0 iters=2000 total_ns=[1-9][0-9]* " "$console"
	done
done
# The deferral benchmark: both probes measured under the flood while the
# competitor ran, and the flood protection of 6.1 kept: the competing task
# still gets a fair part of its CPU (a fifth at least; about half is fair).
for vec in BLOCK HRTIMER; do
	expect_grep "deferral floor line for $vec" "BENCH deferral mode=floor round=0 vec=$vec class=[a-z]+ n=[1-9]" "$console"
	expect_grep "deferral line for $vec raised while the task ran" "BENCH deferral mode=load round=0 vec=$vec class=task n=[1-9]" "$console"
done
share=$(sed -n 's/.*BENCH deferral-load round=0 .*hog_share_pct=\([0-9]*\) polls=\([0-9]*\).*/\1 \2/p' "$console")
read -r pct polls <<<"${share:-0 0}"
expect_status "the NET_RX flood ran ($polls polls)" 0 /dev/null test "$polls" -gt 0
expect_status "the competing task kept $pct% of its CPU under the flood (>= 20%)" 0 /dev/null test "$pct" -ge 20
for vec in HRTIMER TASKLET; do
	expect_grep "latency floor line for $vec" "BENCH latency vec=$vec mode=none D_us=0 round=0 n=20 " "$console"
	for mode in bh mask; do
		expect_grep "latency line for $vec $mode D=100" "BENCH latency vec=$vec mode=$mode D_us=100 round=0 n=20 min_ns=" "$console"
	done
done
expect_grep "benchmark ends without errors" "BENCH-END errors=0" "$console"
expect_status "summarizer accepts the tiny run (all lines, sane figures)" 0 "$logs/summary.log" \
	scripts/bench/summarize-bench.py micro "$console" "$logs/smoke" --expect-d 100 --expect-rounds 1
expect_grep "table has the local_bh_disable_mask row" '^\| local_bh_disable_mask \| pending \| [0-9.]+ ' "$logs/smoke/bench.md"
expect_bench_verdicts "$logs/smoke/bench.md"
expect_grep "table has the masked 100 us row" '^\| TASKLET \| 100 \| mask \| ' "$logs/smoke/bench.md"
# The end-to-end path of make bench-e2e, on the same kernel (it has the
# virtio-blk driver and the tracepoints): one untraced and one traced boot
# of 2 s. It measures nothing; it checks that the victim disk is placed,
# that its BLOCK raises and the soft hrtimers' HRTIMER raises happen in
# hard irq (run-bench-e2e.sh fails otherwise), that the trace comes out
# through its disk and that the summary's tables are filled.
e2e="$logs/e2e"
expect_status "end-to-end smoke: one untraced and one traced boot of the bench kernel" 0 "$logs/e2e.log" \
	env E2E_ROUNDS=1 E2E_TRACE_ROUNDS=1 E2E_SECS=2 E2E_BLAME= E2E_CONTROL= E2E_SERIES=core \
	RESULTS="$e2e" BENCH_TIMEOUT=600 scripts/bench/run-bench-e2e.sh "base=bench" "core=bench"
for k in base-r1 core-t1; do
	c="$e2e/raw/e2e/$k.txt"
	[ -f "$c" ] || : >"$c"
	expect_grep "e2e $k: the disk's interrupt and the load share a CPU, the reader has the other" \
		'BENCH-E2E placement victim=vd[a-z] irq=[0-9]+ irq_cpu=([0-9]) load_cpu=\1 reader_cpu=[0-9] place=together' "$c"
	expect_no_grep "e2e $k: the reader is not on the interrupt's CPU" 'irq_cpu=([0-9]) .*reader_cpu=\1 ' "$c"
	expect_grep "e2e $k: reads completed" 'VICTIMS block n=[1-9][0-9]* missed=[0-9]+ errors=0 ' "$c"
	expect_grep "e2e $k: BLOCK ran on the interrupt's CPU" 'BENCH-E2E softirqs cpu=[0-9] vec=BLOCK count=[1-9]' "$c"
	expect_grep "e2e $k: the paced flow moved data" 'VICTIMS paced bytes=[1-9]' "$c"
	for p in loopback veth veth6; do
		expect_grep "e2e $k: traffic on $p at the same time" "TRAFFIC path=$p proto=tcp .* lost=0 " "$c"
	done
	# the console's lines end in CR LF
	expect_grep "e2e $k: the plan ended" $'BENCH-E2E-END\r?$' "$c"
	expect_grep "e2e $k: the host's load recorded" '^HOST-LOAD before=[0-9.]+,' "$c"
done
expect_grep "e2e: the untraced round traced nothing" 'BENCH-E2E trace=off lost=0 bytes=0 disk=none' "$e2e/raw/e2e/base-r1.txt"
expect_grep "e2e: the traced boot wrote its trace to its disk" \
	'BENCH-E2E trace=on lost=0 bytes=[1-9][0-9]* disk=vd[a-z]' "$e2e/raw/e2e/core-t1.txt"
md="$e2e/e2e.md"
expect_grep "e2e summary has the read latency row" '^\| read latency p99, µs \| [0-9.]+ \|' "$md"
# both kernels are traced once: a column each
expect_grep "e2e summary has BLOCK raised in hard irq only" '^\| BLOCK waits \(hard irq raises / all raises\) \| ([1-9][0-9]*) / \1 \| ([1-9][0-9]*) / \2 \|$' "$md"
expect_grep "e2e summary has HRTIMER raised in hard irq only" '^\| HRTIMER waits \(hard irq raises / all raises\) \| ([1-9][0-9]*) / \1 \| ([1-9][0-9]*) / \2 \|$' "$md"
expect_grep "e2e summary splits the tail" '^\| named \| [0-9.]+% \| [0-9.]+% \|$' "$md"
expect_grep "e2e summary says who served" '^\| core \| BLOCK \(all\) \| [1-9][0-9]* \| ' "$md"
tally
