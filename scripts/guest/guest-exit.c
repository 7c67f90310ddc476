// SPDX-License-Identifier: GPL-2.0
/*
 * guest-exit: end the QEMU guest with a status the host can read.
 *
 * Writes CODE to the isa-debug-exit device (I/O port 0xf4); QEMU then exits
 * with status (CODE << 1) | 1.  Uses ioperm() and outb() directly, so the
 * guest kernel needs neither /dev/port nor PCI.
 *
 * Usage: guest-exit CODE   (0..127)
 * Returns only on failure (no such device: the caller falls back to
 * "reboot -f").
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/io.h>

#define DEBUG_EXIT_PORT 0xf4

int main(int argc, char **argv)
{
	char *end;
	long code;

	if (argc != 2)
		goto usage;
	code = strtol(argv[1], &end, 10);
	if (*end || code < 0 || code > 127)
		goto usage;
	if (ioperm(DEBUG_EXIT_PORT, 4, 1)) {
		perror("guest-exit: ioperm");
		return 1;
	}
	outb((unsigned char)code, DEBUG_EXIT_PORT);
	/* still here: no isa-debug-exit device */
	fprintf(stderr, "guest-exit: isa-debug-exit did not end the guest\n");
	return 1;
usage:
	fprintf(stderr, "usage: %s CODE (0..127)\n", argv[0]);
	return 2;
}
