struct foo {
	spinlock_t lock;
	int state;
};

int foo_step(struct foo *f, int cmd)
{
	int ret;

	spin_lock_bh(&f->lock);
	switch (cmd) {
	case 0:
		f->state = 0;
		ret = 0;
		break;
	case 1:
		if (f->state) {
			spin_unlock_bh(&f->lock);
			return -EBUSY;
		}
		f->state = 1;
		ret = 1;
		break;
	default:
		ret = -EINVAL;
	}
	spin_unlock_bh(&f->lock);
	return ret;
}
