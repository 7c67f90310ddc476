// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture lock-debugging.
 *
 * Checks: dl_print() stands for printk: it takes print_lock, as a
 * console driver takes its port lock.  One timer calls
 * dl_rcu_suspicious(), defined in kernel/locking/lockdep.c (lockdep's
 * report of a suspicious RCU use), which prints; the other calls
 * dl_warn(), an ordinary function here, which takes print_lock2.
 * - dl_submit(): its section prints: it takes print_lock.  The only
 *   vector that reaches print_lock does so through lockdep's report,
 *   which the kernels the masks are for do not compile
 *   (rules.DEBUG_UNITS): the section stays NONE.
 * - dl_submit2(): its section takes print_lock2, which a timer takes
 *   outside lock debugging: TIMER.
 * - dl_submit3(): its section calls dl_debug_relock(), lock debugging
 *   that drops and retakes the section's lock: absent from the kernels
 *   the masks are for, it does not make the converter's table keep
 *   the all-vector API for the section (callee-drops-lock).
 *
 * A naive analysis gets wrong: following lockdep's report gives
 * dl_submit() TIMER (every section that prints would get every vector
 * whose handlers run a lockdep check); leaving out more than lock
 * debugging's units drops TIMER from dl_submit2() (unsafe); reading
 * dl_debug_relock() as a callee that ends dl_submit3()'s section keeps
 * it ALL in sites.txt.
 */
#include "dl.h"

static DEFINE_SPINLOCK(print_lock);
static DEFINE_SPINLOCK(print_lock2);

noinline void dl_print(struct dl_obj *o)
{
	spin_lock(&print_lock);
	o->n++;
	spin_unlock(&print_lock);
}

static noinline void dl_warn(struct dl_obj *o)
{
	spin_lock(&print_lock2);
	o->n++;
	spin_unlock(&print_lock2);
}

static void dl_expire(struct timer_list *t)
{
	struct dl_obj *o = from_timer(o, t, timer);

	dl_rcu_suspicious(o);
}

static void dl_expire2(struct timer_list *t)
{
	struct dl_obj *o = from_timer(o, t, timer2);

	dl_warn(o);
}

void dl_init(struct dl_obj *o)
{
	timer_setup(&o->timer, dl_expire, 0);
	timer_setup(&o->timer2, dl_expire2, 0);
}

void dl_submit(struct dl_obj *o)
{
	spin_lock_bh(&o->lock);
	dl_print(o);
	spin_unlock_bh(&o->lock);
}

void dl_submit2(struct dl_obj *o)
{
	spin_lock_bh(&o->lock);
	dl_warn(o);
	spin_unlock_bh(&o->lock);
}

void dl_submit3(struct dl_obj *o)
{
	spin_lock_bh(&o->lock);
	o->n++;
	dl_debug_relock(o);
	spin_unlock_bh(&o->lock);
}
