// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture hrtimer-soft-vs-hard.
 *
 * Checks: two hrtimers in one file, both callbacks stored into
 * hrtimer.function.  pacer.timer is set up with HRTIMER_MODE_REL_SOFT, so
 * pacer_fire() runs in the HRTIMER vector: pacer.lock gets HRTIMER.
 * wdog.timer is set up with HRTIMER_MODE_REL (hard interrupt, no vector):
 * wdog.lock stays NONE.
 *
 * A naive analysis gets wrong: resolving __run_hrtimer()'s fn by the
 * field hrtimer.function, or deciding soft/hard per file, gives wdog.lock
 * HRTIMER too; treating every hrtimer as hard loses it for pacer.lock.
 */
#include "kernel.h"

struct pacer {
	spinlock_t lock;
	struct hrtimer timer;
	u64 credit;
};

struct wdog {
	spinlock_t lock;
	struct hrtimer timer;
	unsigned int kicks;
	unsigned int barks;
};

static enum hrtimer_restart pacer_fire(struct hrtimer *t)
{
	struct pacer *p = container_of(t, struct pacer, timer);

	spin_lock(&p->lock);
	p->credit += 1500;
	spin_unlock(&p->lock);
	return HRTIMER_NORESTART;
}

static enum hrtimer_restart wdog_fire(struct hrtimer *t)
{
	struct wdog *w = container_of(t, struct wdog, timer);

	spin_lock(&w->lock);
	w->barks++;
	spin_unlock(&w->lock);
	return HRTIMER_NORESTART;
}

void pacer_init(struct pacer *p)
{
	spin_lock_init(&p->lock);
	hrtimer_init(&p->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	p->timer.function = pacer_fire;
}

void wdog_init(struct wdog *w)
{
	spin_lock_init(&w->lock);
	hrtimer_init(&w->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	w->timer.function = wdog_fire;
}

void pacer_consume(struct pacer *p, u64 bytes)
{
	spin_lock_bh(&p->lock);
	p->credit -= bytes;
	spin_unlock_bh(&p->lock);
	hrtimer_start(&p->timer, 1000000, HRTIMER_MODE_REL_SOFT);
}

void wdog_kick(struct wdog *w)
{
	unsigned long flags;

	spin_lock_irqsave(&w->lock, flags);
	w->kicks++;
	spin_unlock_irqrestore(&w->lock, flags);
	hrtimer_start(&w->timer, 5000000, HRTIMER_MODE_REL);
}
