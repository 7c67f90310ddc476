// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture callee-drops-lock.
 *
 * Checks: a section whose callee drops its lock with spin_unlock_bh() and
 * takes it again with spin_lock_bh() (lock_sock_nested() and
 * __lock_sock()) keeps the all-vector API: converted, the callee's full
 * release would end the partial section and its full acquisition open
 * a full one that the mask release then closes as partial.  A callee
 * that takes and releases a lock of its own inside the section is no
 * such call.
 *
 * A naive analysis gets wrong: reading the callee as lock-neutral (it
 * returns holding what it was called with) gives the section NONE, so
 * the converter would turn it into a mask section (unsafe).  The mask
 * itself stays NONE: no vector takes the lock; the converter's table
 * (sites.txt) says ALL.
 */
#include "kernel.h"

struct cd_sock {
	spinlock_t slock;
	spinlock_t other;
	int owned;
	int waits;
};

static void cd_wait_owner(struct cd_sock *sk)
{
	while (sk->owned) {
		spin_unlock_bh(&sk->slock);
		sk->waits++;
		spin_lock_bh(&sk->slock);
	}
}

static void cd_count(struct cd_sock *sk)
{
	spin_lock(&sk->other);
	sk->waits++;
	spin_unlock(&sk->other);
}

void cd_lock_sock(struct cd_sock *sk)
{
	spin_lock_bh(&sk->slock);
	if (sk->owned)
		cd_wait_owner(sk);
	sk->owned = 1;
	spin_unlock_bh(&sk->slock);
}

void cd_release(struct cd_sock *sk)
{
	spin_lock_bh(&sk->slock);
	cd_count(sk);
	sk->owned = 0;
	spin_unlock_bh(&sk->slock);
}
