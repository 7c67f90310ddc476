// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture packet-handler-context.
 *
 * Checks: a packet_type handler runs in whatever context calls
 * netif_receive_skb(); it is not a NET_RX root by itself.  This world has
 * no NAPI poll: a timer (loop_replay) and a workqueue function
 * (loop_inject) deliver packets.  loop_rcv() takes loop_stats.lock, so
 * that class gets TIMER and not NET_RX, and the section in
 * loop_stats_read() masks TIMER.
 *
 * A naive analysis gets wrong: "packet handlers run in NET_RX" gives
 * NET_RX and leaves TIMER enabled in loop_stats_read(), where the timer's
 * delivery would spin on the lock the section holds (unsafe).
 */
#include "kernel.h"

struct loop_stats {
	spinlock_t lock;
	unsigned long rx;
};

struct loop_dev {
	struct timer_list replay;
	struct work_struct inject;
	struct sk_buff *pending;
};

static struct loop_stats lstats;

static int loop_rcv(struct sk_buff *skb, struct net_device *dev,
		    struct packet_type *pt, struct net_device *orig_dev)
{
	spin_lock(&lstats.lock);
	lstats.rx++;
	spin_unlock(&lstats.lock);
	return 0;
}

static struct packet_type loop_packet_type = {
	.type	= 0x9000,
	.func	= loop_rcv,
};

static void loop_replay(struct timer_list *t)
{
	struct loop_dev *ld = from_timer(ld, t, replay);

	netif_receive_skb(ld->pending);
}

static void loop_inject(struct work_struct *w)
{
	struct loop_dev *ld = container_of(w, struct loop_dev, inject);

	netif_receive_skb(ld->pending);
}

void loop_dev_init(struct loop_dev *ld)
{
	dev_add_pack(&loop_packet_type);
	timer_setup(&ld->replay, loop_replay, 0);
	INIT_WORK(&ld->inject, loop_inject);
}

unsigned long loop_stats_read(void)
{
	unsigned long n;

	spin_lock_bh(&lstats.lock);
	n = lstats.rx;
	spin_unlock_bh(&lstats.lock);
	return n;
}
