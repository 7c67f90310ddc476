// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture panic-dead-end.
 *
 * Checks: panic() is a dead end for vector reach.  ring_expire(), a
 * timer, calls panic() when its ring is corrupt; panic() runs the hook
 * registered in panic_hook, dump_report(), which takes report.lock.  A
 * timer that panics never returns to the section it interrupted, so
 * report.lock stays NONE; ring.lock, which the timer itself takes, gets
 * TIMER.
 *
 * A naive analysis gets wrong: following panic() gives every lock a panic
 * hook takes every vector that can WARN or panic, which in the kernel is
 * every vector.
 */
#include "kernel.h"

struct report {
	spinlock_t lock;
	unsigned long dumps;
};

struct ring {
	spinlock_t lock;
	unsigned int head;
	struct timer_list timer;
};

static struct report report0;
static void (*panic_hook)(void);

void panic(const char *msg)
{
	if (panic_hook)
		panic_hook();
	for (;;)
		;
}

static void dump_report(void)
{
	spin_lock(&report0.lock);
	report0.dumps++;
	spin_unlock(&report0.lock);
}

static void ring_expire(struct timer_list *t)
{
	struct ring *r = from_timer(r, t, timer);

	spin_lock(&r->lock);
	if (r->head > 64)
		panic("ring corrupt");
	r->head = 0;
	spin_unlock(&r->lock);
}

void ring_start(struct ring *r)
{
	panic_hook = dump_report;
	timer_setup(&r->timer, ring_expire, 0);
}

void report_reset(void)
{
	spin_lock_bh(&report0.lock);
	report0.dumps = 0;
	spin_unlock_bh(&report0.lock);
}
