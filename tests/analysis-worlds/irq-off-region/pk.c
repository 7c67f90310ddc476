// SPDX-License-Identifier: GPL-2.0
/*
 * The printk() of irq-off-region: it writes to a console through a
 * driver's write method, and one console here, like a tty driver whose
 * other paths do, turns interrupts on.  printk() runs in hard interrupt
 * context, so on the paths it really takes it keeps the interrupt state:
 * a call of it does not end an interrupts-off stretch (io_note()).
 */
#include "kernel.h"

struct pk_console {
	void (*write)(const char *s);
};

static void pk_tty_write(const char *s)
{
	local_irq_enable();
}

struct pk_console pk_tty = { .write = pk_tty_write };
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
