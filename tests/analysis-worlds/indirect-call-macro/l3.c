// SPDX-License-Identifier: GPL-2.0
/* Fixture indirect-call-macro: the handlers and their tables' locks. */
#include "l3.h"

struct ip_table { spinlock_t lock; unsigned long hits; };
struct ip6_table { spinlock_t lock; unsigned long hits; };
struct neigh_table { spinlock_t lock; unsigned long entries; };

static struct ip_table ip4_tbl;
static struct ip6_table ip6_tbl;
static struct neigh_table arp_tbl;

int ip_rcv(struct sk_buff *skb, struct net_device *dev)
{
	spin_lock(&ip4_tbl.lock);
	ip4_tbl.hits++;
	spin_unlock(&ip4_tbl.lock);
	return 0;
}

int ipv6_rcv(struct sk_buff *skb, struct net_device *dev)
{
	spin_lock(&ip6_tbl.lock);
	ip6_tbl.hits++;
	spin_unlock(&ip6_tbl.lock);
	return 0;
}

static int arp_rcv(struct sk_buff *skb, struct net_device *dev)
{
	spin_lock(&arp_tbl.lock);
	arp_tbl.entries++;
	spin_unlock(&arp_tbl.lock);
	return 0;
}

static const struct l3proto ip_proto = { .type = 0x0800, .rcv = ip_rcv };
static const struct l3proto ipv6_proto = { .type = 0x86dd, .rcv = ipv6_rcv };
static const struct l3proto arp_proto = { .type = 0x0806, .rcv = arp_rcv };

const struct l3proto *const l3_protos[4] = { &ip_proto, &ipv6_proto, &arp_proto, &arp_proto };

void l3_flush(void)
{
	spin_lock_bh(&ip4_tbl.lock);
	ip4_tbl.hits = 0;
	spin_unlock_bh(&ip4_tbl.lock);
	spin_lock_bh(&ip6_tbl.lock);
	ip6_tbl.hits = 0;
	spin_unlock_bh(&ip6_tbl.lock);
	spin_lock_bh(&arp_tbl.lock);
	arp_tbl.entries = 0;
	spin_unlock_bh(&arp_tbl.lock);
}
