/* SPDX-License-Identifier: GPL-2.0 */
/* Fixture field-callback: a generic reassembly core, like inet_frag. */
#ifndef FRAG_H
#define FRAG_H

#include "kernel.h"

struct frag_queue {
	spinlock_t lock;
	struct timer_list timer;
	unsigned int len;
	unsigned int meat;
};

struct frags {
	unsigned int qsize;
	void (*frag_expire)(struct timer_list *t);
};

struct frag_queue *frag_create(struct frags *f);

#endif /* FRAG_H */
