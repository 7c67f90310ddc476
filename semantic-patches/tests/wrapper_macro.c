struct foo {
	spinlock_t lock;
	int count;
};

#define foo_lock(f)	spin_lock_bh(&(f)->lock)
#define foo_unlock(f)	spin_unlock_bh(&(f)->lock)

void foo_wrapped(struct foo *f)
{
	foo_lock(f);
	f->count++;
	foo_unlock(f);
}
