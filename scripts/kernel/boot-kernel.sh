#!/usr/bin/env bash
# boot-kernel.sh: boot a built kernel variant in QEMU (TCG) with the
# initramfs, run a test plan in the guest and give the verdict.
#
# Usage: boot-kernel.sh VARIANT [PLAN]
#   VARIANT  a kernel built by build-kernel.sh ($OUT/build/VARIANT/bzImage)
#            or a path to a bzImage
#   PLAN     guest plan name (scripts/guest/plans/PLAN.plan), default "default"
# Reads:  $OUT/initramfs/initramfs.cpio.gz (rebuilt first when older than
#         scripts/guest/), scripts/qemu/x86_64.args
# Writes: $OUT/boot/NAME/{console.log,summary.txt,verdict.json,qemu.out}
#         (NAME = VARIANT-PLAN, or $BOOT_NAME); the folder is emptied first,
#         also when the script then stops on bad input, so no check ever
#         reads a previous run's console.
# Env:    APPEND (extra kernel command line), BOOT_TIMEOUT (seconds, 600),
#         QEMU_EXTRA (more QEMU arguments, e.g. "-icount shift=0"),
#         BOOT_ALLOW (regexes, one per line, of console lines to excuse;
#         the KUnit suite's misuse and timer-leak WARNINGs are excused without it in a
#         kernel that builds the suite in),
#         BOOT_EXPECT_KUNIT (SUITE or SUITE.CASE, space separated: suites
#         that must run a case that is not skipped, cases that must pass),
#         BOOT_EXPECT_SELFTESTS (N: lockdep's "Good, all N testcases
#         passed!" must appear with exactly N),
#         BOOT_EXPECT_REPORT (regex of a lockdep report that must appear)
# Exit:   0 PASS, 1 any other verdict, 2 usage or missing input.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	die boot "usage: $0 VARIANT [PLAN]" 2
fi
variant=$1
plan=${2:-default}
case $plan in *[!A-Za-z0-9_.-]* | '') die boot "bad plan name '$plan'" 2 ;; esac
name=${BOOT_NAME:-$(basename "$variant")-$plan}
case $name in '' | . | .. | *[!A-Za-z0-9_.-]*) die boot "bad boot name '$name' (BOOT_NAME or VARIANT-PLAN)" 2 ;; esac
res="$OUT/boot/$name"
rm -rf "$res"
BOOT_TIMEOUT=${BOOT_TIMEOUT:-600}
case $BOOT_TIMEOUT in '' | *[!0-9]*) die boot "BOOT_TIMEOUT must be seconds, not '$BOOT_TIMEOUT'" 2 ;; esac
case ${BOOT_EXPECT_SELFTESTS:-0} in *[!0-9]*) die boot "BOOT_EXPECT_SELFTESTS must be a number of testcases, not '$BOOT_EXPECT_SELFTESTS'" 2 ;; esac
need_tool boot qemu-system-x86_64 timeout python3
[ -f "$TOP/scripts/guest/plans/$plan.plan" ] ||
	die boot "unknown plan '$plan'; plans: $(find "$TOP/scripts/guest/plans" -name '*.plan' -printf '%f ' | sed 's/\.plan//g')" 2

if [ -f "$variant" ]; then
	kernel=$variant
	variant=$(basename "$variant")
else
	kernel="$OUT/build/$variant/bzImage"
fi
[ -f "$kernel" ] || die boot "no kernel at $kernel; run 'make build VARIANT=$variant' first" 2
initrd="$OUT/initramfs/initramfs.cpio.gz"
# Rebuild the initramfs when it is missing or older than anything under
# scripts/guest/ (a new plan or guest program would otherwise be absent).
if [ ! -f "$initrd" ] || [ -n "$(find "$TOP/scripts/guest" -newer "$initrd" -print -quit)" ]; then
	log boot "initramfs missing or older than scripts/guest/: rebuilding it"
	"$TOP/scripts/kernel/make-initramfs.sh" >&2 || die boot "building the initramfs failed; see the lines above" 1
fi

mkdir -p "$res"
console="$res/console.log"
: >"$console"

args=()
while read -r a; do
	case $a in '' | '#'*) continue ;; esac
	args+=("$a")
done <"$TOP/scripts/qemu/x86_64.args"
[ -f /usr/share/qemu/qboot.rom ] && args+=(-bios /usr/share/qemu/qboot.rom)
# QEMU_EXTRA: more QEMU arguments, split at blanks (e.g. "-icount shift=0")
if [ -n "${QEMU_EXTRA:-}" ]; then
	read -r -a extra <<<"$QEMU_EXTRA"
	args+=("${extra[@]}")
fi
# panic=-1 reboots at once on a panic and -no-reboot turns that into a QEMU
# exit, so a crash ends the run in seconds instead of at the timeout.
# null_blk.poll_queues=0 leaves one hardware queue, so that blk-mq completes
# requests in BLOCK_SOFTIRQ instead of inline (see blk_mq_complete_request_remote()).
cmdline="console=ttyS0 panic=-1 oops=panic null_blk.poll_queues=0 plan=$plan ${APPEND:-}"

log boot "$name: booting $kernel (plan $plan, timeout ${BOOT_TIMEOUT}s); console: $console"
t0=$SECONDS
status=0
timeout --foreground -k 5 "$BOOT_TIMEOUT" qemu-system-x86_64 "${args[@]}" \
	-kernel "$kernel" -initrd "$initrd" -append "$cmdline" \
	-serial "file:$console" </dev/null >"$res/qemu.out" 2>&1 || status=$?
elapsed=$((SECONDS - t0))

parse=("$TOP/scripts/kernel/parse-boot-log.py" "$console" --json "$res/verdict.json" --dump-dir "$res/lockdep")
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
	parse+=(--timed-out)
else
	parse+=(--qemu-status "$status")
fi
while read -r re; do
	[ -n "$re" ] && parse+=(--allow "$re")
done <<<"${BOOT_ALLOW:-}"
# The core's KUnit suite provokes softirq_mask_report()'s WARNING and
# call_timer_fn()'s leak WARNING on purpose: a kernel whose configuration
# (next to its bzImage, as build-kernel.sh leaves it) builds the suite in
# is excused those two, and only those (the second by its message, which
# names the suite's callback), in every boot.
if grep -qsx 'CONFIG_SOFTIRQ_MASK_KUNIT_TEST=y' "$(dirname "$kernel")/config"; then
	parse+=(--allow "$SOFTIRQ_MISUSE_WARNING" --allow-after "$SOFTIRQ_LEAK_TIMER_MESSAGE")
fi
for s in ${BOOT_EXPECT_KUNIT:-}; do parse+=(--expect-kunit "$s"); done
[ -n "${BOOT_EXPECT_REPORT:-}" ] && parse+=(--expect-report "$BOOT_EXPECT_REPORT")
[ -n "${BOOT_EXPECT_SELFTESTS:-}" ] && parse+=(--expect-selftests "$BOOT_EXPECT_SELFTESTS")

verdict=0
"${parse[@]}" >"$res/summary.txt" || verdict=$?
cat "$res/summary.txt"
[ "$verdict" -eq 2 ] && die boot "could not parse $console" 2
if [ "$verdict" -ne 0 ]; then
	if [ -s "$res/qemu.out" ]; then
		sed 's/^/  qemu: /' "$res/qemu.out" | first_lines 5
	fi
	result boot FAIL "$name: $(head -n 1 "$res/summary.txt" | sed 's/^boot verdict: //'): $(sed -n 's/^  reason: //p' "$res/summary.txt" | first_lines 1) after ${elapsed}s (log: $console)"
	exit 1
fi
result boot PASS "$name in ${elapsed}s"
