struct foo {
	spinlock_t lock;
	int state;
};

/* a case label under #ifdef (packet_ioctl()): the mask variable is still declared */
int foo_ioctl(struct foo *f, int cmd)
{
	int ret = 0;

	switch (cmd) {
	case 0:
	{
		int amount = 0;

		spin_lock_bh(&f->lock);
		amount = f->state;
		spin_unlock_bh(&f->lock);
		return amount;
	}
#ifdef CONFIG_FOO_EXTRA
	case 1:
	case 2:
		return -ENOTTY;
#endif

	default:
		ret = -EINVAL;
	}
	return ret;
}
