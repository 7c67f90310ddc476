// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture store-through-slot.
 *
 * Checks: the only timer callback of the world, slot_expire(), is stored
 * by set_slot() through a pointer to the callback slot (a parameter),
 * not with timer_setup().  It still runs in TIMER: the timer core calls
 * timer->function, and a function stored through a pointer whose target
 * the analysis does not know escapes to every indirect call of its
 * prototype.  slot_expire() takes slot_owner.lock, so the section in
 * slot_charge() masks TIMER.
 *
 * A naive analysis gets wrong: following only the locations a field
 * store names (or pruning the pointer values nothing was stored into yet)
 * never sees a function in timer_list.function, so slot_owner.lock stays
 * NONE (unsafe).
 */
#include "kernel.h"

struct slot_owner {
	spinlock_t lock;
	unsigned long ticks;
	struct timer_list timer;
};

typedef void (*slot_fn_t)(struct timer_list *);

static void set_slot(slot_fn_t *slot, slot_fn_t fn)
{
	*slot = fn;
}

static void slot_expire(struct timer_list *t)
{
	struct slot_owner *o = from_timer(o, t, timer);

	spin_lock(&o->lock);
	o->ticks++;
	spin_unlock(&o->lock);
}

void slot_start(struct slot_owner *o)
{
	set_slot(&o->timer.function, slot_expire);
	mod_timer(&o->timer, 10);
}

void slot_charge(struct slot_owner *o)
{
	spin_lock_bh(&o->lock);
	o->ticks = 0;
	spin_unlock_bh(&o->lock);
}
