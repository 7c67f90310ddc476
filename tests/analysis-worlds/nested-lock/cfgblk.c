// SPDX-License-Identifier: GPL-2.0
/* Fixture nested-lock: the BLOCK completion takes cfg_queue.lock. */
#include "kernel.h"

struct cfg_queue_ops;
struct cfg_queue { spinlock_t lock; unsigned int len; const struct cfg_queue_ops *ops; };

struct cfg_request {
	struct request rq;
	struct cfg_queue *q;
};

static void cfg_complete(struct request *rq)
{
	struct cfg_request *cr = container_of(rq, struct cfg_request, rq);

	spin_lock(&cr->q->lock);
	cr->q->len--;
	spin_unlock(&cr->q->lock);
}

static const struct blk_mq_ops cfg_mq_ops = { .complete = cfg_complete };

void cfg_queue_attach(struct request_queue *rq_q)
{
	rq_q->mq_ops = &cfg_mq_ops;
}
