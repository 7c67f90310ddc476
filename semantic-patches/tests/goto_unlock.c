struct foo {
	spinlock_t lock;
	int count;
	void *buf;
};

int foo_fill(struct foo *f, int n)
{
	int err = -EINVAL;

	spin_lock_bh(&f->lock);
	if (!f->buf)
		goto out;
	if (n > f->count) {
		err = -ENOSPC;
		goto out;
	}
	f->count -= n;
	err = 0;
out:
	spin_unlock_bh(&f->lock);
	return err;
}
