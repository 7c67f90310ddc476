// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture notifier-heads.
 *
 * Checks: two atomic notifier chains.  nt_expire(), a timer callback,
 * calls nt_rx_chain; nt_admin_apply(), in process context, calls
 * nt_admin_chain.  nt_rx_event() is registered on nt_rx_chain (a
 * global block), nt_admin_event() on nt_admin_chain through a wrapper
 * that names the head itself, like register_netdevice_notifier().
 * notifier_call_chain() runs what was registered on the head it is
 * given: nt_obj.rx_lock gets TIMER and nt_obj.admin_lock none.
 * nt_dyn_event() is the notifier_call of a global block set at run time
 * and registered on nt_rx_chain: nt_obj.dyn_lock gets TIMER.  A block
 * inside an object (o->nb, on the admin chain) may hold any notifier
 * function, as the field-based model sees it.
 *
 * A naive analysis gets wrong: one notifier_call field for every block
 * runs every notifier of the kernel from every chain (in the kernel,
 * the console's vt notifier chain ran the IPv4 and IPv6 address
 * notifiers from every vector); taking a global block's function from
 * its initializer only drops TIMER from nt_obj.dyn_lock (unsafe).
 */
#include "kernel.h"

struct nt_obj {
	spinlock_t rx_lock;
	spinlock_t admin_lock;
	spinlock_t dyn_lock;
	int rx;
	int admin;
	int dyn;
	struct notifier_block nb;
	struct timer_list timer;
};

static struct nt_obj nt_state;
static ATOMIC_NOTIFIER_HEAD(nt_rx_chain);
static ATOMIC_NOTIFIER_HEAD(nt_admin_chain);

static int nt_rx_event(struct notifier_block *nb, unsigned long action, void *data)
{
	spin_lock(&nt_state.rx_lock);
	nt_state.rx++;
	spin_unlock(&nt_state.rx_lock);
	return 0;
}

static int nt_admin_event(struct notifier_block *nb, unsigned long action, void *data)
{
	spin_lock(&nt_state.admin_lock);
	nt_state.admin++;
	spin_unlock(&nt_state.admin_lock);
	return 0;
}

static int nt_dyn_event(struct notifier_block *nb, unsigned long action, void *data)
{
	spin_lock(&nt_state.dyn_lock);
	nt_state.dyn++;
	spin_unlock(&nt_state.dyn_lock);
	return 0;
}

static struct notifier_block nt_rx_nb = { .notifier_call = nt_rx_event };
static struct notifier_block nt_admin_nb = { .notifier_call = nt_admin_event };
static struct notifier_block nt_dyn_nb;

static noinline int register_nt_admin_notifier(struct notifier_block *nb)
{
	return atomic_notifier_chain_register(&nt_admin_chain, nb);
}

static void nt_expire(struct timer_list *t)
{
	atomic_notifier_call_chain(&nt_rx_chain, 1, NULL);
}

void nt_init(struct nt_obj *o)
{
	atomic_notifier_chain_register(&nt_rx_chain, &nt_rx_nb);
	register_nt_admin_notifier(&nt_admin_nb);
	nt_dyn_nb.notifier_call = nt_dyn_event;
	atomic_notifier_chain_register(&nt_rx_chain, &nt_dyn_nb);
	o->nb.notifier_call = nt_admin_event;
	register_nt_admin_notifier(&o->nb);
	timer_setup(&o->timer, nt_expire, 0);
}

void nt_admin_apply(void)
{
	atomic_notifier_call_chain(&nt_admin_chain, 2, NULL);
}

void nt_admin_reset(void)
{
	spin_lock_bh(&nt_state.admin_lock);
	nt_state.admin = 0;
	spin_unlock_bh(&nt_state.admin_lock);
}
