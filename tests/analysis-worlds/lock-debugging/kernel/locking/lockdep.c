// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture lock-debugging: lockdep's report, at lockdep's own path (the
 * rule keys by the file that defines a function).  Like
 * lockdep_rcu_suspicious(), it prints.  dl_debug_relock() drops and
 * retakes the object's lock around its report (dl.c's dl_submit3()).
 */
#include "dl.h"

noinline void dl_rcu_suspicious(struct dl_obj *o)
{
	if (o->n < 0)
		dl_print(o);
}

noinline void dl_debug_relock(struct dl_obj *o)
{
	spin_unlock_bh(&o->lock);
	dl_print(o);
	spin_lock_bh(&o->lock);
}
