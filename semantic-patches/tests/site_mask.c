struct foo {
	spinlock_t lock;
	int count;
};

static DEFINE_PER_CPU(int, site_hits);

void site_proven(struct foo *f)
{
	spin_lock_bh(&f->lock);
	f->count++;
	spin_unlock_bh(&f->lock);
}

void site_param_lock(spinlock_t *lock, int *count)
{
	spin_lock_bh(lock);
	(*count)++;
	spin_unlock_bh(lock);
}

void site_percpu(struct foo *f)
{
	spin_lock_bh(&f->lock);
	this_cpu_inc(site_hits);
	spin_unlock_bh(&f->lock);
}

void site_no_vector(struct foo *f)
{
	spin_lock_bh(&f->lock);
	f->count = 0;
	spin_unlock_bh(&f->lock);
}

void site_unknown(struct foo *f)
{
	spin_lock_bh(&f->lock);
	f->count--;
	spin_unlock_bh(&f->lock);
}

void site_all(struct foo *f)
{
	spin_lock_bh(&f->lock);
	f->count *= 2;
	spin_unlock_bh(&f->lock);
}

void site_bh(int *count)
{
	local_bh_disable();
	(*count)++;
	local_bh_enable();
}
