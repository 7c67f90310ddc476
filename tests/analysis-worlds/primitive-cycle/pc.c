// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture primitive-cycle.
 *
 * Checks: the world defines _raw_spin_unlock() itself, as
 * kernel/locking/spinlock.c does, and its body reaches the scheduler
 * (preempt_enable() -> preempt_schedule()), which calls pc_wait_finish(),
 * which takes and releases pc_wq.lock through the spin_lock() and
 * spin_unlock() wrappers.  A primitive's body is not part of its
 * callers (rule 4), so it must not join them in a call-graph cycle
 * either: pc_wait_finish() is judged after the wrapper that releases
 * its lock, sees the release, and does not return holding pc_wq.lock.
 * pc_flush() then holds nothing when it takes pc_dev.lock, which no
 * vector takes: NONE.
 *
 * A naive analysis gets wrong: in the cycle pc_wait_finish() ->
 * spin_unlock() -> _raw_spin_unlock() -> pc_resched() ->
 * pc_wait_finish(), the functions are judged in the order a depth-first
 * search finishes them; entered from pc_release(), the search finishes
 * pc_wait_finish() before spin_unlock(), and judged first,
 * pc_wait_finish() seems to return holding
 * pc_wq.lock, which is lifted into pc_flush() and ordered before
 * pc_dev.lock (TIMER, from pc_expire()).  In the kernel this kept
 * finish_wait() and __free_pages_ok() "holding" their locks.
 */
#include "kernel.h"

struct pc_wq {
	spinlock_t lock;
	int waiters;
	struct timer_list timer;
};

struct pc_dev {
	spinlock_t lock;
	int flushes;
};

static struct pc_wq pc_wq;
static struct pc_dev pc_dev;

/* releases what its caller took: the first function the DFS meets */
void pc_release(struct pc_wq *wq)
{
	spin_unlock(&wq->lock);
}

void pc_wait_finish(struct pc_wq *wq)
{
	spin_lock(&wq->lock);
	wq->waiters--;
	spin_unlock(&wq->lock);
}

static void pc_resched(void)
{
	if (pc_wq.waiters)
		pc_wait_finish(&pc_wq);
}

void _raw_spin_unlock(raw_spinlock_t *lock)
{
	pc_resched();
}

static void pc_expire(struct timer_list *t)
{
	struct pc_wq *wq = from_timer(wq, t, timer);

	spin_lock(&wq->lock);
	wq->waiters = 0;
	spin_unlock(&wq->lock);
}

void pc_flush(void)
{
	timer_setup(&pc_wq.timer, pc_expire, 0);
	pc_wait_finish(&pc_wq);
	spin_lock_bh(&pc_dev.lock);
	pc_dev.flushes++;
	spin_unlock_bh(&pc_dev.lock);
}
