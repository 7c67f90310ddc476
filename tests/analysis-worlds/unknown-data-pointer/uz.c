// SPDX-License-Identifier: GPL-2.0
/* The void-pointer half of unknown-data-pointer (see uy.c). */
#include "kernel.h"

struct uz_buf {
	int len;
	union {
		void *route;
		void (*done)(struct uz_buf *b);
	};
	spinlock_t done_lock;
	spinlock_t admin_lock;
	struct timer_list timer;
};

struct uz_admin_ops {
	void (*run)(struct uz_buf *b);
};

static void uz_done(struct uz_buf *b)
{
	spin_lock(&b->done_lock);
	b->len = 0;
	spin_unlock(&b->done_lock);
}

static void uz_admin(struct uz_buf *b)
{
	spin_lock(&b->admin_lock);
	b->len++;
	spin_unlock(&b->admin_lock);
}

const struct uz_admin_ops uz_admin_ops = { .run = uz_admin };

void uz_set_route(struct uz_buf *b, void **slot)
{
	b->route = *slot;
}

static void uz_expire(struct timer_list *t)
{
	struct uz_buf *b = from_timer(b, t, timer);

	b->done(b);
}

void uz_arm(struct uz_buf *b)
{
	b->done = uz_done;
	timer_setup(&b->timer, uz_expire, 0);
}

void uz_configure(struct uz_buf *b)
{
	spin_lock_bh(&b->admin_lock);
	b->len = 1;
	spin_unlock_bh(&b->admin_lock);
}
