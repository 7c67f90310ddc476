struct foo {
	rwlock_t rw;
	int count;
};

int foo_peek(struct foo *f)
{
	int v;

	read_lock_bh(&f->rw);
	v = f->count;
	read_unlock_bh(&f->rw);
	return v;
}
