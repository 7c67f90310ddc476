// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture hrtimer-mode-variable.
 *
 * Checks: the hrtimer mode is not always a constant at hrtimer_init().
 * gen_timer_init() forwards its mode parameter; shaper_init() passes
 * HRTIMER_MODE_REL_SOFT, probe_init() passes a mode chosen at run time
 * (soft or hard).  Both shaper.timer and probe.timer may be soft, so
 * shaper.lock and probe.lock get HRTIMER.  wd.timer is initialised
 * directly with the constant HRTIMER_MODE_REL (hard): wd.lock stays NONE.
 *
 * A naive analysis gets wrong: looking for a constant SOFT bit at each
 * hrtimer_init() call finds none in gen_timer_init() (mode is a
 * parameter) and calls both timers hard, leaving shaper.lock and
 * probe.lock NONE (unsafe).  A non-constant mode must count as soft.
 */
#include "kernel.h"

struct shaper { spinlock_t lock; struct hrtimer timer; u64 tokens; };
struct probe { spinlock_t lock; struct hrtimer timer; unsigned int sent; };
struct wd { spinlock_t lock; struct hrtimer timer; unsigned int fired; };

static void gen_timer_init(struct hrtimer *t,
			   enum hrtimer_restart (*fn)(struct hrtimer *),
			   enum hrtimer_mode mode)
{
	hrtimer_init(t, CLOCK_MONOTONIC, mode);
	t->function = fn;
}

static enum hrtimer_restart shaper_fire(struct hrtimer *t)
{
	struct shaper *s = container_of(t, struct shaper, timer);

	spin_lock(&s->lock);
	s->tokens += 64;
	spin_unlock(&s->lock);
	return HRTIMER_NORESTART;
}

static enum hrtimer_restart probe_fire(struct hrtimer *t)
{
	struct probe *p = container_of(t, struct probe, timer);

	spin_lock(&p->lock);
	p->sent++;
	spin_unlock(&p->lock);
	return HRTIMER_NORESTART;
}

static enum hrtimer_restart wd_fire(struct hrtimer *t)
{
	struct wd *w = container_of(t, struct wd, timer);

	spin_lock(&w->lock);
	w->fired++;
	spin_unlock(&w->lock);
	return HRTIMER_NORESTART;
}

void shaper_init(struct shaper *s)
{
	gen_timer_init(&s->timer, shaper_fire, HRTIMER_MODE_REL_SOFT);
}

void probe_init(struct probe *p, bool in_softirq)
{
	gen_timer_init(&p->timer, probe_fire,
		       in_softirq ? HRTIMER_MODE_REL_SOFT : HRTIMER_MODE_REL);
}

void wd_init(struct wd *w)
{
	hrtimer_init(&w->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	w->timer.function = wd_fire;
}
