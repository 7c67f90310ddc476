// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture container-types.
 *
 * Checks: a lock reached through a pointer to a generic container (here
 * struct swait_queue_head) is a lock of that container type, whatever
 * else the pointer's value may be.  A void * slot holds either a simple
 * wait queue or a socket's skb queue (its points-to merges both); the
 * timer casts it to a wait queue and takes the queue's lock, as
 * swake_up_one_online_ipi() does with the csd's info.  The timer takes
 * the wait queue (ct_wq: TIMER) and never the skb queue (ct_sock.rxq:
 * NONE), directly and through a helper given the wait queue.  An
 * unresolved wait queue pointer may be any wait queue whose address is
 * stored, never an skb queue.
 *
 * A naive analysis gets wrong: the class of the slot's value gives the
 * timer the skb queue's lock, and the section on it TIMER (imprecise;
 * on the campaign kernel BLOCK and SCHED reach socket queues this way);
 * dropping the wait queue because the slot also holds something else
 * leaves TIMER out of the wait queue's section (unsafe).
 */
#include "kernel.h"

struct swait_queue_head {
	raw_spinlock_t lock;
	struct list_head task_list;
};

struct ct_sock {
	struct sk_buff_head rxq;
	struct timer_list timer;
};

static struct ct_sock cs;
static struct swait_queue_head ct_wq;
static struct swait_queue_head ct_wq2;
static void *slot;
struct swait_queue_head *unknown_wq(void);

void ct_post_wait(void)
{
	slot = &ct_wq;
}

void ct_post_sock(struct ct_sock *s)
{
	slot = &s->rxq;
}

static void ct_wake(struct swait_queue_head *q)
{
	raw_spin_lock(&q->lock);
	q->task_list.next = 0;
	raw_spin_unlock(&q->lock);
}

static void ct_expire(struct timer_list *t)
{
	struct swait_queue_head *q = slot;

	raw_spin_lock(&q->lock);
	q->task_list.prev = 0;
	raw_spin_unlock(&q->lock);
	ct_wake(slot);
	ct_wake(unknown_wq());
}

void ct_init(void)
{
	timer_setup(&cs.timer, ct_expire, 0);
	slot = &ct_wq2;
}

void ct_rx(struct ct_sock *s)
{
	spin_lock_bh(&s->rxq.lock);
	s->rxq.qlen++;
	spin_unlock_bh(&s->rxq.lock);
}

void ct_wait(void)
{
	local_bh_disable();
	raw_spin_lock(&ct_wq.lock);
	ct_wq.task_list.next = 0;
	raw_spin_unlock(&ct_wq.lock);
	local_bh_enable();
}
