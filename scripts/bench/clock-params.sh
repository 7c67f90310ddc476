#!/usr/bin/env bash
# clock-params.sh: print the kernel command-line parameters that give the
# TCG guest a fine-grained clock, for the benchmark boots.
#
# Without them, the tinyconfig guest (no ACPI, so no HPET or PM timer to
# calibrate against) fails TSC calibration under TCG and falls back to the
# refined-jiffies clocksource: ktime and the trace clock then move in 4 ms
# steps (HZ=250) and hrtimers cannot switch to high resolution, which makes
# microsecond latencies unmeasurable.  Under TCG (no icount) the guest's
# RDTSC reads the host's TSC, so the host's TSC frequency is the right one:
#   tsc_early_khz=  skip calibration, use this frequency
#   tsc=reliable    no clocksource watchdog (it would compare against jiffies)
#   no_timer_check  skip the IO-APIC timer check, which a loaded host fails
# Env: BENCH_TSC_KHZ overrides the frequency read from /proc/cpuinfo.
set -euo pipefail
khz=${BENCH_TSC_KHZ:-}
if [ -z "$khz" ]; then
	khz=$(awk -F': *' '/^cpu MHz/ { printf "%d\n", $2 * 1000; exit }' /proc/cpuinfo)
fi
case $khz in '' | *[!0-9]* | 0) echo "clock-params: cannot tell the host's TSC frequency; set BENCH_TSC_KHZ" >&2; exit 2 ;; esac
echo "tsc_early_khz=$khz tsc=reliable no_timer_check"
