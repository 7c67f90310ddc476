// SPDX-License-Identifier: GPL-2.0
/*
 * The dispatchers of a stub kernel: what runs callbacks in which softirq
 * vector.  Function and field names follow linux-6.1 so the analysis's
 * rules (roots, barriers, per-dispatcher resolution) are the ones it
 * applies to the campaign kernel.  Worlds link against this file.
 */
#include "kernel.h"

/* kernel/softirq.c */
static struct softirq_action softirq_vec[NR_SOFTIRQS];
static unsigned long pending;

void open_softirq(int nr, void (*action)(struct softirq_action *))
{
	softirq_vec[nr].action = action;
}

void raise_softirq(unsigned int nr)
{
	pending |= 1UL << nr;
}

/* Serves the pending vectors: the one place vector handlers run. */
void __do_softirq(void)
{
	struct softirq_action *h = softirq_vec;

	for (; h < softirq_vec + NR_SOFTIRQS; h++)
		if (pending & (1UL << (h - softirq_vec)))
			h->action(h);
}

void do_softirq(void)
{
	if (pending)
		__do_softirq();
}

void __local_bh_enable_ip(unsigned long ip, unsigned int cnt)
{
	(void)ip;
	(void)cnt;
	do_softirq();
}

void irq_exit(void)
{
	if (pending)
		__do_softirq();
}

/* kernel/softirq.c: tasklets */
struct tasklet_head { struct tasklet_struct *head; };
static struct tasklet_head tasklet_vec, tasklet_hi_vec;

void tasklet_setup(struct tasklet_struct *t, void (*callback)(struct tasklet_struct *))
{
	t->use_callback = true;
	t->callback = callback;
}

void tasklet_init(struct tasklet_struct *t, void (*func)(unsigned long), unsigned long data)
{
	t->use_callback = false;
	t->func = func;
	t->data = data;
}

void __tasklet_schedule(struct tasklet_struct *t)
{
	t->next = tasklet_vec.head;
	tasklet_vec.head = t;
	raise_softirq(TASKLET_SOFTIRQ);
}

void __tasklet_hi_schedule(struct tasklet_struct *t)
{
	t->next = tasklet_hi_vec.head;
	tasklet_hi_vec.head = t;
	raise_softirq(HI_SOFTIRQ);
}

/*
 * tasklet_clear_sched() wakes tasklet_kill() waiters: wake_up_var(), a
 * wait queue's lock, stands here as tasklet_wait_lock.
 */
static DEFINE_SPINLOCK(tasklet_wait_lock);

static bool tasklet_clear_sched(struct tasklet_struct *t)
{
	spin_lock(&tasklet_wait_lock);
	t->state = 0;
	spin_unlock(&tasklet_wait_lock);
	return true;
}

static void tasklet_action_common(struct tasklet_head *tl_head)
{
	struct tasklet_struct *t;

	for (t = tl_head->head; t; t = t->next) {
		if (!tasklet_clear_sched(t))
			continue;
		if (t->use_callback)
			t->callback(t);
		else
			t->func(t->data);
	}
}

static void tasklet_action(struct softirq_action *a)
{
	tasklet_action_common(&tasklet_vec);
}

static void tasklet_hi_action(struct softirq_action *a)
{
	tasklet_action_common(&tasklet_hi_vec);
}

/* kernel/time/timer.c */
static struct timer_list *timer_base_list[16];

void init_timer_key(struct timer_list *timer,
		    void (*func)(struct timer_list *), unsigned int flags,
		    const char *name, void *key)
{
	timer->entry.pprev = NULL;
	timer->function = func;
	timer->flags = flags;
}

int mod_timer(struct timer_list *timer, unsigned long expires)
{
	timer->expires = expires;
	timer_base_list[expires & 15] = timer;
	return 0;
}

int del_timer_sync(struct timer_list *timer)
{
	timer_base_list[timer->expires & 15] = NULL;
	return 1;
}

static void call_timer_fn(struct timer_list *timer, void (*fn)(struct timer_list *))
{
	fn(timer);
}

static void expire_timers(struct timer_list *timer)
{
	void (*fn)(struct timer_list *) = timer->function;

	call_timer_fn(timer, fn);
}

static void __run_timers(void)
{
	int i;

	for (i = 0; i < 16; i++)
		if (timer_base_list[i])
			expire_timers(timer_base_list[i]);
}

static void run_timer_softirq(struct softirq_action *h)
{
	__run_timers();
}

/* kernel/time/hrtimer.c */
static struct hrtimer *hrtimer_queue[16];

void hrtimer_init(struct hrtimer *timer, clockid_t clock_id, enum hrtimer_mode mode)
{
	timer->is_soft = !!(mode & HRTIMER_MODE_SOFT);
	timer->function = NULL;
}

void hrtimer_start(struct hrtimer *timer, s64 tim, enum hrtimer_mode mode)
{
	timer->expires = tim;
	hrtimer_queue[tim & 15] = timer;
}

static void __run_hrtimer(struct hrtimer *timer)
{
	enum hrtimer_restart (*fn)(struct hrtimer *);

	fn = timer->function;
	fn(timer);
}

static void __hrtimer_run_queues(int soft)
{
	int i;

	for (i = 0; i < 16; i++)
		if (hrtimer_queue[i] && hrtimer_queue[i]->is_soft == soft)
			__run_hrtimer(hrtimer_queue[i]);
}

/* hard interrupt context: not a softirq vector */
void hrtimer_interrupt(void)
{
	__hrtimer_run_queues(0);
	raise_softirq(HRTIMER_SOFTIRQ);
}

static void hrtimer_run_softirq(struct softirq_action *h)
{
	__hrtimer_run_queues(1);
}

/* kernel/rcu/tree.c */
static struct rcu_head *rcu_cblist;

void call_rcu(struct rcu_head *head, rcu_callback_t func)
{
	head->func = func;
	head->next = rcu_cblist;
	rcu_cblist = head;
}

static void rcu_do_batch(void)
{
	struct rcu_head *rhp;
	rcu_callback_t f;

	for (rhp = rcu_cblist; rhp; rhp = rhp->next) {
		f = rhp->func;
		f(rhp);
	}
}

static void rcu_core_si(struct softirq_action *h)
{
	rcu_do_batch();
}

/* kernel/task_work.c: process context (return to user space) */
static struct callback_head *task_works;

int task_work_add(void *task, struct callback_head *work, int notify)
{
	work->next = task_works;
	task_works = work;
	return 0;
}

void task_work_run(void)
{
	struct callback_head *work;

	for (work = task_works; work; work = work->next)
		work->func(work);
}

/* net/core/dev.c */
static struct napi_struct *poll_list;
static struct packet_type *ptype_all;
static struct Qdisc *output_queue;

void netif_napi_add_weight(struct net_device *dev, struct napi_struct *napi,
			   int (*poll)(struct napi_struct *, int), int weight)
{
	napi->poll = poll;
	napi->weight = weight;
	napi->dev = dev;
}

void __napi_schedule(struct napi_struct *n)
{
	n->next = poll_list;
	poll_list = n;
	raise_softirq(NET_RX_SOFTIRQ);
}

void dev_add_pack(struct packet_type *pt)
{
	pt->next = ptype_all;
	ptype_all = pt;
}

int netif_receive_skb(struct sk_buff *skb)
{
	struct packet_type *pt;
	int ret = 0;

	for (pt = ptype_all; pt; pt = pt->next)
		ret |= pt->func(skb, NULL, pt, NULL);
	return ret;
}

static int __napi_poll(struct napi_struct *n)
{
	return n->poll(n, n->weight);
}

static void net_rx_action(struct softirq_action *h)
{
	struct napi_struct *n;

	for (n = poll_list; n; n = n->next)
		__napi_poll(n);
}

void __netif_schedule(struct Qdisc *q)
{
	q->next_sched = output_queue;
	output_queue = q;
	raise_softirq(NET_TX_SOFTIRQ);
}

static void net_tx_action(struct softirq_action *h)
{
	struct Qdisc *q;

	for (q = output_queue; q; q = q->next_sched)
		q->ops->dequeue(q);
}

/* block/blk-mq.c */
static struct request *done_list;

void blk_mq_complete_request(struct request *rq)
{
	rq->next = done_list;
	done_list = rq;
	raise_softirq(BLOCK_SOFTIRQ);
}

static void blk_done_softirq(struct softirq_action *h)
{
	struct request *rq;

	for (rq = done_list; rq; rq = rq->next)
		rq->q->mq_ops->complete(rq);
}

/* lib/irq_poll.c */
static struct irq_poll *iop_list;

void irq_poll_init(struct irq_poll *iop, int weight, irq_poll_fn *poll_fn)
{
	iop->weight = weight;
	iop->poll = poll_fn;
}

void irq_poll_sched(struct irq_poll *iop)
{
	iop->next = iop_list;
	iop_list = iop;
	raise_softirq(IRQ_POLL_SOFTIRQ);
}

static void irq_poll_softirq(struct softirq_action *h)
{
	struct irq_poll *iop;

	for (iop = iop_list; iop; iop = iop->next)
		iop->poll(iop, iop->weight);
}

/* kernel/sched/fair.c */
static void run_rebalance_domains(struct softirq_action *h)
{
	scheduler_tick_balance();
}

void scheduler_tick_balance(void)
{
}

/* kernel/workqueue.c: process context */
static struct work_struct *work_list;

bool queue_work(struct work_struct *work)
{
	work->next = work_list;
	work_list = work;
	return true;
}

void worker_thread(void)
{
	struct work_struct *w;

	for (w = work_list; w; w = w->next)
		w->func(w);
}

/* kernel/notifier.c: the chain is a list from the head, in priority order */
static int notifier_chain_register(struct notifier_block **nl, struct notifier_block *n)
{
	while (*nl) {
		if (n->priority > (*nl)->priority)
			break;
		nl = &(*nl)->next;
	}
	n->next = *nl;
	*nl = n;
	return 0;
}

static int notifier_call_chain(struct notifier_block **nl, unsigned long val, void *v)
{
	struct notifier_block *nb = *nl;
	int ret = 0;

	while (nb) {
		struct notifier_block *next_nb = nb->next;

		ret = nb->notifier_call(nb, val, v);
		nb = next_nb;
	}
	return ret;
}

int atomic_notifier_chain_register(struct atomic_notifier_head *nh, struct notifier_block *n)
{
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&nh->lock, flags);
	ret = notifier_chain_register(&nh->head, n);
	spin_unlock_irqrestore(&nh->lock, flags);
	return ret;
}

int atomic_notifier_call_chain(struct atomic_notifier_head *nh, unsigned long val, void *v)
{
	return notifier_call_chain(&nh->head, val, v);
}

void mutex_lock(struct mutex *m)
{
	might_sleep();
	m->owner = 1;
}

void mutex_unlock(struct mutex *m)
{
	m->owner = 0;
}

void start_kernel(void)
{
	open_softirq(HI_SOFTIRQ, tasklet_hi_action);
	open_softirq(TASKLET_SOFTIRQ, tasklet_action);
	open_softirq(TIMER_SOFTIRQ, run_timer_softirq);
	open_softirq(HRTIMER_SOFTIRQ, hrtimer_run_softirq);
	open_softirq(RCU_SOFTIRQ, rcu_core_si);
	open_softirq(NET_TX_SOFTIRQ, net_tx_action);
	open_softirq(NET_RX_SOFTIRQ, net_rx_action);
	open_softirq(BLOCK_SOFTIRQ, blk_done_softirq);
	open_softirq(IRQ_POLL_SOFTIRQ, irq_poll_softirq);
	open_softirq(SCHED_SOFTIRQ, run_rebalance_domains);
}
