// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture lock-order-transitive.
 *
 * Checks: lock order is transitive and one way.  devs_walk() holds
 * dev_list.lock while taking dev_entry.lock; dev_entry_sync() holds
 * dev_entry.lock while taking dev_stats.lock.  So dev_list.lock is before
 * dev_entry.lock, which is before dev_stats.lock.  The irq_poll handler
 * takes dev_list.lock; an RCU callback takes dev_stats.lock.
 *   dev_list.lock:  IRQ_POLL
 *   dev_entry.lock: IRQ_POLL (dev_list.lock before it)
 *   dev_stats.lock: IRQ_POLL|RCU (dev_list.lock before it, through
 *     dev_entry.lock: CPU1 holds dev_stats.lock, IRQ_POLL fires and spins
 *     on dev_list.lock held by CPU2, which waits for dev_entry.lock held
 *     by CPU3, which waits for dev_stats.lock)
 * No lock is before dev_list.lock, so RCU stays out of the first two.
 *
 * A naive analysis gets wrong: following only direct (one step) order
 * leaves IRQ_POLL out of dev_stats.lock; symmetric order adds RCU to
 * dev_list.lock and dev_entry.lock.
 */
#include "kernel.h"

struct dev_stats { spinlock_t lock; unsigned long rx; struct rcu_head rcu; };
struct dev_entry { spinlock_t lock; struct dev_entry *next; struct dev_stats *stats; int seen; };
struct dev_list { spinlock_t lock; struct dev_entry *head; struct irq_poll iop; };

static int devs_poll(struct irq_poll *iop, int budget)
{
	struct dev_list *l = container_of(iop, struct dev_list, iop);

	spin_lock(&l->lock);
	budget = l->head ? budget : 0;
	spin_unlock(&l->lock);
	return budget;
}

static void dev_stats_free(struct rcu_head *head)
{
	struct dev_stats *st = container_of(head, struct dev_stats, rcu);

	spin_lock(&st->lock);
	st->rx = 0;
	spin_unlock(&st->lock);
}

void dev_entry_sync(struct dev_entry *e)
{
	spin_lock_bh(&e->lock);
	spin_lock(&e->stats->lock);
	e->stats->rx++;
	spin_unlock(&e->stats->lock);
	spin_unlock_bh(&e->lock);
}

void devs_walk(struct dev_list *l)
{
	struct dev_entry *e;

	spin_lock_bh(&l->lock);
	for (e = l->head; e; e = e->next) {
		spin_lock(&e->lock);
		e->seen++;
		spin_unlock(&e->lock);
	}
	spin_unlock_bh(&l->lock);
}

void devs_init(struct dev_list *l)
{
	irq_poll_init(&l->iop, 16, devs_poll);
}

void dev_stats_retire(struct dev_stats *st)
{
	spin_lock_bh(&st->lock);
	st->rx = 0;
	spin_unlock_bh(&st->lock);
	call_rcu(&st->rcu, dev_stats_free);
}
