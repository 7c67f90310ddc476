// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture percpu-owned.
 *
 * Checks: memory a per-CPU slot points to is per-CPU data too.  The
 * shape of nft_pipapo_lookup(): a set keeps, per CPU, a pointer to a
 * scratch map it allocates with kzalloc() (set->scratch is
 * alloc_percpu() of a pointer); a lookup loads this CPU's pointer
 * (*this_cpu_ptr(set->scratch)) and rewrites the map and its index.  The
 * NAPI poll looks packets up the same way (NET_RX), and set_lookup(), in
 * process context, inside local_bh_disable(): a poll on this CPU inside
 * that section would rewrite the map under it, so the section must hold
 * NET_RX back.  set_peek() only reads this CPU's pointer and writes
 * nothing through it: NONE.  set_fill() writes through a pointer it
 * allocates itself, not loaded from per-CPU memory: NONE.
 *
 * A naive analysis gets wrong: the pointer loaded from the per-CPU slot
 * names heap memory, so the writes through it look like writes to an
 * ordinary struct, and set_lookup() gets NONE (on the campaign kernel
 * both nft_pipapo lookups were converted to open every vector).
 */
#include "kernel.h"

struct set_scratch {
	unsigned int map_index;
	unsigned long map[4];
};

struct set {
	struct napi_struct napi;
	struct set_scratch * __percpu *scratch;
	unsigned long key;
};

static void set_match(struct set *s, unsigned long key)
{
	struct set_scratch *sc = *this_cpu_ptr(s->scratch);

	sc->map[sc->map_index] = key;
	sc->map_index = !sc->map_index;
}

static int set_poll(struct napi_struct *napi, int budget)
{
	struct set *s = container_of(napi, struct set, napi);

	set_match(s, 1);
	return budget;
}

void set_init(struct net_device *dev, struct set *s)
{
	s->scratch = alloc_percpu(struct set_scratch *);
	netif_napi_add(dev, &s->napi, set_poll);
}

void set_lookup(struct set *s, unsigned long key)
{
	local_bh_disable();
	set_match(s, key);
	local_bh_enable();
}

unsigned long set_peek(struct set *s)
{
	unsigned long ret;

	local_bh_disable();
	ret = (*this_cpu_ptr(s->scratch))->map_index;
	local_bh_enable();
	return ret;
}

void set_fill(struct set *s)
{
	struct set_scratch *sc = kzalloc(sizeof(*sc), GFP_ATOMIC);

	if (!sc)
		return;
	local_bh_disable();
	sc->map_index = 1;
	s->key = sc->map_index;
	local_bh_enable();
	kfree(sc);
}
