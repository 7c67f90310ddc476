// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture return-in-loop.
 *
 * Checks: flow_find() takes flow_table.lock, returns from inside the
 * loop after releasing it, and releases it after the loop otherwise
 * (net/ipv6/ip6_flowlabel.c:__fl6_sock_lookup() has this shape).  The
 * section ends on every path, so it is flow_find()'s own and masks TIMER
 * (flow_gc() takes the lock); flow_use(), which calls flow_find(), holds
 * nothing on return.
 *
 * A naive analysis gets wrong: clang leaves the loop through a "cleanup"
 * block that switches on which exit was taken; read path-insensitively,
 * the loop's next iteration seems to reach the return without the
 * unlock, so the lock looks held on return and the section is lifted
 * into flow_use() and above (mask ALL).
 */
#include "kernel.h"

struct flow {
	struct flow *next;
	int label;
	int users;
};

struct flow_table {
	spinlock_t lock;
	struct flow *head;
	struct timer_list timer;
};

static struct flow *flow_find(struct flow_table *t, int label)
{
	struct flow *f;

	spin_lock_bh(&t->lock);
	for (f = t->head; f; f = f->next) {
		struct flow *cur = f;

		if (cur->label == label && cur->users > 0) {
			cur->users++;
			spin_unlock_bh(&t->lock);
			return cur;
		}
	}
	spin_unlock_bh(&t->lock);
	return NULL;
}

static void flow_gc(struct timer_list *tm)
{
	struct flow_table *t = from_timer(t, tm, timer);

	spin_lock(&t->lock);
	t->head = NULL;
	spin_unlock(&t->lock);
}

int flow_use(struct flow_table *t, int label)
{
	timer_setup(&t->timer, flow_gc, 0);
	return flow_find(t, label) ? 1 : 0;
}
