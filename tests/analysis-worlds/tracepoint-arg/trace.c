// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture tracepoint-arg.
 *
 * Checks: a tracepoint call (the static-call trampoline
 * __SCT__tp_func_<event>, outside the world) keeps nothing it is given.
 * hook_report() passes audit_expire() to the tracepoint only; it is never
 * stored, registered or called.  The timer core's indirect call of
 * timer_list.function therefore reaches tick_expire() (registered with
 * timer_setup()) but not audit_expire(), although both have the
 * prototype of a timer callback: tick.lock gets TIMER, audit.lock stays
 * NONE.
 *
 * A naive analysis gets wrong: treating every function outside the world
 * as keeping its arguments makes audit_expire() escape, so the prototype
 * fallback puts it into every timer call, and audit.lock gets TIMER
 * (needless).
 */
#include "kernel.h"

struct tick {
	spinlock_t lock;
	unsigned long n;
	struct timer_list timer;
};

struct audit {
	spinlock_t lock;
	unsigned long n;
};

static struct audit audit0;

void __SCT__tp_func_hook_report(void *data, void (*fn)(struct timer_list *));

static void tick_expire(struct timer_list *t)
{
	struct tick *k = from_timer(k, t, timer);

	spin_lock(&k->lock);
	k->n++;
	spin_unlock(&k->lock);
}

static void audit_expire(struct timer_list *t)
{
	spin_lock(&audit0.lock);
	audit0.n++;
	spin_unlock(&audit0.lock);
}

void hook_report(struct tick *k)
{
	__SCT__tp_func_hook_report(NULL, audit_expire);
	timer_setup(&k->timer, tick_expire, 0);
}

void audit_reset(void)
{
	spin_lock_bh(&audit0.lock);
	audit0.n = 0;
	spin_unlock_bh(&audit0.lock);
}
