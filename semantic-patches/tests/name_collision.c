struct foo {
	spinlock_t lock;
	int count;
};

static int f_lock_bh;

void foo_collide(struct foo *f)
{
	int f_lock_bh2 = f_lock_bh;

	spin_lock_bh(&f->lock);
	f->count += f_lock_bh2;
	spin_unlock_bh(&f->lock);
}
