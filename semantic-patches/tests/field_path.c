struct baz {
	struct {
		spinlock_t lock;
		int n;
	} inner;
	int other;
};

void baz_inc(struct baz *z)
{
	spin_lock_bh(&z->inner.lock);
	z->inner.n++;
	spin_unlock_bh(&z->inner.lock);
}
