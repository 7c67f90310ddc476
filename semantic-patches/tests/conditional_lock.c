struct foo {
	spinlock_t lock;
	int count;
};

void foo_maybe(struct foo *f, bool locked)
{
	if (!locked)
		spin_lock_bh(&f->lock);
	f->count++;
	if (!locked)
		spin_unlock_bh(&f->lock);
}
