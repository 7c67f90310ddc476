#!/usr/bin/env bash
# test-core.sh: the core patch series: checkpatch --strict on every patch,
# apply on a fresh base, build, boot under lockdep with the traffic plan
# and the softirq_mask KUnit suite, lockdep's per-vector negative test
# (wrong mask reported, right mask quiet, /proc/lockdep letters), sparse
# adds no warning over base, and the touched objects compile with
# PREEMPT_RT.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=tests/lib-test.sh
. tests/lib-test.sh
# shellcheck source=scripts/lib.sh
. scripts/lib.sh

logs="$OUT/check/core"
mkdir -p "$logs"
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
		printf '%s\n' "$out" | head -n 20 | sed 's/^/    /'
	fi
done

expect_status "series applies on base" 0 "$logs/apply.log" scripts/kernel/apply-patches.sh core-patches base core
expect_status "core kernel builds" 0 "$logs/build.log" scripts/kernel/build-kernel.sh core core
expect_status "core kernel boots (traffic plan, lockdep, KUnit)" 0 "$logs/boot.log" \
	env BOOT_EXPECT_KUNIT=softirq_mask scripts/kernel/boot-kernel.sh core default
sum="$OUT/boot/core-default/summary.txt"
sed 's/^/    /' "$sum" 2>/dev/null | head -n 40 || true
expect_grep "lockdep self-tests still pass" "lockdep self-tests: Good, all [0-9]+ testcases passed" "$sum"
expect_grep "traffic: TCP lost nothing on veth" "traffic veth/tcp: sent=[1-9][0-9]* received=[0-9]+ lost=0 corrupt=0" "$sum"
for c in masked_vector_runs_once_at_section_end unmasked_vector_runs_at_irq_exit_in_section \
	nested_sections_restore_outer_mask full_and_masked_sections_mix \
	full_mask_equals_local_bh_disable stress_all_cpus_no_lost_or_double_runs \
	misuse_is_reported_and_loses_nothing lock_wrappers_exclude_other_cpu; do
	expect_grep "kunit case $c passed" "^    ok +softirq_mask\\.$c\$" "$sum"
done

# Per-vector lockdep (patches 10-12): the boot-time negative test, once
# with the wrong mask (a report naming TASKLET, with both stacks) and once
# with the right one (no report); lockdep reports only once per boot, so
# these are separate boots.  The right boot also reads /proc/lockdep.
expect_status "lockdep reports the wrong mask, naming the vector" 0 "$logs/lockdep-wrong.log" \
	env APPEND=softirq_mask_lockdep_test=wrong BOOT_NAME=core-lockdep-wrong \
	BOOT_EXPECT_REPORT='inconsistent \{IN-TASKLET-SOFTIRQ-W\} -> \{TASKLET-SOFTIRQ-ON-W\} usage' \
	scripts/kernel/boot-kernel.sh core smoke
wrong="$OUT/boot/core-lockdep-wrong/console.log"
touch "$wrong"
expect_grep "negative test ran with the wrong mask" "softirq_mask_lockdep_test: wrong mask 0x2," "$wrong"
# Both usages with their stacks: where the lock became TASKLET-safe (the
# tasklet) and the acquisition with TASKLET enabled (the initcall).
expect_grep "report shows the tasklet's stack" "sm_lockdep_tasklet_fn\+0x" "$wrong"
expect_grep "report shows the masked acquisition's stack" "sm_lockdep_test\+0x" "$wrong"
expect_status "no lockdep report with the right mask" 0 "$logs/lockdep-right.log" \
	env APPEND=softirq_mask_lockdep_test=right BOOT_NAME=core-lockdep-right \
	scripts/kernel/boot-kernel.sh core lockdep-usage
right="$OUT/boot/core-lockdep-right/console.log"
touch "$right"
expect_grep "negative test ran with the right mask" "softirq_mask_lockdep_test: right mask 0x42," "$right"
expect_grep "negative test finished" "softirq_mask_lockdep_test: done" "$right"
# /proc/lockdep: hardirq and every vector but TIMER and TASKLET '+'
# (taken with them enabled), TIMER '.', TASKLET '-' (used in its handler).
expect_grep "/proc/lockdep shows the lock's per-vector usage" \
	"LOCKDEP-USAGE sm_lockdep_lock \+\.\+\.\.\.\+\.\+\.\+\.\+\.-\.\+\.\+\.\+\.([^-+.?]|$)" "$right"

# sparse on every .c file the series changes, plus spinlock.c, which the
# lock wrappers (in spinlock.h) reach without appearing in the diff.
expect_status "sparse: no new warnings in the files the series changes" 0 "$logs/sparse.log" \
	scripts/kernel/sparse-check.sh base core kernel/locking/spinlock.c
expect_status "PREEMPT_RT: softirq.o, spinlock.o, lockdep.o, locking-selftest.o compile" 0 "$logs/rt.log" scripts/kernel/check-rt-build.sh core
tally
