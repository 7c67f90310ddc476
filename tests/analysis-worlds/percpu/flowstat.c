// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture percpu.
 *
 * Checks: flow_account() holds a local_bh_disable() section (no lock)
 * that writes two per-CPU counters with __this_cpu_inc().  A timer also
 * updates flow_hits with __this_cpu_inc(), which promises nothing against
 * interrupts (a load and a store on some architectures; the section
 * relies on BHs being off): the section's mask has TIMER.  The timer
 * updates flow_misses only with this_cpu_inc(), one interrupt-safe
 * instruction, but the section's __this_cpu_inc(flow_misses) may be a
 * load and a store (generic per-CPU ops), and a timer increment between
 * them would be lost: flow_misses gets TIMER too.  flow_account_atomic()
 * uses only this_cpu_inc(): nothing can come between, so its section
 * needs no vector.
 *
 * A naive analysis gets wrong: ignoring per-CPU data (no lock, so
 * nothing to mask) gives NONE and lets the timer's increment interleave
 * with the section's; ignoring the timer's this_cpu_inc() loses its
 * increments to the section's raw read-modify-write of flow_misses.
 */
#include "kernel.h"

DEFINE_PER_CPU(unsigned int, flow_hits);
static DEFINE_PER_CPU(unsigned int, flow_misses);

struct flow_sampler {
	struct timer_list timer;
	unsigned int period;
};

static void flow_sample(struct timer_list *t)
{
	struct flow_sampler *s = from_timer(s, t, timer);

	__this_cpu_inc(flow_hits);
	this_cpu_inc(flow_misses);
	mod_timer(&s->timer, jiffies + s->period);
}

void flow_sampler_start(struct flow_sampler *s)
{
	timer_setup(&s->timer, flow_sample, 0);
	mod_timer(&s->timer, jiffies + s->period);
}

void flow_account(bool hit)
{
	local_bh_disable();
	if (hit)
		__this_cpu_inc(flow_hits);
	else
		__this_cpu_inc(flow_misses);
	local_bh_enable();
}

void flow_account_atomic(bool hit)
{
	local_bh_disable();
	if (hit)
		this_cpu_inc(flow_hits);
	else
		this_cpu_inc(flow_misses);
	local_bh_enable();
}
