// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture correlated-release.
 *
 * Checks: cr_rx() turns BH off only when its caller has not, and back on
 * under the same test, like netif_rx().  Read without that test, one
 * path turns BH on that was never turned off in cr_rx(), and another
 * returns with BH off.  cr_rx() still leaves the BH count as it found
 * it: cr_xmit(), which calls it through cr_forward() inside its own
 * local_bh_disable() section, keeps that section open up to its
 * local_bh_enable() and masks the TIMER of cr_expire(), which takes
 * cr_dev.stats_lock taken there after the call.  cr_poll() calls cr_rx()
 * with BH on and opens no section at the call.
 *
 * A naive analysis gets wrong: taking the unmatched local_bh_enable() as
 * a release of the caller's BH count ends cr_xmit()'s section at the
 * call of cr_forward(), before stats_lock (NONE: unsafe); taking the
 * unmatched local_bh_disable() as BH left off opens a section in
 * cr_poll() that never ends (ALL).  In linux-6.1 netif_rx() opened 14
 * such sections and ended others early through every caller above it.
 */
#include "kernel.h"

struct cr_dev {
	spinlock_t stats_lock;
	spinlock_t cfg_lock;
	bool in_bh;
	int queued;
	int sent;
	struct timer_list timer;
};

static noinline void cr_enqueue(struct cr_dev *d)
{
	d->queued++;
}

static noinline int cr_rx(struct cr_dev *d)
{
	bool need_bh_off = !d->in_bh;

	if (need_bh_off)
		local_bh_disable();
	cr_enqueue(d);
	if (need_bh_off)
		local_bh_enable();
	return d->queued;
}

static noinline void cr_forward(struct cr_dev *d)
{
	cr_rx(d);
}

void cr_xmit(struct cr_dev *d)
{
	local_bh_disable();
	cr_forward(d);
	spin_lock(&d->stats_lock);
	d->sent++;
	spin_unlock(&d->stats_lock);
	local_bh_enable();
}

void cr_poll(struct cr_dev *d)
{
	cr_rx(d);
	spin_lock(&d->cfg_lock);
	d->sent = 0;
	spin_unlock(&d->cfg_lock);
}

static void cr_expire(struct timer_list *t)
{
	struct cr_dev *d = from_timer(d, t, timer);

	spin_lock(&d->stats_lock);
	d->sent--;
	spin_unlock(&d->stats_lock);
	spin_lock(&d->cfg_lock);
	d->queued = 0;
	spin_unlock(&d->cfg_lock);
}

void cr_init(struct cr_dev *d)
{
	timer_setup(&d->timer, cr_expire, 0);
}
