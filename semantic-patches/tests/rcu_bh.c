struct foo {
	spinlock_t lock;
	int count;
};

int foo_read(struct foo __rcu **pp)
{
	struct foo *f;
	int v = 0;

	rcu_read_lock_bh();
	f = rcu_dereference_bh(*pp);
	if (f)
		v = f->count;
	rcu_read_unlock_bh();
	return v;
}
