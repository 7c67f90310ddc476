struct allmask {
	spinlock_t lock;
	int count;
};

void all_inc(struct allmask *a)
{
	spin_lock_bh(&a->lock);
	a->count++;
	spin_unlock_bh(&a->lock);
}
