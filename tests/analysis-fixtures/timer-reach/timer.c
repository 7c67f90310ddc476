/* Timer callback that reaches locks directly and through ->flush. */
struct stats {
	spinlock_t lock;
	int hits;
};

struct queue {
	spinlock_t lock;
	int len;
};

struct queue_ops {
	void (*flush)(struct queue *q);
};

struct port {
	struct timer_list timer;
	struct stats *stats;
	struct queue *q;
	const struct queue_ops *ops;
};

void stats_hit(struct stats *st);

static void port_tick(struct timer_list *t)
{
	struct port *p = from_timer(p, t, timer);

	stats_hit(p->stats);
	p->ops->flush(p->q);
	mod_timer(&p->timer, jiffies + HZ);
}

void port_start(struct port *p)
{
	timer_setup(&p->timer, port_tick, 0);
	mod_timer(&p->timer, jiffies + HZ);
}
