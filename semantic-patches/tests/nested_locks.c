struct foo {
	spinlock_t lock;
	int count;
};

struct bar {
	spinlock_t lock;
	struct foo *foo;
};

void bar_move(struct bar *b)
{
	struct foo *f = b->foo;

	spin_lock_bh(&b->lock);
	spin_lock_bh(&f->lock);
	f->count++;
	spin_unlock_bh(&f->lock);
	spin_unlock_bh(&b->lock);
}
