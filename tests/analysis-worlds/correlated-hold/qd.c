// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture correlated-hold.
 *
 * Checks: qd_reset() takes qd.seq only when its nolock argument is set
 * and releases it under the same test, like dev_reset_queue().  Being
 * path-insensitive, the analysis sees a path that returns holding the
 * lock; since another path releases it, the callers treat qd_reset() as
 * a conditional acquisition (a trylock), and qd_reset_all(), which does
 * not return a result, is taken to return with nothing held.  The
 * section that qd_flush() opens on qd_dev.lock afterwards masks only the
 * vectors of the tasklet that takes qd_dev.lock (TASKLET), not
 * the TIMER of qd_expire(), which takes qd.seq.
 *
 * A naive analysis gets wrong: lifting "qd.seq held" out of qd_reset()
 * into qd_reset_all() and on into qd_flush() orders qd.seq before
 * qd_dev.lock (adding TIMER to it) and leaves qd_flush() with a section
 * that never ends (ALL).  In the kernel this lift went from
 * dev_reset_queue() through 2,000 callers.
 */
#include "kernel.h"

struct qd {
	spinlock_t seq;
	int flags;
	int qlen;
	struct timer_list timer;
};

struct qd_dev {
	spinlock_t lock;
	struct qd q[2];
	int resets;
	struct tasklet_struct tl;
};

static void qd_reset(struct qd *q, bool nolock)
{
	if (nolock)
		spin_lock_bh(&q->seq);
	q->qlen = 0;
	if (nolock)
		spin_unlock_bh(&q->seq);
}

static void qd_reset_all(struct qd_dev *d)
{
	int i;

	for (i = 0; i < 2; i++)
		qd_reset(&d->q[i], d->q[i].flags & 1);
}

void qd_flush(struct qd_dev *d)
{
	qd_reset_all(d);
	spin_lock_bh(&d->lock);
	d->resets++;
	spin_unlock_bh(&d->lock);
}

static void qd_expire(struct timer_list *t)
{
	struct qd *q = from_timer(q, t, timer);

	spin_lock(&q->seq);
	q->qlen++;
	spin_unlock(&q->seq);
}

static void qd_tasklet(struct tasklet_struct *t)
{
	struct qd_dev *d = container_of(t, struct qd_dev, tl);

	spin_lock(&d->lock);
	d->resets = 0;
	spin_unlock(&d->lock);
}

void qd_setup(struct qd_dev *d)
{
	timer_setup(&d->q[0].timer, qd_expire, 0);
	tasklet_setup(&d->tl, qd_tasklet);
	tasklet_schedule(&d->tl);
}
