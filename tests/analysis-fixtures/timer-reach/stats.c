/* Reached from the timer through direct calls only. */
struct stats {
	spinlock_t lock;
	int hits;
};

static void stats_bump(struct stats *st)
{
	spin_lock_bh(&st->lock);
	st->hits++;
	spin_unlock_bh(&st->lock);
}

void stats_hit(struct stats *st)
{
	stats_bump(st);
}
