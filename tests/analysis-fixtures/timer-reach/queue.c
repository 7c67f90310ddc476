/* Reached from the timer only through the ->flush function pointer. */
struct queue {
	spinlock_t lock;
	int len;
};

struct queue_ops {
	void (*flush)(struct queue *q);
};

static void queue_flush(struct queue *q)
{
	spin_lock_bh(&q->lock);
	q->len = 0;
	spin_unlock_bh(&q->lock);
}

const struct queue_ops default_queue_ops = {
	.flush = queue_flush,
};
