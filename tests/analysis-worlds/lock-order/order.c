// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture lock-order.  Checks: flow.lock (A) is taken only by NET_RX,
 * flow_tbl.lock (B) only by a TIMER, and flow_tbl_flush() (a workqueue)
 * takes A while holding B: B is ordered before A, so A's class mask is
 * TIMER|NET_RX (CPU1 holds A in flow_update() with TIMER enabled, the
 * timer spins on B, which CPU2 holds in flow_tbl_flush() waiting for A).
 * The order is one way: B's mask stays TIMER.
 *
 * A naive analysis gets wrong: looking only at the vectors that take A
 * gives NET_RX (the deadlock above); a symmetric order adds NET_RX to B.
 */
#include "kernel.h"

struct flow { spinlock_t lock; struct flow *next; unsigned long packets; };

struct flow_tbl {
	spinlock_t lock;
	struct flow *flows;
	struct timer_list gc_timer;
	struct work_struct flush_work;
	struct napi_struct napi;
	unsigned int gc_runs;
};

static int flow_poll(struct napi_struct *napi, int budget)
{
	struct flow_tbl *tbl = container_of(napi, struct flow_tbl, napi);
	struct flow *f = tbl->flows;

	if (!f)
		return 0;
	spin_lock(&f->lock);
	f->packets++;
	spin_unlock(&f->lock);
	return 1;
}

static void flow_tbl_gc(struct timer_list *t)
{
	struct flow_tbl *tbl = from_timer(tbl, t, gc_timer);

	spin_lock(&tbl->lock);
	tbl->gc_runs++;
	spin_unlock(&tbl->lock);
}

static void flow_reset(struct flow *f)
{
	spin_lock(&f->lock);
	f->packets = 0;
	spin_unlock(&f->lock);
}

static void flow_tbl_flush(struct work_struct *w)
{
	struct flow_tbl *tbl = container_of(w, struct flow_tbl, flush_work);
	struct flow *f;

	spin_lock_bh(&tbl->lock);
	for (f = tbl->flows; f; f = f->next)
		flow_reset(f);
	spin_unlock_bh(&tbl->lock);
}

void flow_tbl_init(struct net_device *dev, struct flow_tbl *tbl)
{
	netif_napi_add(dev, &tbl->napi, flow_poll);
	timer_setup(&tbl->gc_timer, flow_tbl_gc, 0);
	INIT_WORK(&tbl->flush_work, flow_tbl_flush);
}

void flow_update(struct flow *f, unsigned long n)
{
	spin_lock_bh(&f->lock);
	f->packets += n;
	spin_unlock_bh(&f->lock);
}
