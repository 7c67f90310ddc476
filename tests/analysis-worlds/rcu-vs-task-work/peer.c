// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture rcu-vs-task-work.
 *
 * Checks: struct callback_head serves both RCU and task_work, and both
 * callbacks are stored into callback_head.func with the same prototype.
 * Only the function given to call_rcu() (peer_free_rcu) runs in RCU:
 * peer_pool.lock gets RCU.  The function given to init_task_work() and
 * task_work_add() (peer_notify) runs in process context on return to
 * user space: peer.lock stays NONE.
 *
 * A naive analysis gets wrong: resolving rcu_do_batch()'s rhp->func by
 * type and field (callback_head.func) puts peer_notify in RCU; treating
 * every callback_head user as process context loses RCU for
 * peer_pool.lock.
 */
#include "kernel.h"

struct peer_pool {
	spinlock_t lock;
	unsigned int nr_free;
};

struct peer {
	spinlock_t lock;
	struct rcu_head rcu;
	struct callback_head twork;
	unsigned int events;
};

static struct peer_pool pool;

static void peer_free_rcu(struct rcu_head *head)
{
	struct peer *p = container_of(head, struct peer, rcu);

	spin_lock(&pool.lock);
	pool.nr_free++;
	spin_unlock(&pool.lock);
	kfree(p);
}

static void peer_notify(struct callback_head *cb)
{
	struct peer *p = container_of(cb, struct peer, twork);

	spin_lock_bh(&p->lock);
	p->events = 0;
	spin_unlock_bh(&p->lock);
}

void peer_event(struct peer *p, void *task)
{
	spin_lock_bh(&p->lock);
	p->events++;
	spin_unlock_bh(&p->lock);
	init_task_work(&p->twork, peer_notify);
	task_work_add(task, &p->twork, 0);
}

void peer_release(struct peer *p)
{
	call_rcu(&p->rcu, peer_free_rcu);
}

unsigned int peer_pool_count(void)
{
	unsigned int n;

	spin_lock_bh(&pool.lock);
	n = pool.nr_free;
	spin_unlock_bh(&pool.lock);
	return n;
}
