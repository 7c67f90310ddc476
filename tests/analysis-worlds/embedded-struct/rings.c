// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture embedded-struct.
 *
 * Checks: a lock's class is <tag>.<member> of the innermost named struct
 * that contains it, wherever that struct is embedded.  struct queue is
 * embedded in rx_ring and tx_ring and has a global instance (backlog):
 * all are one class, queue.lock.  The rx_ring timer trims its own queue
 * and its peer tx_ring's queue through queue_trim(struct queue *), and
 * the BLOCK completion takes the global one: TIMER|BLOCK, also for the
 * section on the tx_ring's queue.  port.c: an anonymous struct
 * typedef'd as counter_t is named by its typedef, counter_t.lock.
 *
 * A naive analysis gets wrong: naming classes by access path
 * (rx_ring.q.lock, tx_ring.q.lock, rings.c:backlog for the global
 * instance) splits one class; queue_trim() cannot tell which embedding
 * it locks, so tx_ring_flush() would lose TIMER (unsafe).
 */
#include "kernel.h"

struct queue {
	spinlock_t lock;
	unsigned int len;
};

struct tx_ring { struct queue q; unsigned int budget; };
struct rx_ring { struct queue q; struct timer_list timer; struct tx_ring *peer; };

static struct queue backlog;

static void queue_trim(struct queue *q)
{
	spin_lock(&q->lock);
	q->len /= 2;
	spin_unlock(&q->lock);
}

static void rx_ring_tick(struct timer_list *t)
{
	struct rx_ring *rx = from_timer(rx, t, timer);

	queue_trim(&rx->q);
	queue_trim(&rx->peer->q);
}

static void backlog_complete(struct request *rq)
{
	spin_lock(&backlog.lock);
	backlog.len--;
	spin_unlock(&backlog.lock);
}

static const struct blk_mq_ops backlog_mq_ops = { .complete = backlog_complete };

void rings_init(struct rx_ring *rx, struct request_queue *rq_q)
{
	timer_setup(&rx->timer, rx_ring_tick, 0);
	rq_q->mq_ops = &backlog_mq_ops;
}

void tx_ring_flush(struct tx_ring *tx)
{
	spin_lock_bh(&tx->q.lock);
	tx->q.len = 0;
	spin_unlock_bh(&tx->q.lock);
}
