// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture unset-ops-field.
 *
 * Checks: uo_expire(), a timer callback, calls o->ops->expire() when it
 * is set, like posix_lock_inode() calls lm_expire_lock (set only by
 * nfsd, which the configuration leaves out).  No unit of the world
 * stores a function into uo_ops.expire, and the field is read through a
 * pointer whose cell the analysis knows: the call has no target.  It
 * does not fall back to every address-taken function of its prototype,
 * such as uo_reset_stats(), which takes uo_obj.stats_lock; that class
 * gets no TIMER.
 *
 * A naive analysis gets wrong: treating "no value" like "unknown value"
 * sends the call to every address-taken void (void) function; in the
 * kernel that reached the lockdep self-tests, which return holding
 * their locks, from the close() system call.
 */
#include "kernel.h"

struct uo_ops {
	void (*expire)(void);
	int (*weight)(int);
};

struct uo_obj {
	spinlock_t stats_lock;
	int stats;
	const struct uo_ops *ops;
	struct timer_list timer;
};

static struct uo_obj uo_global;

static int uo_weight(int x)
{
	return x * 2;
}

static const struct uo_ops uo_default_ops = { .weight = uo_weight };

static void uo_reset_stats(void)
{
	spin_lock(&uo_global.stats_lock);
	uo_global.stats = 0;
	spin_unlock(&uo_global.stats_lock);
}

void (*uo_hook)(void) = uo_reset_stats;

static void uo_expire(struct timer_list *t)
{
	struct uo_obj *o = from_timer(o, t, timer);

	if (o->ops->expire)
		o->ops->expire();
}

void uo_start(struct uo_obj *o)
{
	o->ops = &uo_default_ops;
	timer_setup(&o->timer, uo_expire, 0);
}

void uo_count(void)
{
	spin_lock_bh(&uo_global.stats_lock);
	uo_global.stats++;
	spin_unlock_bh(&uo_global.stats_lock);
	uo_hook();
}
