// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture anon-struct-fields.
 *
 * Checks: ux_buf has a union holding an anonymous struct, like sk_buff's
 * union { struct { _skb_refdst; destructor; }; ... }.  ux_set_cookie()
 * stores a value loaded through a parameter (one the solve cannot know,
 * and, as a void pointer, maybe a function) into cookie, and
 * ux_expire(), a timer callback, calls b->done(), whose only value is
 * ux_done().  cookie and done are two fields of one anonymous struct:
 * the unknown value never reaches done, so the call does not fall back
 * to every function of its prototype, and ux_admin(), whose address is
 * taken elsewhere, is not reached: ux_buf.admin_lock gets no TIMER.
 *
 * A naive analysis gets wrong: clang numbers anonymous structs per unit,
 * and a model that folds their fields into the enclosing field put the
 * dst of every skb into its destructor: every destructor call reached
 * every void (struct sk_buff *) function of the kernel.
 */
#include "kernel.h"

struct ux_buf {
	int len;
	union {
		struct {
			unsigned long cookie;
			void (*done)(struct ux_buf *b);
		};
		long pad[2];
	};
	spinlock_t done_lock;
	spinlock_t admin_lock;
	struct timer_list timer;
};

struct ux_admin_ops {
	void (*run)(struct ux_buf *b);
};

static void ux_done(struct ux_buf *b)
{
	spin_lock(&b->done_lock);
	b->len = 0;
	spin_unlock(&b->done_lock);
}

static void ux_admin(struct ux_buf *b)
{
	spin_lock(&b->admin_lock);
	b->len++;
	spin_unlock(&b->admin_lock);
}

const struct ux_admin_ops ux_admin_ops = { .run = ux_admin };

void ux_set_cookie(struct ux_buf *b, void **slot)
{
	void *c = *slot;

	b->cookie = (unsigned long)c;
}

static void ux_expire(struct timer_list *t)
{
	struct ux_buf *b = from_timer(b, t, timer);

	b->done(b);
}

void ux_arm(struct ux_buf *b)
{
	b->done = ux_done;
	timer_setup(&b->timer, ux_expire, 0);
}

void ux_configure(struct ux_buf *b)
{
	spin_lock_bh(&b->admin_lock);
	b->len = 1;
	spin_unlock_bh(&b->admin_lock);
}
