// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture pass-through-helper.
 *
 * Checks: lock_of() returns the lock it is given, the way
 * spinlock_check() does inside spin_lock_irqsave().  The section in
 * left_reset() locks lock_of(&l->lock), so its lock is left.lock only,
 * although lock_of() is also called with &r->lock in the same file: left
 * stays NONE while right.lock, which right_tick() takes in a timer, gets
 * TIMER.
 *
 * A naive analysis gets wrong: reading the call's value as everything
 * lock_of() can return gives left_reset()'s section both locks, and its
 * mask TIMER (needless); with a lock pointer of unknown origin among the
 * callers, every section through the helper becomes unresolved.
 */
#include "kernel.h"

struct left {
	spinlock_t lock;
	int n;
};

struct right {
	spinlock_t lock;
	int n;
	struct timer_list timer;
};

static spinlock_t *lock_of(spinlock_t *lock)
{
	return lock;
}

void left_reset(struct left *l)
{
	spin_lock_bh(lock_of(&l->lock));
	l->n = 0;
	spin_unlock_bh(&l->lock);
}

static void right_tick(struct timer_list *t)
{
	struct right *r = from_timer(r, t, timer);

	spin_lock(lock_of(&r->lock));
	r->n++;
	spin_unlock(&r->lock);
}

void right_start(struct right *r)
{
	timer_setup(&r->timer, right_tick, 0);
	spin_lock_bh(&r->lock);
	r->n = 0;
	spin_unlock_bh(&r->lock);
}
