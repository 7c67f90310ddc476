// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture unknown-data-pointer.
 *
 * Checks: uy_buf and uz_buf each have a union of a pointer and a
 * function pointer, which the field-based model keeps as one cell.
 * uy_set_route() stores there a route pointer loaded through a
 * parameter (a value the solve cannot know), and uy_expire(), a timer
 * callback, calls b->done(), whose only known value is uy_done().  The
 * unknown value was loaded as a struct pointer: whatever it is, it is
 * data, not a function (kCFI would stop a call through it), so the call
 * does not fall back to every function of its prototype, and
 * uy_admin(), whose address is taken elsewhere, is not reached:
 * uy_buf.admin_lock gets no TIMER.  uz_buf (uz.c) is the same except
 * that the unknown value is loaded as a void pointer, which may hold a
 * function: there the fallback stays, and uz_buf.admin_lock gets TIMER.
 *
 * A naive analysis gets wrong: one unknown value for data and code sends
 * every call through such a union to every function of its prototype;
 * a rule that ignores every unknown value stored into a union drops
 * TIMER from uz_buf.admin_lock (unsafe).
 */
#include "kernel.h"

struct uy_route {
	int metric;
};

struct uy_buf {
	int len;
	union {
		struct uy_route *route;
		void (*done)(struct uy_buf *b);
	};
	spinlock_t done_lock;
	spinlock_t admin_lock;
	struct timer_list timer;
};

struct uy_admin_ops {
	void (*run)(struct uy_buf *b);
};

static void uy_done(struct uy_buf *b)
{
	spin_lock(&b->done_lock);
	b->len = 0;
	spin_unlock(&b->done_lock);
}

static void uy_admin(struct uy_buf *b)
{
	spin_lock(&b->admin_lock);
	b->len++;
	spin_unlock(&b->admin_lock);
}

const struct uy_admin_ops uy_admin_ops = { .run = uy_admin };

void uy_set_route(struct uy_buf *b, struct uy_route **slot)
{
	b->route = *slot;
}

static void uy_expire(struct timer_list *t)
{
	struct uy_buf *b = from_timer(b, t, timer);

	b->done(b);
}

void uy_arm(struct uy_buf *b)
{
	b->done = uy_done;
	timer_setup(&b->timer, uy_expire, 0);
}

void uy_configure(struct uy_buf *b)
{
	spin_lock_bh(&b->admin_lock);
	b->len = 1;
	spin_unlock_bh(&b->admin_lock);
}
