// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture no-vector.
 *
 * Checks: cfg_db.lock is taken only in process context: by a syscall-like
 * entry (cfg_db_set) and by a workqueue function (cfg_db_work, stored
 * into work_struct.func by INIT_WORK).  Workqueues run in process
 * context, so no vector takes it: class NONE, and its sections may leave
 * every vector enabled (mask NONE).  The same file has a tasklet whose
 * callback, stored into tasklet_struct.func (same field name "func"),
 * takes cfg_evt.lock: TASKLET (it is queued by tasklet_schedule()).
 *
 * A naive analysis gets wrong: resolving "->func" by name (tasklet,
 * RCU's callback_head, packet_type and work_struct all have one) puts the
 * work function into HI, TASKLET and RCU; treating any function pointer
 * as possibly a softirq callback gives ALL.
 */
#include "kernel.h"

struct cfg_db {
	spinlock_t lock;
	struct work_struct sync_work;
	unsigned int gen;
	unsigned int synced;
};

struct cfg_evt {
	spinlock_t lock;
	struct tasklet_struct tasklet;
	unsigned int pending;
};

static void cfg_db_work(struct work_struct *w)
{
	struct cfg_db *db = container_of(w, struct cfg_db, sync_work);

	spin_lock_bh(&db->lock);
	db->synced = db->gen;
	spin_unlock_bh(&db->lock);
}

static void cfg_evt_run(unsigned long data)
{
	struct cfg_evt *ev = (struct cfg_evt *)data;

	spin_lock(&ev->lock);
	ev->pending = 0;
	spin_unlock(&ev->lock);
}

void cfg_db_init(struct cfg_db *db, struct cfg_evt *ev)
{
	spin_lock_init(&db->lock);
	INIT_WORK(&db->sync_work, cfg_db_work);
	tasklet_init(&ev->tasklet, cfg_evt_run, (unsigned long)ev);
}

void cfg_db_set(struct cfg_db *db, struct cfg_evt *ev)
{
	spin_lock_bh(&db->lock);
	db->gen++;
	spin_unlock_bh(&db->lock);
	queue_work(&db->sync_work);
	spin_lock_bh(&ev->lock);
	ev->pending++;
	spin_unlock_bh(&ev->lock);
	tasklet_schedule(&ev->tasklet);
}
