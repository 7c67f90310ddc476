// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture nested-lock.
 *
 * Checks: no vector takes dev_cfg.lock, so its class mask is NONE, but
 * the section in dev_cfg_apply() takes cfg_stats.lock in a direct callee
 * (a TIMER takes it) and cfg_queue.lock through cfg_queue_ops.flush (the
 * BLOCK completion takes it): that section's mask is TIMER|BLOCK.
 * dev_cfg_rename() takes cfg_stats.lock and releases it before its
 * section opens: its section is NONE (a section is a region, not its
 * whole function).
 *
 * A naive analysis gets wrong: using only the class mask of the
 * section's own lock gives NONE for dev_cfg_apply(), and a TIMER or the
 * BLOCK completion would spin on a lock the section holds.  Skipping
 * indirect callees loses BLOCK.
 */
#include "kernel.h"

struct cfg_stats { spinlock_t lock; unsigned long applies; };
struct cfg_queue;
struct cfg_queue_ops { void (*flush)(struct cfg_queue *q); };
struct cfg_queue { spinlock_t lock; unsigned int len; const struct cfg_queue_ops *ops; };

struct dev_cfg {
	spinlock_t lock;
	unsigned int mtu;
	char name[16];
	struct cfg_stats *stats;
	struct cfg_queue *q;
	struct timer_list stats_timer;
};

static void cfg_stats_add(struct cfg_stats *st)
{
	spin_lock(&st->lock);
	st->applies++;
	spin_unlock(&st->lock);
}

static void cfg_queue_flush(struct cfg_queue *q)
{
	spin_lock(&q->lock);
	q->len = 0;
	spin_unlock(&q->lock);
}

static const struct cfg_queue_ops default_ops = { .flush = cfg_queue_flush };

static void cfg_stats_tick(struct timer_list *t)
{
	struct dev_cfg *cfg = from_timer(cfg, t, stats_timer);

	cfg_stats_add(cfg->stats);
}

void dev_cfg_init(struct dev_cfg *cfg)
{
	cfg->q->ops = &default_ops;
	timer_setup(&cfg->stats_timer, cfg_stats_tick, 0);
}

void dev_cfg_apply(struct dev_cfg *cfg, unsigned int mtu)
{
	spin_lock_bh(&cfg->lock);
	cfg->mtu = mtu;
	cfg_stats_add(cfg->stats);
	cfg->q->ops->flush(cfg->q);
	spin_unlock_bh(&cfg->lock);
}

void dev_cfg_rename(struct dev_cfg *cfg, char c)
{
	cfg_stats_add(cfg->stats);
	spin_lock_bh(&cfg->lock);
	cfg->name[0] = c;
	spin_unlock_bh(&cfg->lock);
}
