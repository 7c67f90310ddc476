// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture cycle-lift.
 *
 * Checks: helpers that call each other (a cycle in the call graph) are
 * judged until what they lift into their callers settles.
 * cl_find_lock() returns holding its object's lock (like
 * find_lock_task_mm()) and cl_walk() takes it through that helper and
 * drops it (like oom_badness()); the two recurse over a list.
 * cl_update() holds a->lock with BH off, walks another object (same
 * class) and then takes a->inner, which a timer takes: the section's
 * mask has TIMER.  cl_hold() takes its object's hlock and cl_drop() drops
 * it (like ep_remove() and ep_remove_file()); cl_scan() calls cl_hold()
 * and then takes cl_obj.tail, so cl_hold() holds nothing on return and
 * orders nothing before tail: the section on tail in cl_tail_reset() has
 * no TIMER although a timer takes cl_obj.hlock.
 *
 * cl_peek() and cl_release() enter each cycle at its inner function,
 * so a depth-first order of the call graph meets cl_find_lock() before
 * cl_walk() and cl_drop() before cl_hold().
 *
 * A naive analysis gets wrong: judging each function of a cycle once,
 * callees first as far as a cycle allows, judges cl_walk() before
 * cl_find_lock() lifts its hold: cl_walk()'s unlock then looks like a
 * release of its caller's lock, and cl_update()'s section ends at the
 * walk, before a->inner (unsafe: no TIMER).  Judging cl_hold() before
 * cl_drop() lifts its release makes cl_hold() look like it returns
 * holding the lock (on the campaign kernel: ep_remove(), __fput(),
 * tcp_v6_rcv()), which orders cl_obj.hlock before tail (TIMER on the tail
 * section, for nothing).
 */
#include "kernel.h"

struct cl_obj {
	spinlock_t lock;
	spinlock_t hlock;
	spinlock_t inner;
	spinlock_t tail;
	int n;
	struct cl_obj *next;
	struct timer_list timer;
};

static struct cl_obj cl;

static void cl_walk(struct cl_obj *o, int depth);
static void cl_hold(struct cl_obj *o, int depth);

static noinline struct cl_obj *cl_find_lock(struct cl_obj *o, int depth)
{
	if (depth > 0 && o->next)
		cl_walk(o->next, depth - 1);
	spin_lock(&o->lock);
	return o;
}

static noinline void cl_walk(struct cl_obj *o, int depth)
{
	struct cl_obj *p = cl_find_lock(o, depth);

	p->n++;
	spin_unlock(&p->lock);
}

static noinline void cl_drop(struct cl_obj *o, int depth)
{
	o->n--;
	spin_unlock(&o->hlock);
	if (depth > 0 && o->next)
		cl_hold(o->next, depth - 1);
}

static noinline void cl_hold(struct cl_obj *o, int depth)
{
	spin_lock(&o->hlock);
	cl_drop(o, depth);
}

/* callers that enter each cycle at its inner function first */
void cl_peek(struct cl_obj *o)
{
	struct cl_obj *p = cl_find_lock(o, 0);

	p->n = 4;
	spin_unlock(&p->lock);
}

void cl_release(struct cl_obj *o)
{
	cl_drop(o, 0);
}

void cl_update(struct cl_obj *a, struct cl_obj *b)
{
	spin_lock_bh(&a->lock);
	cl_walk(b, 1);
	spin_lock(&a->inner);
	a->n++;
	spin_unlock(&a->inner);
	spin_unlock_bh(&a->lock);
}

void cl_scan(struct cl_obj *o)
{
	cl_hold(o, 1);
	spin_lock(&o->tail);
	o->n = 0;
	spin_unlock(&o->tail);
}

void cl_tail_reset(void)
{
	spin_lock_bh(&cl.tail);
	cl.n = 3;
	spin_unlock_bh(&cl.tail);
}

static void cl_expire(struct timer_list *t)
{
	spin_lock(&cl.inner);
	cl.n = 1;
	spin_unlock(&cl.inner);
	spin_lock(&cl.hlock);
	cl.n = 2;
	spin_unlock(&cl.hlock);
}

void cl_init(void)
{
	timer_setup(&cl.timer, cl_expire, 0);
}
