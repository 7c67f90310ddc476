// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture indirect-call-macro.
 *
 * Checks: NAPI poll -> netif_receive_skb() -> packet_type.func (l2_rcv)
 * -> INDIRECT_CALL_2(l3->rcv, ipv6_rcv, ip_rcv, ...).  The macro's two
 * direct calls and its fallback indirect call through l3proto.rcv all
 * run in NET_RX, so arp_rcv (reached only through the fallback) counts
 * too: ip_table.lock, ip6_table.lock and neigh_table.lock get NET_RX.
 *
 * A naive analysis gets wrong: following only the direct calls the macro
 * expands to finds ip_rcv and ipv6_rcv and misses arp_rcv; treating
 * packet handlers as unreachable (they hang off ptype lists, not
 * open_softirq) misses all three.
 */
#include "l3.h"

struct rx_ring {
	struct napi_struct napi;
	struct sk_buff *skb[16];
	unsigned int head;
};

static int l2_rcv(struct sk_buff *skb, struct net_device *dev,
		  struct packet_type *pt, struct net_device *orig_dev)
{
	const struct l3proto *l3 = l3_protos[pt->type & 3];

	return INDIRECT_CALL_2(l3->rcv, ipv6_rcv, ip_rcv, skb, dev);
}

static struct packet_type l2_packet_type = {
	.type	= 0x0003,
	.func	= l2_rcv,
};

static int l2_poll(struct napi_struct *napi, int budget)
{
	struct rx_ring *ring = container_of(napi, struct rx_ring, napi);
	int done = 0;

	while (done < budget && ring->skb[ring->head & 15]) {
		netif_receive_skb(ring->skb[ring->head & 15]);
		ring->head++;
		done++;
	}
	return done;
}

void l2_open(struct net_device *dev, struct rx_ring *ring)
{
	dev_add_pack(&l2_packet_type);
	netif_napi_add(dev, &ring->napi, l2_poll);
}
