struct foo {
	spinlock_t lock;
	int count;
};

void foo_alias(struct foo *f)
{
	spinlock_t *l = &f->lock;

	spin_lock_bh(l);
	f->count++;
	spin_unlock_bh(l);
}

void foo_reassigned(struct foo *f, struct foo *g)
{
	spinlock_t *l;

	l = &f->lock;
	if (g->count)
		l = &g->lock;
	spin_lock_bh(l);
	f->count++;
	spin_unlock_bh(l);
}
