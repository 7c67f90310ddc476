// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture allocated-locks.
 *
 * Checks: a lock array from kmalloc() (as inet_hashinfo.ehash_locks
 * comes from kvmalloc_array()) is a class of its own per allocation
 * site, whatever the allocator's body returns.  The allocator here hands
 * out what it loads from a freelist, and a timer's lock once went onto
 * that freelist (as the field-based solve stores lock addresses into
 * the slab's list pointers).  The timer takes the hash table's locks,
 * so that section is TIMER; the cold table's locks come from another
 * allocation and no vector takes them.  Memory kept as a void * and
 * cast to a lock only where it is taken is data: that lock has no class
 * (its section holds an unresolved lock: ALL).
 *
 * A naive analysis gets wrong: reading the allocator's body gives both
 * tables the timer's lock, so the cold section is TIMER (imprecise);
 * cutting the allocator's result without a value of its own leaves the
 * hash table's locks with no class, and its section NONE (unsafe).
 */
#include "kernel.h"

struct al_hash {
	spinlock_t *locks;
	unsigned int mask;
	int n;
};

struct al_cold {
	spinlock_t *locks;
	int n;
};

static void *al_freelist;
static struct al_hash al_tab;
static struct al_cold al_cold;
static spinlock_t al_timer_lock;
static struct timer_list al_timer;
static void *al_raw;

void *kmalloc(unsigned long size, gfp_t flags)
{
	void *p = al_freelist;

	al_freelist = NULL;
	return p;
}

void al_retire(spinlock_t *l)
{
	al_freelist = l;
}

static void al_expire(struct timer_list *t)
{
	spin_lock(&al_timer_lock);
	spin_lock(&al_tab.locks[jiffies & al_tab.mask]);
	spin_unlock(&al_tab.locks[jiffies & al_tab.mask]);
	spin_unlock(&al_timer_lock);
}

void al_setup(void)
{
	al_tab.locks = kmalloc(64 * sizeof(spinlock_t), GFP_KERNEL);
	al_cold.locks = kmalloc(16 * sizeof(spinlock_t), GFP_KERNEL);
	al_retire(&al_timer_lock);
	timer_setup(&al_timer, al_expire, 0);
	al_raw = kmalloc(sizeof(spinlock_t), GFP_KERNEL);
}

void al_tab_use(unsigned int i)
{
	spin_lock_bh(&al_tab.locks[i & al_tab.mask]);
	al_tab.n++;
	spin_unlock_bh(&al_tab.locks[i & al_tab.mask]);
}

void al_cold_use(int i)
{
	spin_lock_bh(&al_cold.locks[i & 15]);
	al_cold.n++;
	spin_unlock_bh(&al_cold.locks[i & 15]);
}

void al_raw_use(void)
{
	spin_lock_bh((spinlock_t *)al_raw);
	al_cold.n++;
	spin_unlock_bh((spinlock_t *)al_raw);
}
