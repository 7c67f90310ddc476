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
 * function, as the field-based model sees it.  A global that is
 * itself a block (nt_idle_nb) is never such a block: its function runs
 * only where the global is registered, and it never is here (its
 * register function is an empty stub, like register_pm_notifier()
 * without CONFIG_PM_SLEEP), so nt_obj.idle_lock gets none.  A global
 * that holds a block inside it (nt_wrap_g.nb) is one, registered on
 * nt_rx_chain: nt_obj.wrap_lock gets TIMER.  A handler that keeps the
 * head it registers on in a void * field and loads it back (like
 * register_sys_off_handler()) registers on the heads stored there:
 * nt_handler.list only ever holds nt_admin_chain, so nt_obj.off_lock
 * gets none; nt_relay.list holds nt_rx_chain, so nt_obj.relay_lock
 * gets TIMER.
 *
 * A naive analysis gets wrong: one notifier_call field for every block
 * runs every notifier of the kernel from every chain (in the kernel,
 * the console's vt notifier chain ran the IPv4 and IPv6 address
 * notifiers from every vector); taking a global block's function from
 * its initializer only drops TIMER from nt_obj.dyn_lock (unsafe);
 * counting every unregistered global block as one that may sit inside
 * an object gives nt_obj.idle_lock TIMER (in the kernel, the vt
 * notifier chain ran the bridge's switchdev handler, whose register
 * function is a stub without CONFIG_NET_SWITCHDEV, from every vector);
 * taking a head loaded from memory for any head gives nt_obj.off_lock
 * TIMER (in the kernel, the power-off handlers ran from every chain).
 */
#include "kernel.h"

struct nt_obj {
	spinlock_t rx_lock;
	spinlock_t admin_lock;
	spinlock_t dyn_lock;
	spinlock_t idle_lock;
	spinlock_t wrap_lock;
	spinlock_t off_lock;
	spinlock_t relay_lock;
	int rx;
	int admin;
	int dyn;
	int idle;
	int wrap;
	int off;
	int relay;
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

static int nt_idle_event(struct notifier_block *nb, unsigned long action, void *data)
{
	spin_lock(&nt_state.idle_lock);
	nt_state.idle++;
	spin_unlock(&nt_state.idle_lock);
	return 0;
}

static int nt_wrap_event(struct notifier_block *nb, unsigned long action, void *data)
{
	spin_lock(&nt_state.wrap_lock);
	nt_state.wrap++;
	spin_unlock(&nt_state.wrap_lock);
	return 0;
}

struct nt_wrap {
	int id;
	struct notifier_block nb;
};

static struct nt_wrap nt_wrap_g = { .id = 1, .nb = { .notifier_call = nt_wrap_event } };
static struct notifier_block nt_idle_nb = { .notifier_call = nt_idle_event };

/* the configuration leaves this chain out */
static inline int register_nt_idle_notifier(struct notifier_block *nb)
{
	return 0;
}

static int nt_off_event(struct notifier_block *nb, unsigned long action, void *data)
{
	spin_lock(&nt_state.off_lock);
	nt_state.off++;
	spin_unlock(&nt_state.off_lock);
	return 0;
}

static int nt_relay_event(struct notifier_block *nb, unsigned long action, void *data)
{
	spin_lock(&nt_state.relay_lock);
	nt_state.relay++;
	spin_unlock(&nt_state.relay_lock);
	return 0;
}

struct nt_handler {
	struct notifier_block nb;
	void *list;
};

struct nt_relay {
	struct notifier_block nb;
	void *list;
};

static noinline void nt_register_handler(struct nt_handler *h)
{
	h->list = &nt_admin_chain;
	h->nb.notifier_call = nt_off_event;
	atomic_notifier_chain_register(h->list, &h->nb);
}

static noinline void nt_register_relay(struct nt_relay *r)
{
	r->list = &nt_rx_chain;
	r->nb.notifier_call = nt_relay_event;
	atomic_notifier_chain_register(r->list, &r->nb);
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

void nt_init(struct nt_obj *o, struct nt_handler *h, struct nt_relay *r)
{
	nt_register_handler(h);
	nt_register_relay(r);
	atomic_notifier_chain_register(&nt_rx_chain, &nt_rx_nb);
	register_nt_admin_notifier(&nt_admin_nb);
	nt_dyn_nb.notifier_call = nt_dyn_event;
	atomic_notifier_chain_register(&nt_rx_chain, &nt_dyn_nb);
	atomic_notifier_chain_register(&nt_rx_chain, &nt_wrap_g.nb);
	register_nt_idle_notifier(&nt_idle_nb);
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

void nt_idle_reset(void)
{
	spin_lock_bh(&nt_state.idle_lock);
	nt_state.idle = 0;
	spin_unlock_bh(&nt_state.idle_lock);
}

void nt_off_reset(void)
{
	spin_lock_bh(&nt_state.off_lock);
	nt_state.off = 0;
	spin_unlock_bh(&nt_state.off_lock);
}
