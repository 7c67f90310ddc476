// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture bit-spinlock.
 *
 * Checks: bit_spin_lock() on bucket.flags in a NAPI poll makes the word a
 * lock class taken in NET_RX: the local_bh_disable() section around the
 * same bit lock in bucket_insert() gets NET_RX.  hash.c:cache_bits, a
 * static word used as a bit lock only in process context, stays NONE.
 *
 * A naive analysis gets wrong: bit_spin_lock() is an atomic loop on an
 * ordinary unsigned long, not a spinlock_t; an analysis that only knows
 * lock types sees no acquisition and gives the section NONE, and the poll
 * would spin forever on the bit the interrupted section holds.
 */
#include "kernel.h"

#define BUCKET_LOCK_BIT 0

struct hentry { struct hentry *next; unsigned int key; };

struct bucket {
	unsigned long flags;
	struct hentry *head;
	unsigned int hits;
};

struct hash_rx {
	struct napi_struct napi;
	struct bucket *tbl;
};

static unsigned long cache_bits;
static unsigned int cache_gen;

static int hash_poll(struct napi_struct *napi, int budget)
{
	struct hash_rx *rx = container_of(napi, struct hash_rx, napi);
	struct bucket *b = &rx->tbl[budget & 63];

	bit_spin_lock(BUCKET_LOCK_BIT, &b->flags);
	b->hits++;
	bit_spin_unlock(BUCKET_LOCK_BIT, &b->flags);
	return 1;
}

void hash_rx_init(struct net_device *dev, struct hash_rx *rx)
{
	netif_napi_add(dev, &rx->napi, hash_poll);
}

void bucket_insert(struct bucket *b, struct hentry *e)
{
	local_bh_disable();
	bit_spin_lock(BUCKET_LOCK_BIT, &b->flags);
	e->next = b->head;
	b->head = e;
	bit_spin_unlock(BUCKET_LOCK_BIT, &b->flags);
	local_bh_enable();
}

void cache_bump(void)
{
	local_bh_disable();
	bit_spin_lock(3, &cache_bits);
	cache_gen++;
	bit_spin_unlock(3, &cache_bits);
	local_bh_enable();
}
