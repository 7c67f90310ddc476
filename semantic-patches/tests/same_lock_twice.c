struct foo {
	spinlock_t lock;
	int count;
};

int foo_twice(struct foo *f)
{
	int v;

	spin_lock_bh(&f->lock);
	v = f->count;
	spin_unlock_bh(&f->lock);
	v = v * 2;
	spin_lock_bh(&f->lock);
	f->count = v;
	spin_unlock_bh(&f->lock);
	return v;
}
