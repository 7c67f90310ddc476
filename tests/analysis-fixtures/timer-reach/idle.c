/* Locks no vector reaches, and a lock an exported function takes. */
struct idle {
	spinlock_t lock;
	int n;
};

struct pub {
	rwlock_t lock;
	int n;
};

static void idle_poke(struct idle *i)
{
	spin_lock_bh(&i->lock);
	i->n++;
	spin_unlock_bh(&i->lock);
}

void pub_set(struct pub *p, int n)
{
	write_lock_bh(&p->lock);
	p->n = n;
	write_unlock_bh(&p->lock);
}
EXPORT_SYMBOL(pub_set);
