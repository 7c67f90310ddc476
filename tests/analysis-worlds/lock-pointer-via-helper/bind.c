// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture lock-pointer-via-helper.
 *
 * Checks: struct binding keeps a pointer to the lock it works under, set
 * by bind_lockp() through a pointer to the field (a parameter).  The
 * binding's timer takes *b->lockp.  The analysis cannot see which field
 * bind_lockp() writes, so the timer's acquisition has no known class; a
 * lock whose address is stored anywhere may be that lock, so
 * bind_table.lock (stored) gets TIMER and the section in bind_flush()
 * masks it.  quiet_table.lock, whose address is never stored, stays NONE.
 *
 * A naive analysis gets wrong: an acquisition whose lock it cannot name
 * is dropped, leaving bind_table.lock NONE (unsafe); or it gives every
 * class the vector, adding TIMER to quiet_table.lock.
 */
#include "kernel.h"

struct bind_table {
	spinlock_t lock;
	unsigned int nr;
};

struct quiet_table {
	spinlock_t lock;
	unsigned int nr;
};

struct binding {
	spinlock_t *lockp;
	unsigned int hits;
	struct timer_list timer;
};

static void bind_lockp(spinlock_t **slot, spinlock_t *lock)
{
	*slot = lock;
}

static void binding_expire(struct timer_list *t)
{
	struct binding *b = from_timer(b, t, timer);

	spin_lock(b->lockp);
	b->hits++;
	spin_unlock(b->lockp);
}

void binding_start(struct binding *b, struct bind_table *tbl)
{
	bind_lockp(&b->lockp, &tbl->lock);
	timer_setup(&b->timer, binding_expire, 0);
}

void bind_flush(struct bind_table *tbl)
{
	spin_lock_bh(&tbl->lock);
	tbl->nr = 0;
	spin_unlock_bh(&tbl->lock);
}

void quiet_flush(struct quiet_table *q)
{
	spin_lock_bh(&q->lock);
	q->nr = 0;
	spin_unlock_bh(&q->lock);
}
