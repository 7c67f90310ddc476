struct foo {
	spinlock_t lock;
	int count;
};

void foo_plain(struct foo *f)
{
	unsigned long flags;

	spin_lock_irqsave(&f->lock, flags);
	f->count++;
	spin_unlock_irqrestore(&f->lock, flags);
	spin_lock(&f->lock);
	f->count--;
	spin_unlock(&f->lock);
}
