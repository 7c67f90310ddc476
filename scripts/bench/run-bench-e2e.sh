#!/usr/bin/env bash
# run-bench-e2e.sh: the end-to-end benchmark. While the guest's network is
# busy, how long do a block completion and a soft hrtimer, both raised in
# hard interrupt context, wait for their softirq? And which waits do
# per-vector deferral and masked sections remove?
#
# Every boot gets two virtio-blk disks: the victim (QEMU's null-co backend,
# reads zeroes after E2E_LATENCY_NS) and an empty image the guest writes
# its trace to. The guest plan (scripts/guest/bench-e2e) puts the disk's
# interrupt, the network load and the paced flow on one CPU and the reader
# on the other. Per kernel:
#   E2E_ROUNDS latency rounds without tracing (read latency, throughput),
#   interleaved over the kernels (round 1 of each, then round 2, ...);
#   E2E_TRACE_ROUNDS traced boots, interleaved the same way, whose traces
#   scripts/bench/e2e-trace.py reads (raise-to-entry, the blame split, who
#   served each wait, handler run times); a traced boot fails when a BLOCK
#   or HRTIMER raise was not in hard interrupt context.
# Then one traced boot of the tracing kernel (E2E_BLAME: names the
# sections), and traced control boots (E2E_CONTROL kernels) with the load
# on the reader's CPU.
#
# Usage: run-bench-e2e.sh [LABEL=KERNEL ...]
#   KERNEL  a variant built by build-kernel.sh ($OUT/build/NAME/bzImage) or
#           a bzImage path. Default: base=e2e-base defer=e2e-defer
#           core=e2e-core net=e2e-net hand=e2e-hand
#           (scripts/bench/build-e2e-kernels.sh builds them).
# Env:    E2E_ROUNDS (5), E2E_TRACE_ROUNDS (1), E2E_SECS (load seconds per
#         boot, 5), E2E_RATE (reads per second, 200), E2E_PATHS
#         (loopback,veth,veth6), E2E_LATENCY_NS (the disk's latency, 50000),
#         E2E_BLAME (the tracing kernel, default e2e-blame when built;
#         empty: none), E2E_CONTROL (labels booted once more with the load
#         on the reader's CPU; default: the first and the last label),
#         E2E_BASE (base), E2E_SERIES (the labels of the proposed series,
#         default defer,core,net: the best of them is judged against the
#         base), E2E_BOUND (the hand-masked upper bound's label, hand),
#         BENCH_TIMEOUT (seconds per boot, 60 * E2E_SECS + 600),
#         RESULTS (results/ of the checkout)
# Writes: $OUT/bench-e2e/ (initramfs with the plans, the trace disk, and
#         per traced boot traces/NAME.trace.gz and NAME.json), $RESULTS/e2e.md and e2e-*.png,
#         $RESULTS/raw/e2e/LABEL-{rN,tN,control,blame}.txt (the consoles,
#         with the host's load average before and after each boot) and
#         NAME.json.gz (each traced boot's figures, from e2e-trace.py)
# Exit:   0 every boot finished its plan, every trace shows the victims
#         raised in hard irq and the summary is complete; 1 otherwise;
#         2 bad usage.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

RESULTS=${RESULTS:-$TOP/results}
E2E_ROUNDS=${E2E_ROUNDS:-5}
E2E_TRACE_ROUNDS=${E2E_TRACE_ROUNDS:-1}
E2E_SECS=${E2E_SECS:-5}
E2E_RATE=${E2E_RATE:-200}
E2E_LATENCY_NS=${E2E_LATENCY_NS:-50000}
E2E_PATHS=${E2E_PATHS:-loopback,veth,veth6}
E2E_BASE=${E2E_BASE:-base}
E2E_SERIES=${E2E_SERIES:-defer,core,net}
E2E_BOUND=${E2E_BOUND:-hand}
for v in E2E_SECS E2E_RATE E2E_LATENCY_NS; do
	case ${!v} in '' | *[!0-9]* | 0*) die bench-e2e "$v must be a positive number, not '${!v}'" 2 ;; esac
done
for v in E2E_ROUNDS E2E_TRACE_ROUNDS; do
	case ${!v} in '' | *[!0-9]*) die bench-e2e "$v must be a number, not '${!v}'" 2 ;; esac
done
[ $((E2E_ROUNDS + E2E_TRACE_ROUNDS)) -gt 0 ] || die bench-e2e "E2E_ROUNDS and E2E_TRACE_ROUNDS are both 0: nothing to boot" 2
# Under TCG the guest runs the load at about a tenth of real time and
# writes its trace out after it: the budget grows with the load
BENCH_TIMEOUT=${BENCH_TIMEOUT:-$((E2E_SECS * 60 + 600))}
case $BENCH_TIMEOUT in '' | *[!0-9]* | 0*) die bench-e2e "BENCH_TIMEOUT must be seconds, not '$BENCH_TIMEOUT'" 2 ;; esac
# The guest's own limit per plan step (scripts/guest/init, 300 s unless
# told) must not end the step before the host's limit ends the boot
step_timeout=$((BENCH_TIMEOUT > 120 ? BENCH_TIMEOUT - 60 : BENCH_TIMEOUT / 2))
case $E2E_PATHS in *[!a-z0-9,]* | '') die bench-e2e "E2E_PATHS: comma-separated guest-traffic paths, not '$E2E_PATHS'" 2 ;; esac
need_tool bench-e2e cpio gzip python3 truncate

specs=("$@")
[ ${#specs[@]} -gt 0 ] || specs=(base=e2e-base defer=e2e-defer core=e2e-core net=e2e-net hand=e2e-hand)
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
control=${E2E_CONTROL-${labels[0]},${labels[${#labels[@]} - 1]}}
for c in ${control//,/ }; do
	printf '%s\n' "${labels[@]}" | has_line "^$c\$" || die bench-e2e "E2E_CONTROL names '$c', which is not a label of this run" 2
done
blame=${E2E_BLAME-e2e-blame}
blame_kernel=""
if [ -n "$blame" ]; then
	blame_kernel=$(kernel_of "$blame")
	[ -n "$blame_kernel" ] || log bench-e2e "no tracing kernel '$blame': the summary names no section"
fi

# The plans go into a second cpio member appended to the standard
# initramfs (the kernel unpacks concatenated archives), under a private OUT.
res="$OUT/bench-e2e"
eout="$res/out"
raw="$RESULTS/raw/e2e"
rm -rf "${res:?}/overlay" "${eout:?}/boot" "${res:?}/traces"
mkdir -p "$eout/initramfs" "$res/overlay/plans" "$res/traces" "$raw"
"$TOP/scripts/kernel/make-initramfs.sh" >/dev/null || die bench-e2e "building the initramfs failed" 1
for mode in latency:off:together trace:on:together control:on:control; do
	IFS=: read -r name trace place <<<"$mode"
	printf '# written by run-bench-e2e.sh\ne2e bench-e2e %s %s %s %s %s virtio\n' \
		"$E2E_SECS" "$E2E_PATHS" "$E2E_RATE" "$trace" "$place" >"$res/overlay/plans/e2e-$name.plan"
done
{
	cat "$OUT/initramfs/initramfs.cpio.gz"
	(cd "$res/overlay" && find plans -print0 | LC_ALL=C sort -z |
		cpio --null -o -H newc --owner 0:0 --quiet | gzip -9)
} >"$eout/initramfs/initramfs.cpio.gz"

clock=$("$TOP/scripts/bench/clock-params.sh") || die bench-e2e "cannot set up the guest clock (above)" 2
failed=0
boots=0
runs=()
traces=()
start=$SECONDS
total=$(((E2E_ROUNDS + E2E_TRACE_ROUNDS) * ${#kernels[@]}))
n=0
img="$res/trace-disk.img"
# The victim disk and the trace disk (QEMU_EXTRA is split at blanks)
drives="-blockdev driver=null-co,node-name=victim,read-zeroes=on,latency-ns=$E2E_LATENCY_NS"
drives+=" -device virtio-blk-pci,drive=victim,serial=e2e-victim,num-queues=1"
drives+=" -blockdev driver=file,node-name=tracefile,filename=$img -blockdev driver=raw,node-name=trace,file=tracefile"
drives+=" -device virtio-blk-pci,drive=trace,serial=e2e-trace,num-queues=1"
case $img in *[[:space:]]*) die bench-e2e "OUT must not contain blanks ($img)" 2 ;; esac
# boot_one KERNEL NAME PLAN: one boot; its console goes to $raw/NAME.txt
# with the host's load average before and after. no_hash_pointers: the
# trace tells hrtimers apart by their address, which hashed pointers hide.
boot_one() {
	local status=0 before
	boots=$((boots + 1))
	rm -f "$img"
	truncate -s 1G "$img" || die bench-e2e "cannot create the trace disk $img" 1
	before=$(cut -d' ' -f1-3 /proc/loadavg)
	# The plan is in the appended cpio member, which boot-kernel.sh does
	# not know: it boots "smoke", and the later plan= wins in the guest
	OUT=$eout APPEND="plan=$3 step_timeout=$step_timeout $clock no_hash_pointers virtio_blk.num_request_queues=1 ${APPEND:-}" \
		QEMU_EXTRA="$drives" \
		BOOT_NAME="e2e-$2" BOOT_TIMEOUT=$BENCH_TIMEOUT \
		"$TOP/scripts/kernel/boot-kernel.sh" "$1" smoke >"$res/boot-$2.log" 2>&1 || status=$?
	{
		echo "HOST-LOAD before=${before// /,} after=$(cut -d' ' -f1-3 /proc/loadavg | tr ' ' ,)"
		cat "$eout/boot/e2e-$2/console.log" 2>/dev/null || true
	} >"$raw/$2.txt"
	if [ "$status" -ne 0 ]; then
		log bench-e2e "$2: the boot did not pass (status $status; $res/boot-$2.log); its figures may be incomplete"
		failed=$((failed + 1))
	fi
	if [ "$3" != e2e-latency ]; then
		local js="$res/traces/$2.json" tstatus=0
		python3 "$TOP/scripts/bench/e2e-trace.py" "$img" -o "$js" --require-hardirq \
			--keep-text "$res/traces/$2.trace.gz" 2>"$res/traces/$2.err" || tstatus=$?
		if [ -s "$js" ]; then
			gzip -9 -c "$js" >"$raw/$2.json.gz"
			traces+=(--trace "$2=$raw/$2.json.gz")
		fi
		if [ "$tstatus" -ne 0 ]; then
			log bench-e2e "$2: $(tail -n 3 "$res/traces/$2.err" | tr '\n' ' ')"
			failed=$((failed + 1))
		fi
	fi
}
rm -f "${raw:?}"/*.txt "${raw:?}"/*.json.gz
# latency rounds first, then the traced boots: each interleaved
for r in $(seq 1 $((E2E_ROUNDS + E2E_TRACE_ROUNDS))); do
	for i in "${!kernels[@]}"; do
		n=$((n + 1))
		if [ "$r" -le "$E2E_ROUNDS" ]; then
			name="${labels[$i]}-r$r" plan=e2e-latency
		else
			name="${labels[$i]}-t$((r - E2E_ROUNDS))" plan=e2e-trace
		fi
		log bench-e2e "[$n/$total] $name ($plan, $((SECONDS - start))s so far)"
		boot_one "${kernels[$i]}" "$name" "$plan"
		[ "$plan" = e2e-latency ] && runs+=(--run "${labels[$i]}=$raw/$name.txt")
	done
done
for i in "${!kernels[@]}"; do
	case ",$control," in *",${labels[$i]},"*) ;; *) continue ;; esac
	log bench-e2e "control: ${labels[$i]} with the load on the reader's CPU ($((SECONDS - start))s so far)"
	boot_one "${kernels[$i]}" "${labels[$i]}-control" e2e-control
done
if [ -n "$blame_kernel" ]; then
	log bench-e2e "tracing kernel $blame: which sections the vectors wait behind ($((SECONDS - start))s so far)"
	boot_one "$blame_kernel" blame e2e-trace
fi
rm -f "$img"

hz=$(sed -n 's/^CONFIG_HZ=//p' "$(dirname "${kernels[0]}")/config" 2>/dev/null || true)
cond="Conditions: $(date -u +%Y-%m-%d), QEMU TCG, $(grep -A1 -- '-smp' "$TOP/scripts/qemu/x86_64.args" | tail -n 1) guest CPUs,"
cond+=" guest clock TSC ($clock); per boot ${E2E_SECS} s of load: guest-traffic on ${E2E_PATHS} at the same time"
cond+=" (one TCP and one UDP flow per path) on the CPU of the disk's interrupt, softirq-victims: ${E2E_RATE} O_DIRECT 4 KiB reads/s"
cond+=" of a virtio-blk disk (one hardware queue, scheduler none, rq_affinity 0; QEMU null-co, ${E2E_LATENCY_NS} ns)"
cond+=" from the other CPU, and a TCP flow paced at 512 KB/s (soft hrtimers) beside the load;"
cond+=" ${E2E_ROUNDS} untraced and ${E2E_TRACE_ROUNDS} traced boots per kernel, interleaved;"
cond+=" kernels: $(for i in "${!kernels[@]}"; do printf '%s=%s ' "${labels[$i]}" "${kernels[$i]}"; done)"
[ -n "$blame_kernel" ] && cond+="; tracing kernel: $blame_kernel (CONFIG_SOFTIRQ_BH_BLAME, one boot after the rounds)"
cond+="; host: $(nproc) CPUs. Run time: $((SECONDS - start)) s for $boots boots."
cond+=" Under TCG absolute times are inflated: compare the columns."
sum_status=0
"$TOP/scripts/bench/summarize-e2e.py" "$RESULTS" "${runs[@]}" "${traces[@]}" \
	--base "$E2E_BASE" --series "$E2E_SERIES" --bound "$E2E_BOUND" ${hz:+--hz "$hz"} \
	--conditions "$cond" >"$res/summary.txt" || sum_status=$?
cat "$res/summary.txt"
if [ "$failed" -ne 0 ] || [ "$sum_status" -ne 0 ]; then
	result bench-e2e FAIL "$failed boots or traces failed, summary status $sum_status; see $RESULTS/e2e.md"
	exit 1
fi
result bench-e2e PASS "$RESULTS/e2e.md: $boots boots in $((SECONDS - start))s"
