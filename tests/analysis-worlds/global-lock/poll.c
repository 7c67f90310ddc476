// SPDX-License-Identifier: GPL-2.0
/* Fixture global-lock: the irq_poll handler takes io_stats_lock. */
#include "kernel.h"

extern spinlock_t io_stats_lock;
unsigned long io_polled;

static struct irq_poll dev_iop;

static int dev_irq_poll(struct irq_poll *iop, int budget)
{
	spin_lock(&io_stats_lock);
	io_polled += budget;
	spin_unlock(&io_stats_lock);
	return 0;
}

void dev_poll_init(void)
{
	irq_poll_init(&dev_iop, 32, dev_irq_poll);
	irq_poll_sched(&dev_iop);
}
