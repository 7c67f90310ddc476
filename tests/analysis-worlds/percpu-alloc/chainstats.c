// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture percpu-alloc.
 *
 * Checks: per-CPU memory from alloc_percpu() (what nft_update_chain_stats()
 * counts into) is per-CPU data like a DEFINE_PER_CPU variable.  A rule
 * chain's counters live in a __percpu pointer field; the NAPI poll counts
 * every packet into them through this_cpu_ptr() (a raw read-modify-write,
 * NET_RX), and chain_output(), in process context, counts the same way
 * inside local_bh_disable().  That section must hold NET_RX back, or the
 * poll's increment lands between the section's load and store and is
 * lost.  chain_reset() zeroes every CPU's counters through per_cpu_ptr()
 * under spin_lock_bh() on chain.lock, which no vector takes: NET_RX from
 * the per-CPU write alone.  chain_note() writes only a static per-CPU
 * variable nothing else touches: its section stays NONE.
 *
 * A naive analysis gets wrong: the pointer to the counters is loaded
 * from a field, so it names no per-CPU variable; ignoring it gives
 * chain_output() NONE (on the campaign kernel, the four nf_tables
 * counter sections were converted to open every vector).
 */
#include "kernel.h"

struct chain_stats {
	u64 packets;
	u64 bytes;
};

struct chain {
	spinlock_t lock;
	struct napi_struct napi;
	struct chain_stats __percpu *stats;
	unsigned int nr_cpus;
};

static DEFINE_PER_CPU(unsigned long, chain_notes);

static void chain_count(struct chain *c, unsigned int len)
{
	struct chain_stats *s = this_cpu_ptr(c->stats);

	s->packets++;
	s->bytes += len;
}

static int chain_poll(struct napi_struct *napi, int budget)
{
	struct chain *c = container_of(napi, struct chain, napi);

	chain_count(c, 1500);
	return budget;
}

void chain_init(struct net_device *dev, struct chain *c)
{
	c->stats = alloc_percpu(struct chain_stats);
	netif_napi_add(dev, &c->napi, chain_poll);
}

void chain_output(struct chain *c, unsigned int len)
{
	local_bh_disable();
	chain_count(c, len);
	local_bh_enable();
}

void chain_reset(struct chain *c)
{
	unsigned int cpu;

	spin_lock_bh(&c->lock);
	for (cpu = 0; cpu < c->nr_cpus; cpu++)
		per_cpu_ptr(c->stats, cpu)->packets = 0;
	spin_unlock_bh(&c->lock);
}

void chain_note(void)
{
	local_bh_disable();
	*this_cpu_ptr(&chain_notes) += 1;
	local_bh_enable();
}
