// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture field-callback.
 *
 * Checks: the expiry handler is stored in a field of struct frags (by a
 * designated initialiser in ipfrag.c, by an assignment in ip6frag.c) and
 * frag_create() passes the field's value on to timer_setup(), like
 * inet_frag_alloc() with f->frag_expire.  Both handlers run in TIMER:
 * frag_queue.lock and reasm_stats.lock get TIMER.
 *
 * A naive analysis gets wrong: timer_setup()'s callback argument is a
 * load from a struct field, not a function name; an analysis that only
 * follows function names passed directly finds no callback and leaves
 * both classes NONE.
 */
#include "frag.h"

struct frag_queue *frag_create(struct frags *f)
{
	struct frag_queue *q = kmalloc(f->qsize, 0);

	if (!q)
		return NULL;
	spin_lock_init(&q->lock);
	timer_setup(&q->timer, f->frag_expire, 0);
	mod_timer(&q->timer, jiffies + 30 * HZ);
	return q;
}
