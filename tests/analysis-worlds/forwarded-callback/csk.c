// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture forwarded-callback.
 *
 * Checks: callbacks that reach timer_setup() only through two levels of
 * parameters (proto_init_sock -> csk_init_xmit_timers -> csk_setup_timer
 * -> timer_setup), like inet_csk_init_xmit_timers(), still run in TIMER:
 * csk.lock and ack_queue.lock get TIMER.
 *
 * A naive analysis gets wrong: matching timer_setup(..., fn, ...) against
 * function names only sees a parameter here and finds no timer callback,
 * leaving both classes NONE (the process-context sections would then
 * leave TIMER enabled while holding locks the timers spin on).
 */
#include "csk.h"

static void csk_setup_timer(struct timer_list *timer,
			    void (*handler)(struct timer_list *))
{
	timer_setup(timer, handler, 0);
}

void csk_init_xmit_timers(struct csk *sk,
			  void (*retransmit_handler)(struct timer_list *),
			  void (*delack_handler)(struct timer_list *))
{
	csk_setup_timer(&sk->retransmit_timer, retransmit_handler);
	csk_setup_timer(&sk->delack_timer, delack_handler);
}
