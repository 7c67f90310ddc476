// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture container-locks.
 *
 * Checks: the lock of a generic container (struct sk_buff_head, struct
 * wait_queue_head) has the class of where the container sits:
 * cq_sock.rxq, cq_sock.txq and cq_sock.wq are three classes, as lockdep
 * keeps queues initialised at different sites apart, and a static queue
 * is a class of its own.  The timer takes txq through a helper that is
 * given the queue, and the static backlog through a pointer kept in a
 * field; the BH sections on rxq and wq stay NONE, those on txq and the
 * backlog (one through a helper whose lock is its parameter) get TIMER.
 *
 * A naive analysis gets wrong: one class sk_buff_head.lock for every
 * skb queue gives the rxq sections TIMER (imprecise; on the campaign
 * kernel it ties every socket queue to every other); naming the class
 * by the helper's parameter, or losing the queue kept in a field, leaves
 * TIMER out of the backlog (unsafe).
 */
#include "kernel.h"

struct cq_sock {
	struct sk_buff_head rxq;
	struct sk_buff_head txq;
	struct wait_queue_head wq;
	struct timer_list timer;
};

struct cq_ref {
	struct sk_buff_head *q;
};

static struct cq_sock cs;
static struct cq_ref ref;
static struct sk_buff_head backlog;

static void cq_take(struct sk_buff_head *q)
{
	spin_lock(&q->lock);
	q->qlen++;
	spin_unlock(&q->lock);
}

static void cq_expire(struct timer_list *t)
{
	cq_take(&cs.txq);
	spin_lock(&ref.q->lock);
	ref.q->qlen = 0;
	spin_unlock(&ref.q->lock);
}

void cq_init(void)
{
	ref.q = &backlog;
	timer_setup(&cs.timer, cq_expire, 0);
}

static void cq_drain(struct sk_buff_head *q)
{
	spin_lock_bh(&q->lock);
	q->qlen = 0;
	spin_unlock_bh(&q->lock);
}

void cq_flush(void)
{
	spin_lock_bh(&cs.rxq.lock);
	cs.rxq.qlen = 0;
	spin_unlock_bh(&cs.rxq.lock);
	spin_lock_bh(&cs.wq.lock);
	cs.wq.head.next = &cs.wq.head;
	spin_unlock_bh(&cs.wq.lock);
	spin_lock_bh(&cs.txq.lock);
	cs.txq.qlen = 0;
	spin_unlock_bh(&cs.txq.lock);
}

void cq_purge(void)
{
	cq_drain(&backlog);
}
