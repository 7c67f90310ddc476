// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture result-not-lock.
 *
 * Checks: nr_rx() turns BH off and on again under the same test, like
 * netif_rx(), and returns a length.  The pair stays in nr_rx(), whose
 * section masks nothing (correlated pairs, rule 5).  nr_send() returns
 * nr_rx()'s result, but that result is a length, not whether BH is off:
 * nr_send() opens no section, and nr_xmit() gets TIMER only for the
 * section on nr_queue.lock it opens itself.
 *
 * A naive analysis gets wrong: read without the test, nr_rx() returns
 * with BH off on one path; treating every returned result as "the lock
 * was taken" lifts that hold out of nr_send() into its callers, whose
 * sections then never end.  Before pairs were recognised, the analysis
 * kept it as a failed try in nr_send() and saw a section there that the
 * code does not have; in the kernel, netif_rx()'s callers opened 14.
 */
#include "kernel.h"

struct nr_queue {
	spinlock_t lock;
	int len;
	struct timer_list timer;
};

static struct nr_queue nr_q;

/* outside the world, like the tracepoints and backlog enqueue of netif_rx() */
int nr_enqueue(struct nr_queue *q);
void nr_trace(int where, int len);

static int nr_rx(int need_bh_off)
{
	int ret;

	if (need_bh_off)
		local_bh_disable();
	nr_trace(0, nr_q.len);
	nr_trace(1, nr_q.len);
	ret = nr_enqueue(&nr_q);
	nr_trace(2, ret);
	nr_trace(3, ret);
	if (need_bh_off)
		local_bh_enable();
	return ret;
}

static int nr_send(int v)
{
	return nr_rx(v & 1);
}

void nr_xmit(int v)
{
	nr_send(v);
	spin_lock_bh(&nr_q.lock);
	nr_q.len++;
	spin_unlock_bh(&nr_q.lock);
}

static void nr_expire(struct timer_list *t)
{
	spin_lock(&nr_q.lock);
	nr_q.len = 0;
	spin_unlock(&nr_q.lock);
}

void nr_start(void)
{
	timer_setup(&nr_q.timer, nr_expire, 0);
}
