// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture global-lock.
 *
 * Checks: global locks are named by the global rule.  The static
 * done_lock of this file (blkdone.c:done_lock) is taken in the BLOCK
 * completion: BLOCK.  admin.c has its own static done_lock
 * (admin.c:done_lock), taken only in process context: NONE.  The
 * non-static io_stats_lock, defined here, is taken in an irq_poll handler
 * in poll.c: IRQ_POLL, and the section on it in admin.c masks IRQ_POLL.
 *
 * A naive analysis gets wrong: naming static locks by their bare name
 * merges the two done_locks (admin's section would mask BLOCK for
 * nothing); naming a non-static lock per file splits io_stats_lock into
 * two classes and loses IRQ_POLL for admin.c's section (unsafe).
 */
#include "kernel.h"

static DEFINE_SPINLOCK(done_lock);
DEFINE_SPINLOCK(io_stats_lock);

static struct request *done_head;
static unsigned long nr_done;

static void blkdone_complete(struct request *rq)
{
	spin_lock(&done_lock);
	rq->next = done_head;
	done_head = rq;
	spin_unlock(&done_lock);
}

static const struct blk_mq_ops blkdone_mq_ops = {
	.complete = blkdone_complete,
};

void blkdone_attach(struct request_queue *q)
{
	q->mq_ops = &blkdone_mq_ops;
}

void blkdone_reap(void)
{
	spin_lock_bh(&done_lock);
	while (done_head) {
		done_head = done_head->next;
		nr_done++;
	}
	spin_unlock_bh(&done_lock);
}
