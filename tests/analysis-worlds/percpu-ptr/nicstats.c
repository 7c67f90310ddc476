// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture percpu-ptr.
 *
 * Checks: per-CPU structs written through this_cpu_ptr()/per_cpu_ptr().
 * The NAPI poll updates rx_stats through this_cpu_ptr() (two fields, a
 * raw access): percpu:rx_stats gets NET_RX.  nic_stats_reset() writes
 * rx_stats through per_cpu_ptr() inside a spin_lock_bh() section on
 * nic.lock, a lock no vector takes: the section's mask is NET_RX from the
 * per-CPU write alone.  tx_stats is written raw in nic_tx_account()'s
 * section, but the qdisc dequeue only uses this_cpu_add() on it (on
 * another field: the section's C read-modify-write of bytes and the
 * vector's single instruction on packets cannot lose an update): that
 * section stays NONE, and percpu:nicstats.c:tx_stats has no vector.
 *
 * A naive analysis gets wrong: per_cpu_ptr()/this_cpu_ptr() launder the
 * address through an unsigned long (RELOC_HIDE); losing the variable
 * there gives nic_stats_reset() NONE (the poll's packets++ could then
 * interleave with the reset), or, taking any laundered pointer as any
 * per-CPU variable, gives nic_tx_account() NET_RX too.
 */
#include "kernel.h"

struct pcpu_stats {
	u64 packets;
	u64 bytes;
};

DEFINE_PER_CPU(struct pcpu_stats, rx_stats);
static DEFINE_PER_CPU(struct pcpu_stats, tx_stats);

struct nic {
	spinlock_t lock;
	struct napi_struct napi;
	struct Qdisc qdisc;
	unsigned int nr_cpus;
};

static int nic_poll(struct napi_struct *napi, int budget)
{
	struct pcpu_stats *s = this_cpu_ptr(&rx_stats);

	s->packets += budget;
	s->bytes += budget * 1500;
	return budget;
}

static struct sk_buff *nic_dequeue(struct Qdisc *q)
{
	this_cpu_add(tx_stats.packets, 1);
	return NULL;
}

static const struct Qdisc_ops nic_ops = { .dequeue = nic_dequeue };

void nic_init(struct net_device *dev, struct nic *n)
{
	netif_napi_add(dev, &n->napi, nic_poll);
	n->qdisc.ops = &nic_ops;
}

void nic_stats_reset(struct nic *n)
{
	unsigned int cpu;

	spin_lock_bh(&n->lock);
	for (cpu = 0; cpu < n->nr_cpus; cpu++) {
		per_cpu_ptr(&rx_stats, cpu)->packets = 0;
		per_cpu_ptr(&rx_stats, cpu)->bytes = 0;
	}
	spin_unlock_bh(&n->lock);
}

void nic_tx_account(struct nic *n, unsigned int len)
{
	spin_lock_bh(&n->lock);
	this_cpu_ptr(&tx_stats)->bytes += len;
	spin_unlock_bh(&n->lock);
}
