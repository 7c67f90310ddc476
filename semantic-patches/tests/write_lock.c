struct foo {
	rwlock_t rw;
	int count;
};

void foo_set(struct foo *f, int v)
{
	write_lock_bh(&f->rw);
	if (v < 0) {
		write_unlock_bh(&f->rw);
		return;
	}
	f->count = v;
	write_unlock_bh(&f->rw);
}
