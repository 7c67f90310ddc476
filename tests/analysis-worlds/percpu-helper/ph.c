// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture percpu-helper.
 *
 * Checks: ph_bump() is a generic helper that writes through its
 * parameter, like INIT_LIST_HEAD() or list_add().  ph_expire(), a timer
 * callback, passes it this CPU's ph_hits: percpu:ph_hits gets TIMER.
 * ph_count() calls the same helper inside a spin_lock_bh() section on
 * ph_obj.lock, with a field of the object: no per-CPU data is written
 * there, and the section stays NONE.  ph_flush() passes this CPU's
 * ph_hits inside its section: the write is per-CPU, the mask is TIMER.
 * ph_reset() writes through what ph_pick() returns, its own parameter,
 * given this CPU's ph_hits: TIMER as well.
 *
 * A naive analysis gets wrong: a per-CPU address that reached the
 * helper's parameter once makes every call of the helper a per-CPU write
 * (in the kernel, INIT_LIST_HEAD() and atomic_set() wrote softnet_data
 * in 350 of the 463 net sections); dropping per-CPU addresses at
 * parameters loses ph_flush() and ph_reset() (unsafe).
 */
#include "kernel.h"

struct ph_obj {
	spinlock_t lock;
	int count;
	struct timer_list timer;
};

static DEFINE_PER_CPU(int, ph_hits);

static noinline void ph_bump(int *p)
{
	*p += 1;
}

static noinline int *ph_pick(int *p)
{
	return p;
}

static void ph_expire(struct timer_list *t)
{
	ph_bump(this_cpu_ptr(&ph_hits));
}

void ph_init(struct ph_obj *o)
{
	timer_setup(&o->timer, ph_expire, 0);
}

void ph_count(struct ph_obj *o)
{
	spin_lock_bh(&o->lock);
	ph_bump(&o->count);
	spin_unlock_bh(&o->lock);
}

void ph_flush(struct ph_obj *o)
{
	spin_lock_bh(&o->lock);
	ph_bump(this_cpu_ptr(&ph_hits));
	spin_unlock_bh(&o->lock);
}

void ph_reset(struct ph_obj *o)
{
	spin_lock_bh(&o->lock);
	*ph_pick(this_cpu_ptr(&ph_hits)) = 0;
	spin_unlock_bh(&o->lock);
}
