// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture plain-lock-in-timer.
 *
 * Checks: conn.lock is taken with spin_lock_bh() in process context and
 * with a plain spin_lock() in a timer callback, so its class mask is
 * TIMER and the process-context section must keep TIMER masked.
 * conn.cfg_lock, a second member of the same struct, is never taken by a
 * vector: NONE.
 *
 * A naive analysis gets wrong: counting only _bh acquisitions (a timer
 * already runs with BHs off, so it uses spin_lock()) gives NONE, and the
 * timer would then spin on the lock the interrupted section holds.
 * Naming classes by struct alone (not struct.member) merges cfg_lock in.
 */
#include "kernel.h"

struct conn {
	spinlock_t lock;
	spinlock_t cfg_lock;
	struct timer_list keepalive;
	unsigned long last_rx;
	unsigned int probes;
	unsigned int mtu;
};

static void conn_keepalive(struct timer_list *t)
{
	struct conn *c = from_timer(c, t, keepalive);

	spin_lock(&c->lock);
	c->probes++;
	spin_unlock(&c->lock);
	mod_timer(&c->keepalive, jiffies + HZ);
}

void conn_init(struct conn *c)
{
	spin_lock_init(&c->lock);
	spin_lock_init(&c->cfg_lock);
	timer_setup(&c->keepalive, conn_keepalive, 0);
	mod_timer(&c->keepalive, jiffies + HZ);
}

void conn_rx(struct conn *c, unsigned long now)
{
	spin_lock_bh(&c->lock);
	c->last_rx = now;
	c->probes = 0;
	spin_unlock_bh(&c->lock);
}

void conn_set_mtu(struct conn *c, unsigned int mtu)
{
	spin_lock_bh(&c->cfg_lock);
	c->mtu = mtu;
	spin_unlock_bh(&c->cfg_lock);
}
