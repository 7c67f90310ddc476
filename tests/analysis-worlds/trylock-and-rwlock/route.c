// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture trylock-and-rwlock.
 *
 * Checks: a read_lock() in a timer takes the rwlock class (route_tbl.lock
 * gets TIMER, so write_lock_bh() and read_lock_bh() sections mask TIMER).
 * A spin_trylock() in the qdisc dequeue (txq.c) does not take txq.lock
 * for a mask: it never waits, so the interrupted section cannot
 * deadlock with it, and its failure there is the failure another CPU
 * holding the lock causes, which the caller handles; lockdep marks no
 * softirq use on a trylock either (mark_usage()).  What the dequeue takes
 * under a successful trylock (txq.stats_lock) is a NET_TX acquisition,
 * and the spin_trylock_bh() section in txq_purge() masks it.
 *
 * A naive analysis gets wrong: treating read_lock() as harmless (readers
 * share) misses that the timer's reader spins while an interrupted
 * write_lock_bh() section on this CPU holds the lock.  Counting a
 * trylock in a vector as a take masks NET_TX for nothing, and in the
 * kernel the page allocator's per-CPU lists (pcp_spin_trylock() from
 * every vector that frees a page) put every vector on every section
 * that allocates.  A successful spin_trylock_bh() opens a section.
 */
#include "kernel.h"

struct route_tbl {
	rwlock_t lock;
	unsigned int nr_routes;
	unsigned int gen;
	struct timer_list gc_timer;
};

static void route_gc(struct timer_list *t)
{
	struct route_tbl *tbl = from_timer(tbl, t, gc_timer);
	unsigned int n;

	read_lock(&tbl->lock);
	n = tbl->nr_routes;
	read_unlock(&tbl->lock);
	if (n)
		mod_timer(&tbl->gc_timer, jiffies + HZ);
}

void route_tbl_init(struct route_tbl *tbl)
{
	timer_setup(&tbl->gc_timer, route_gc, 0);
}

void route_add(struct route_tbl *tbl)
{
	write_lock_bh(&tbl->lock);
	tbl->nr_routes++;
	tbl->gen++;
	write_unlock_bh(&tbl->lock);
}

unsigned int route_gen(struct route_tbl *tbl)
{
	unsigned int gen;

	read_lock_bh(&tbl->lock);
	gen = tbl->gen;
	read_unlock_bh(&tbl->lock);
	return gen;
}
