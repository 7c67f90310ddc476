/* SPDX-License-Identifier: GPL-2.0 */
/* Fixture indirect-call-macro: layer-3 protocol handlers. */
#ifndef L3_H
#define L3_H

#include "kernel.h"

struct l3proto {
	unsigned short type;
	int (*rcv)(struct sk_buff *skb, struct net_device *dev);
};

extern const struct l3proto *const l3_protos[4];

int ip_rcv(struct sk_buff *skb, struct net_device *dev);
int ipv6_rcv(struct sk_buff *skb, struct net_device *dev);

#endif /* L3_H */
