// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture irq-off-region.
 *
 * Checks: io_wake() takes io_obj.pi_lock with spin_lock_irqsave() and
 * then io_obj.rq_lock with a plain spin_lock(), the shape of
 * try_to_wake_up() (pi_lock, then the runqueue lock).  A timer takes
 * rq_lock.  io_submit() calls io_wake() inside a spin_lock_bh() section
 * on io_obj.lock: rq_lock is only ever held there with interrupts off,
 * so no softirq can run on this CPU while it is held, and the section
 * stays NONE.  io_reenable() drops pi_lock with a plain unlock and turns
 * interrupts on before it takes rq_lock2 (a timer takes it too): the
 * section in io_submit2() gets TIMER.  io_wake_helper() takes rq_lock3
 * after calling io_irq_on(), which turns interrupts on (and takes
 * rq_lock4): io_submit3() gets TIMER as well.  io_wake_inside() calls
 * io_irq_on() under pi_lock and nothing after it: rq_lock4, taken
 * inside with interrupts on, gives io_submit4() TIMER.  io_note() calls
 * _printk() (pk.c) under pi_lock before it takes rq_lock: printk keeps
 * the interrupt state, so io_submit5() stays NONE.  io_note2() calls
 * io_log(), which calls _printk() and then takes rq_lock, under pi_lock:
 * the serial console in pk.c releases its port lock with
 * spin_unlock_irq() on a path that, read without the test it shares with
 * the acquisition, never took it; printk() does not drop its caller's
 * locks, so io_log() does not turn interrupts on and io_submit6() stays
 * NONE.  io_count() saves and restores the interrupt state around a
 * counter: the restore gives back what its own save found, so io_count()
 * does not end the stretch of io_wake_counted() under pi_lock
 * (io_submit7() stays NONE), although the restore's body holds a
 * conditional enable.  io_put_flags() restores flags it did not save,
 * its caller's: io_wake_split() may run with interrupts on after it and
 * takes rq_lock5, which a timer takes (io_submit8() gets TIMER).
 *
 * A naive analysis gets wrong: counting every plain acquisition inside
 * a section gave nearly every section that wakes a task the runqueue
 * lock, and with it every vector; ending the interrupts-off stretch
 * only at the _irqrestore release drops TIMER from io_submit2() and
 * io_submit3(), and skipping a callee called with interrupts off drops
 * it from io_submit4() (unsafe).
 */
#include "kernel.h"

struct io_obj {
	spinlock_t lock;
	spinlock_t pi_lock;
	spinlock_t rq_lock;
	spinlock_t rq_lock2;
	spinlock_t rq_lock3;
	spinlock_t rq_lock4;
	spinlock_t rq_lock5;
	int queued;
	int woken;
	struct timer_list timer;
};

static noinline void io_irq_on(struct io_obj *o)
{
	local_irq_enable();
	spin_lock(&o->rq_lock4);
	o->woken++;
	spin_unlock(&o->rq_lock4);
}

static noinline void io_wake(struct io_obj *o)
{
	unsigned long flags;

	spin_lock_irqsave(&o->pi_lock, flags);
	spin_lock(&o->rq_lock);
	o->woken++;
	spin_unlock(&o->rq_lock);
	spin_unlock_irqrestore(&o->pi_lock, flags);
}

static noinline void io_reenable(struct io_obj *o)
{
	unsigned long flags;

	spin_lock_irqsave(&o->pi_lock, flags);
	o->woken = 0;
	spin_unlock(&o->pi_lock);
	local_irq_enable();
	spin_lock(&o->rq_lock2);
	o->woken++;
	spin_unlock(&o->rq_lock2);
}

static noinline void io_wake_helper(struct io_obj *o)
{
	unsigned long flags;

	spin_lock_irqsave(&o->pi_lock, flags);
	io_irq_on(o);
	spin_lock(&o->rq_lock3);
	o->woken++;
	spin_unlock(&o->rq_lock3);
	spin_unlock_irqrestore(&o->pi_lock, flags);
}

static noinline void io_wake_inside(struct io_obj *o)
{
	unsigned long flags;

	spin_lock_irqsave(&o->pi_lock, flags);
	io_irq_on(o);
	spin_unlock_irqrestore(&o->pi_lock, flags);
}

int _printk(const char *fmt);

static noinline void io_note(struct io_obj *o)
{
	unsigned long flags;

	spin_lock_irqsave(&o->pi_lock, flags);
	_printk("waking");
	spin_lock(&o->rq_lock);
	o->woken++;
	spin_unlock(&o->rq_lock);
	spin_unlock_irqrestore(&o->pi_lock, flags);
}

static noinline void io_log(struct io_obj *o)
{
	_printk("woken");
	spin_lock(&o->rq_lock);
	o->woken++;
	spin_unlock(&o->rq_lock);
}

static noinline void io_note2(struct io_obj *o)
{
	unsigned long flags;

	spin_lock_irqsave(&o->pi_lock, flags);
	io_log(o);
	spin_unlock_irqrestore(&o->pi_lock, flags);
}

static noinline void io_count(struct io_obj *o)
{
	unsigned long flags;

	local_irq_save(flags);
	o->woken++;
	local_irq_restore(flags);
}

static noinline void io_wake_counted(struct io_obj *o)
{
	unsigned long flags;

	spin_lock_irqsave(&o->pi_lock, flags);
	io_count(o);
	spin_lock(&o->rq_lock);
	o->woken++;
	spin_unlock(&o->rq_lock);
	spin_unlock_irqrestore(&o->pi_lock, flags);
}

static noinline void io_put_flags(unsigned long flags)
{
	local_irq_restore(flags);
}

static noinline void io_wake_split(struct io_obj *o)
{
	unsigned long flags;

	local_irq_save(flags);
	o->woken = 0;
	io_put_flags(flags);
	spin_lock(&o->rq_lock5);
	o->woken++;
	spin_unlock(&o->rq_lock5);
}

static void io_expire(struct timer_list *t)
{
	struct io_obj *o = from_timer(o, t, timer);

	spin_lock(&o->rq_lock);
	o->woken--;
	spin_unlock(&o->rq_lock);
	spin_lock(&o->rq_lock2);
	o->woken--;
	spin_unlock(&o->rq_lock2);
	spin_lock(&o->rq_lock3);
	o->woken--;
	spin_unlock(&o->rq_lock3);
	spin_lock(&o->rq_lock4);
	o->woken--;
	spin_unlock(&o->rq_lock4);
	spin_lock(&o->rq_lock5);
	o->woken--;
	spin_unlock(&o->rq_lock5);
}

void io_init(struct io_obj *o)
{
	timer_setup(&o->timer, io_expire, 0);
}

void io_submit(struct io_obj *o)
{
	spin_lock_bh(&o->lock);
	o->queued++;
	io_wake(o);
	spin_unlock_bh(&o->lock);
}

void io_submit2(struct io_obj *o)
{
	spin_lock_bh(&o->lock);
	o->queued++;
	io_reenable(o);
	spin_unlock_bh(&o->lock);
}

void io_submit3(struct io_obj *o)
{
	spin_lock_bh(&o->lock);
	o->queued++;
	io_wake_helper(o);
	spin_unlock_bh(&o->lock);
}

void io_submit4(struct io_obj *o)
{
	spin_lock_bh(&o->lock);
	o->queued++;
	io_wake_inside(o);
	spin_unlock_bh(&o->lock);
}

void io_submit5(struct io_obj *o)
{
	spin_lock_bh(&o->lock);
	o->queued++;
	io_note(o);
	spin_unlock_bh(&o->lock);
}

void io_submit6(struct io_obj *o)
{
	spin_lock_bh(&o->lock);
	o->queued++;
	io_note2(o);
	spin_unlock_bh(&o->lock);
}

void io_submit7(struct io_obj *o)
{
	spin_lock_bh(&o->lock);
	o->queued++;
	io_wake_counted(o);
	spin_unlock_bh(&o->lock);
}

void io_submit8(struct io_obj *o)
{
	spin_lock_bh(&o->lock);
	o->queued++;
	io_wake_split(o);
	spin_unlock_bh(&o->lock);
}
