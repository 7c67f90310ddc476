// SPDX-License-Identifier: GPL-2.0
/* Fixture vector-roots: BLOCK, IRQ_POLL and tasklet (TASKLET) roots. */
#include "kernel.h"

struct io_req { spinlock_t lock; unsigned long done; };
struct io_cq { spinlock_t lock; struct irq_poll iop; unsigned long cqes; };
struct io_evt { spinlock_t lock; struct tasklet_struct tasklet; unsigned long events; };
struct io_counts {
	unsigned long reqs, cqes, events;
};

static struct io_req req0;
static struct io_cq cq0;
static struct io_evt evt0;

static void io_complete(struct request *rq)
{
	spin_lock(&req0.lock);
	req0.done++;
	spin_unlock(&req0.lock);
}

static const struct blk_mq_ops io_mq_ops = { .complete = io_complete };

static int io_cq_poll(struct irq_poll *iop, int budget)
{
	struct io_cq *cq = container_of(iop, struct io_cq, iop);

	spin_lock(&cq->lock);
	cq->cqes += budget;
	spin_unlock(&cq->lock);
	return budget;
}

static void io_evt_run(unsigned long data)
{
	struct io_evt *e = (struct io_evt *)data;

	spin_lock(&e->lock);
	e->events++;
	spin_unlock(&e->lock);
}

void io_attach(struct request_queue *q)
{
	q->mq_ops = &io_mq_ops;
	irq_poll_init(&cq0.iop, 64, io_cq_poll);
	tasklet_init(&evt0.tasklet, io_evt_run, (unsigned long)&evt0);
	irq_poll_sched(&cq0.iop);
	tasklet_schedule(&evt0.tasklet);
}

unsigned long io_snapshot(struct io_counts *c)
{
	spin_lock(&req0.lock);
	c->reqs = req0.done;
	spin_unlock(&req0.lock);
	spin_lock(&cq0.lock);
	c->cqes = cq0.cqes;
	spin_unlock(&cq0.lock);
	spin_lock(&evt0.lock);
	c->events = evt0.events;
	spin_unlock(&evt0.lock);
	return c->reqs + c->cqes + c->events;
}
