/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OPS_H
#define OPS_H

struct file {
	void *private_data;
};

extern spinlock_t ob_a_lock, ob_a_inner, ob_b_inner;
extern const struct seq_operations ob_a_ops;
int seq_open(struct file *file, const struct seq_operations *op);

#endif
