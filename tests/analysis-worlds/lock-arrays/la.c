// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture lock-arrays.
 *
 * Checks: an array of locks is a lock class, in a global (the hashed
 * wait queues of bit_wait_table[], wake_up_bit()'s) and in a struct
 * field (a table of bucket locks).  The timer wakes a hashed wait queue
 * and takes a bucket lock: the sections on the table and on the buckets
 * get TIMER; the device's own wait queue and its other lock, whose
 * addresses are stored, stay NONE.
 *
 * A naive analysis gets wrong: an array is no lock type, so a lock
 * taken from one has no class and counts as unresolved: the timer then
 * may take every lock whose address is stored, and the sections on the
 * device's wait queue and other lock get TIMER (imprecise; on the
 * campaign kernel __wake_up_bit() gave BLOCK and SCHED every stored wait
 * queue).  Naming the element instead of the array, or dropping the
 * lock, leaves TIMER out of the table's sections (unsafe).
 */
#include "kernel.h"

struct la_dev {
	struct wait_queue_head wait;
	spinlock_t locks[4];
	spinlock_t other;
	int n;
	struct timer_list timer;
};

static struct wait_queue_head la_table[8];
static struct la_dev *la_saved;
static struct wait_queue_head *la_wq_saved;
static spinlock_t *la_other_saved;

static struct wait_queue_head *la_waitq(unsigned long word)
{
	return la_table + (word & 7);
}

static void la_wake(struct wait_queue_head *q)
{
	spin_lock(&q->lock);
	q->head.next = 0;
	spin_unlock(&q->lock);
}

static void la_expire(struct timer_list *t)
{
	la_wake(la_waitq((unsigned long)t));
	spin_lock(&la_saved->locks[(unsigned long)t & 3]);
	la_saved->n++;
	spin_unlock(&la_saved->locks[(unsigned long)t & 3]);
}

void la_init(struct la_dev *d)
{
	la_saved = d;
	la_wq_saved = &d->wait;
	la_other_saved = &d->other;
	timer_setup(&d->timer, la_expire, 0);
}

void la_table_bh(unsigned long word)
{
	spin_lock_bh(&la_table[word & 7].lock);
	la_table[word & 7].head.prev = 0;
	spin_unlock_bh(&la_table[word & 7].lock);
}

void la_locks_bh(struct la_dev *d, int i)
{
	spin_lock_bh(&d->locks[i & 3]);
	d->n--;
	spin_unlock_bh(&d->locks[i & 3]);
}

void la_wait_bh(struct la_dev *d)
{
	spin_lock_bh(&d->wait.lock);
	d->wait.head.next = 0;
	spin_unlock_bh(&d->wait.lock);
}

void la_other_bh(struct la_dev *d)
{
	spin_lock_bh(&d->other);
	d->n = 0;
	spin_unlock_bh(&d->other);
}
