struct foo {
	spinlock_t lock;
	int count;
};

int foo_try(struct foo *f)
{
	if (!spin_trylock_bh(&f->lock))
		return -EBUSY;
	f->count++;
	spin_unlock_bh(&f->lock);
	return 0;
}
