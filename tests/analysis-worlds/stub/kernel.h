/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A stub of the kernel interfaces the vector analysis reads, for small
 * "worlds" of C files that are not a kernel (tests/analysis-worlds/).
 * Names, types and call shapes follow linux-6.1 (x86_64, no inlined
 * spinlocks), so the analysis applies the same rules to a world and to
 * the campaign kernel: lock primitives are the out-of-line _raw_*
 * functions, locks are reached through static inline wrappers, and the
 * dispatchers (timers, tasklets, hrtimers, RCU, NAPI, ...) live in
 * stub/core.c and call their callbacks through the same fields.
 */
#ifndef STUB_KERNEL_H
#define STUB_KERNEL_H

#define NULL ((void *)0)
#define true 1
#define false 0
typedef _Bool bool;
typedef unsigned char u8;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef long long s64;
typedef unsigned int gfp_t;
typedef int clockid_t;

/* include/linux/jiffies.h, include/uapi/linux/time.h */
extern unsigned long volatile jiffies;
#define HZ 1000
#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC 1

#define __always_inline inline __attribute__((__always_inline__))
#define noinline __attribute__((__noinline__))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define offsetof(T, m) __builtin_offsetof(T, m)
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#define INDIRECT_CALL_1(f, f1, ...) \
	(likely((f) == (f1)) ? f1(__VA_ARGS__) : (f)(__VA_ARGS__))
#define INDIRECT_CALL_2(f, f2, f1, ...) \
	(likely((f) == (f2)) ? f2(__VA_ARGS__) : INDIRECT_CALL_1(f, f1, __VA_ARGS__))

enum {
	HI_SOFTIRQ = 0, TIMER_SOFTIRQ, NET_TX_SOFTIRQ, NET_RX_SOFTIRQ,
	BLOCK_SOFTIRQ, IRQ_POLL_SOFTIRQ, TASKLET_SOFTIRQ, SCHED_SOFTIRQ,
	HRTIMER_SOFTIRQ, RCU_SOFTIRQ, NR_SOFTIRQS
};

/* ---- locks (include/linux/spinlock*.h, rwlock*.h, seqlock.h) ---- */
typedef struct { volatile int val; } arch_spinlock_t;
typedef struct { volatile int cnts; } arch_rwlock_t;
typedef struct raw_spinlock { arch_spinlock_t raw_lock; } raw_spinlock_t;
typedef struct spinlock {
	union {
		struct raw_spinlock rlock;
	};
} spinlock_t;
typedef struct { arch_rwlock_t raw_lock; } rwlock_t;
typedef struct seqcount { unsigned int sequence; } seqcount_t;
typedef struct seqcount_spinlock { seqcount_t seqcount; } seqcount_spinlock_t;
typedef struct { seqcount_spinlock_t seqcount; spinlock_t lock; } seqlock_t;

#define DEFINE_SPINLOCK(x) spinlock_t x = { }
#define DEFINE_RWLOCK(x) rwlock_t x = { }
#define DEFINE_SEQLOCK(x) seqlock_t x = { }
#define spin_lock_init(l) do { (void)(l); } while (0)

void _raw_spin_lock(raw_spinlock_t *lock);
void _raw_spin_lock_nested(raw_spinlock_t *lock, int subclass);
void _raw_spin_lock_bh(raw_spinlock_t *lock);
void _raw_spin_lock_irq(raw_spinlock_t *lock);
unsigned long _raw_spin_lock_irqsave(raw_spinlock_t *lock);
int _raw_spin_trylock(raw_spinlock_t *lock);
int _raw_spin_trylock_bh(raw_spinlock_t *lock);
void _raw_spin_unlock(raw_spinlock_t *lock);
void _raw_spin_unlock_bh(raw_spinlock_t *lock);
void _raw_spin_unlock_irq(raw_spinlock_t *lock);
void _raw_spin_unlock_irqrestore(raw_spinlock_t *lock, unsigned long flags);
void _raw_read_lock(rwlock_t *lock);
void _raw_read_lock_bh(rwlock_t *lock);
void _raw_read_unlock(rwlock_t *lock);
void _raw_read_unlock_bh(rwlock_t *lock);
void _raw_write_lock(rwlock_t *lock);
void _raw_write_lock_bh(rwlock_t *lock);
void _raw_write_unlock(rwlock_t *lock);
void _raw_write_unlock_bh(rwlock_t *lock);
void __local_bh_disable_ip(unsigned long ip, unsigned int cnt);
void __local_bh_enable_ip(unsigned long ip, unsigned int cnt);
void __rcu_read_lock(void);
void __rcu_read_unlock(void);

#define SOFTIRQ_DISABLE_OFFSET 512
#define _THIS_IP_ ({ __label__ __here; __here: (unsigned long)&&__here; })

static __always_inline void local_bh_disable(void)
{
	__local_bh_disable_ip(_THIS_IP_, SOFTIRQ_DISABLE_OFFSET);
}
static __always_inline void local_bh_enable(void)
{
	__local_bh_enable_ip(_THIS_IP_, SOFTIRQ_DISABLE_OFFSET);
}
static __always_inline void rcu_read_lock_bh(void)
{
	local_bh_disable();
	__rcu_read_lock();
}
static __always_inline void rcu_read_unlock_bh(void)
{
	__rcu_read_unlock();
	local_bh_enable();
}

static __always_inline void spin_lock(spinlock_t *lock) { _raw_spin_lock(&lock->rlock); }
static __always_inline void spin_lock_nested(spinlock_t *lock, int sub) { _raw_spin_lock_nested(&lock->rlock, sub); }
static __always_inline void spin_lock_bh(spinlock_t *lock) { _raw_spin_lock_bh(&lock->rlock); }
static __always_inline void spin_lock_irq(spinlock_t *lock) { _raw_spin_lock_irq(&lock->rlock); }
#define spin_lock_irqsave(lock, flags) do { (flags) = _raw_spin_lock_irqsave(&(lock)->rlock); } while (0)
static __always_inline int spin_trylock(spinlock_t *lock) { return _raw_spin_trylock(&lock->rlock); }
static __always_inline int spin_trylock_bh(spinlock_t *lock) { return _raw_spin_trylock_bh(&lock->rlock); }
static __always_inline void spin_unlock(spinlock_t *lock) { _raw_spin_unlock(&lock->rlock); }
static __always_inline void spin_unlock_bh(spinlock_t *lock) { _raw_spin_unlock_bh(&lock->rlock); }
static __always_inline void spin_unlock_irq(spinlock_t *lock) { _raw_spin_unlock_irq(&lock->rlock); }
static __always_inline void spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags)
{
	_raw_spin_unlock_irqrestore(&lock->rlock, flags);
}
#define raw_spin_lock(l) _raw_spin_lock(l)
#define raw_spin_unlock(l) _raw_spin_unlock(l)
#define read_lock(l) _raw_read_lock(l)
#define read_lock_bh(l) _raw_read_lock_bh(l)
#define read_unlock(l) _raw_read_unlock(l)
#define read_unlock_bh(l) _raw_read_unlock_bh(l)
#define write_lock(l) _raw_write_lock(l)
#define write_lock_bh(l) _raw_write_lock_bh(l)
#define write_unlock(l) _raw_write_unlock(l)
#define write_unlock_bh(l) _raw_write_unlock_bh(l)

static __always_inline void write_seqlock(seqlock_t *sl)
{
	spin_lock(&sl->lock);
	sl->seqcount.seqcount.sequence++;
}
static __always_inline void write_sequnlock(seqlock_t *sl)
{
	sl->seqcount.seqcount.sequence++;
	spin_unlock(&sl->lock);
}
static __always_inline void write_seqlock_bh(seqlock_t *sl)
{
	spin_lock_bh(&sl->lock);
	sl->seqcount.seqcount.sequence++;
}
static __always_inline void write_sequnlock_bh(seqlock_t *sl)
{
	sl->seqcount.seqcount.sequence++;
	spin_unlock_bh(&sl->lock);
}
static __always_inline unsigned int read_seqbegin(const seqlock_t *sl)
{
	unsigned int s;

	while ((s = *(volatile unsigned int *)&sl->seqcount.seqcount.sequence) & 1)
		;
	return s;
}
static __always_inline int read_seqretry(const seqlock_t *sl, unsigned int start)
{
	return sl->seqcount.seqcount.sequence != start;
}

/* include/linux/bit_spinlock.h */
static __always_inline void bit_spin_lock(int bitnum, unsigned long *addr)
{
	while (__atomic_fetch_or(addr, 1UL << bitnum, __ATOMIC_ACQUIRE) & (1UL << bitnum))
		;
}
static __always_inline void bit_spin_unlock(int bitnum, unsigned long *addr)
{
	__atomic_fetch_and(addr, ~(1UL << bitnum), __ATOMIC_RELEASE);
}

/*
 * ---- generic containers of a lock (include/linux/skbuff.h, wait.h) ----
 * Their lock is the container's: lockdep keys each queue by the site
 * that initialises it, the analysis by where the container sits.
 */
struct sk_buff;
struct sk_buff_head {
	struct sk_buff *next;
	struct sk_buff *prev;
	u32 qlen;
	spinlock_t lock;
};
struct list_head { struct list_head *next, *prev; };
struct wait_queue_head {
	spinlock_t lock;
	struct list_head head;
};

/* ---- hard interrupts (arch/x86/include/asm/irqflags.h) ---- */
static inline void arch_local_irq_disable(void) { asm volatile("cli" : : : "memory"); }
static inline void arch_local_irq_enable(void) { asm volatile("sti" : : : "memory"); }
#define local_irq_disable() arch_local_irq_disable()
#define local_irq_enable() arch_local_irq_enable()
static inline unsigned long arch_local_save_flags(void)
{
	unsigned long flags;

	asm volatile("pushf ; pop %0" : "=rm"(flags) : : "memory");
	return flags;
}
static inline int arch_irqs_disabled_flags(unsigned long flags) { return !(flags & 0x200); }
static inline unsigned long arch_local_irq_save(void)
{
	unsigned long flags = arch_local_save_flags();

	arch_local_irq_disable();
	return flags;
}
/* turns interrupts on only if they were on at the matching save */
static inline void arch_local_irq_restore(unsigned long flags)
{
	if (!arch_irqs_disabled_flags(flags))
		arch_local_irq_enable();
}
#define local_irq_save(flags) do { (flags) = arch_local_irq_save(); } while (0)
#define local_irq_restore(flags) arch_local_irq_restore(flags)

/* ---- per-CPU data (arch/x86/include/asm/percpu.h) ---- */
#define DEFINE_PER_CPU(type, name) \
	__attribute__((section(".data..percpu"))) __typeof__(type) name
#define DECLARE_PER_CPU(type, name) \
	extern __attribute__((section(".data..percpu"))) __typeof__(type) name
/* this_cpu_*: one interrupt-safe instruction (asm volatile) */
#define this_cpu_inc(var) asm volatile("incl %%gs:%0" : "+m"(var))
#define this_cpu_add(var, val) asm volatile("addl %1, %%gs:%0" : "+m"(var) : "ri"(val))
/* __this_cpu_*: the caller keeps preemption and softirqs away (asm) */
#define __this_cpu_inc(var) asm("incl %%gs:%0" : "+m"(var))
#define __this_cpu_add(var, val) asm("addl %1, %%gs:%0" : "+m"(var) : "ri"(val))
extern unsigned long __per_cpu_offset[64];
DECLARE_PER_CPU(unsigned long, this_cpu_off);
/* include/linux/compiler-clang.h */
#define RELOC_HIDE(ptr, off) \
	({ unsigned long __ptr = (unsigned long)(ptr); (__typeof__(ptr))(__ptr + (off)); })
#define per_cpu_ptr(ptr, cpu) RELOC_HIDE(ptr, __per_cpu_offset[cpu])
/* arch_raw_cpu_ptr(): the offset is added in asm, the pointer a tied operand */
#define this_cpu_ptr(ptr) \
	({ unsigned long tcp_ptr__; \
	   asm ("add %%gs:%1, %0" : "=r"(tcp_ptr__) : "m"(this_cpu_off), "0"(ptr)); \
	   (__typeof__(ptr))tcp_ptr__; })
/* per-CPU memory from the allocator (mm/percpu.c) */
#define __percpu
void __percpu *__alloc_percpu(unsigned long size, unsigned long align);
#define alloc_percpu(type) ((type __percpu *)__alloc_percpu(sizeof(type), __alignof__(type)))

/* ---- softirq core (kernel/softirq.c) ---- */
struct softirq_action {
	void (*action)(struct softirq_action *);
};
void open_softirq(int nr, void (*action)(struct softirq_action *));
void raise_softirq(unsigned int nr);

/* ---- timers (kernel/time/timer.c) ---- */
struct hlist_node { struct hlist_node *next, **pprev; };
struct timer_list {
	struct hlist_node entry;
	unsigned long expires;
	void (*function)(struct timer_list *);
	u32 flags;
};
void init_timer_key(struct timer_list *timer,
		    void (*func)(struct timer_list *), unsigned int flags,
		    const char *name, void *key);
#define timer_setup(timer, callback, flags) \
	init_timer_key((timer), (callback), (flags), #timer, NULL)
int mod_timer(struct timer_list *timer, unsigned long expires);
int del_timer_sync(struct timer_list *timer);
#define from_timer(var, callback_timer, timer_fieldname) \
	container_of(callback_timer, __typeof__(*var), timer_fieldname)

/* ---- hrtimers (kernel/time/hrtimer.c) ---- */
enum hrtimer_restart { HRTIMER_NORESTART, HRTIMER_RESTART };
enum hrtimer_mode {
	HRTIMER_MODE_ABS = 0x00, HRTIMER_MODE_REL = 0x01,
	HRTIMER_MODE_PINNED = 0x02, HRTIMER_MODE_SOFT = 0x04,
	HRTIMER_MODE_HARD = 0x08,
	HRTIMER_MODE_ABS_PINNED_SOFT = 0x06, HRTIMER_MODE_REL_SOFT = 0x05,
	HRTIMER_MODE_REL_PINNED_SOFT = 0x07,
};
struct hrtimer {
	struct hlist_node node;
	s64 expires;
	enum hrtimer_restart (*function)(struct hrtimer *);
	u8 is_soft;
};
void hrtimer_init(struct hrtimer *timer, clockid_t which_clock, enum hrtimer_mode mode);
void hrtimer_start(struct hrtimer *timer, s64 tim, enum hrtimer_mode mode);

/* ---- tasklets (kernel/softirq.c) ---- */
struct tasklet_struct {
	struct tasklet_struct *next;
	unsigned long state;
	bool use_callback;
	union {
		void (*func)(unsigned long data);
		void (*callback)(struct tasklet_struct *t);
	};
	unsigned long data;
};
void tasklet_setup(struct tasklet_struct *t, void (*callback)(struct tasklet_struct *));
void tasklet_init(struct tasklet_struct *t, void (*func)(unsigned long), unsigned long data);
void __tasklet_schedule(struct tasklet_struct *t);
void __tasklet_hi_schedule(struct tasklet_struct *t);
static inline void tasklet_schedule(struct tasklet_struct *t) { __tasklet_schedule(t); }
static inline void tasklet_hi_schedule(struct tasklet_struct *t) { __tasklet_hi_schedule(t); }
#define from_tasklet(var, callback_tasklet, tasklet_fieldname) \
	container_of(callback_tasklet, __typeof__(*var), tasklet_fieldname)
#define DECLARE_TASKLET(name, _callback) \
	struct tasklet_struct name = { .use_callback = true, .callback = _callback }

/* ---- RCU and task_work: both use struct callback_head ---- */
struct callback_head {
	struct callback_head *next;
	void (*func)(struct callback_head *head);
};
#define rcu_head callback_head
typedef void (*rcu_callback_t)(struct rcu_head *head);
void call_rcu(struct rcu_head *head, rcu_callback_t func);
int task_work_add(void *task, struct callback_head *twork, int notify);
static inline void init_task_work(struct callback_head *twork, void (*func)(struct callback_head *))
{
	twork->func = func;
}

/* ---- NAPI and packet handlers (net/core/dev.c) ---- */
struct sk_buff;
struct net_device { int ifindex; };
struct napi_struct {
	struct napi_struct *next;
	int weight;
	int (*poll)(struct napi_struct *, int);
	struct net_device *dev;
};
void netif_napi_add_weight(struct net_device *dev, struct napi_struct *napi,
			   int (*poll)(struct napi_struct *, int), int weight);
#define netif_napi_add(dev, napi, poll) netif_napi_add_weight(dev, napi, poll, 64)
void __napi_schedule(struct napi_struct *n);
struct packet_type {
	unsigned short type;
	int (*func)(struct sk_buff *, struct net_device *, struct packet_type *,
		    struct net_device *);
	struct packet_type *next;
};
void dev_add_pack(struct packet_type *pt);
int netif_receive_skb(struct sk_buff *skb);
/* include/net/sch_generic.h */
struct Qdisc;
struct Qdisc_ops {
	struct sk_buff *(*dequeue)(struct Qdisc *);
};
struct Qdisc { const struct Qdisc_ops *ops; struct Qdisc *next_sched; };
void __netif_schedule(struct Qdisc *q);

/* ---- block completions (block/blk-mq.c) ---- */
struct request;
struct blk_mq_ops {
	int (*queue_rq)(struct request *rq);
	void (*complete)(struct request *rq);
};
struct request_queue { const struct blk_mq_ops *mq_ops; };
struct request { struct request_queue *q; struct request *next; };
void blk_mq_complete_request(struct request *rq);

/* ---- irq_poll (lib/irq_poll.c) ---- */
struct irq_poll;
typedef int (irq_poll_fn)(struct irq_poll *, int);
struct irq_poll { struct irq_poll *next; int weight; irq_poll_fn *poll; };
void irq_poll_init(struct irq_poll *iop, int weight, irq_poll_fn *poll_fn);
void irq_poll_sched(struct irq_poll *iop);

/* ---- notifier chains (kernel/notifier.c) ---- */
struct notifier_block;
typedef int (*notifier_fn_t)(struct notifier_block *nb, unsigned long action, void *data);
struct notifier_block {
	notifier_fn_t notifier_call;
	struct notifier_block *next;
	int priority;
};
struct atomic_notifier_head {
	spinlock_t lock;
	struct notifier_block *head;
};
#define ATOMIC_NOTIFIER_HEAD(name) struct atomic_notifier_head name = { }
int atomic_notifier_chain_register(struct atomic_notifier_head *nh, struct notifier_block *nb);
int atomic_notifier_call_chain(struct atomic_notifier_head *nh, unsigned long val, void *v);

/* ---- workqueues: process context, no vector ---- */
struct work_struct { struct work_struct *next; void (*func)(struct work_struct *); };
#define INIT_WORK(w, f) do { (w)->func = (f); } while (0)
bool queue_work(struct work_struct *work);

/* ---- sleeping (CONFIG_DEBUG_ATOMIC_SLEEP): never in a softirq ---- */
void __might_sleep(const char *file, int line);
#define might_sleep() __might_sleep(__FILE__, __LINE__)
void schedule(void);	/* "scheduling while atomic" if called in one */
struct mutex { int owner; };
void mutex_lock(struct mutex *m);
void mutex_unlock(struct mutex *m);

/* ---- the scheduler's softirq (kernel/sched/fair.c) ---- */
void scheduler_tick_balance(void);

/* allocators: external functions the world cannot see into */
#define GFP_ATOMIC 0xa20u	/* __GFP_HIGH | __GFP_ATOMIC | __GFP_KSWAPD_RECLAIM */
#define GFP_KERNEL 0xcc0u	/* __GFP_RECLAIM | __GFP_IO | __GFP_FS */
void *kmalloc(unsigned long size, gfp_t flags);
void *kcalloc(unsigned long n, unsigned long size, gfp_t flags);
void kfree(const void *p);

/* ---- seq_file (include/linux/seq_file.h: the fields the ops worlds use) ---- */
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

#endif /* STUB_KERNEL_H */
