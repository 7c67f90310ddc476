#!/usr/bin/env bash
# test-core-static.sh: the core series' static checks, on the core suite's
# state (tag core, its build configuration in $OBJ): sparse adds no
# warning over base in the files the series changes, the touched objects
# compile with PREEMPT_RT, and a module using the API builds in x86_64
# allmodconfig.  A suite of its own, run after boot-net
# (see tests/test-core.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=tests/lib-test.sh
. tests/lib-test.sh
# shellcheck source=scripts/lib.sh
. scripts/lib.sh

logs="$OUT/check/core-static"
mkdir -p "$logs"
require_core_state core-static

# sparse on every .c file the series changes, plus spinlock.c, which the
# lock wrappers (in spinlock.h) reach without appearing in the diff.
expect_status "sparse: no new warnings in the files the series changes" 0 "$logs/sparse.log" \
	scripts/kernel/sparse-check.sh base core kernel/locking/spinlock.c kernel/locking/spinlock_bh_mask.c
expect_status "PREEMPT_RT: softirq.o, spinlock.o, spinlock_bh_mask.o, lockdep.o, locking-selftest.o compile" 0 "$logs/rt.log" \
	scripts/kernel/check-rt-build.sh core kernel/softirq.o kernel/locking/spinlock.o \
	kernel/locking/spinlock_bh_mask.o kernel/locking/lockdep.o lib/locking-selftest.o
# A module using every masking call, in x86_64 allmodconfig: the inline
# parts must compile where <linux/preempt.h> hides helpers from modules.
expect_status "a module using every masking call builds in x86_64 allmodconfig" 0 "$logs/module.log" \
	scripts/kernel/compile-wide.sh core core tests/fixtures/mask-api-module
grep RESULT "$logs/module.log" || true
tally
