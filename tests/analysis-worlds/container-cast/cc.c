// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture container-cast.
 *
 * Checks: an skb queue head cast to struct sk_buff * (the list's
 * sentinel, as __skb_queue_splice() passes it) is data, not the
 * queue's lock, until it is cast back to a queue head.  The sentinel is
 * stored into an skb's next; a pool hands out what it loads from there
 * (as the slab freelist hands out a freed skb), and a table's lock
 * pointer is a static lock or a pool object.  The timer takes a queue's
 * lock through skb->prev cast back to the queue head (as SCTP does with
 * an event's list), so the queue is TIMER; the static lock is NONE and
 * the table's section needs no vector.
 *
 * A naive analysis gets wrong: carrying the sentinel as the queue's
 * lock makes every pointer loaded from an skb's next that lock, and the
 * table's section TIMER (imprecise; on the campaign kernel the page
 * table lock held 32 skb queue classes this way); dropping the value at
 * the cast instead loses the queue the timer takes back (unsafe).
 */
#include "kernel.h"

struct sk_buff {
	struct sk_buff *next;
	struct sk_buff *prev;
};

struct cc_table {
	spinlock_t *lockp;
	int n;
};

static struct sk_buff_head cc_rxq;
static struct sk_buff cc_skb;
static struct cc_table tab;
static spinlock_t cc_lock;
static struct timer_list cc_timer;

static void *cc_alloc(void)
{
	return cc_skb.next;
}

static void cc_expire(struct timer_list *t)
{
	struct sk_buff_head *q = (struct sk_buff_head *)cc_skb.prev;

	spin_lock(&q->lock);
	q->qlen--;
	spin_unlock(&q->lock);
}

void cc_setup(int pooled)
{
	cc_skb.next = (struct sk_buff *)&cc_rxq;
	cc_skb.prev = (struct sk_buff *)&cc_rxq;
	tab.lockp = pooled ? cc_alloc() : &cc_lock;
	timer_setup(&cc_timer, cc_expire, 0);
}

void cc_use(void)
{
	spin_lock_bh(tab.lockp);
	tab.n++;
	spin_unlock_bh(tab.lockp);
}

void cc_rx(void)
{
	spin_lock_bh(&cc_rxq.lock);
	cc_rxq.qlen++;
	spin_unlock_bh(&cc_rxq.lock);
}
