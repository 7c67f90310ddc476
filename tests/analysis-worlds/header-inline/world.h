/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fixture header-inline: the BH section lives in a static inline of this
 * header.  Without LLVM optimisation every unit that calls sess_touch()
 * gets its own internal copy, but a static function is named after the
 * file that defines it: all copies are world.h:sess_touch, one function
 * with one section on sess.lock (one place in the source to convert),
 * whose mask is the union over the copies.
 */
#ifndef WORLD_H
#define WORLD_H

#include "kernel.h"

struct sess {
	spinlock_t lock;
	struct timer_list idle_timer;
	unsigned long touched;
	unsigned int idle_ticks;
};

static inline void sess_touch(struct sess *s, unsigned long now)
{
	spin_lock_bh(&s->lock);
	s->touched = now;
	s->idle_ticks = 0;
	spin_unlock_bh(&s->lock);
}

void sess_start(struct sess *s);
void sess_read(struct sess *s, unsigned long now);

#endif /* WORLD_H */
