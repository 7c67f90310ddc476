struct foo {
	spinlock_t lock;
	int count;
};

void foo_inc(struct foo *f)
{
	spin_lock_bh(&f->lock);
	f->count++;
	spin_unlock_bh(&f->lock);
}
