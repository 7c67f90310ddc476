struct foo {
	spinlock_t lock;
	int count;
};

int foo_take(struct foo *f, int n)
{
	int ret = 0;

	spin_lock_bh(&f->lock);
	if (f->count < n) {
		spin_unlock_bh(&f->lock);
		return -EAGAIN;
	}
	f->count -= n;
	spin_unlock_bh(&f->lock);
	return ret;
}
