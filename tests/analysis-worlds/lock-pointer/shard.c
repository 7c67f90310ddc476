// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture lock-pointer.
 *
 * Checks: struct shard holds no lock of its own, only spinlock_t *lockp,
 * set to &owner->lock.  The shard timer takes *lockp, so the class of the
 * pointed-to lock, owner.lock, gets TIMER: the section in owner_charge()
 * (on &o->lock) and the one in shard_reset() (on *s->lockp) both mask
 * TIMER.  registry.lock, a lock no pointer field ever points to, stays
 * NONE.
 *
 * A naive analysis gets wrong: naming the class after the access path
 * (shard.lockp) leaves owner.lock NONE (unsafe); giving an unknown lock
 * pointer every spinlock class would add TIMER to registry.lock.
 */
#include "kernel.h"

struct owner {
	spinlock_t lock;
	unsigned long charged;
};

struct shard {
	spinlock_t *lockp;
	unsigned long *counter;
	struct timer_list timer;
	unsigned int hits;
};

struct registry {
	spinlock_t lock;
	unsigned int nr_shards;
};

static void shard_tick(struct timer_list *t)
{
	struct shard *s = from_timer(s, t, timer);

	spin_lock(s->lockp);
	*s->counter += s->hits;
	s->hits = 0;
	spin_unlock(s->lockp);
}

void shard_init(struct registry *r, struct shard *s, struct owner *o)
{
	s->lockp = &o->lock;
	s->counter = &o->charged;
	timer_setup(&s->timer, shard_tick, 0);
	spin_lock_bh(&r->lock);
	r->nr_shards++;
	spin_unlock_bh(&r->lock);
}

void owner_charge(struct owner *o, unsigned long n)
{
	spin_lock_bh(&o->lock);
	o->charged += n;
	spin_unlock_bh(&o->lock);
}

void shard_reset(struct shard *s)
{
	spin_lock_bh(s->lockp);
	*s->counter = 0;
	spin_unlock_bh(s->lockp);
}
