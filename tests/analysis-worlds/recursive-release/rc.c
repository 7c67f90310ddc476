// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture recursive-release.
 *
 * Checks: rc_a() and rc_b() call each other, and each drops and
 * retakes its caller's rc_lock, so a section that calls either of them
 * is read callee by callee, each only up to its release (what a callee
 * takes while the caller's lock is still held).  rc_a() takes
 * rc_obj.n_lock first.  rc_first() holds rc_lock with BH off and calls
 * rc_a(); rc_second() does the same with rc_b(), which retakes rc_lock
 * and calls rc_a().  A timer takes n_lock, so both sections get TIMER.
 *
 * A naive analysis gets wrong, twice: a section's region that stops
 * before the call that releases its lock leaves out what the callee
 * does before the release (rc_first() gets no TIMER: unsafe); reading
 * the callees once each and taking "nothing" for a function already
 * being read (a recursion guard) keeps rc_b()'s result without rc_a()'s
 * n_lock, computed while rc_a() was being read for rc_first(), and
 * rc_second() reuses it (no TIMER: unsafe; which sections got it
 * depended on the order the functions were read in).
 */
#include "kernel.h"

struct rc_obj {
	spinlock_t n_lock;
	int n;
	struct timer_list timer;
};

static struct rc_obj rc;
static DEFINE_SPINLOCK(rc_lock);

static noinline void rc_b(int d);

static noinline void rc_a(int d)
{
	spin_lock(&rc.n_lock);
	rc.n++;
	spin_unlock(&rc.n_lock);
	if (d > 0)
		rc_b(d - 1);
	spin_unlock(&rc_lock);
	cpu_relax();
	spin_lock(&rc_lock);
}

static noinline void rc_b(int d)
{
	spin_unlock(&rc_lock);
	cpu_relax();
	spin_lock(&rc_lock);
	if (d > 0)
		rc_a(d - 1);
}

void rc_first(void)
{
	spin_lock_bh(&rc_lock);
	rc_a(2);
	spin_unlock_bh(&rc_lock);
}

void rc_second(void)
{
	spin_lock_bh(&rc_lock);
	rc_b(2);
	spin_unlock_bh(&rc_lock);
}

static void rc_expire(struct timer_list *t)
{
	spin_lock(&rc.n_lock);
	rc.n = 0;
	spin_unlock(&rc.n_lock);
}

void rc_init(void)
{
	timer_setup(&rc.timer, rc_expire, 0);
}
