#!/usr/bin/env bash
# run-bench-e2e.sh: the end-to-end benchmark. While the guest's network is
# busy, how long do the other vectors wait? Boots each kernel E2E_ROUNDS
# times, interleaved (round 1 of every kernel, then round 2, ...), with the
# guest plan bench-e2e (scripts/guest/bench-e2e: guest-traffic on several
# paths at once, softirq-victims' O_DIRECT null_blk reads and paced TCP
# flow, the softirq and timer tracepoints), then boots the tracing kernel
# once to name what the vectors waited behind, and puts it all side by side.
#
# Usage: run-bench-e2e.sh [LABEL=KERNEL ...]
#   KERNEL  a variant built by build-kernel.sh ($OUT/build/NAME/bzImage) or
#           a bzImage path. Default: base=e2e-base core=e2e-core net=e2e-net
#           (scripts/bench/build-e2e-kernels.sh builds them).
# Env:    E2E_ROUNDS (5), E2E_SECS (load seconds per boot, 5),
#         E2E_RATE (BLOCK reads per second, 200), E2E_PATHS
#         (loopback,veth,veth6), E2E_BLAME (the tracing kernel, default
#         e2e-blame when built; empty: none), E2E_BASE / E2E_CONV (labels the
#         target compares, base / net), BENCH_TIMEOUT (seconds per boot,
#         120 * E2E_SECS + 600; the guest's step limit is 60 s less),
#         RESULTS (results/ of the checkout)
# Writes: $OUT/bench-e2e/ (initramfs with the plan, boots),
#         $RESULTS/e2e.md and e2e-*.png, $RESULTS/raw/e2e/LABEL-rN.txt
#         (the consoles)
# Exit:   0 every boot finished its plan and the summary is complete,
#         1 otherwise, 2 bad usage.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

RESULTS=${RESULTS:-$TOP/results}
E2E_ROUNDS=${E2E_ROUNDS:-5}
# 5 s: the guest reads the trace with busybox awk under TCG, about a
# minute per 5 s of load; at 20 s that took more than 5 min per boot
E2E_SECS=${E2E_SECS:-5}
E2E_RATE=${E2E_RATE:-200}
E2E_PATHS=${E2E_PATHS:-loopback,veth,veth6}
E2E_BASE=${E2E_BASE:-base}
E2E_CONV=${E2E_CONV:-net}
for v in E2E_ROUNDS E2E_SECS E2E_RATE; do
	case ${!v} in '' | *[!0-9]* | 0*) die bench-e2e "$v must be a positive number, not '${!v}'" 2 ;; esac
done
# The guest reads its trace itself, about 12 s per second of load on the
# plain kernels and 4 times that on the tracing kernel (every BH stretch
# is an event): the boot's budget grows with the load
BENCH_TIMEOUT=${BENCH_TIMEOUT:-$((E2E_SECS * 120 + 600))}
case $BENCH_TIMEOUT in '' | *[!0-9]* | 0*) die bench-e2e "BENCH_TIMEOUT must be seconds, not '$BENCH_TIMEOUT'" 2 ;; esac
# The guest's own limit per plan step (scripts/guest/init, 300 s unless
# told) must not end the step before the host's limit ends the boot
step_timeout=$((BENCH_TIMEOUT > 120 ? BENCH_TIMEOUT - 60 : BENCH_TIMEOUT / 2))
case $E2E_PATHS in *[!a-z0-9,]* | '') die bench-e2e "E2E_PATHS: comma-separated guest-traffic paths, not '$E2E_PATHS'" 2 ;; esac
need_tool bench-e2e cpio gzip python3

specs=("$@")
[ ${#specs[@]} -gt 0 ] || specs=(base=e2e-base core=e2e-core net=e2e-net)
# kernel_of SPEC: the bzImage a variant name or path stands for, or nothing
kernel_of() {
	if [ -f "$1" ]; then realpath "$1"; elif [ -f "$OUT/build/$1/bzImage" ]; then echo "$OUT/build/$1/bzImage"; fi
}
labels=()
kernels=()
for spec in "${specs[@]}"; do
	label=${spec%%=*}
	k=${spec#*=}
	[ "$label" = "$spec" ] && label=$(basename "$(dirname "$k")")
	case $label in *[!A-Za-z0-9_.-]* | '') die bench-e2e "bad label '$label' (use LABEL=KERNEL)" 2 ;; esac
	path=$(kernel_of "$k")
	[ -n "$path" ] || die bench-e2e "no kernel for '$spec' (neither a file nor $OUT/build/$k/bzImage); run scripts/bench/build-e2e-kernels.sh first" 2
	labels+=("$label")
	kernels+=("$path")
done
blame=${E2E_BLAME-e2e-blame}
blame_kernel=""
if [ -n "$blame" ]; then
	blame_kernel=$(kernel_of "$blame")
	[ -n "$blame_kernel" ] || log bench-e2e "no tracing kernel '$blame': the summary names no section"
fi

# The plan goes into a second cpio member appended to the standard
# initramfs (the kernel unpacks concatenated archives), under a private OUT.
res="$OUT/bench-e2e"
eout="$res/out"
raw="$RESULTS/raw/e2e"
rm -rf "${res:?}/overlay" "${eout:?}/boot"
mkdir -p "$eout/initramfs" "$res/overlay/plans" "$raw"
"$TOP/scripts/kernel/make-initramfs.sh" >/dev/null || die bench-e2e "building the initramfs failed" 1
printf '# written by run-bench-e2e.sh\ne2e bench-e2e %s %s %s\n' "$E2E_SECS" "$E2E_PATHS" "$E2E_RATE" \
	>"$res/overlay/plans/bench-e2e.plan"
{
	cat "$OUT/initramfs/initramfs.cpio.gz"
	(cd "$res/overlay" && find plans -print0 | LC_ALL=C sort -z |
		cpio --null -o -H newc --owner 0:0 --quiet | gzip -9)
} >"$eout/initramfs/initramfs.cpio.gz"

clock=$("$TOP/scripts/bench/clock-params.sh") || die bench-e2e "cannot set up the guest clock (above)" 2
failed=0
runs=()
start=$SECONDS
total=$((E2E_ROUNDS * ${#kernels[@]}))
n=0
# boot_one KERNEL NAME: one boot of the plan; its console goes to
# $raw/NAME.txt. no_hash_pointers: the trace tells hrtimers apart by their
# address, which hashed pointers hide.
boot_one() {
	local status=0
	OUT=$eout APPEND="plan=bench-e2e step_timeout=$step_timeout $clock no_hash_pointers ${APPEND:-}" \
		BOOT_NAME="e2e-$2" BOOT_TIMEOUT=$BENCH_TIMEOUT \
		"$TOP/scripts/kernel/boot-kernel.sh" "$1" smoke >"$res/boot-$2.log" 2>&1 || status=$?
	if [ -f "$eout/boot/e2e-$2/console.log" ]; then
		cp "$eout/boot/e2e-$2/console.log" "$raw/$2.txt"
	else
		: >"$raw/$2.txt"
	fi
	if [ "$status" -ne 0 ]; then
		log bench-e2e "$2: the boot did not pass (status $status; $res/boot-$2.log); its figures may be incomplete"
		failed=$((failed + 1))
	fi
}
rm -f "${raw:?}"/*.txt
for r in $(seq 1 "$E2E_ROUNDS"); do
	for i in "${!kernels[@]}"; do
		n=$((n + 1))
		log bench-e2e "[$n/$total] round $r, ${labels[$i]} ($((SECONDS - start))s so far)"
		boot_one "${kernels[$i]}" "${labels[$i]}-r$r"
		runs+=(--run "${labels[$i]}=$raw/${labels[$i]}-r$r.txt")
	done
done
blame_args=()
if [ -n "$blame_kernel" ]; then
	log bench-e2e "tracing kernel $blame: who the vectors wait behind ($((SECONDS - start))s so far)"
	boot_one "$blame_kernel" blame
	blame_args=(--blame "$raw/blame.txt")
fi

hz=$(sed -n 's/^CONFIG_HZ=//p' "$(dirname "${kernels[0]}")/config" 2>/dev/null || true)
cond="Conditions: $(date -u +%Y-%m-%d), QEMU TCG, $(grep -A1 -- '-smp' "$TOP/scripts/qemu/x86_64.args" | tail -n 1) guest CPUs,"
cond+=" guest clock TSC ($clock); per boot ${E2E_SECS} s of load: guest-traffic on ${E2E_PATHS} at the same time"
cond+=" (one TCP and one UDP flow per path), softirq-victims: ${E2E_RATE} O_DIRECT 4 KiB null_blk reads/s (irqmode=1,"
cond+=" one hardware queue: completion in BLOCK_SOFTIRQ) and a TCP flow paced at 512 KB/s (soft hrtimers);"
cond+=" rounds interleaved; kernels: $(for i in "${!kernels[@]}"; do printf '%s=%s ' "${labels[$i]}" "${kernels[$i]}"; done)"
[ -n "$blame_kernel" ] && cond+="; tracing kernel: $blame_kernel (CONFIG_SOFTIRQ_BH_BLAME, one boot after the rounds)"
cond+="; host: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end. Under TCG absolute times are inflated: compare the columns."
sum_status=0
"$TOP/scripts/bench/summarize-e2e.py" "$RESULTS" "${runs[@]}" "${blame_args[@]}" \
	--base "$E2E_BASE" --conv "$E2E_CONV" ${hz:+--hz "$hz"} --conditions "$cond" \
	>"$res/summary.txt" || sum_status=$?
cat "$res/summary.txt"
if [ "$failed" -ne 0 ] || [ "$sum_status" -ne 0 ]; then
	result bench-e2e FAIL "$failed boots failed, summary status $sum_status; see $RESULTS/e2e.md"
	exit 1
fi
result bench-e2e PASS "$RESULTS/e2e.md: $total boots${blame_kernel:+ + 1 tracing boot} in $((SECONDS - start))s"
