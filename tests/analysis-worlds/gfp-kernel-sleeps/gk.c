// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture gfp-kernel-sleeps.
 *
 * Checks: gk_expire(), a timer callback, calls o->ops->handle(), whose
 * values are gk_slow(), gk_fast() and gk_table().  gk_slow() allocates
 * with GFP_KERNEL on every path: the allocator calls
 * might_sleep_if(gfp & __GFP_DIRECT_RECLAIM) first, so a softirq never
 * runs gk_slow(), and gk_obj.cfg_lock, which it takes after the
 * allocation, gets no TIMER.  gk_fast() allocates with GFP_ATOMIC, which
 * never sleeps: gk_obj.stat_lock gets TIMER.  gk_table() calls
 * kcalloc(GFP_KERNEL), which returns NULL on an overflow before it
 * allocates: not every path sleeps, and gk_obj.tab_lock gets TIMER.
 *
 * A naive analysis gets wrong: without the gfp mask, every function
 * that allocates with GFP_KERNEL before its work (rtnl_newlink(), most
 * of the netlink and socket set-up code) joins the vectors that reach
 * it through an indirect call; counting every GFP_KERNEL call as a
 * sleep, kcalloc() included, drops TIMER from gk_obj.tab_lock (unsafe).
 */
#include "kernel.h"

struct gk_obj;

struct gk_ops {
	void (*handle)(struct gk_obj *o);
};

struct gk_obj {
	spinlock_t cfg_lock;
	spinlock_t stat_lock;
	spinlock_t tab_lock;
	const struct gk_ops *ops;
	void *cfg;
	void *stat;
	void *tab;
	struct timer_list timer;
};

static void gk_slow(struct gk_obj *o)
{
	void *p = kmalloc(64, GFP_KERNEL);

	spin_lock(&o->cfg_lock);
	o->cfg = p;
	spin_unlock(&o->cfg_lock);
}

static void gk_fast(struct gk_obj *o)
{
	void *p = kmalloc(64, GFP_ATOMIC);

	spin_lock(&o->stat_lock);
	o->stat = p;
	spin_unlock(&o->stat_lock);
}

static void gk_table(struct gk_obj *o)
{
	void *p = kcalloc(8, 64, GFP_KERNEL);

	spin_lock(&o->tab_lock);
	o->tab = p;
	spin_unlock(&o->tab_lock);
}

static const struct gk_ops gk_slow_ops = { .handle = gk_slow };
static const struct gk_ops gk_fast_ops = { .handle = gk_fast };
static const struct gk_ops gk_table_ops = { .handle = gk_table };

static void gk_expire(struct timer_list *t)
{
	struct gk_obj *o = from_timer(o, t, timer);

	o->ops->handle(o);
}

void gk_init(struct gk_obj *o, int kind)
{
	o->ops = kind == 0 ? &gk_slow_ops : kind == 1 ? &gk_fast_ops : &gk_table_ops;
	timer_setup(&o->timer, gk_expire, 0);
}

void gk_configure(struct gk_obj *o)
{
	spin_lock_bh(&o->cfg_lock);
	o->cfg = NULL;
	spin_unlock_bh(&o->cfg_lock);
}
