struct foo {
	spinlock_t lock;
	int count;
};

struct bar {
	spinlock_t lock;
	int count;
};

void hand_over(struct foo *foo, struct bar *bar)
{
	spin_lock_bh(&foo->lock);
	foo->count--;
	spin_lock_bh(&bar->lock);
	spin_unlock_bh(&foo->lock);
	bar->count++;
	spin_unlock_bh(&bar->lock);
}

void in_order(struct foo *foo, struct bar *bar)
{
	spin_lock_bh(&foo->lock);
	spin_lock_bh(&bar->lock);
	bar->count = foo->count;
	spin_unlock_bh(&bar->lock);
	spin_unlock_bh(&foo->lock);
}
