/* a body that opens with a lock defined in it (ipv6_generate_stable_address()) */
int stable_hash(int x)
{
	static DEFINE_SPINLOCK(lock);
	static int state;
	int ret;

	spin_lock_bh(&lock);
	state += x;
	ret = state;
	spin_unlock_bh(&lock);
	return ret;
}
