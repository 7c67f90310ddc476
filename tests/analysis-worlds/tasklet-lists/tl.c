// SPDX-License-Identifier: GPL-2.0
/*
 * tasklet-lists: tasklet_hi_action() and tasklet_action() share
 * tasklet_action_common(), but each walks its own list: a tasklet runs in
 * HI only when it is given to tasklet_hi_schedule(), in TASKLET only when
 * given to tasklet_schedule().  A naive reading of the shared dispatcher
 * runs every callback in both vectors.  Four tasklets: one on each list,
 * one on both, and a static one (DECLARE_TASKLET) on the TASKLET list.
 */
#include "kernel.h"

struct radio {
	spinlock_t lock;
	int frames;
	struct tasklet_struct rx_tasklet;	/* HI */
};

struct disk {
	spinlock_t lock;
	int done;
	struct tasklet_struct done_tasklet;	/* TASKLET */
};

struct modem {
	spinlock_t lock;
	int bytes;
	struct tasklet_struct kick;		/* both */
};

static DEFINE_SPINLOCK(led_lock);
static int led_on;

static void radio_rx(struct tasklet_struct *t)
{
	struct radio *r = from_tasklet(r, t, rx_tasklet);

	spin_lock(&r->lock);
	r->frames++;
	spin_unlock(&r->lock);
}

static void disk_done(struct tasklet_struct *t)
{
	struct disk *d = from_tasklet(d, t, done_tasklet);

	spin_lock(&d->lock);
	d->done++;
	spin_unlock(&d->lock);
}

static void modem_kick(struct tasklet_struct *t)
{
	struct modem *m = from_tasklet(m, t, kick);

	spin_lock(&m->lock);
	m->bytes++;
	spin_unlock(&m->lock);
}

static void led_blink(struct tasklet_struct *t)
{
	spin_lock(&led_lock);
	led_on = !led_on;
	spin_unlock(&led_lock);
}

static DECLARE_TASKLET(led_tasklet, led_blink);

void radio_irq(struct radio *r, struct disk *d, struct modem *m)
{
	tasklet_hi_schedule(&r->rx_tasklet);
	tasklet_schedule(&d->done_tasklet);
	tasklet_hi_schedule(&m->kick);
	tasklet_schedule(&m->kick);
	tasklet_schedule(&led_tasklet);
}

void radio_setup(struct radio *r, struct disk *d, struct modem *m)
{
	tasklet_setup(&r->rx_tasklet, radio_rx);
	tasklet_setup(&d->done_tasklet, disk_done);
	tasklet_setup(&m->kick, modem_kick);
}

void radio_count(struct radio *r, struct disk *d)
{
	spin_lock_bh(&r->lock);
	r->frames = 0;
	spin_unlock_bh(&r->lock);
	spin_lock_bh(&d->lock);
	d->done = 0;
	spin_unlock_bh(&d->lock);
}
