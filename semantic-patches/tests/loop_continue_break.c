struct foo {
	spinlock_t lock;
	int count;
};

int foo_scan(struct foo *tbl, int n)
{
	int i, found = -1;

	for (i = 0; i < n; i++) {
		spin_lock_bh(&tbl[i].lock);
		if (!tbl[i].count) {
			spin_unlock_bh(&tbl[i].lock);
			continue;
		}
		if (tbl[i].count > 10) {
			found = i;
			spin_unlock_bh(&tbl[i].lock);
			break;
		}
		tbl[i].count--;
		spin_unlock_bh(&tbl[i].lock);
	}
	return found;
}

int foo_drain(struct foo *f)
{
	int n = 0;

	while (1) {
		spin_lock_bh(&f->lock);
		if (!f->count) {
			spin_unlock_bh(&f->lock);
			break;
		}
		f->count--;
		spin_unlock_bh(&f->lock);
		n++;
	}
	return n;
}
