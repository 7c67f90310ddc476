// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture lock-debugging: lockdep's report, at lockdep's own path (the
 * rule keys by the file that defines a function).  Like
 * lockdep_rcu_suspicious(), it prints.
 */
#include "dl.h"

noinline void dl_rcu_suspicious(struct dl_obj *o)
{
	if (o->n < 0)
		dl_print(o);
}
