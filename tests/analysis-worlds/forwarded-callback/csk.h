/* SPDX-License-Identifier: GPL-2.0 */
/* Fixture forwarded-callback: a connection-socket core, like inet_csk. */
#ifndef CSK_H
#define CSK_H

#include "kernel.h"

struct ack_queue {
	spinlock_t lock;
	unsigned int pending;
};

struct csk {
	spinlock_t lock;
	struct timer_list retransmit_timer;
	struct timer_list delack_timer;
	struct ack_queue *acks;
	unsigned int retransmits;
	unsigned int snd_nxt;
};

void csk_init_xmit_timers(struct csk *sk,
			  void (*retransmit_handler)(struct timer_list *),
			  void (*delack_handler)(struct timer_list *));

#endif /* CSK_H */
