static int counter;

void outer_inner(void)
{
	local_bh_disable();
	counter++;
	local_bh_enable();
	counter--;
	local_bh_disable();
	counter++;
	local_bh_enable();
}

void outer_nested(void)
{
	local_bh_disable();
	counter++;
	local_bh_disable();
	counter++;
	local_bh_enable();
	counter--;
	local_bh_enable();
}
