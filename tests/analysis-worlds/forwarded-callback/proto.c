// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture forwarded-callback: the protocol hands its timer handlers to
 * the core, which forwards them through its parameters to timer_setup().
 */
#include "csk.h"

static void proto_retransmit(struct timer_list *t)
{
	struct csk *sk = from_timer(sk, t, retransmit_timer);

	spin_lock(&sk->lock);
	sk->retransmits++;
	spin_unlock(&sk->lock);
}

static void proto_delack(struct timer_list *t)
{
	struct csk *sk = from_timer(sk, t, delack_timer);

	spin_lock(&sk->acks->lock);
	sk->acks->pending = 0;
	spin_unlock(&sk->acks->lock);
}

void proto_init_sock(struct csk *sk)
{
	spin_lock_init(&sk->lock);
	csk_init_xmit_timers(sk, proto_retransmit, proto_delack);
}

void proto_sendmsg(struct csk *sk, unsigned int len)
{
	spin_lock_bh(&sk->lock);
	sk->snd_nxt += len;
	spin_unlock_bh(&sk->lock);
	mod_timer(&sk->retransmit_timer, jiffies + HZ);
}

void proto_queue_ack(struct csk *sk)
{
	spin_lock_bh(&sk->acks->lock);
	sk->acks->pending++;
	spin_unlock_bh(&sk->acks->lock);
	mod_timer(&sk->delack_timer, jiffies + HZ / 25);
}
