// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture scheduler-entry.
 *
 * Checks: __schedule() here takes sc_rq.lock, like the runqueue lock,
 * and sc_cond_resched() enters it only when sc_should_resched() says so,
 * like __cond_resched() (so it is not a sleeper: one path returns at
 * once).  The kernel enters __schedule() only with a preempt count of
 * zero before its own preempt_disable(); a softirq handler and a BH
 * section both run with a count, so neither ever gets there.
 * sc_update() calls sc_cond_resched() inside its section on
 * sc_dev.lock, and sc_expire(), a timer, calls it too: sc_rq.lock gets
 * no vector, and the section stays NONE.  sc_rq.stat_lock, which the
 * timer takes itself, keeps TIMER.
 *
 * A naive analysis gets wrong: following cond_resched() into the
 * scheduler gives the runqueue lock every vector (each reaches some
 * cond_resched()) and every section that may reschedule the lock's
 * vectors; in linux-6.1 that was most of the BH sections of net/.
 */
#include "kernel.h"

struct sc_rq {
	spinlock_t lock;
	spinlock_t stat_lock;
	int nr_switches;
	int need_resched;
};

struct sc_dev {
	spinlock_t lock;
	int n;
	struct timer_list timer;
};

static struct sc_rq sc_rq0;

void __schedule(unsigned int mode)
{
	spin_lock(&sc_rq0.lock);
	sc_rq0.nr_switches++;
	sc_rq0.need_resched = 0;
	spin_unlock(&sc_rq0.lock);
}

static noinline int sc_should_resched(void)
{
	return sc_rq0.need_resched;
}

static noinline int sc_cond_resched(void)
{
	if (sc_should_resched()) {
		__schedule(0);
		return 1;
	}
	return 0;
}

void sc_update(struct sc_dev *d)
{
	spin_lock_bh(&d->lock);
	d->n++;
	sc_cond_resched();
	spin_unlock_bh(&d->lock);
}

static void sc_expire(struct timer_list *t)
{
	struct sc_dev *d = from_timer(d, t, timer);

	sc_cond_resched();
	spin_lock(&sc_rq0.stat_lock);
	d->n = sc_rq0.nr_switches;
	spin_unlock(&sc_rq0.stat_lock);
}

void sc_init(struct sc_dev *d)
{
	timer_setup(&d->timer, sc_expire, 0);
}
