// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture callback-table.
 *
 * Checks: timer callbacks that reach timer_list.function by routes other
 * than a direct timer_setup(..., fn, ...): picked from an array of
 * function pointers (poll_fast, poll_slow), returned by a function
 * (pick_idle returns idle_tick), and stored into the field directly
 * (reap_tick).  All run in TIMER: fast_lock, slow_lock, idle_lock and
 * reap_lock (non-static globals) get TIMER, and so does the
 * local_bh_disable() section that takes them all.
 *
 * A naive analysis gets wrong: the array is not a struct field and the
 * return value is not a parameter; an analysis that only follows
 * designated initialisers of structs, field stores and parameters leaves
 * these classes NONE (unsafe).
 */
#include "sched.h"

DEFINE_SPINLOCK(fast_lock);
DEFINE_SPINLOCK(slow_lock);
DEFINE_SPINLOCK(idle_lock);
DEFINE_SPINLOCK(reap_lock);
unsigned int fast_n, slow_n, idle_n, reap_n;

void sched_init(struct sched *s, int mode)
{
	timer_setup(&s->poll, poll_fns[mode & 1], 0);
	timer_setup(&s->idle, pick_idle(), 0);
	timer_setup(&s->reap, NULL, 0);
	sched_set_reaper(s);
}

void sched_drain(void)
{
	local_bh_disable();
	spin_lock(&fast_lock);
	fast_n = 0;
	spin_unlock(&fast_lock);
	spin_lock(&slow_lock);
	slow_n = 0;
	spin_unlock(&slow_lock);
	spin_lock(&idle_lock);
	idle_n = 0;
	spin_unlock(&idle_lock);
	spin_lock(&reap_lock);
	reap_n = 0;
	spin_unlock(&reap_lock);
	local_bh_enable();
}
