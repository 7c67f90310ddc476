/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OPS_H
#define OPS_H

struct seq_file;

struct seq_operations {
	void *(*start)(struct seq_file *m);
	void (*stop)(struct seq_file *m, void *v);
	int (*show)(struct seq_file *m, void *v);
};

struct seq_file {
	const struct seq_operations *op;
	int count;
};

struct file {
	void *private_data;
};

extern spinlock_t ob_a_lock, ob_a_inner, ob_b_inner;
extern const struct seq_operations ob_a_ops;
int seq_open(struct file *file, const struct seq_operations *op);

#endif
