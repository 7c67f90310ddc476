/* SPDX-License-Identifier: GPL-2.0 */
/* Fixture lock-primitives: the objects and their locks. */
#ifndef PRIMS_H
#define PRIMS_H

#include "kernel.h"

struct blkq { spinlock_t lock; struct request rq; struct request_queue queue; int inflight; };
struct txring { spinlock_t lock; struct Qdisc qdisc; unsigned int used; };
struct tnode { spinlock_t lock; struct tnode *child; struct timer_list timer; unsigned int age; };
struct pace_tbl { rwlock_t lock; struct hrtimer timer; unsigned int rate; };
struct cq { raw_spinlock_t lock; struct irq_poll iop; unsigned int head; };

#endif /* PRIMS_H */
