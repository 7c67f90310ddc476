// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture percpu-alloc-types.
 *
 * Checks: memory from alloc_percpu() is one class per struct it is
 * reached as.  The NAPI poll counts into pa_rx (NET_RX) and, through a
 * helper given &big->sub, into a pa_big object; pa_tx_count()'s section
 * on pa_tx, which no vector touches, stays NONE.  The helper names
 * pa_sub, but the object is a pa_big: the two are one class, so the
 * section that writes big->a gets NET_RX.  An integer type is a class
 * too: the poll's u64 drop counter puts NET_RX into pa_drop_reset().  A
 * pointer cast from a void * that is not alloc_percpu()'s own result may
 * point to any of that memory: the section that writes through one gets
 * what every class gets, although it names pa_tx.
 *
 * A naive analysis gets wrong: one class for all alloc_percpu() memory
 * gives pa_tx_count() NET_RX (imprecise; on the campaign kernel BLOCK's
 * request statistics put BLOCK into every network section); naming the
 * class by the pointer's type alone leaves pa_big NONE although the
 * poll writes it (unsafe).
 */
#include "kernel.h"

struct pa_rx { u64 packets; };
struct pa_tx { u64 packets; };
struct pa_sub { u64 n; };
struct pa_big {
	u64 a;
	struct pa_sub sub;
};

struct pa_dev {
	struct napi_struct napi;
	struct pa_rx __percpu *rx;
	struct pa_tx __percpu *tx;
	struct pa_big __percpu *big;
	u64 __percpu *drops;
	void __percpu *priv;
};

static void pa_bump(struct pa_sub __percpu *s)
{
	this_cpu_ptr(s)->n++;
}

static int pa_poll(struct napi_struct *napi, int budget)
{
	struct pa_dev *d = container_of(napi, struct pa_dev, napi);

	this_cpu_ptr(d->rx)->packets++;
	pa_bump(&d->big->sub);
	*this_cpu_ptr(d->drops) += 1;
	return budget;
}

void pa_init(struct net_device *dev, struct pa_dev *d)
{
	d->rx = alloc_percpu(struct pa_rx);
	d->tx = alloc_percpu(struct pa_tx);
	d->big = alloc_percpu(struct pa_big);
	d->drops = alloc_percpu(u64);
	d->priv = alloc_percpu(struct pa_tx);
	netif_napi_add(dev, &d->napi, pa_poll);
}

void pa_tx_count(struct pa_dev *d)
{
	local_bh_disable();
	this_cpu_ptr(d->tx)->packets++;
	local_bh_enable();
}

void pa_big_reset(struct pa_dev *d)
{
	local_bh_disable();
	this_cpu_ptr(d->big)->a = 0;
	local_bh_enable();
}

void pa_drop_reset(struct pa_dev *d)
{
	local_bh_disable();
	*this_cpu_ptr(d->drops) = 0;
	local_bh_enable();
}

void pa_priv_count(struct pa_dev *d)
{
	local_bh_disable();
	this_cpu_ptr((struct pa_tx __percpu *)d->priv)->packets++;
	local_bh_enable();
}
