// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture untyped-cell.
 *
 * Checks: a table of void * slots holds functions of three prototypes.
 * cell_expire(), a timer callback, calls the slots it knows hold a
 * function of one int argument and one of a struct cell_item pointer;
 * cell_count(), which takes cell_obj.lock and takes a struct cell_obj
 * pointer, sits in the same field but is never what those calls run: an
 * indirect call reaches only the functions whose prototype fits the call
 * (what kCFI enforces; only void * and other untyped pointers fit any
 * pointer).  cell_obj.lock is taken by nothing that runs in a vector, so
 * cell_reset()'s section masks nothing.
 *
 * A naive analysis gets wrong: following every function value that
 * reaches the pointer, whatever its type, makes cell_expire() call
 * cell_count() and gives cell_obj.lock TIMER.  In the kernel, function
 * values of other prototypes reaching calls through such cells made the
 * typed resolution wider than prototype-only matching.
 */
#include "kernel.h"

struct cell_obj {
	spinlock_t lock;
	int n;
	struct timer_list timer;
};

struct cell_item {
	int refs;
};

struct cell_slot {
	void *fn;
};

static struct cell_slot cell_table[3];

static void cell_count(struct cell_obj *o)
{
	spin_lock(&o->lock);
	o->n++;
	spin_unlock(&o->lock);
}

static int cell_peek(int x)
{
	return x + 1;
}

static void cell_item_put(struct cell_item *it)
{
	it->refs--;
}

void cell_register(void)
{
	cell_table[0].fn = cell_count;
	cell_table[1].fn = cell_peek;
	cell_table[2].fn = cell_item_put;
}

static void cell_expire(struct timer_list *t)
{
	int (*peek)(int) = cell_table[1].fn;
	void (*put)(struct cell_item *) = cell_table[2].fn;
	struct cell_item it = { .refs = peek(1) };

	put(&it);
}

void cell_start(struct cell_obj *o)
{
	timer_setup(&o->timer, cell_expire, 0);
}

void cell_reset(struct cell_obj *o)
{
	void (*count)(struct cell_obj *) = cell_table[0].fn;

	spin_lock_bh(&o->lock);
	o->n = 0;
	spin_unlock_bh(&o->lock);
	count(o);
}
