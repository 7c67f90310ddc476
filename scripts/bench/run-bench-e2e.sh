#!/usr/bin/env bash
# run-bench-e2e.sh: run the same end-to-end guest plan (scripts/bench/plans/
# bench-e2e.plan: traffic with the softirq tracepoints on) on two or more
# kernels, one after the other, and put their figures side by side.
#
# Usage: run-bench-e2e.sh KERNEL KERNEL [KERNEL...]
#   KERNEL  a variant built by build-kernel.sh ($OUT/build/NAME/bzImage), a
#           path to a bzImage, or LABEL=either of those
# Reads:  the kernels, scripts/bench/plans/*.plan, the initramfs of
#         make-initramfs.sh (it carries scripts/guest/bench-e2e)
# Writes: $OUT/bench-e2e/ (initramfs with the bench plans, boots),
#         $RESULTS/bench-e2e.md, $RESULTS/raw/e2e-LABEL-console.txt
# Env:    RESULTS (results/ of the checkout), BENCH_TIMEOUT (900 s per boot)
# A kernel without tracefs still gives traffic and /proc/softirqs figures;
# scripts/bench/tracing.config adds the tracepoints (raise-to-entry delays).
# Exit:   0 every kernel ran the plan to its end, 1 otherwise, 2 bad usage.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

RESULTS=${RESULTS:-$TOP/results}
BENCH_TIMEOUT=${BENCH_TIMEOUT:-900}
case $BENCH_TIMEOUT in '' | *[!0-9]*) die bench-e2e "BENCH_TIMEOUT must be seconds, not '$BENCH_TIMEOUT'" 2 ;; esac
[ $# -ge 2 ] || die bench-e2e "usage: $0 KERNEL KERNEL [KERNEL...] (variant, bzImage path, or LABEL=either)" 2
need_tool bench-e2e cpio gzip python3

labels=()
kernels=()
for spec in "$@"; do
	label=${spec%%=*}
	k=${spec#*=}
	[ "$label" = "$spec" ] && label=$(basename "$(dirname "$k")")
	[ -f "$k" ] || k="$OUT/build/$k/bzImage"
	[ -f "$k" ] || die bench-e2e "no kernel for '$spec' (neither a file nor $k); build it first" 2
	case $label in *[!A-Za-z0-9_.-]* | '') die bench-e2e "bad label '$label' (use LABEL=KERNEL)" 2 ;; esac
	labels+=("$label")
	kernels+=("$(realpath "$k")")
done

# boot-kernel.sh boots $OUT/initramfs/initramfs.cpio.gz with a plan from
# scripts/guest/plans/.  The bench plans live in scripts/bench/plans/, so
# they go into a second cpio member appended to the standard initramfs
# (the kernel unpacks concatenated archives), under a private OUT, and the
# plan is named on the command line (init takes the last plan=).
res="$OUT/bench-e2e"
eout="$res/out"
mkdir -p "$eout/initramfs" "$res/overlay/plans" "$RESULTS/raw"
"$TOP/scripts/kernel/make-initramfs.sh" >/dev/null || die bench-e2e "building the initramfs failed" 1
cp "$TOP"/scripts/bench/plans/*.plan "$res/overlay/plans/"
{
	cat "$OUT/initramfs/initramfs.cpio.gz"
	(cd "$res/overlay" && find plans -print0 | LC_ALL=C sort -z |
		cpio --null -o -H newc --owner 0:0 --quiet | gzip -9)
} >"$eout/initramfs/initramfs.cpio.gz"

# A fine-grained guest clock, the same for every kernel (see the script).
clock=$("$TOP/scripts/bench/clock-params.sh") || die bench-e2e "cannot set up the guest clock (above)" 2
failed=0
specs=()
for i in "${!kernels[@]}"; do
	label=${labels[$i]}
	log bench-e2e "[$((i + 1))/${#kernels[@]}] $label: ${kernels[$i]}"
	status=0
	OUT=$eout APPEND="plan=bench-e2e $clock ${APPEND:-}" BOOT_NAME="e2e-$label" BOOT_TIMEOUT=$BENCH_TIMEOUT \
		"$TOP/scripts/kernel/boot-kernel.sh" "${kernels[$i]}" smoke || status=$?
	console="$eout/boot/e2e-$label/console.log"
	if [ "$status" -ne 0 ]; then
		log bench-e2e "$label: the boot did not pass (status $status); its figures may be incomplete"
		failed=$((failed + 1))
	fi
	[ -f "$console" ] && cp "$console" "$RESULTS/raw/e2e-$label-console.txt"
	specs+=("$label=$console")
done

cond="Conditions: $(date -u +%Y-%m-%d), QEMU TCG, -smp 2, guest clock TSC ($clock), plan bench-e2e (guest-traffic 5 s per path: loopback and veth, IPv4 and IPv6, TCP and UDP), kernels run one after the other in this run: $(for i in "${!kernels[@]}"; do printf '%s=%s ' "${labels[$i]}" "${kernels[$i]}"; done)"
sum_status=0
"$TOP/scripts/bench/summarize-bench.py" e2e "$RESULTS" "${specs[@]}" --conditions "$cond" || sum_status=$?
if [ "$failed" -ne 0 ] || [ "$sum_status" -ne 0 ]; then
	result bench-e2e FAIL "$failed of ${#kernels[@]} boots failed, summary status $sum_status; see $RESULTS/bench-e2e.md"
	exit 1
fi
result bench-e2e PASS "$RESULTS/bench-e2e.md (${labels[*]})"
