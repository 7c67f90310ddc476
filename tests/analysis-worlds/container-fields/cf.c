// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture container-fields.
 *
 * Checks: inside a generic container only its lock is the container's
 * lock object; its list is a field of its own.  A pool hands out
 * objects from a free list (as the slab's freelist does); one list
 * helper initialises both the free list and a wait queue's list.  A
 * table's lock pointer is a static lock or an object from the pool.
 * The timer takes the wait queue's lock (cf_wq: TIMER), never the
 * static lock (cf_lock: NONE), so the table's section needs no vector;
 * the section on the wait queue itself keeps TIMER.
 *
 * A naive analysis gets wrong: read as the queue's lock, &q->head
 * carries the queue's class into the helper, which stores it into
 * every list's next; whatever is loaded from a list (the pool's
 * objects) may then be the wait queue's lock, and the table's section
 * gets TIMER (on the campaign kernel kmem_cache_alloc() returned 144
 * lock classes this way, and the page table lock held them all).
 */
#include "kernel.h"

struct cf_table {
	spinlock_t *lockp;
	int n;
};

static struct wait_queue_head cf_wq;
static struct list_head cf_free;
static struct cf_table tab;
static spinlock_t cf_lock;
static struct timer_list cf_timer;

static void cf_list_init(struct list_head *l)
{
	l->next = l;
	l->prev = l;
}

static void *cf_alloc(void)
{
	struct list_head *p = cf_free.next;

	cf_free.next = p->next;
	return p;
}

static void cf_expire(struct timer_list *t)
{
	spin_lock(&cf_wq.lock);
	cf_wq.head.prev = 0;
	spin_unlock(&cf_wq.lock);
}

void cf_setup(int pooled)
{
	cf_list_init(&cf_wq.head);
	cf_list_init(&cf_free);
	tab.lockp = pooled ? cf_alloc() : &cf_lock;
	timer_setup(&cf_timer, cf_expire, 0);
}

void cf_use(void)
{
	spin_lock_bh(tab.lockp);
	tab.n++;
	spin_unlock_bh(tab.lockp);
}

void cf_wait(void)
{
	spin_lock_bh(&cf_wq.lock);
	cf_wq.head.next = 0;
	spin_unlock_bh(&cf_wq.lock);
}
