// SPDX-License-Identifier: GPL-2.0
/* Fixture field-callback: IPv6 sets frag_expire by an assignment. */
#include "frag.h"

struct reasm_stats {
	spinlock_t lock;
	unsigned long timeouts;
};

static struct reasm_stats ip6_reasm;
static struct frags ip6_frags;

static void ip6_expire(struct timer_list *t)
{
	spin_lock(&ip6_reasm.lock);
	ip6_reasm.timeouts++;
	spin_unlock(&ip6_reasm.lock);
}

void ip6_frags_init(void)
{
	ip6_frags.qsize = sizeof(struct frag_queue);
	ip6_frags.frag_expire = ip6_expire;
	spin_lock_init(&ip6_reasm.lock);
}

struct frag_queue *ip6_frag_find(void)
{
	return frag_create(&ip6_frags);
}

unsigned long ip6_reasm_timeouts(void)
{
	unsigned long n;

	spin_lock_bh(&ip6_reasm.lock);
	n = ip6_reasm.timeouts;
	spin_unlock_bh(&ip6_reasm.lock);
	return n;
}
