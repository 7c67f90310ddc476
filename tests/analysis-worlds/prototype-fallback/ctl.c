// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture prototype-fallback: the timer calls through pointers of
 * prototype void (*)(struct blob *) whose values it cannot see: one
 * converted back from the unsigned long cookie, one returned by
 * cb_registry_get(), a function outside the world.
 */
#include "blob.h"

static void blob_ctl_tick(struct timer_list *t)
{
	struct blob_ctl *ctl = from_timer(ctl, t, timer);
	blob_fn fn = (blob_fn)ctl->cookie;
	blob_fn extra = (blob_fn)cb_registry_get(0);

	fn(ctl->blob);
	if (extra)
		extra(ctl->blob);
}

void blob_ctl_start(struct blob_ctl *ctl)
{
	blob_ctl_init(ctl);
	timer_setup(&ctl->timer, blob_ctl_tick, 0);
	mod_timer(&ctl->timer, jiffies + HZ);
}

void blob_write(struct blob *b)
{
	spin_lock_bh(&b->lock);
	b->dirty++;
	spin_unlock_bh(&b->lock);
}
