// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture switch-in-section.
 *
 * Checks: a section with a switch statement inside it (tcp_v4_err()
 * has one between bh_lock_sock() and bh_unlock_sock()).  clang prints a
 * switch over several lines, its "]" followed by the debug location; the
 * blocks after it are part of the function.  state_event() releases
 * machine.lock after the switch on every path, so its section is its own
 * and masks TIMER (machine_tick() takes the lock).
 *
 * A naive analysis gets wrong: a reader that waits for a line ending in
 * "]" swallows the rest of the function, so the unlock is never seen, the
 * lock looks held on return and every caller's section never ends (ALL).
 */
#include "kernel.h"

struct machine {
	spinlock_t lock;
	int state;
	int errors;
	struct timer_list timer;
};

static void machine_tick(struct timer_list *t)
{
	struct machine *m = from_timer(m, t, timer);

	spin_lock(&m->lock);
	m->state = 0;
	spin_unlock(&m->lock);
}

static void state_event(struct machine *m, int ev)
{
	spin_lock_bh(&m->lock);
	switch (ev) {
	case 1:
		m->state = 2;
		break;
	case 2:
		m->state = 3;
		break;
	case 7:
		m->errors++;
		break;
	default:
		m->state = 0;
	}
	spin_unlock_bh(&m->lock);
}

void machine_input(struct machine *m, int ev)
{
	timer_setup(&m->timer, machine_tick, 0);
	state_event(m, ev);
}
