// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture sleep-under-section.
 *
 * Checks: ps_update() holds ps_obj.lock with BH off and calls
 * ps_drain(0).  ps_drain() takes ps_obj.mid_lock and then, only when
 * its caller may sleep, calls might_sleep() and ps_slow(), which takes
 * ps_obj.flush_lock: the way console_flush_all() calls cond_resched()
 * only when its caller may schedule.  Code that holds a spinning lock
 * never gets past a sleeping call (the kernel reports "sleeping
 * function called from invalid context"), so what a callee reaches
 * only after one is not inside the section: ps_expire(), a timer that
 * takes flush_lock, is not masked (TIMER is left out), while
 * ps_tasklet(), which takes mid_lock, is (TASKLET).  The same
 * holds for lock order: ps_obj.lock is not ordered before flush_lock.
 * ps_relax() holds ps_obj.lock and calls ps_drain() from the section of
 * a function that slept before it: the section's own events count
 * whatever came before it, so its mask has TASKLET as well.
 *
 * A naive analysis gets wrong: following every callee of a section's
 * callees, past the sleep, gives the section TIMER (imprecise: in the
 * kernel, printk's console flush put the RCU and scheduler locks of
 * cond_resched() inside every BH section that may warn).
 */
#include "kernel.h"

struct ps_obj {
	spinlock_t lock;
	spinlock_t mid_lock;
	spinlock_t flush_lock;
	int n;
	int flushed;
	struct timer_list timer;
	struct tasklet_struct tl;
};

static struct ps_obj ps;

static noinline void ps_slow(void)
{
	spin_lock(&ps.flush_lock);
	ps.flushed++;
	spin_unlock(&ps.flush_lock);
}

static noinline void ps_drain(int may_sleep)
{
	spin_lock(&ps.mid_lock);
	ps.n++;
	spin_unlock(&ps.mid_lock);
	if (may_sleep) {
		might_sleep();
		ps_slow();
	}
}

static void ps_expire(struct timer_list *t)
{
	ps_slow();
}

static void ps_tasklet(struct tasklet_struct *t)
{
	spin_lock(&ps.mid_lock);
	ps.n = 0;
	spin_unlock(&ps.mid_lock);
}

void ps_init(void)
{
	timer_setup(&ps.timer, ps_expire, 0);
	tasklet_setup(&ps.tl, ps_tasklet);
	tasklet_schedule(&ps.tl);
}

void ps_update(void)
{
	spin_lock_bh(&ps.lock);
	ps_drain(0);
	spin_unlock_bh(&ps.lock);
}

void ps_relax(void)
{
	might_sleep();
	spin_lock_bh(&ps.lock);
	ps_drain(0);
	spin_unlock_bh(&ps.lock);
}
