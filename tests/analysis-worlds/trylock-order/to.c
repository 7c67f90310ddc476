// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture trylock-order.
 *
 * Checks: to_poke() holds to_obj.a and trylocks to_obj.b, then takes
 * to_obj.c with a plain spin_lock().  A timer takes a.  The trylock adds
 * no lock order a -> b: it never waits, so a CPU that holds a can never
 * be stuck on b (lockdep's validate_chain() adds no dependency for a
 * trylock either).  The BH section on b in to_flush() leaves TIMER out:
 * if the timer interrupts it and waits for a, the CPU holding a fails
 * its trylock of b and goes on to release a.  The plain lock of c keeps
 * the order a -> c, so the section on c in to_drain() has TIMER.
 *
 * A naive analysis gets wrong: counting the trylock as an order edge
 * gives b TIMER (safe, but on the campaign kernel icmp_xmit_lock()'s
 * trylock of the ICMP socket's lock under a device's transmit lock
 * ordered that lock before every socket lock); dropping the plain
 * nested lock with it gives c no TIMER (unsafe).
 */
#include "kernel.h"

struct to_obj {
	spinlock_t a;
	spinlock_t b;
	spinlock_t c;
	int n;
	struct timer_list timer;
};

static struct to_obj to;

void to_poke(void)
{
	spin_lock(&to.a);
	if (spin_trylock(&to.b)) {
		to.n++;
		spin_unlock(&to.b);
	}
	spin_lock(&to.c);
	to.n++;
	spin_unlock(&to.c);
	spin_unlock(&to.a);
}

static void to_expire(struct timer_list *t)
{
	spin_lock(&to.a);
	to.n = 0;
	spin_unlock(&to.a);
}

void to_init(void)
{
	timer_setup(&to.timer, to_expire, 0);
}

void to_flush(void)
{
	spin_lock_bh(&to.b);
	to.n = 1;
	spin_unlock_bh(&to.b);
}

void to_drain(void)
{
	spin_lock_bh(&to.c);
	to.n = 2;
	spin_unlock_bh(&to.c);
}
