#!/usr/bin/env bash
# kunit-loop.sh: boot one kernel many times and count the KUnit results of
# every case, to tell a flaky case from a stable one (make kunit-loop).
#
# Usage: kunit-loop.sh VARIANT [BOOTS]
#   VARIANT  a kernel built by build-kernel.sh, or a path to a bzImage; it
#            must build in the suite (KUNIT_LOOP_SUITE, default softirq_mask)
#   BOOTS    how many boots (default 10)
# Reads:  $OUT/build/VARIANT/bzImage (or the path), the initramfs
# Writes: $OUT/kunit-loop/NAME/{boot-N/,summary.md,log} (NAME = the
#         variant's name); each boot's console under $OUT/boot/kunit-loop-NAME-N/
# Env:    KUNIT_LOOP_SUITE (softirq_mask), BOOT_TIMEOUT (per boot, 600),
#         APPEND (extra kernel command line for every boot)
# Exit:   0 every boot passed and ran every case, 1 a case failed or was
#         missing in some boot or a boot failed, 2 bad usage.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	die kunit-loop "usage: $0 VARIANT [BOOTS]" 2
fi
variant=$1
boots=${2:-10}
case $boots in '' | *[!0-9]* | 0*) die kunit-loop "BOOTS must be a positive number, not '$boots'" 2 ;; esac
suite=${KUNIT_LOOP_SUITE:-softirq_mask}
case $suite in '' | *[!A-Za-z0-9_]*) die kunit-loop "bad suite name '$suite'" 2 ;; esac
need_tool kunit-loop python3
name=$(basename "$variant")
case $name in *[!A-Za-z0-9_.-]* | '') die kunit-loop "bad variant name '$name'" 2 ;; esac
if [ ! -f "$variant" ] && [ ! -f "$OUT/build/$variant/bzImage" ]; then
	die kunit-loop "no kernel at $OUT/build/$variant/bzImage; build it first (make build VARIANT=$variant)" 2
fi

res="$OUT/kunit-loop/$name"
rm -rf "$res"
mkdir -p "$res"
log kunit-loop "start: $boots boots of $name, suite $suite; results in $res"
verdicts=()
failed_boots=0
for i in $(seq 1 "$boots"); do
	t=$SECONDS
	boot_name="kunit-loop-$name-$i"
	status=0
	BOOT_NAME=$boot_name BOOT_EXPECT_KUNIT=$suite \
		"$TOP/scripts/kernel/boot-kernel.sh" "$variant" smoke >"$res/boot-$i.log" 2>&1 || status=$?
	if [ "$status" = 2 ]; then
		die kunit-loop "boot $i could not start (usage or missing input); see $res/boot-$i.log" 2
	fi
	v="$OUT/boot/$boot_name/verdict.json"
	if [ -f "$v" ]; then
		verdicts+=("$v")
	else
		log kunit-loop "boot $i left no verdict.json; see $res/boot-$i.log"
	fi
	[ "$status" = 0 ] || failed_boots=$((failed_boots + 1))
	log kunit-loop "boot $i/$boots: $(grep -o 'RESULT boot [A-Z_]*' "$res/boot-$i.log" | tail -n 1 || echo 'no result') ($((SECONDS - t))s)"
done

status=0
if [ ${#verdicts[@]} -gt 0 ]; then
	"$TOP/scripts/kernel/tally-kunit.py" --suite "$suite" --out "$res/summary.md" "${verdicts[@]}" || status=$?
else
	status=1
fi
missing=$((boots - ${#verdicts[@]}))
if [ "$status" = 0 ] && [ "$missing" = 0 ] && [ "$failed_boots" = 0 ]; then
	result kunit-loop PASS "$name: $boots boots, every case passed in every boot; table $res/summary.md"
	exit 0
fi
result kunit-loop FAIL "$name: $failed_boots of $boots boots failed, $missing without a verdict; table $res/summary.md"
exit 1
