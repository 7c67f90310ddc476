// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture callback-table: the callbacks.  poll_fast and poll_slow are
 * only in the poll_fns array, idle_tick only in pick_idle()'s return
 * value, reap_tick only in a direct store to timer_list.function.
 */
#include "sched.h"

static void poll_fast(struct timer_list *t)
{
	spin_lock(&fast_lock);
	fast_n++;
	spin_unlock(&fast_lock);
}

static void poll_slow(struct timer_list *t)
{
	spin_lock(&slow_lock);
	slow_n++;
	spin_unlock(&slow_lock);
}

static void idle_tick(struct timer_list *t)
{
	spin_lock(&idle_lock);
	idle_n++;
	spin_unlock(&idle_lock);
}

static void reap_tick(struct timer_list *t)
{
	spin_lock(&reap_lock);
	reap_n++;
	spin_unlock(&reap_lock);
}

void (*const poll_fns[2])(struct timer_list *) = { poll_fast, poll_slow };

void (*pick_idle(void))(struct timer_list *)
{
	return idle_tick;
}

void sched_set_reaper(struct sched *s)
{
	s->reap.function = reap_tick;
}
