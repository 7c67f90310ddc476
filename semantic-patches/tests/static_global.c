static DEFINE_SPINLOCK(slock);
static int total;

void total_add(int n)
{
	spin_lock_bh(&slock);
	total += n;
	spin_unlock_bh(&slock);
}
