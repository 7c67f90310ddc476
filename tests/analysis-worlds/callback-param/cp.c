// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture callback-param.
 *
 * Checks: cp_walk() is a generic helper that calls the function it is
 * given, like netlink_rcv_skb(skb, cb) or bus_for_each_dev(..., fn).
 * cp_expire(), a timer callback, passes cp_stat(); cp_admin_all(), in
 * process context, passes cp_admin().  When the timer runs cp_walk(),
 * the callback is cp_stat(): cp_obj.stat_lock gets TIMER and
 * cp_obj.admin_lock none.  cp_walk_all() passes its own callback on to
 * cp_walk(); the tasklet hands it cp_tick(): cp_obj.tick_lock gets
 * TASKLET through the two helpers (the tasklet is on the TASKLET list).  cp_walk_field() passes a
 * function loaded from a field, cp_obj.hook, whose only value is
 * cp_hook(): the timer reaches it, cp_obj.hook_lock gets TIMER.
 *
 * A naive analysis gets wrong: one set of targets for the call in
 * cp_walk() whoever calls it gives admin_lock TIMER and TASKLET
 * (in the kernel, every netlink input handler ran every netlink
 * message handler); dropping the call's targets where the caller's
 * value is not a constant drops TIMER from hook_lock (unsafe).
 */
#include "kernel.h"

struct cp_obj {
	spinlock_t stat_lock;
	spinlock_t admin_lock;
	spinlock_t tick_lock;
	spinlock_t hook_lock;
	void (*hook)(struct cp_obj *o);
	int stat;
	int admin;
	int tick;
	int hooked;
	struct timer_list timer;
	struct tasklet_struct tl;
};

static noinline void cp_walk(struct cp_obj *o, void (*fn)(struct cp_obj *o))
{
	if (o->stat >= 0)
		fn(o);
}

static noinline void cp_walk_all(struct cp_obj *o, void (*fn)(struct cp_obj *o))
{
	cp_walk(o, fn);
	cp_walk(o, fn);
}

static void cp_stat(struct cp_obj *o)
{
	spin_lock(&o->stat_lock);
	o->stat++;
	spin_unlock(&o->stat_lock);
}

static void cp_admin(struct cp_obj *o)
{
	spin_lock(&o->admin_lock);
	o->admin++;
	spin_unlock(&o->admin_lock);
}

static void cp_tick(struct cp_obj *o)
{
	spin_lock(&o->tick_lock);
	o->tick++;
	spin_unlock(&o->tick_lock);
}

static void cp_hook(struct cp_obj *o)
{
	spin_lock(&o->hook_lock);
	o->hooked++;
	spin_unlock(&o->hook_lock);
}

static void cp_expire(struct timer_list *t)
{
	struct cp_obj *o = from_timer(o, t, timer);

	cp_walk(o, cp_stat);
	cp_walk(o, o->hook);
}

static void cp_tasklet(struct tasklet_struct *t)
{
	struct cp_obj *o = container_of(t, struct cp_obj, tl);

	cp_walk_all(o, cp_tick);
}

void cp_init(struct cp_obj *o)
{
	o->hook = cp_hook;
	timer_setup(&o->timer, cp_expire, 0);
	tasklet_setup(&o->tl, cp_tasklet);
	tasklet_schedule(&o->tl);
}

void cp_admin_all(struct cp_obj *o)
{
	cp_walk_all(o, cp_admin);
}

void cp_configure(struct cp_obj *o)
{
	spin_lock_bh(&o->admin_lock);
	o->admin = 0;
	spin_unlock_bh(&o->admin_lock);
}
