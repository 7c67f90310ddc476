#!/usr/bin/env bash
# test-core.sh: the core patch series: checkpatch --strict on every patch,
# apply on a fresh base, build, boot under lockdep with the traffic plan
# and the softirq_mask KUnit suite, lockdep's per-vector negative test
# (wrong mask reported, right mask quiet, /proc/lockdep letters).  Sparse
# and the PREEMPT_RT objects are the core-static suite's, after boot-net:
# sparse checks out base and core again, which makes every file that
# includes the changed headers look newer than its object, and the
# converted kernel that boot-net builds after this suite would then be
# rebuilt whole instead of two files.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=tests/lib-test.sh
. tests/lib-test.sh
# shellcheck source=scripts/lib.sh
. scripts/lib.sh

logs="$OUT/check/core"
mkdir -p "$logs"
start="$logs/start.stamp"
touch "$start"
mapfile -t patches < <(sed 's/#.*//; /^[[:space:]]*$/d' core-patches/series)
if [ ${#patches[@]} -eq 0 ]; then
	not_ok "core-patches/series lists patches" "empty"
	tally
fi

# checkpatch of the tree the series targets (the series does not change it).
for p in "${patches[@]}"; do
	# checkpatch runs scripts/spdxcheck.py with python3: use Debian's, which has ply.
	if out=$(cd "$TREE" && PATH=/usr/bin:$PATH scripts/checkpatch.pl --strict -q "$TOP/core-patches/$p" 2>&1); then
		ok "checkpatch --strict $p"
	else
		not_ok "checkpatch --strict $p" "errors or warnings:"
		printf '%s\n' "$out" | first_lines 20 | sed 's/^/    /'
	fi
done

expect_status "series applies on base" 0 "$logs/apply.log" scripts/kernel/apply-patches.sh core-patches base core
# In the converted kernel's configuration (campaign + core fragments,
# NET_KFRAGMENTS): the boot-net suite that follows then recompiles only
# the converted files.
expect_status "core kernel builds (campaign configuration + core.config)" 0 "$logs/build.log" \
	env KFRAGMENTS="$NET_KFRAGMENTS" scripts/kernel/build-kernel.sh core core
# The KUnit misuse cases provoke misuse on purpose, in every boot of this
# kernel: boot-kernel.sh excuses their reports (one WARNING per kind) for
# any kernel that builds the suite in, with no BOOT_ALLOW here, and they
# are checked below to be there.
expect_status "core kernel boots (traffic plan, lockdep, KUnit)" 0 "$logs/boot.log" \
	env BOOT_EXPECT_KUNIT=softirq_mask BOOT_EXPECT_SELFTESTS=371 \
	scripts/kernel/boot-kernel.sh core default
sum="$OUT/boot/core-default/summary.txt"
con="$OUT/boot/core-default/console.log"
expect_fresh "the core boot wrote its console log" "$con" "$start"
sed 's/^/    /' "$sum" 2>/dev/null | first_lines 60 || true
# 358 base cases + 13 per-vector cases (patch "locking/selftest: Add
# per-vector softirq masking cases"): losing any of them must fail.
expect_grep "lockdep self-tests: all 371 pass" "lockdep self-tests: Good, all 371 testcases passed" "$sum"
expect_grep "traffic: TCP lost nothing on veth" "traffic veth/tcp: sent=[1-9][0-9]* received=[0-9]+ lost=0 corrupt=0" "$sum"
for c in partial_section_is_bh_disabled unmasked_vectors_run_in_net_rx_section \
	masked_timer_fires_once_at_section_end \
	masked_timer_in_tasklet_fires_once_after each_vector_held_back_and_served \
	sections_nest_and_mix out_of_order_end_keeps_open_sections_masked \
	misuse_is_reported_and_counts_restored stale_restore_ends_nothing \
	each_vector_served_while_ksoftirqd_runnable flooding_vector_is_deferred_alone \
	leaked_section_is_forgotten; do
	expect_grep "kunit case $c passed" "^    ok +softirq_mask\\.$c\$" "$sum"
done
for v in HI TIMER NET_TX NET_RX BLOCK TASKLET SCHED HRTIMER RCU; do
	expect_grep "kunit: vector $v held back and served" "^    ok +each_vector_held_back_and_served\\.$v\$" "$sum"
	expect_grep "kunit: vector $v served while ksoftirqd is runnable" "^    ok +each_vector_served_while_ksoftirqd_runnable\\.$v\$" "$sum"
done
# The flood at 1 ms a run, and at the whole budget of a pass a run (each
# pass ends untimed in its first round: the next one is timed and defers).
for v in HI TASKLET HI/whole-budget TASKLET/whole-budget; do
	expect_grep "kunit: a $v flood is deferred alone" "^    ok +flooding_vector_is_deferred_alone\\.$v\$" "$sum"
done
for v in TIMER TASKLET; do
	expect_grep "kunit: a section leaked in $v is forgotten" "^    ok +leaked_section_is_forgotten\\.$v\$" "$sum"
done
# Exactly three cases skip in a lockdep kernel, each for its reason: the
# opening window exists on the inline path only, threadirqs is not on, and
# lockdep reports an end with interrupts off (the bench suite runs the first
# and the last in the non-debug kernel, the threadirqs boot below the second).
skips="masked_timer_fires_once_after_irqs_off_end:lockdep reports an end with interrupts off
each_vector_served_in_opening_window:sections open with interrupts disabled here
threadirqs_section_end_serves_inline:boot with threadirqs to run this"
skipped=()
while IFS=: read -r c why; do
	expect_grep "kunit case $c skips here: $why" " ok [0-9]+ $c # SKIP $why" "$con"
	skipped+=("$c")
done <<<"$skips"
others=$(grep -E ' ok [0-9]+ .*# SKIP' "$con" 2>/dev/null |
	grep -cvE "$(IFS='|'; echo "${skipped[*]}")" || true)
expect_status "no other softirq_mask KUnit case skipped ($others)" 0 /dev/null test "$others" -eq 0
for w in "out-of-order restore" "full-section state restored on a partial section" \
	"partial-section state restored on a full section" "restore with no section open" \
	"vector beyond NR_SOFTIRQS" "restore of a section that already ended" \
	"section leaked, forgotten with the preempt count"; do
	expect_grep "misuse reported: $w" "softirq mask: $w" "$con"
done

# threadirqs (issue 34, item 6): interrupt exit hands every vector to
# ksoftirqd, and the end of a section runs them inline, as local_bh_enable()
# does; the KUnit case that checks it runs only in such a boot, and the
# cases that rely on interrupt exit serving skip there.
expect_status "KUnit suite under threadirqs: the section end serves inline" 0 "$logs/threadirqs.log" \
	env APPEND=threadirqs BOOT_NAME=core-threadirqs \
	BOOT_EXPECT_KUNIT="softirq_mask softirq_mask.threadirqs_section_end_serves_inline" \
	scripts/kernel/boot-kernel.sh core smoke
expect_grep "threadirqs boot: interrupt-exit cases skip for their reason" \
	" ok [0-9]+ unmasked_vectors_run_in_net_rx_section # SKIP threadirqs: interrupt exit serves nothing" \
	"$OUT/boot/core-threadirqs/console.log"

# Per-vector lockdep (patches 4, 9 and 11): the boot-time negative test, once
# with the wrong mask (a report naming TASKLET, with both stacks) and once
# with the right one (no report); lockdep reports only once per boot, so
# these are separate boots.  The right boot also reads /proc/lockdep.
expect_status "lockdep reports the wrong mask, naming the vector" 0 "$logs/lockdep-wrong.log" \
	env APPEND=softirq_mask_lockdep_test=wrong BOOT_NAME=core-lockdep-wrong \
	BOOT_EXPECT_REPORT='inconsistent \{IN-SOFTIRQ-W\} -> \{SOFTIRQ-ON-W\} usage\.\n.*softirq vector: TASKLET' \
	scripts/kernel/boot-kernel.sh core smoke
wrong="$OUT/boot/core-lockdep-wrong/console.log"
expect_fresh "the wrong-mask boot wrote its console log" "$wrong" "$start"
expect_grep "negative test ran with the wrong mask" "softirq_mask_lockdep_test: wrong mask 0x2," "$wrong"
# Both usages with their stacks: where the lock became TASKLET-safe (the
# tasklet) and the acquisition with TASKLET enabled (the initcall).
expect_grep "report shows the tasklet's stack" "sm_lockdep_tasklet_fn\+0x" "$wrong"
expect_grep "report shows the masked acquisition's stack" "sm_lockdep_test\+0x" "$wrong"
expect_status "no lockdep report with the right mask" 0 "$logs/lockdep-right.log" \
	env APPEND=softirq_mask_lockdep_test=right BOOT_NAME=core-lockdep-right \
	scripts/kernel/boot-kernel.sh core lockdep-usage
right="$OUT/boot/core-lockdep-right/console.log"
expect_fresh "the right-mask boot wrote its console log" "$right" "$start"
expect_grep "negative test ran with the right mask" "softirq_mask_lockdep_test: right mask 0x42," "$right"
expect_grep "negative test finished" "softirq_mask_lockdep_test: done" "$right"
# /proc/lockdep: hardirq and every vector but TIMER and TASKLET '+'
# (taken with them enabled), TIMER '.', TASKLET '-' (used in its handler).
expect_grep "/proc/lockdep shows the lock's per-vector usage" \
	"LOCKDEP-USAGE sm_lockdep_lock \+\.\+\.\.\.\+\.\+\.\+\.\+\.-\.\+\.\+\.\+\.([^-+.?]|$)" "$right"

tally
