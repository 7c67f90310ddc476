// SPDX-License-Identifier: GPL-2.0
/* Fixture lock-primitives: one process-context BH section per class. */
#include "prims.h"

void blkq_start(struct blkq *q)
{
	spin_lock_bh(&q->lock);
	q->inflight++;
	spin_unlock_bh(&q->lock);
}

void txring_fill(struct txring *r)
{
	spin_lock_bh(&r->lock);
	r->used++;
	spin_unlock_bh(&r->lock);
}

void tnode_touch(struct tnode *n)
{
	spin_lock_bh(&n->lock);
	n->age = 0;
	spin_unlock_bh(&n->lock);
}

unsigned int pace_rate(struct pace_tbl *pt)
{
	unsigned int rate;

	read_lock_bh(&pt->lock);
	rate = pt->rate;
	read_unlock_bh(&pt->lock);
	return rate;
}

void cq_reset(struct cq *cq)
{
	local_bh_disable();
	raw_spin_lock(&cq->lock);
	cq->head = 0;
	raw_spin_unlock(&cq->lock);
	local_bh_enable();
}
