// SPDX-License-Identifier: GPL-2.0
/*
 * softirq-victims: the work that waits for other softirq vectors while the
 * network is busy, for the end-to-end benchmark (scripts/guest/bench-e2e).
 *
 * - BLOCK: 4 KiB O_DIRECT reads of a block device at a fixed rate, one at
 *   a time. The benchmark gives a virtio-blk disk with one hardware queue
 *   and rq_affinity 0, whose interrupt raises BLOCK_SOFTIRQ to complete
 *   the request, on the interrupt's CPU. A read that is late for its slot
 *   skips the slots it missed (no catch-up burst).
 * - HRTIMER: a TCP flow over loopback with SO_MAX_PACING_RATE, so that
 *   TCP's internal pacing arms its soft hrtimer (tcp_pace_kick) for every
 *   few segments (1400-byte segments: a hundred or more timers a second).
 *   The lateness of those timers comes from the trace (bench-e2e); this
 *   program only keeps the flow going, with a small send buffer, and
 *   throws away what is still queued at the end.
 *
 * Usage: softirq-victims [-t SECONDS] [-r READS_PER_S] [-d DEVICE]
 *                        [-p PACING_BYTES_PER_S] [-R CPU] [-P CPU]
 *   -R  the CPU the reads are issued from (default: any)
 *   -P  the CPU of the paced flow's sender and drain (default: any)
 * Prints
 *   VICTIMS block n=N missed=N errors=N
 *   VICTIMS block-us V V V ...      (per-read latency in µs, 32 per line)
 *   VICTIMS paced bytes=N rate=N
 * Exit: 0 when every read succeeded and the paced flow moved data, 1 when
 * not, 2 on bad usage.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define BLOCK_SIZE	4096
#define SPAN_BLOCKS	16384	/* read within the first 64 MiB */

static double seconds = 5;
static long rate = 200;
static const char *device = "/dev/nullb0";
static long pacing = 524288;
static int reader_cpu = -1, paced_cpu = -1;
static volatile int stop;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void sleep_until(uint64_t ns)
{
	struct timespec ts = { .tv_sec = ns / 1000000000ull,
			       .tv_nsec = ns % 1000000000ull };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* Keep the calling thread on @cpu (nothing for -1); 0 on success */
static int pin(int cpu, const char *who)
{
	cpu_set_t set;

	if (cpu < 0)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "softirq-victims: cannot keep the %s on CPU %d: %s\n",
			who, cpu, strerror(errno));
		return -1;
	}
	return 0;
}

static int run_block(uint64_t end)
{
	uint64_t period = 1000000000ull / rate, slot = now_ns(), *lat;
	long n = 0, missed = 0, errors = 0, cap;
	unsigned int seed = 1;
	void *buf;
	int fd;

	cap = (long)(seconds * rate) + 16;
	lat = calloc(cap, sizeof(*lat));
	fd = open(device, O_RDONLY | O_DIRECT);
	if (fd < 0 || !lat || posix_memalign(&buf, BLOCK_SIZE, BLOCK_SIZE)) {
		fprintf(stderr, "softirq-victims: cannot read %s with O_DIRECT: %s\n",
			device, strerror(errno));
		return 1;
	}
	while (!stop && slot < end && n < cap) {
		off_t off = (off_t)(rand_r(&seed) % SPAN_BLOCKS) * BLOCK_SIZE;
		uint64_t t0, t1;

		sleep_until(slot);
		t0 = now_ns();
		if (pread(fd, buf, BLOCK_SIZE, off) != BLOCK_SIZE)
			errors++;
		t1 = now_ns();
		lat[n++] = t1 - t0;
		slot += period;
		/* Late for the next slot: skip those that are gone */
		if (t1 > slot) {
			missed += (t1 - slot) / period + 1;
			slot += ((t1 - slot) / period + 1) * period;
		}
	}
	close(fd);
	printf("VICTIMS block n=%ld missed=%ld errors=%ld rate=%ld\n", n, missed,
	       errors, rate);
	for (long i = 0; i < n; i++)
		printf("%s%.1f%s", i % 32 ? " " : "VICTIMS block-us ",
		       lat[i] / 1000.0, i % 32 == 31 || i == n - 1 ? "\n" : "");
	free(lat);
	free(buf);
	return errors || !n;
}

struct flow {
	int fd;
	uint64_t end;
	long long bytes;
};

/* Receive until @end; what is still queued then is thrown away */
static void *drain(void *arg)
{
	struct timeval tv = { .tv_usec = 100000 };
	struct flow *f = arg;
	char buf[65536];
	ssize_t r;

	if (pin(paced_cpu, "paced flow's drain"))
		return NULL;
	setsockopt(f->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	while (now_ns() < f->end) {
		r = read(f->fd, buf, sizeof(buf));
		if (r > 0)
			f->bytes += r;
		else if (r == 0 || (errno != EAGAIN && errno != EINTR))
			break;
	}
	return NULL;
}

/* A paced TCP flow over loopback until @end; returns the bytes received */
static long long run_paced(uint64_t end)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof(a);
	struct linger abort_close = { .l_onoff = 1, .l_linger = 0 };
	unsigned int prate = pacing;
	struct flow rx = { .fd = -1, .end = end };
	int sndbuf = 65536, mss = 1400;
	static char buf[16384];
	int l, s;
	pthread_t t;

	l = socket(AF_INET, SOCK_STREAM, 0);
	s = socket(AF_INET, SOCK_STREAM, 0);
	if (l < 0 || s < 0 || bind(l, (struct sockaddr *)&a, sizeof(a)) ||
	    listen(l, 1) || getsockname(l, (struct sockaddr *)&a, &alen) ||
	    setsockopt(s, SOL_SOCKET, SO_MAX_PACING_RATE, &prate, sizeof(prate)) ||
	    setsockopt(s, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf)) ||
	    setsockopt(s, IPPROTO_TCP, TCP_MAXSEG, &mss, sizeof(mss)) ||
	    setsockopt(s, SOL_SOCKET, SO_LINGER, &abort_close, sizeof(abort_close)) ||
	    connect(s, (struct sockaddr *)&a, sizeof(a))) {
		fprintf(stderr, "softirq-victims: paced flow: %s\n", strerror(errno));
		return -1;
	}
	rx.fd = accept(l, NULL, NULL);
	if (rx.fd < 0 || pthread_create(&t, NULL, drain, &rx)) {
		fprintf(stderr, "softirq-victims: paced flow: %s\n", strerror(errno));
		return -1;
	}
	/* A full send buffer blocks the write: wake up to look at the time */
	setsockopt(s, SOL_SOCKET, SO_SNDTIMEO, &(struct timeval){ .tv_usec = 100000 },
		   sizeof(struct timeval));
	while (!stop && now_ns() < end)
		if (write(s, buf, sizeof(buf)) < 0 && errno != EAGAIN && errno != EINTR)
			break;
	pthread_join(t, NULL);
	close(s);
	close(rx.fd);
	close(l);
	return rx.bytes;
}

struct paced_arg {
	uint64_t end;
	long long bytes;
};

static void *paced_thread(void *arg)
{
	struct paced_arg *p = arg;

	p->bytes = pin(paced_cpu, "paced flow") ? -1 : run_paced(p->end);
	return NULL;
}

static long number(const char *s, const char *what)
{
	char *e;
	long v = strtol(s, &e, 10);

	if (*s == '\0' || *e != '\0' || v <= 0) {
		fprintf(stderr, "softirq-victims: %s must be a positive number, not '%s'\n",
			what, s);
		exit(2);
	}
	return v;
}

static int cpu_number(const char *s, const char *what)
{
	char *e;
	long v = strtol(s, &e, 10);

	if (*s == '\0' || *e != '\0' || v < 0 || v >= CPU_SETSIZE) {
		fprintf(stderr, "softirq-victims: %s must be a CPU number, not '%s'\n",
			what, s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	struct paced_arg p;
	pthread_t t;
	int opt, rc;

	while ((opt = getopt(argc, argv, "t:r:d:p:R:P:")) != -1) {
		switch (opt) {
		case 't':
			seconds = number(optarg, "-t SECONDS");
			break;
		case 'r':
			rate = number(optarg, "-r READS_PER_S");
			break;
		case 'd':
			device = optarg;
			break;
		case 'p':
			pacing = number(optarg, "-p PACING_BYTES_PER_S");
			break;
		case 'R':
			reader_cpu = cpu_number(optarg, "-R CPU");
			break;
		case 'P':
			paced_cpu = cpu_number(optarg, "-P CPU");
			break;
		default:
			fprintf(stderr, "usage: softirq-victims [-t SECONDS] [-r READS_PER_S] [-d DEVICE] [-p PACING_BYTES_PER_S] [-R CPU] [-P CPU]\n");
			return 2;
		}
	}
	if (optind != argc || rate > 100000) {
		fprintf(stderr, "softirq-victims: bad arguments (at most 100000 reads/s)\n");
		return 2;
	}
	p.end = now_ns() + (uint64_t)(seconds * 1e9);
	if (pthread_create(&t, NULL, paced_thread, &p)) {
		perror("softirq-victims: pthread_create");
		return 1;
	}
	rc = pin(reader_cpu, "reader") ? 1 : run_block(p.end);
	stop = 1;
	pthread_join(t, NULL);
	printf("VICTIMS paced bytes=%lld rate=%ld\n", p.bytes, pacing);
	return rc || p.bytes <= 0;
}
