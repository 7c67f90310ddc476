// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture same-field-name.
 *
 * Checks: indirect calls resolve by struct type and field, not by field
 * name or prototype.  packet_type.func (pkt_rcv, NET_RX through NAPI and
 * netif_receive_skb) and tap_hook.func (tap_rcv, same prototype, called
 * only from process context) share a name; so do blk_mq_ops.complete
 * (disk_complete, BLOCK) and job_ops.complete (job_done, same prototype,
 * process context only).  rxq.lock gets NET_RX, disk.lock BLOCK; tap.lock
 * and job.lock stay NONE.
 *
 * A naive analysis gets wrong: resolving "->func" or "->complete" by name
 * or prototype puts tap_rcv in NET_RX and job_done in BLOCK (needless);
 * following direct calls only misses pkt_rcv and disk_complete (unsafe).
 */
#include "kernel.h"

typedef int (*rcv_fn)(struct sk_buff *, struct net_device *,
		      struct packet_type *, struct net_device *);
struct rxq { spinlock_t lock; unsigned long packets; struct napi_struct napi; struct sk_buff *skb; };
struct tap { spinlock_t lock; unsigned long seen; };
struct tap_hook { rcv_fn func; struct tap *tap; };

static struct rxq rxq0;
static struct tap tap0;

static int pkt_rcv(struct sk_buff *skb, struct net_device *dev,
		   struct packet_type *pt, struct net_device *orig_dev)
{
	spin_lock(&rxq0.lock);
	rxq0.packets++;
	spin_unlock(&rxq0.lock);
	return 0;
}

static int tap_rcv(struct sk_buff *skb, struct net_device *dev,
		   struct packet_type *pt, struct net_device *orig_dev)
{
	spin_lock_bh(&tap0.lock);
	tap0.seen++;
	spin_unlock_bh(&tap0.lock);
	return 0;
}

static struct packet_type pkt_type = { .type = 0x88b5, .func = pkt_rcv };
static struct tap_hook hook0 = { .func = tap_rcv, .tap = &tap0 };

static int rxq_poll(struct napi_struct *napi, int budget)
{
	struct rxq *q = container_of(napi, struct rxq, napi);

	return netif_receive_skb(q->skb);
}

void rx_open(struct net_device *dev)
{
	dev_add_pack(&pkt_type);
	netif_napi_add(dev, &rxq0.napi, rxq_poll);
}

int tap_run(struct tap_hook *hook, struct sk_buff *skb)
{
	return hook->func(skb, NULL, NULL, NULL);
}

int tap_run_default(struct sk_buff *skb)
{
	return tap_run(&hook0, skb);
}

unsigned long rxq_packets(void)
{
	unsigned long n;

	spin_lock_bh(&rxq0.lock);
	n = rxq0.packets;
	spin_unlock_bh(&rxq0.lock);
	return n;
}
