/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kernel-stub.h: the kernel declarations the cocci test cases use, with
 * the signatures of include/linux/spinlock.h, bottom_half.h and the mask
 * API of core-patches/ (../shared/DESIGN.md "The API contract"), so that
 * tests/test-cocci.sh can compile every NAME.c and NAME.res with
 * gcc -fsyntax-only -include kernel-stub.h: a converted file that calls
 * the mask API with the wrong arguments or an undeclared variable fails.
 */
#ifndef KERNEL_STUB_H
#define KERNEL_STUB_H

#define NULL ((void *)0)
#define __rcu
typedef _Bool bool;
#define true 1
#define false 0
#define BIT(nr) (1UL << (nr))
#define EAGAIN 11
#define EBUSY 16
#define EINVAL 22
#define ENOSPC 28

typedef struct { int raw; } spinlock_t;
typedef struct { int raw; } rwlock_t;
#define DEFINE_SPINLOCK(x) spinlock_t x = { 0 }

enum {
	HI_SOFTIRQ = 0, TIMER_SOFTIRQ, NET_TX_SOFTIRQ, NET_RX_SOFTIRQ,
	BLOCK_SOFTIRQ, IRQ_POLL_SOFTIRQ, TASKLET_SOFTIRQ, SCHED_SOFTIRQ,
	HRTIMER_SOFTIRQ, RCU_SOFTIRQ, NR_SOFTIRQS
};
#define SOFTIRQ_ALL_MASK ((1U << NR_SOFTIRQS) - 1)

void local_bh_disable(void);
void local_bh_enable(void);
void spin_lock(spinlock_t *lock);
void spin_unlock(spinlock_t *lock);
void spin_lock_bh(spinlock_t *lock);
void spin_unlock_bh(spinlock_t *lock);
int spin_trylock_bh(spinlock_t *lock);
#define spin_lock_irqsave(lock, flags) ((void)(lock), (flags) = 0)
void spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags);
void read_lock_bh(rwlock_t *lock);
void read_unlock_bh(rwlock_t *lock);
void write_lock_bh(rwlock_t *lock);
void write_unlock_bh(rwlock_t *lock);

unsigned int local_bh_disable_mask(unsigned int mask);
void local_bh_enable_mask(unsigned int prev);
unsigned int spin_lock_bh_mask(spinlock_t *lock, unsigned int mask);
void spin_unlock_bh_mask(spinlock_t *lock, unsigned int prev);
unsigned int read_lock_bh_mask(rwlock_t *lock, unsigned int mask);
void read_unlock_bh_mask(rwlock_t *lock, unsigned int prev);
unsigned int write_lock_bh_mask(rwlock_t *lock, unsigned int mask);
void write_unlock_bh_mask(rwlock_t *lock, unsigned int prev);

void rcu_read_lock_bh(void);
void rcu_read_unlock_bh(void);
#define rcu_dereference_bh(p) (p)

#define DEFINE_PER_CPU(type, name) type name
#define this_cpu_inc(var) ((var)++)
#define __this_cpu_inc(var) ((var)++)
int smp_processor_id(void);

#endif /* KERNEL_STUB_H */
