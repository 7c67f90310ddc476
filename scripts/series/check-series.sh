#!/usr/bin/env bash
# check-series.sh: build and boot every commit of a range of the work tree
# (oldest first), stop at the first failure and print a table.
#
# Usage: check-series.sh FROM TO [PLAN]
#   FROM, TO  revisions (FROM excluded), e.g. base core
#   PLAN      guest plan for each boot (default "smoke")
# Env:    SERIES_ONLY="N M ..." checks only those positions (1 = first
#         commit after FROM); "last" checks only TO.
# Reads:  $TREE; config fragments from scripts/kernel/kconfig-fragments.sh
# Writes: $OUT/series-check/table.txt, per-step build/boot logs (one O=
#         folder and ccache: a step that touches a few files rebuilds fast)
# The tree is put back where it was, also on interruption.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
	die series-check "usage: $0 FROM TO [PLAN]" 2
fi
from=$1
to=$2
plan=${3:-smoke}
need_tree series-check
need_revs series-check "$from" "$to"
mapfile -t commits < <(git -C "$TREE" rev-list --reverse "$from..$to")
[ ${#commits[@]} -gt 0 ] || die series-check "no commits in $from..$to" 2
only=${SERIES_ONLY:-}
[ "$only" = last ] && only=${#commits[@]}
for n in $only; do
	case $n in *[!0-9]* | 0) die series-check "SERIES_ONLY must list positions 1..${#commits[@]}, not '$n'" 2 ;; esac
	[ "$n" -le ${#commits[@]} ] || die series-check "SERIES_ONLY position $n is beyond ${#commits[@]} commits" 2
done

res="$OUT/series-check"
mkdir -p "$res"
start=$(git -C "$TREE" rev-parse HEAD)
trap 'git -C "$TREE" checkout -q --detach "$start"' EXIT

table="$res/table.txt"
printf '%-3s %-12s %-58s %-6s %-9s %6s\n' '#' commit subject build boot time >"$table"
failed=0
n=0
for c in "${commits[@]}"; do
	n=$((n + 1))
	if [ -n "$only" ] && ! grep -qw "$n" <<<"$only"; then
		continue
	fi
	subject=$(git -C "$TREE" log -1 --format=%s "$c")
	t0=$SECONDS
	log series-check "[$n/${#commits[@]}] ${c:0:12} $subject"
	build=FAIL
	boot=-
	if KFRAGMENTS=$("$TOP/scripts/kernel/kconfig-fragments.sh" "$c") "$TOP/scripts/kernel/build-kernel.sh" series "$c" \
		>"$res/build-$n.log" 2>&1; then
		build=PASS
		boot=FAIL
		# From the KUnit patch on, the suite provokes misuse warnings on
		# purpose (boot-kernel.sh excuses them); any other warning still
		# fails the boot.
		if BOOT_NAME="series-$n" BOOT_TIMEOUT=${BOOT_TIMEOUT:-300} \
			"$TOP/scripts/kernel/boot-kernel.sh" series "$plan" >"$res/boot-$n.log" 2>&1; then
			boot=PASS
		else
			boot=$(sed -n 's/^boot verdict: //p' "$res/boot-$n.log" | first_lines 1)
			boot=${boot:-FAIL}
		fi
	fi
	printf '%-3s %-12s %-58.58s %-6s %-9s %5ss\n' "$n" "${c:0:12}" "$subject" \
		"$build" "$boot" $((SECONDS - t0)) | tee -a "$table"
	if [ "$build" != PASS ] || [ "$boot" != PASS ]; then
		failed=$n
		break
	fi
done

echo
cat "$table"
if [ "$failed" -ne 0 ]; then
	result series-check FAIL "commit $failed of $from..$to failed; logs: $res/build-$failed.log, $res/boot-$failed.log"
	exit 1
fi
result series-check PASS "$from..$to: every checked commit builds and boots (plan $plan); table: $table"
