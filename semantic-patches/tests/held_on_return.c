struct foo {
	spinlock_t lock;
	int count;
};

int foo_get_locked(struct foo *f)
{
	spin_lock_bh(&f->lock);
	if (!f->count)
		return 0;
	spin_unlock_bh(&f->lock);
	return 1;
}

void foo_lock(struct foo *f)
{
	spin_lock_bh(&f->lock);
	f->count++;
}
