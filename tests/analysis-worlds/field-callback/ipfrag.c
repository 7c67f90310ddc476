// SPDX-License-Identifier: GPL-2.0
/* Fixture field-callback: IPv4 sets frag_expire in an initialiser. */
#include "frag.h"

static void ip_expire(struct timer_list *t)
{
	struct frag_queue *q = from_timer(q, t, timer);

	spin_lock(&q->lock);
	q->len = 0;
	spin_unlock(&q->lock);
}

static struct frags ip4_frags = {
	.qsize		= sizeof(struct frag_queue),
	.frag_expire	= ip_expire,
};

int ip_defrag(unsigned int len)
{
	struct frag_queue *q = frag_create(&ip4_frags);

	if (!q)
		return -1;
	spin_lock_bh(&q->lock);
	q->meat += len;
	spin_unlock_bh(&q->lock);
	return 0;
}
