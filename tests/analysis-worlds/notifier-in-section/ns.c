// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture notifier-in-section.
 *
 * Checks: ns_update() holds ns_obj.a with BH off and calls ns_notify(),
 * which runs the atomic notifier chain ns_near_chain.  Only
 * ns_near_event() is registered there; it takes ns_obj.x, which a
 * tasklet takes too, so the section's mask has TASKLET (the tasklet
 * is queued by tasklet_schedule()).  ns_far_event(),
 * registered on ns_far_chain, takes ns_obj.y, which a timer takes; no
 * path from the section runs it, so TIMER stays out of the section and
 * out of ns_obj.a (no lock order a -> y either).
 *
 * A naive analysis gets wrong: one transitive lock set per function
 * (what atomic_notifier_call_chain() may take under any caller) puts
 * every notifier of the kernel inside every section that runs a chain.
 * On the campaign kernel the console's vt chain, run under every
 * printk(), then took the IPv6 route locks and the socket lock: most
 * lock classes ordered before the socket lock came from that one call.
 */
#include "kernel.h"

struct ns_obj {
	spinlock_t a;
	spinlock_t x;
	spinlock_t y;
	int n;
	struct timer_list timer;
	struct tasklet_struct tasklet;
};

static struct ns_obj ns;
static ATOMIC_NOTIFIER_HEAD(ns_near_chain);
static ATOMIC_NOTIFIER_HEAD(ns_far_chain);

static int ns_near_event(struct notifier_block *nb, unsigned long action, void *data)
{
	spin_lock(&ns.x);
	ns.n++;
	spin_unlock(&ns.x);
	return 0;
}

static int ns_far_event(struct notifier_block *nb, unsigned long action, void *data)
{
	spin_lock(&ns.y);
	ns.n--;
	spin_unlock(&ns.y);
	return 0;
}

static struct notifier_block ns_near_nb = { .notifier_call = ns_near_event };
static struct notifier_block ns_far_nb = { .notifier_call = ns_far_event };

static void ns_expire(struct timer_list *t)
{
	spin_lock(&ns.y);
	ns.n = 0;
	spin_unlock(&ns.y);
}

static void ns_run(struct tasklet_struct *t)
{
	spin_lock(&ns.x);
	ns.n = 1;
	spin_unlock(&ns.x);
}

static noinline void ns_notify(void)
{
	atomic_notifier_call_chain(&ns_near_chain, 0, NULL);
}

void ns_far(void)
{
	atomic_notifier_call_chain(&ns_far_chain, 0, NULL);
}

void ns_init(void)
{
	atomic_notifier_chain_register(&ns_near_chain, &ns_near_nb);
	atomic_notifier_chain_register(&ns_far_chain, &ns_far_nb);
	timer_setup(&ns.timer, ns_expire, 0);
	tasklet_setup(&ns.tasklet, ns_run);
	tasklet_schedule(&ns.tasklet);
}

void ns_update(void)
{
	spin_lock_bh(&ns.a);
	ns_notify();
	spin_unlock_bh(&ns.a);
}
