// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture header-inline.
 *
 * Checks: a BH section inside a static inline defined in a world header
 * is a section of world.h:sess_touch (both units here call it), and it
 * gets TIMER because sess_timer.c's timer takes sess.lock.
 *
 * A naive analysis gets wrong: scanning only .c files for spin_lock_bh()
 * sees no section here at all (it would stay ALL or be missing), and an
 * analysis of optimised IR finds the section inlined into sess_read()
 * instead of in sess_touch().
 */
#include "world.h"

void sess_read(struct sess *s, unsigned long now)
{
	if (s->touched != now)
		sess_touch(s, now);
}
