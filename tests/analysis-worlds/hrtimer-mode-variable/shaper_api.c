// SPDX-License-Identifier: GPL-2.0
/* Fixture hrtimer-mode-variable: the process-context sections. */
#include "kernel.h"

struct shaper { spinlock_t lock; struct hrtimer timer; u64 tokens; };
struct probe { spinlock_t lock; struct hrtimer timer; unsigned int sent; };

void shaper_take(struct shaper *s, u64 n)
{
	spin_lock_bh(&s->lock);
	s->tokens -= n;
	spin_unlock_bh(&s->lock);
}

unsigned int probe_sent(struct probe *p)
{
	unsigned int n;

	spin_lock_bh(&p->lock);
	n = p->sent;
	spin_unlock_bh(&p->lock);
	return n;
}
