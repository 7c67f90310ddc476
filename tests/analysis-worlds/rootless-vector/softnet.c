// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture rootless-vector.
 *
 * Checks: the converter's table (sites.txt) keeps every vector that has
 * no handler in the world masked.  This world has no stub kernel: its
 * own start_kernel() opens only TIMER and NET_RX.  rx_stats.lock is
 * taken by the TIMER handler only, so the section in rx_stats_read() is
 * proven safe with TIMER held back (class and section mask TIMER).  The
 * section line in sites.txt must still hold back HI, NET_TX, BLOCK,
 * IRQ_POLL, TASKLET, SCHED, HRTIMER and RCU: nothing was proven about
 * them (a configuration that compiles their users runs handlers this
 * world never saw), while NET_RX, whose handler was read and does not
 * take the lock, stays open.
 *
 * A naive converter gets wrong: "no chain from the root" is true for
 * a vector with no root at all, so the section would run with eight
 * vectors open that no proof covers (the campaign kernel has no
 * IRQ_POLL user: 283 net/ sections were converted to open IRQ_POLL
 * alone, a change that buys nothing and is unproven wherever a driver
 * uses irq_poll).
 */
#include "kernel.h"

struct rx_stats {
	spinlock_t lock;
	unsigned long packets;
	unsigned long ticks;
};

static struct rx_stats stats;

static void stats_timer_softirq(struct softirq_action *h)
{
	spin_lock(&stats.lock);
	stats.ticks++;
	spin_unlock(&stats.lock);
}

static void stats_rx_softirq(struct softirq_action *h)
{
	stats.packets++;
}

unsigned long rx_stats_read(void)
{
	unsigned long n;

	spin_lock_bh(&stats.lock);
	n = stats.packets + stats.ticks;
	spin_unlock_bh(&stats.lock);
	return n;
}

void start_kernel(void)
{
	open_softirq(TIMER_SOFTIRQ, stats_timer_softirq);
	open_softirq(NET_RX_SOFTIRQ, stats_rx_softirq);
}
