// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture sleeping-callee.
 *
 * Checks: ev_expire(), a timer callback, calls o->ops->handle(), and the
 * only values of ev_ops.handle are ev_fast() and ev_slow().  ev_slow()
 * takes a mutex first, and mutex_lock() calls might_sleep() on entry:
 * a function that sleeps on every path never runs in a softirq (the
 * kernel reports "sleeping function called from invalid context"), so
 * TIMER does not reach ev_slow() and what it takes after the mutex,
 * ev_obj.cfg_lock, gets no TIMER.  ev_obj.stat_lock, which ev_fast()
 * takes, does.
 *
 * A naive analysis gets wrong: following every target of the typed
 * indirect call gives ev_obj.cfg_lock TIMER.  In the kernel, calls like
 * this (kref_put(), notifier chains, file operations) joined every
 * vector to most of the kernel.
 */
#include "kernel.h"

struct ev_obj;

struct ev_ops {
	void (*handle)(struct ev_obj *o);
};

struct ev_obj {
	spinlock_t cfg_lock;
	spinlock_t stat_lock;
	struct mutex mutex;
	const struct ev_ops *ops;
	int cfg;
	int hits;
	struct timer_list timer;
};

static void ev_fast(struct ev_obj *o)
{
	spin_lock(&o->stat_lock);
	o->hits++;
	spin_unlock(&o->stat_lock);
}

static void ev_slow(struct ev_obj *o)
{
	mutex_lock(&o->mutex);
	spin_lock(&o->cfg_lock);
	o->cfg++;
	spin_unlock(&o->cfg_lock);
	mutex_unlock(&o->mutex);
}

static const struct ev_ops ev_fast_ops = { .handle = ev_fast };
static const struct ev_ops ev_slow_ops = { .handle = ev_slow };

static void ev_expire(struct timer_list *t)
{
	struct ev_obj *o = from_timer(o, t, timer);

	o->ops->handle(o);
}

void ev_init(struct ev_obj *o, int slow)
{
	o->ops = slow ? &ev_slow_ops : &ev_fast_ops;
	timer_setup(&o->timer, ev_expire, 0);
}

void ev_configure(struct ev_obj *o, int cfg)
{
	spin_lock_bh(&o->cfg_lock);
	o->cfg = cfg;
	spin_unlock_bh(&o->cfg_lock);
	o->ops->handle(o);
}
