// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture bh-enable-barrier.
 *
 * Checks: the timer callback tick_run() opens and closes a BH section
 * (spin_lock_bh/spin_unlock_bh on tick_state.lock) and a
 * local_bh_disable()/local_bh_enable() section.  local_bh_enable()
 * reaches __local_bh_enable_ip() -> do_softirq() -> __do_softirq() in the
 * call graph (in the kernel spin_unlock_bh() does too; the stub keeps the
 * _raw_* primitives opaque), but a vector handler never runs other
 * vectors from there (handlers do not nest): TIMER must not gain the
 * vectors of every other handler.  rxring.lock, taken only by a NAPI
 * poll, stays NET_RX; tick_state.lock stays TIMER.
 *
 * A naive analysis gets wrong: following spin_unlock_bh() into the
 * dispatcher makes the timer reach every handler, so every class any
 * vector takes would also get TIMER (here rxring.lock).
 */
#include "kernel.h"

struct tick_state {
	spinlock_t lock;
	struct timer_list timer;
	unsigned long ticks;
};

struct rxring {
	spinlock_t lock;
	struct napi_struct napi;
	unsigned int head;
};

static void tick_run(struct timer_list *t)
{
	struct tick_state *ts = from_timer(ts, t, timer);

	spin_lock_bh(&ts->lock);
	ts->ticks++;
	spin_unlock_bh(&ts->lock);
	local_bh_disable();
	ts->ticks++;
	local_bh_enable();
	mod_timer(&ts->timer, jiffies + 1);
}

static int rxring_poll(struct napi_struct *napi, int budget)
{
	struct rxring *r = container_of(napi, struct rxring, napi);

	spin_lock(&r->lock);
	r->head += budget;
	spin_unlock(&r->lock);
	return budget;
}

void tick_start(struct net_device *dev, struct tick_state *ts, struct rxring *r)
{
	timer_setup(&ts->timer, tick_run, 0);
	netif_napi_add(dev, &r->napi, rxring_poll);
	mod_timer(&ts->timer, jiffies + 1);
}

void rxring_reset(struct rxring *r)
{
	spin_lock_bh(&r->lock);
	r->head = 0;
	spin_unlock_bh(&r->lock);
}

unsigned long tick_count(struct tick_state *ts)
{
	unsigned long n;

	spin_lock_bh(&ts->lock);
	n = ts->ticks;
	spin_unlock_bh(&ts->lock);
	return n;
}
