/* SPDX-License-Identifier: GPL-2.0 */
/* Fixture lock-debugging: shared declarations (see dl.c). */
#ifndef DL_H
#define DL_H
#include "kernel.h"

struct dl_obj {
	spinlock_t lock;
	int n;
	struct timer_list timer;
	struct timer_list timer2;
};

void dl_print(struct dl_obj *o);
void dl_rcu_suspicious(struct dl_obj *o);
void dl_debug_relock(struct dl_obj *o);
#endif
