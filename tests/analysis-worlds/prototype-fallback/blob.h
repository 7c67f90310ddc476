/* SPDX-License-Identifier: GPL-2.0 */
/* Fixture prototype-fallback: a blob and the timer that maintains it. */
#ifndef BLOB_H
#define BLOB_H

#include "kernel.h"

struct blob {
	spinlock_t lock;
	unsigned int dirty;
};

struct blob_ctl {
	struct timer_list timer;
	struct blob *blob;
	unsigned long cookie;
};

typedef void (*blob_fn)(struct blob *b);

/* outside the world: what they do with a pointer is unknown */
void cb_registry_add(void *fn);
void *cb_registry_get(int id);

void blob_ctl_init(struct blob_ctl *ctl);

#endif /* BLOB_H */
