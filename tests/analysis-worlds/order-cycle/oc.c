// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture order-cycle.
 *
 * Checks: oc_forward() takes oc_obj.a then oc_obj.b, oc_backward() b
 * then a: the lock-order graph has a cycle of two classes (lockdep
 * would report it), and the summary names it as the largest cycle
 * component.  oc_expire(), a timer, takes only a; since a is ordered
 * before b, b's class mask has TIMER as well, and so does the BH section
 * on b in oc_flush() (CPU 1 holds b with BH off, the timer interrupts
 * and waits for a; CPU 2 holds a and waits for b).  oc_obj.c, taken
 * only under a, is ordered after the cycle, not in it.
 *
 * A naive analysis gets wrong: a mask per lock class without lock
 * order leaves TIMER out of b (unsafe); on the campaign kernel the
 * cycle component is what keeps most sections at every vector, so its
 * size is reported.
 */
#include "kernel.h"

struct oc_obj {
	spinlock_t a;
	spinlock_t b;
	spinlock_t c;
	int n;
	struct timer_list timer;
};

static struct oc_obj oc;

void oc_forward(void)
{
	spin_lock(&oc.a);
	spin_lock(&oc.b);
	oc.n++;
	spin_unlock(&oc.b);
	spin_lock(&oc.c);
	oc.n++;
	spin_unlock(&oc.c);
	spin_unlock(&oc.a);
}

void oc_backward(void)
{
	spin_lock(&oc.b);
	spin_lock(&oc.a);
	oc.n--;
	spin_unlock(&oc.a);
	spin_unlock(&oc.b);
}

static void oc_expire(struct timer_list *t)
{
	spin_lock(&oc.a);
	oc.n = 0;
	spin_unlock(&oc.a);
}

void oc_init(void)
{
	timer_setup(&oc.timer, oc_expire, 0);
}

void oc_flush(void)
{
	spin_lock_bh(&oc.b);
	oc.n = 1;
	spin_unlock_bh(&oc.b);
}
