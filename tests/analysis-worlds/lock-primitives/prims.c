// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture lock-primitives.  Checks: any primitive in a vector takes
 * the class:
 * spin_lock_irqsave() in the BLOCK completion (blkq.lock: BLOCK),
 * spin_lock_irq() in a qdisc dequeue (txring.lock: NET_TX),
 * spin_lock_nested() on a second object of the same class in a timer
 * (tnode.lock: TIMER), write_lock() in a soft hrtimer (pace_tbl.lock:
 * HRTIMER) and raw_spin_lock() on a raw_spinlock_t in an irq_poll handler
 * (cq.lock: IRQ_POLL); prims_api.c has one section per class.
 *
 * A naive analysis gets wrong: a list of lock functions that misses the
 * irqsave/irq/nested/rwlock/raw variants leaves these classes NONE.
 */
#include "prims.h"

static void blkq_complete(struct request *rq)
{
	struct blkq *q = container_of(rq, struct blkq, rq);
	unsigned long flags;

	spin_lock_irqsave(&q->lock, flags);
	q->inflight--;
	spin_unlock_irqrestore(&q->lock, flags);
}

static struct sk_buff *txring_dequeue(struct Qdisc *qd)
{
	struct txring *r = container_of(qd, struct txring, qdisc);

	spin_lock_irq(&r->lock);
	r->used--;
	spin_unlock_irq(&r->lock);
	return NULL;
}

static void tnode_age(struct timer_list *t)
{
	struct tnode *n = from_timer(n, t, timer);

	spin_lock(&n->lock);
	spin_lock_nested(&n->child->lock, 1);
	n->child->age++;
	spin_unlock(&n->child->lock);
	spin_unlock(&n->lock);
}

static enum hrtimer_restart pace_refill(struct hrtimer *t)
{
	struct pace_tbl *pt = container_of(t, struct pace_tbl, timer);

	write_lock(&pt->lock);
	pt->rate++;
	write_unlock(&pt->lock);
	return HRTIMER_NORESTART;
}

static int cq_poll(struct irq_poll *iop, int budget)
{
	struct cq *cq = container_of(iop, struct cq, iop);

	raw_spin_lock(&cq->lock);
	cq->head += budget;
	raw_spin_unlock(&cq->lock);
	return budget;
}

static const struct blk_mq_ops blkq_mq_ops = { .complete = blkq_complete };
static const struct Qdisc_ops txring_ops = { .dequeue = txring_dequeue };

void prims_init(struct blkq *q, struct txring *r, struct tnode *n,
		struct pace_tbl *pt, struct cq *cq)
{
	q->queue.mq_ops = &blkq_mq_ops;
	r->qdisc.ops = &txring_ops;
	timer_setup(&n->timer, tnode_age, 0);
	hrtimer_init(&pt->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_SOFT);
	pt->timer.function = pace_refill;
	irq_poll_init(&cq->iop, 8, cq_poll);
}
