struct foo {
	spinlock_t lock;
	int count;
};

static void foo_finish(struct foo *f)
{
	f->count = 0;
	spin_unlock_bh(&f->lock);
}

void foo_reset(struct foo *f)
{
	spin_lock_bh(&f->lock);
	foo_finish(f);
}
