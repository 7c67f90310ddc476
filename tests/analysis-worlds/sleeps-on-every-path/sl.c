// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture sleeps-on-every-path.
 *
 * Checks: sl_expire(), a timer callback, calls o->ops->handle(), whose
 * values are sl_slow() and sl_maybe().  sl_slow() tests a flag first
 * (its entry block only branches) and then calls sl_setup(), which
 * takes a mutex: every path from its entry to a return sleeps, so no
 * softirq ever runs it, and sl_obj.cfg_lock, which it takes after the
 * mutex, gets no TIMER; nor does sl_obj.note_lock, which only
 * sl_note(), called on the way, takes.  sl_maybe() sleeps only when it
 * does not return early, and takes sl_obj.ready_lock before that test:
 * ready_lock gets TIMER; sl_obj.after_lock, which it takes after
 * sl_setup(), gets none (no vector runs what follows a sleep).  sl_yield() calls schedule(), which reports
 * "scheduling while atomic" in a softirq, after a test: sl_obj.yield_lock,
 * taken after it, gets no TIMER either.
 *
 * A naive analysis gets wrong: a rule that looks only at the entry
 * block gives cfg_lock TIMER (imprecise: sl_slow() is the kind of
 * function, lock_sock() after a test, that joined every vector to
 * process-only code); a rule that calls a function a sleeper when it
 * may sleep on some path drops TIMER from ready_lock (unsafe).
 */
#include "kernel.h"

struct sl_obj;

struct sl_ops {
	void (*handle)(struct sl_obj *o);
};

struct sl_obj {
	spinlock_t cfg_lock;
	spinlock_t note_lock;
	spinlock_t ready_lock;
	spinlock_t yield_lock;
	spinlock_t after_lock;
	struct mutex mutex;
	const struct sl_ops *ops;
	int verbose;
	int notes;
	int ready;
	int cfg;
	int yields;
	struct timer_list timer;
};

static noinline void sl_note(struct sl_obj *o)
{
	spin_lock(&o->note_lock);
	o->notes++;
	spin_unlock(&o->note_lock);
}

static noinline void sl_setup(struct sl_obj *o)
{
	mutex_lock(&o->mutex);
	o->cfg = 0;
	mutex_unlock(&o->mutex);
}

static void sl_slow(struct sl_obj *o)
{
	if (o->verbose)
		sl_note(o);
	sl_setup(o);
	spin_lock(&o->cfg_lock);
	o->cfg++;
	spin_unlock(&o->cfg_lock);
}

static void sl_maybe(struct sl_obj *o)
{
	spin_lock(&o->ready_lock);
	o->ready++;
	spin_unlock(&o->ready_lock);
	if (o->ready > 1)
		return;
	sl_setup(o);
	spin_lock(&o->after_lock);
	o->cfg--;
	spin_unlock(&o->after_lock);
}

static void sl_yield(struct sl_obj *o)
{
	if (o->verbose)
		sl_note(o);
	schedule();
	spin_lock(&o->yield_lock);
	o->yields++;
	spin_unlock(&o->yield_lock);
}

static const struct sl_ops sl_slow_ops = { .handle = sl_slow };
static const struct sl_ops sl_yield_ops = { .handle = sl_yield };
static const struct sl_ops sl_maybe_ops = { .handle = sl_maybe };

static void sl_expire(struct timer_list *t)
{
	struct sl_obj *o = from_timer(o, t, timer);

	o->ops->handle(o);
}

void sl_init(struct sl_obj *o, int slow)
{
	o->ops = slow == 2 ? &sl_yield_ops : slow ? &sl_slow_ops : &sl_maybe_ops;
	timer_setup(&o->timer, sl_expire, 0);
}

void sl_configure(struct sl_obj *o, int cfg)
{
	spin_lock_bh(&o->cfg_lock);
	o->cfg = cfg;
	spin_unlock_bh(&o->cfg_lock);
}

void sl_reset(struct sl_obj *o)
{
	spin_lock_bh(&o->ready_lock);
	o->ready = 0;
	spin_unlock_bh(&o->ready_lock);
}
