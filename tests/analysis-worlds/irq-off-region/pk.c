// SPDX-License-Identifier: GPL-2.0
/*
 * The printk() of irq-off-region: it writes to a console through a
 * driver's write method, and one console here, like a tty driver whose
 * other paths do, turns interrupts on.  printk() runs in hard interrupt
 * context, so on the paths it really takes it keeps the interrupt state:
 * a call of it does not end an interrupts-off stretch (io_note()).
 * The serial console takes its port lock only when no oops is in
 * progress and releases it under the same test, so a path-insensitive
 * reading sees a release of a lock it never took: printk() does not
 * release its caller's locks, and that release must not reach io_note().
 */
#include "kernel.h"

struct pk_console {
	void (*write)(const char *s);
};

static void pk_tty_write(const char *s)
{
	local_irq_enable();
}

struct pk_port {
	spinlock_t lock;
	bool oops;
	int sent;
};

static struct pk_port pk_port0;

static noinline void pk_port_emit(struct pk_port *p, const char *s)
{
	p->sent++;
}

static void pk_serial_write(const char *s)
{
	bool locked = !pk_port0.oops;

	if (locked)
		spin_lock_irq(&pk_port0.lock);
	pk_port_emit(&pk_port0, s);
	if (locked)
		spin_unlock_irq(&pk_port0.lock);
}

struct pk_console pk_tty = { .write = pk_tty_write };
struct pk_console pk_serial = { .write = pk_serial_write };
struct pk_console *pk_active;

int _printk(const char *fmt)
{
	if (pk_active)
		pk_active->write(fmt);
	return 0;
}

void pk_register(void)
{
	pk_active = &pk_tty;
}

void pk_register_serial(void)
{
	pk_active = &pk_serial;
}
