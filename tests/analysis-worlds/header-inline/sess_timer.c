// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture header-inline: the timer side.  The timer takes sess.lock with
 * a plain spin_lock(); sess_start() also uses the header's inline, so this
 * unit has its own copy of sess_touch(): still world.h:sess_touch, the
 * same section.
 */
#include "world.h"

static void sess_idle(struct timer_list *t)
{
	struct sess *s = from_timer(s, t, idle_timer);

	spin_lock(&s->lock);
	s->idle_ticks++;
	spin_unlock(&s->lock);
	mod_timer(&s->idle_timer, jiffies + HZ);
}

void sess_start(struct sess *s)
{
	spin_lock_init(&s->lock);
	sess_touch(s, jiffies);
	timer_setup(&s->idle_timer, sess_idle, 0);
	mod_timer(&s->idle_timer, jiffies + HZ);
}
