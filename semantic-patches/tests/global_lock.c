DEFINE_SPINLOCK(global_lock);
DEFINE_SPINLOCK(other_lock);
int total;

void total_sub(int n)
{
	spin_lock_bh(&global_lock);
	total -= n;
	spin_unlock_bh(&global_lock);
	spin_lock_bh(&other_lock);
	total += n;
	spin_unlock_bh(&other_lock);
}
