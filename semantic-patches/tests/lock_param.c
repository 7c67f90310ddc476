struct foo {
	spinlock_t lock;
	int count;
};

static void count_under(spinlock_t *lock, int *count)
{
	spin_lock_bh(lock);
	(*count)++;
	spin_unlock_bh(lock);
}

void foo_count(struct foo *f)
{
	count_under(&f->lock, &f->count);
}
