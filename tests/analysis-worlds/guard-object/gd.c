// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture guard-object.
 *
 * Checks: gd_update() takes gd_obj.lock through a scope guard shaped
 * like the kernel's guard() (include/linux/cleanup.h): a constructor
 * that takes the lock and returns a small struct holding the lock
 * pointer, and a destructor, run at the end of the scope, that releases
 * the pointer it finds in that struct.  The struct comes back from the
 * constructor as a register pair, and the field-based analysis loses the
 * lock pointer on the way: the destructor's release has no lock class.
 * A release of the same kind whose lock has no class ends the section for
 * the question "is the lock still held on return", so gd_update() does
 * not return holding gd_obj.lock; the section itself still runs to the
 * function's end.  gd_flush() then holds nothing when it takes
 * gd_other.lock, which no vector takes: NONE.
 *
 * A naive analysis gets wrong: a release it cannot match leaves
 * gd_obj.lock held on return, lifted into gd_flush(), where it is ordered
 * before gd_other.lock (TIMER, from gd_expire()), and the section of
 * gd_update() is ALL.  In the kernel this made clockevent_i8253_disable()
 * "return holding" i8253_lock up through every syscall.
 */
#include "kernel.h"

typedef struct {
	spinlock_t *lock;
	unsigned long unused;
} class_gd_bh_t;

static inline class_gd_bh_t class_gd_bh_constructor(spinlock_t *l)
{
	class_gd_bh_t t = { .lock = l };

	spin_lock_bh(l);
	return t;
}

static inline void class_gd_bh_destructor(class_gd_bh_t *t)
{
	if (t->lock)
		spin_unlock_bh(t->lock);
}

#define gd_guard(l) \
	class_gd_bh_t __attribute__((cleanup(class_gd_bh_destructor), unused)) \
	gd_scope = class_gd_bh_constructor(l)

struct gd_obj {
	spinlock_t lock;
	int n;
	struct timer_list timer;
};

struct gd_other {
	spinlock_t lock;
	int flushes;
};

static void gd_update(struct gd_obj *o)
{
	gd_guard(&o->lock);
	o->n++;
}

void gd_flush(struct gd_obj *o, struct gd_other *p)
{
	gd_update(o);
	spin_lock_bh(&p->lock);
	p->flushes++;
	spin_unlock_bh(&p->lock);
}

static void gd_expire(struct timer_list *t)
{
	struct gd_obj *o = from_timer(o, t, timer);

	spin_lock(&o->lock);
	o->n = 0;
	spin_unlock(&o->lock);
}

void gd_start(struct gd_obj *o)
{
	timer_setup(&o->timer, gd_expire, 0);
}
