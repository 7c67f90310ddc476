struct queue {
	spinlock_t lock;
	int len;
};

void queue_flush(struct queue *q)
{
	spin_lock_bh(&q->lock);
	q->len = 0;
	spin_unlock_bh(&q->lock);
}

void queue_trim(struct queue *q)
{
	local_bh_disable();
	q->len--;
	local_bh_enable();
}
