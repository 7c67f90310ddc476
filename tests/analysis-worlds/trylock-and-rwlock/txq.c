// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture trylock-and-rwlock: the trylock side.  The qdisc dequeue (NET_TX)
 * tries txq.lock with spin_trylock() and takes txq.stats_lock under it;
 * txq_purge() opens its section with a successful spin_trylock_bh() and
 * takes stats_lock inside.
 */
#include "kernel.h"

struct txq {
	spinlock_t lock;
	spinlock_t stats_lock;
	unsigned int drops;
	struct Qdisc qdisc;
	struct sk_buff *head;
	unsigned int len;
};

static struct sk_buff *txq_dequeue(struct Qdisc *q)
{
	struct txq *tq = container_of(q, struct txq, qdisc);
	struct sk_buff *skb = NULL;

	if (!spin_trylock(&tq->lock))
		return NULL;
	if (tq->len) {
		skb = tq->head;
		tq->len--;
	}
	spin_lock(&tq->stats_lock);
	tq->drops = 0;
	spin_unlock(&tq->stats_lock);
	spin_unlock(&tq->lock);
	return skb;
}

static const struct Qdisc_ops txq_ops = { .dequeue = txq_dequeue };

void txq_attach(struct txq *tq)
{
	tq->qdisc.ops = &txq_ops;
	__netif_schedule(&tq->qdisc);
}

void txq_purge(struct txq *tq)
{
	if (!spin_trylock_bh(&tq->lock))
		return;
	tq->head = NULL;
	tq->len = 0;
	spin_lock(&tq->stats_lock);
	tq->drops++;
	spin_unlock(&tq->stats_lock);
	spin_unlock_bh(&tq->lock);
}
