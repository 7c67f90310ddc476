// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture conditional-hold.
 *
 * Checks: cfg_begin() is a bool function that returns true holding
 * cfg.lock (BH off) and false after releasing it, like __do_once_start().
 * cfg_apply() ends the section with cfg_end() only when cfg_begin()
 * returned true.  The section is cfg_apply()'s, from the call of
 * cfg_begin() to cfg_end(), and masks TIMER (cfg_expire() takes the lock).
 * cfg_reload(), which calls cfg_apply(), holds nothing on return.
 *
 * A naive analysis gets wrong: without telling the false path of
 * cfg_begin() apart, the lock looks held when cfg_apply() returns, so it
 * is lifted into cfg_reload() and every caller above it, whose sections
 * then never end (mask ALL).
 */
#include "kernel.h"

struct cfg {
	spinlock_t lock;
	int done;
	int applied;
	struct timer_list timer;
};

static bool cfg_begin(struct cfg *c)
{
	spin_lock_bh(&c->lock);
	if (c->done) {
		spin_unlock_bh(&c->lock);
		return false;
	}
	return true;
}

static void cfg_end(struct cfg *c)
{
	c->done = 1;
	spin_unlock_bh(&c->lock);
}

static void cfg_apply(struct cfg *c)
{
	if (cfg_begin(c)) {
		c->applied++;
		cfg_end(c);
	}
}

static void cfg_expire(struct timer_list *t)
{
	struct cfg *c = from_timer(c, t, timer);

	spin_lock(&c->lock);
	c->done = 0;
	spin_unlock(&c->lock);
}

void cfg_reload(struct cfg *c)
{
	timer_setup(&c->timer, cfg_expire, 0);
	cfg_apply(c);
}
