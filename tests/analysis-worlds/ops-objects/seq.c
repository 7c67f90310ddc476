// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture ops-objects.
 *
 * Checks: a start() that returns holding its lock, released by the same
 * object's stop(), is held while that object's show() runs, not while
 * every show() of the kernel runs (fs/seq_file.c: seq_read_iter() calls
 * m->op->start, ->show and ->stop, reloading m->op each time; seq_open()
 * is the only function that stores seq_file.op).  An object that a
 * function other than a reviewed builder fills in at run time may pair
 * its start() with any show(); an object single_open() builds in fresh
 * memory pairs single_start() with the shows given to single_open() only.
 *
 * A naive analysis gets wrong: pairing every start() with every show()
 * orders the timer's a_lock before b_inner, so the b section gets TIMER
 * (imprecise); pairing only the objects of static initializers loses
 * the run-time object's d_lock before b_inner (TASKLET, unsafe) and the
 * builder's e_lock before e_inner (HI, unsafe).
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
