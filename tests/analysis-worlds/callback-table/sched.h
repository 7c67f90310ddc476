/* SPDX-License-Identifier: GPL-2.0 */
/* Fixture callback-table: the scheduler's timers and queues. */
#ifndef SCHED_H
#define SCHED_H

#include "kernel.h"

struct sched {
	struct timer_list poll;
	struct timer_list idle;
	struct timer_list reap;
};

extern spinlock_t fast_lock, slow_lock, idle_lock, reap_lock;
extern unsigned int fast_n, slow_n, idle_n, reap_n;

extern void (*const poll_fns[2])(struct timer_list *);
void (*pick_idle(void))(struct timer_list *);
void sched_set_reaper(struct sched *s);

#endif /* SCHED_H */
