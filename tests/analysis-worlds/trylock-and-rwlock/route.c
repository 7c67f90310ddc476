// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture trylock-and-rwlock.
 *
 * Checks: a read_lock() in a timer takes the rwlock class (route_tbl.lock
 * gets TIMER, so write_lock_bh() and read_lock_bh() sections mask TIMER),
 * and a spin_trylock() in the qdisc dequeue takes txq.lock in NET_TX (the
 * spin_trylock_bh() section in txq_purge() masks NET_TX).
 *
 * A naive analysis gets wrong: treating read_lock() as harmless (readers
 * share) misses that the timer's reader spins while an interrupted
 * write_lock_bh() section on this CPU holds the lock.  Skipping trylocks
 * breaks the uniform rule (any primitive takes the class; lockdep also
 * marks a class softirq-used on a trylock): a failed trylock in a vector
 * is a silent lost dequeue, and what a successful one nests under it
 * still orders.  A successful spin_trylock_bh() opens a section.
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
