// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture ops-holder-rewritten.
 *
 * Checks: the calls through m->op are of one object only while
 * seq_file.op cannot change between them (rules.STABLE_OPS_FIELDS:
 * seq_open() is its only writer).  Here rh_swap() also rewrites it, so
 * a start() may meet another object's show(): the timer's rh_held is
 * held while rh_inner is taken, and the section on rh_inner gets TIMER.
 *
 * A naive analysis gets wrong: trusting the holder field whoever
 * writes it leaves rh_inner NONE (unsafe).
 */
#include "kernel.h"

static DEFINE_SPINLOCK(rh_held);
static DEFINE_SPINLOCK(rh_inner);
static struct timer_list rh_timer;

static void *rh_lock_start(struct seq_file *m)
{
	spin_lock(&rh_held);
	return m;
}

static void rh_lock_stop(struct seq_file *m, void *v)
{
	spin_unlock(&rh_held);
}

static int rh_count_show(struct seq_file *m, void *v)
{
	spin_lock(&rh_inner);
	m->count++;
	spin_unlock(&rh_inner);
	return 0;
}

static const struct seq_operations rh_held_ops = {
	.start = rh_lock_start, .stop = rh_lock_stop,
};

static const struct seq_operations rh_count_ops = {
	.show = rh_count_show,
};

void seq_open(struct seq_file *m, const struct seq_operations *op)
{
	m->op = op;
}

void rh_open(struct seq_file *m, int counting)
{
	seq_open(m, counting ? &rh_count_ops : &rh_held_ops);
}

void rh_swap(struct seq_file *m)
{
	m->op = &rh_count_ops;
}

int rh_read(struct seq_file *m)
{
	void *p = m->op->start(m);

	m->op->show(m, p);
	m->op->stop(m, p);
	return m->count;
}

static void rh_timer_fn(struct timer_list *t)
{
	spin_lock(&rh_held);
	spin_unlock(&rh_held);
}

void rh_setup(void)
{
	timer_setup(&rh_timer, rh_timer_fn, 0);
}

void rh_bump(struct seq_file *m)
{
	spin_lock_bh(&rh_inner);
	m->count++;
	spin_unlock_bh(&rh_inner);
}
