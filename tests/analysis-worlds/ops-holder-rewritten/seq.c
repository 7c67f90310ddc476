// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture ops-holder-rewritten.
 *
 * Checks: the calls through m->op are of one object only while
 * seq_file.op cannot change between them (rules.STABLE_OPS_FIELDS:
 * seq_open() is its only writer).  Here ob_swap() also rewrites it, so
 * a start() may meet another object's show(): a_lock, which the timer
 * takes, is held while b_inner is taken, and the b section gets TIMER.
 *
 * A naive analysis gets wrong: trusting the holder field whoever
 * writes it leaves b_inner NONE (unsafe).
 */
#include "kernel.h"
#include "ops.h"

DEFINE_SPINLOCK(ob_a_lock);
DEFINE_SPINLOCK(ob_a_inner);
DEFINE_SPINLOCK(ob_b_inner);

static void *ob_a_start(struct seq_file *m)
{
	spin_lock(&ob_a_lock);
	return m;
}

static void ob_a_stop(struct seq_file *m, void *v)
{
	spin_unlock(&ob_a_lock);
}

static int ob_a_show(struct seq_file *m, void *v)
{
	spin_lock(&ob_a_inner);
	m->count++;
	spin_unlock(&ob_a_inner);
	return 0;
}

static void *ob_b_start(struct seq_file *m)
{
	return m;
}

static void ob_b_stop(struct seq_file *m, void *v)
{
}

static int ob_b_show(struct seq_file *m, void *v)
{
	spin_lock(&ob_b_inner);
	m->count++;
	spin_unlock(&ob_b_inner);
	return 0;
}

const struct seq_operations ob_a_ops = {
	.start = ob_a_start, .stop = ob_a_stop, .show = ob_a_show,
};

static const struct seq_operations ob_b_ops = {
	.start = ob_b_start, .stop = ob_b_stop, .show = ob_b_show,
};

int seq_open(struct file *file, const struct seq_operations *op)
{
	struct seq_file *p = kmalloc(sizeof(*p), GFP_KERNEL);

	if (!p)
		return -1;
	p->op = op;
	file->private_data = p;
	return 0;
}

long ob_read(struct file *file)
{
	struct seq_file *m = file->private_data;
	void *p = m->op->start(m);

	m->op->show(m, p);
	m->op->stop(m, p);
	return m->count;
}

int ob_open_a(struct file *file)
{
	return seq_open(file, &ob_a_ops);
}

int ob_open_b(struct file *file)
{
	return seq_open(file, &ob_b_ops);
}

void ob_swap(struct seq_file *m)
{
	m->op = &ob_b_ops;
}

static void ob_timer_fn(struct timer_list *t)
{
	spin_lock(&ob_a_lock);
	spin_unlock(&ob_a_lock);
}

static struct timer_list ob_timer;

void ob_setup(void)
{
	timer_setup(&ob_timer, ob_timer_fn, 0);
}

void ob_count(struct seq_file *m)
{
	spin_lock_bh(&ob_b_inner);
	m->count++;
	spin_unlock_bh(&ob_b_inner);
}
