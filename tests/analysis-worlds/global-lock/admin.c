// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture global-lock: a second static done_lock, process context only,
 * and a section on the global io_stats_lock.
 */
#include "kernel.h"

extern spinlock_t io_stats_lock;
extern unsigned long io_polled;

static DEFINE_SPINLOCK(done_lock);
static unsigned int admin_done;

void admin_mark_done(void)
{
	spin_lock_bh(&done_lock);
	admin_done++;
	spin_unlock_bh(&done_lock);
}

unsigned long admin_io_polled(void)
{
	unsigned long n;

	spin_lock_bh(&io_stats_lock);
	n = io_polled;
	spin_unlock_bh(&io_stats_lock);
	return n;
}
