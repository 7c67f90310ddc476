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
 * takes, does.  For the same reason ev_kick(), which calls the handler
 * with ev_obj.ops_lock held (a tasklet takes it), does not order
 * ops_lock before cfg_lock: code that holds a spinning lock never calls
 * a function that sleeps on entry.  stat_lock is ordered after it
 * (TASKLET).
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
	spinlock_t ops_lock;
	spinlock_t cfg_lock;
	spinlock_t stat_lock;
	struct mutex mutex;
	const struct ev_ops *ops;
	int cfg;
	int hits;
	struct timer_list timer;
	struct tasklet_struct tl;
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

static void ev_tasklet(struct tasklet_struct *t)
{
	struct ev_obj *o = container_of(t, struct ev_obj, tl);

	spin_lock(&o->ops_lock);
	o->hits = 0;
	spin_unlock(&o->ops_lock);
}

void ev_init(struct ev_obj *o, int slow)
{
	o->ops = slow ? &ev_slow_ops : &ev_fast_ops;
	timer_setup(&o->timer, ev_expire, 0);
	tasklet_setup(&o->tl, ev_tasklet);
	tasklet_schedule(&o->tl);
}

void ev_kick(struct ev_obj *o)
{
	spin_lock_bh(&o->ops_lock);
	o->ops->handle(o);
	spin_unlock_bh(&o->ops_lock);
}

void ev_configure(struct ev_obj *o, int cfg)
{
	spin_lock_bh(&o->cfg_lock);
	o->cfg = cfg;
	spin_unlock_bh(&o->cfg_lock);
	o->ops->handle(o);
}
