// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture bh-count.
 *
 * Checks: BH off is a count, and spin_unlock_bh() takes one off it.
 * bc_lock()/bc_unlock() pair local_bh_disable() + spin_lock() with
 * spin_unlock_bh(), as netif_addr_lock_bh()/netif_addr_unlock_bh() do,
 * so bc_update() has a BH-off section that ends in bc_unlock(), and it
 * masks TIMER (bc_expire() takes bc_dev.lock).  In bc_stats() a
 * spin_lock_bh()/spin_unlock_bh() pair nested inside a
 * local_bh_disable() section does not end it: bc_other.lock, taken
 * after the pair and by a tasklet, is inside, so the section masks
 * TASKLET as well as TIMER.
 *
 * A naive analysis gets wrong: ending a BH-off section only at
 * local_bh_enable() leaves bc_update() returning with BH off (lifted into
 * its callers, its own section gone); ending it at the first
 * spin_unlock_bh() misses what bc_stats() does after the nested pair.
 */
#include "kernel.h"

struct bc_dev {
	spinlock_t lock;
	int n;
	struct timer_list timer;
};

struct bc_other {
	spinlock_t lock;
	int n;
	struct tasklet_struct tl;
};

static void bc_lock(struct bc_dev *d)
{
	local_bh_disable();
	spin_lock(&d->lock);
}

static void bc_unlock(struct bc_dev *d)
{
	spin_unlock_bh(&d->lock);
}

static void bc_update(struct bc_dev *d)
{
	bc_lock(d);
	d->n++;
	bc_unlock(d);
}

void bc_flush(struct bc_dev *d)
{
	bc_update(d);
	bc_update(d);
}

void bc_stats(struct bc_dev *d, struct bc_other *o)
{
	local_bh_disable();
	spin_lock_bh(&d->lock);
	d->n = 0;
	spin_unlock_bh(&d->lock);
	spin_lock(&o->lock);
	o->n = 0;
	spin_unlock(&o->lock);
	local_bh_enable();
}

static void bc_expire(struct timer_list *t)
{
	struct bc_dev *d = from_timer(d, t, timer);

	spin_lock(&d->lock);
	d->n--;
	spin_unlock(&d->lock);
}

static void bc_tasklet(struct tasklet_struct *t)
{
	struct bc_other *o = container_of(t, struct bc_other, tl);

	spin_lock(&o->lock);
	o->n++;
	spin_unlock(&o->lock);
}

void bc_start(struct bc_dev *d, struct bc_other *o)
{
	timer_setup(&d->timer, bc_expire, 0);
	tasklet_setup(&o->tl, bc_tasklet);
	tasklet_schedule(&o->tl);
}
