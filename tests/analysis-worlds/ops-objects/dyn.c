// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture ops-objects: the objects built at run time, and the vectors.
 * ob_dyn_open() fills an object of its own (not a reviewed builder):
 * d_start() may meet any show().  ob_mix_open() copies a's object and
 * gives the copy another show(): a_start() meets that one too.  single_open() (rules.OPS_BUILDERS)
 * builds one in fresh memory: single_start() meets its own show only.
 */
#include "kernel.h"
#include "ops.h"

static DEFINE_SPINLOCK(ob_d_lock);
static DEFINE_SPINLOCK(ob_e_lock);
static DEFINE_SPINLOCK(ob_e_inner);
DEFINE_SPINLOCK(ob_f_inner);

static void *ob_d_start(struct seq_file *m)
{
	spin_lock(&ob_d_lock);
	return m;
}

static void ob_d_stop(struct seq_file *m, void *v)
{
	spin_unlock(&ob_d_lock);
}

static int ob_d_show(struct seq_file *m, void *v)
{
	return m->count;
}

static void *single_start(struct seq_file *m)
{
	spin_lock(&ob_e_lock);
	return m;
}

static void single_stop(struct seq_file *m, void *v)
{
	spin_unlock(&ob_e_lock);
}

static int ob_e_show(struct seq_file *m, void *v)
{
	spin_lock(&ob_e_inner);
	m->count++;
	spin_unlock(&ob_e_inner);
	return 0;
}

int single_open(struct file *file, int (*show)(struct seq_file *, void *))
{
	struct seq_operations *op = kmalloc(sizeof(*op), GFP_KERNEL);

	if (!op)
		return -1;
	op->start = single_start;
	op->stop = single_stop;
	op->show = show;
	return seq_open(file, op);
}

int ob_dyn_open(struct file *file, struct seq_operations *op)
{
	op->start = ob_d_start;
	op->stop = ob_d_stop;
	op->show = ob_d_show;
	return seq_open(file, op);
}

static int ob_f_show(struct seq_file *m, void *v)
{
	spin_lock(&ob_f_inner);
	m->count++;
	spin_unlock(&ob_f_inner);
	return 0;
}

/* a copy of a's object with a show of its own: a_lock meets f_inner */
int ob_mix_open(struct file *file, struct seq_operations *op)
{
	*op = ob_a_ops;
	op->show = ob_f_show;
	return seq_open(file, op);
}

int ob_open_e(struct file *file)
{
	return single_open(file, ob_e_show);
}

static void ob_timer_fn(struct timer_list *t)
{
	spin_lock(&ob_a_lock);
	spin_unlock(&ob_a_lock);
}

static void ob_tasklet_fn(struct tasklet_struct *t)
{
	spin_lock(&ob_d_lock);
	spin_unlock(&ob_d_lock);
}

static void ob_hi_fn(struct tasklet_struct *t)
{
	spin_lock(&ob_e_lock);
	spin_unlock(&ob_e_lock);
}

static struct timer_list ob_timer;
static DECLARE_TASKLET(ob_tasklet, ob_tasklet_fn);
static DECLARE_TASKLET(ob_hi_tasklet, ob_hi_fn);

void ob_setup(void)
{
	timer_setup(&ob_timer, ob_timer_fn, 0);
	tasklet_schedule(&ob_tasklet);
	tasklet_hi_schedule(&ob_hi_tasklet);
}

void ob_count(struct seq_file *m)
{
	spin_lock_bh(&ob_a_inner);
	m->count++;
	spin_unlock_bh(&ob_a_inner);
	spin_lock_bh(&ob_b_inner);
	m->count++;
	spin_unlock_bh(&ob_b_inner);
	spin_lock_bh(&ob_e_inner);
	m->count++;
	spin_unlock_bh(&ob_e_inner);
	spin_lock_bh(&ob_f_inner);
	m->count++;
	spin_unlock_bh(&ob_f_inner);
}
