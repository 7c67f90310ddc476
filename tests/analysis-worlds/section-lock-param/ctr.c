// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture section-lock-param.
 *
 * Checks: ctr_add() holds a complete BH section on its lock parameter and
 * is called with two locks: hot_ctr.lock (also taken by a timer: TIMER)
 * and cold_ctr.lock (process context only: NONE).  The section in
 * ctr_add() is one place in the source with one mask, so its lock is
 * both classes and its mask is the union, TIMER.  The class masks stay
 * apart: cold_ctr.lock is NONE.
 *
 * A naive analysis gets wrong: resolving the section's lock to one of
 * the callers' arguments (the first or the last it sees) can pick
 * cold_ctr.lock and give the section NONE, and the timer would then spin
 * on hot_ctr.lock held by an interrupted ctr_add() (unsafe).
 */
#include "kernel.h"

struct hot_ctr {
	spinlock_t lock;
	unsigned long val;
	struct timer_list decay;
};

struct cold_ctr {
	spinlock_t lock;
	unsigned long val;
};

static void ctr_add(spinlock_t *lock, unsigned long *val, unsigned long n)
{
	spin_lock_bh(lock);
	*val += n;
	spin_unlock_bh(lock);
}

static void hot_decay(struct timer_list *t)
{
	struct hot_ctr *h = from_timer(h, t, decay);

	spin_lock(&h->lock);
	h->val /= 2;
	spin_unlock(&h->lock);
}

void hot_ctr_init(struct hot_ctr *h)
{
	timer_setup(&h->decay, hot_decay, 0);
}

void hot_ctr_inc(struct hot_ctr *h)
{
	ctr_add(&h->lock, &h->val, 1);
}

void cold_ctr_inc(struct cold_ctr *c)
{
	ctr_add(&c->lock, &c->val, 1);
}
