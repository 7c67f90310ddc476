// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture lock-wrapper.
 *
 * Checks: port_lock()/port_unlock() are wrappers whose lock is their own
 * parameter; the acquisition happens at each call site with the caller's
 * argument.  The timer calls port_lock(&p->lock): port.lock gets TIMER.
 * cfg_commit() calls the same wrapper on &c->lock from process context
 * only: cfg.lock stays NONE.  port_lock_pair() takes its two lock
 * parameters nested (spin_lock_nested); the timer passes a port lock and
 * a link lock, so link.lock gets TIMER and port.lock is ordered before
 * link.lock.
 *
 * A naive analysis gets wrong: an acquisition through a parameter with no
 * known lock is dropped, leaving port.lock and link.lock NONE (unsafe);
 * analysing the wrapper once for all its callers (context-insensitive)
 * gives cfg.lock TIMER (needless).
 */
#include "kernel.h"

struct port { spinlock_t lock; struct timer_list timer; unsigned int tx; };
struct link { spinlock_t lock; unsigned int up; };
struct cfg { spinlock_t lock; unsigned int mtu; };

static void port_lock(spinlock_t *l)
{
	spin_lock(l);
}

static void port_unlock(spinlock_t *l)
{
	spin_unlock(l);
}

static void port_lock_pair(spinlock_t *outer, spinlock_t *inner)
{
	spin_lock(outer);
	spin_lock_nested(inner, 1);
}

static void port_tick(struct timer_list *t)
{
	struct port *p = from_timer(p, t, timer);
	struct link *lk = kmalloc(sizeof(*lk), 0);

	port_lock(&p->lock);
	p->tx++;
	port_unlock(&p->lock);
	if (!lk)
		return;
	port_lock_pair(&p->lock, &lk->lock);
	lk->up = p->tx;
	spin_unlock(&lk->lock);
	spin_unlock(&p->lock);
}

void port_init(struct port *p)
{
	timer_setup(&p->timer, port_tick, 0);
}

void cfg_commit(struct cfg *c, unsigned int mtu)
{
	local_bh_disable();
	port_lock(&c->lock);
	c->mtu = mtu;
	port_unlock(&c->lock);
	local_bh_enable();
}

void link_set(struct link *lk, unsigned int up)
{
	spin_lock_bh(&lk->lock);
	lk->up = up;
	spin_unlock_bh(&lk->lock);
}
