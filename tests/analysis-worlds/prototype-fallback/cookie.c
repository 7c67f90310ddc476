// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture prototype-fallback.
 *
 * Checks: two handlers lose their type on the way to the timer.
 * blob_flush() is stored as an unsigned long cookie; blob_drain() is cast
 * to void * and handed to cb_registry_add(), a function outside the
 * world.  The timer calls through a pointer of prototype
 * void (*)(struct blob *) that it gets back from the cookie and from
 * cb_registry_get() (outside the world, no known value).  Both handlers
 * run in TIMER: blob.lock and cookie.c:drain_lock get TIMER.
 * blob_audit() also escapes (void *) but has another prototype
 * (two parameters): no call of the timer's prototype can reach it, so
 * cookie.c:audit_lock stays NONE.
 *
 * A naive analysis gets wrong: an indirect call whose pointer has no
 * typed field behind it resolves to nothing, leaving both classes NONE
 * (unsafe).  The sound fallback is every escaped function of the call's
 * prototype.
 */
#include "blob.h"

static DEFINE_SPINLOCK(drain_lock);
static DEFINE_SPINLOCK(audit_lock);
static unsigned long drained, audited;

static void blob_flush(struct blob *b)
{
	spin_lock(&b->lock);
	b->dirty = 0;
	spin_unlock(&b->lock);
}

static void blob_drain(struct blob *b)
{
	spin_lock(&drain_lock);
	drained++;
	spin_unlock(&drain_lock);
}

static void blob_audit(struct blob *b, int why)
{
	spin_lock(&audit_lock);
	audited += why;
	spin_unlock(&audit_lock);
}

void blob_ctl_init(struct blob_ctl *ctl)
{
	ctl->cookie = (unsigned long)blob_flush;
	cb_registry_add((void *)blob_drain);
	cb_registry_add((void *)blob_audit);
}

void blob_maintenance(void)
{
	spin_lock_bh(&drain_lock);
	drained = 0;
	spin_unlock_bh(&drain_lock);
	spin_lock_bh(&audit_lock);
	audited = 0;
	spin_unlock_bh(&audit_lock);
}
