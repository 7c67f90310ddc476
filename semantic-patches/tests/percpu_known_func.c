struct foo {
	spinlock_t lock;
	int count;
};

void bump_stats(struct foo *f);

void foo_account(struct foo *f)
{
	spin_lock_bh(&f->lock);
	f->count++;
	bump_stats(f);
	spin_unlock_bh(&f->lock);
}
