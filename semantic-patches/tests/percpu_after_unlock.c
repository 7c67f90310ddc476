struct foo {
	spinlock_t lock;
	int count;
};

static DEFINE_PER_CPU(int, foo_hits);

void foo_hit_after(struct foo *f)
{
	spin_lock_bh(&f->lock);
	f->count++;
	spin_unlock_bh(&f->lock);
	this_cpu_inc(foo_hits);
}
