// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture irq-save-wrapper.
 *
 * Checks: a helper that turns interrupts off itself and then takes a
 * plain lock returns holding it with interrupts off, as
 * raw_spinlock_irqsave() would: the shape of rq_lock_irqsave()
 * (_raw_spin_rq_lock_irqsave() is local_irq_save() then
 * raw_spin_rq_lock()) and of krc_this_cpu_lock().  A timer takes
 * iw_obj.rq_lock, rq_lock2, rq_lock3 and rq_lock4.
 * - iw_submit(): its section calls iw_wake(), which holds rq_lock
 *   through iw_lock_irqsave() and takes inner_lock under it: both only
 *   with interrupts off, so the section stays NONE.
 * - iw_submit2(): iw_lock_then_on() turns interrupts off, takes
 *   rq_lock2 and gives the saved state back before it returns holding
 *   the lock: held with interrupts on, the section gets TIMER.
 * - iw_submit3(): iw_lock_maybe() turns them off on one path only
 *   before it takes rq_lock3: TIMER.
 * - iw_submit4(): under pi_lock (spin_lock_irqsave()), iw_count() saves
 *   the state in iw_lock_irqsave() and gives it back in
 *   iw_unlock_irqrestore(), a restore of flags its own callee saved: it
 *   leaves interrupts off for iw_wake_counted(), which then takes
 *   rq_lock4; the section stays NONE.
 *
 * A naive analysis gets wrong: reading the hold lifted out of
 * iw_lock_irqsave() as a plain one gives iw_submit() TIMER, and reading
 * iw_unlock_irqrestore() in iw_count() as a restore of its caller's
 * flags gives iw_submit4() TIMER; marking a hold as taken with
 * interrupts off without checking that they are still off at the
 * helper's return drops TIMER from iw_submit2() (unsafe).
 */
#include "kernel.h"

struct iw_obj {
	spinlock_t lock;
	spinlock_t pi_lock;
	spinlock_t rq_lock;
	spinlock_t inner_lock;
	spinlock_t rq_lock2;
	spinlock_t rq_lock3;
	spinlock_t rq_lock4;
	int n;
	struct timer_list timer;
};

static noinline void iw_lock_irqsave(struct iw_obj *o, unsigned long *flags)
{
	local_irq_save(*flags);
	spin_lock(&o->rq_lock);
}

static noinline void iw_unlock_irqrestore(struct iw_obj *o, unsigned long flags)
{
	spin_unlock(&o->rq_lock);
	local_irq_restore(flags);
}

static noinline void iw_wake(struct iw_obj *o)
{
	unsigned long flags;

	iw_lock_irqsave(o, &flags);
	spin_lock(&o->inner_lock);
	o->n++;
	spin_unlock(&o->inner_lock);
	iw_unlock_irqrestore(o, flags);
}

static noinline void iw_lock_then_on(struct iw_obj *o)
{
	unsigned long flags;

	local_irq_save(flags);
	spin_lock(&o->rq_lock2);
	local_irq_restore(flags);
}

static noinline void iw_lock_maybe(struct iw_obj *o, unsigned long *flags, int c)
{
	if (c)
		local_irq_save(*flags);
	spin_lock(&o->rq_lock3);
}

static noinline void iw_count(struct iw_obj *o)
{
	unsigned long flags;

	iw_lock_irqsave(o, &flags);
	o->n++;
	iw_unlock_irqrestore(o, flags);
}

static noinline void iw_wake_counted(struct iw_obj *o)
{
	unsigned long flags;

	spin_lock_irqsave(&o->pi_lock, flags);
	iw_count(o);
	spin_lock(&o->rq_lock4);
	o->n++;
	spin_unlock(&o->rq_lock4);
	spin_unlock_irqrestore(&o->pi_lock, flags);
}

static void iw_expire(struct timer_list *t)
{
	struct iw_obj *o = from_timer(o, t, timer);

	spin_lock(&o->rq_lock);
	spin_lock(&o->inner_lock);
	o->n--;
	spin_unlock(&o->inner_lock);
	spin_unlock(&o->rq_lock);
	spin_lock(&o->rq_lock2);
	o->n--;
	spin_unlock(&o->rq_lock2);
	spin_lock(&o->rq_lock3);
	o->n--;
	spin_unlock(&o->rq_lock3);
	spin_lock(&o->rq_lock4);
	o->n--;
	spin_unlock(&o->rq_lock4);
}

void iw_init(struct iw_obj *o)
{
	timer_setup(&o->timer, iw_expire, 0);
}

void iw_submit(struct iw_obj *o)
{
	spin_lock_bh(&o->lock);
	iw_wake(o);
	spin_unlock_bh(&o->lock);
}

void iw_submit2(struct iw_obj *o)
{
	spin_lock_bh(&o->lock);
	iw_lock_then_on(o);
	o->n++;
	spin_unlock(&o->rq_lock2);
	spin_unlock_bh(&o->lock);
}

void iw_submit3(struct iw_obj *o, int c)
{
	unsigned long flags = 0;

	spin_lock_bh(&o->lock);
	iw_lock_maybe(o, &flags, c);
	o->n++;
	spin_unlock(&o->rq_lock3);
	if (c)
		local_irq_restore(flags);
	spin_unlock_bh(&o->lock);
}

void iw_submit4(struct iw_obj *o)
{
	spin_lock_bh(&o->lock);
	iw_wake_counted(o);
	spin_unlock_bh(&o->lock);
}
