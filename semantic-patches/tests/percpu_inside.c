struct foo {
	spinlock_t lock;
	int count;
};

static DEFINE_PER_CPU(int, foo_hits);

void foo_hit(struct foo *f)
{
	spin_lock_bh(&f->lock);
	f->count++;
	__this_cpu_inc(foo_hits);
	spin_unlock_bh(&f->lock);
}

int foo_where(struct foo *f)
{
	int cpu;

	spin_lock_bh(&f->lock);
	cpu = smp_processor_id();
	f->count = cpu;
	spin_unlock_bh(&f->lock);
	return cpu;
}
