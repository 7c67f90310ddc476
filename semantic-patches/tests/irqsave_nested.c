struct foo {
	spinlock_t lock;
	int count;
};

struct dev {
	spinlock_t irq_lock;
	int pending;
};

void foo_kick(struct foo *f, struct dev *d)
{
	unsigned long flags;

	spin_lock_bh(&f->lock);
	spin_lock_irqsave(&d->irq_lock, flags);
	d->pending = f->count;
	spin_unlock_irqrestore(&d->irq_lock, flags);
	spin_unlock_bh(&f->lock);
}
