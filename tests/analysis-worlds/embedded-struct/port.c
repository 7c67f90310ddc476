// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture embedded-struct: a lock in an anonymous struct that a typedef
 * names.  Its class is <typedef>.<member>, counter_t.lock (clang's IR
 * calls the type %struct.counter_t); a NAPI poll takes it: NET_RX.
 */
#include "kernel.h"

typedef struct {
	spinlock_t lock;
	unsigned long drops;
} counter_t;

struct port { counter_t drops; struct napi_struct napi; };

static int port_poll(struct napi_struct *napi, int budget)
{
	struct port *p = container_of(napi, struct port, napi);

	spin_lock(&p->drops.lock);
	p->drops.drops++;
	spin_unlock(&p->drops.lock);
	return 0;
}

void port_init(struct net_device *dev, struct port *p)
{
	netif_napi_add(dev, &p->napi, port_poll);
}

unsigned long port_drops(struct port *p)
{
	unsigned long n;

	spin_lock_bh(&p->drops.lock);
	n = p->drops.drops;
	spin_unlock_bh(&p->drops.lock);
	return n;
}
