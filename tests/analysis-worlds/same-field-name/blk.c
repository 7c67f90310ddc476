// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture same-field-name: blk_mq_ops.complete runs in BLOCK; the
 * unrelated job_ops.complete, same name and prototype, runs only in
 * process context (job_finish).
 */
#include "kernel.h"

struct disk { spinlock_t lock; unsigned long done; };
struct job { spinlock_t lock; unsigned long done; };
struct job_ops { void (*complete)(struct request *rq); };

static struct disk disk0;
static struct job job0;

static void disk_complete(struct request *rq)
{
	spin_lock(&disk0.lock);
	disk0.done++;
	spin_unlock(&disk0.lock);
}

static void job_done(struct request *rq)
{
	spin_lock_bh(&job0.lock);
	job0.done++;
	spin_unlock_bh(&job0.lock);
}

static const struct blk_mq_ops disk_mq_ops = { .complete = disk_complete };
static const struct job_ops default_job_ops = { .complete = job_done };

void disk_attach(struct request_queue *q)
{
	q->mq_ops = &disk_mq_ops;
}

void job_finish(const struct job_ops *ops, struct request *rq)
{
	ops->complete(rq);
}

void job_finish_default(struct request *rq)
{
	job_finish(&default_job_ops, rq);
}

unsigned long disk_done(void)
{
	unsigned long n;

	spin_lock_bh(&disk0.lock);
	n = disk0.done;
	spin_unlock_bh(&disk0.lock);
	return n;
}
