// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture vector-roots.
 *
 * Checks: each dispatcher is a root of its own vector only.  A NAPI poll
 * (netif_napi_add) runs in NET_RX, a qdisc's ->dequeue in NET_TX, a
 * blk_mq_ops.complete in BLOCK, an irq_poll handler in IRQ_POLL, and a
 * tasklet set up with the old tasklet_init() (t->func, unsigned long
 * data) in TASKLET and HI.  Each takes its own lock; the
 * rcu_read_lock_bh() section in nic_snapshot() (nic.c) takes all five
 * one after the other, so its mask is their union.
 *
 * A naive analysis gets wrong: knowing only timers and tasklet_setup()
 * leaves all these classes NONE; treating every callback as "some
 * softirq" gives each class every vector; resolving only
 * tasklet_struct.callback misses the func member of the union.
 */
#include "kernel.h"

struct nic_rx { spinlock_t lock; struct napi_struct napi; unsigned long packets; };
struct nic_tx { spinlock_t lock; struct Qdisc qdisc; unsigned int backlog; };

struct io_counts {
	unsigned long reqs, cqes, events;
};
unsigned long io_snapshot(struct io_counts *c);

static struct nic_rx rx0;
static struct nic_tx tx0;

static int nic_poll(struct napi_struct *napi, int budget)
{
	spin_lock(&rx0.lock);
	rx0.packets += budget;
	spin_unlock(&rx0.lock);
	return budget;
}

static struct sk_buff *nic_dequeue(struct Qdisc *q)
{
	spin_lock(&tx0.lock);
	tx0.backlog--;
	spin_unlock(&tx0.lock);
	return NULL;
}

static const struct Qdisc_ops nic_qdisc_ops = { .dequeue = nic_dequeue };

void nic_open(struct net_device *dev)
{
	netif_napi_add(dev, &rx0.napi, nic_poll);
	tx0.qdisc.ops = &nic_qdisc_ops;
	__netif_schedule(&tx0.qdisc);
	__napi_schedule(&rx0.napi);
}

unsigned long nic_snapshot(struct io_counts *c)
{
	unsigned long n;

	rcu_read_lock_bh();
	spin_lock(&rx0.lock);
	n = rx0.packets;
	spin_unlock(&rx0.lock);
	spin_lock(&tx0.lock);
	n += tx0.backlog;
	spin_unlock(&tx0.lock);
	n += io_snapshot(c);
	rcu_read_unlock_bh();
	return n;
}
