static int counter;

void do_work(int n)
{
	int i;

	local_bh_disable();
	for (i = 0; i < n; i++)
		counter++;
	local_bh_enable();
}

void other_work(void)
{
	local_bh_disable();
	counter--;
	local_bh_enable();
}
