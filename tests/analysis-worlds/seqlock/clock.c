// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture seqlock.
 *
 * Checks: stamp.seq (a seqlock_t member) is written under
 * write_seqlock_bh() in process context and read with read_seqbegin() in
 * a tasklet queued by tasklet_schedule(), which runs in TASKLET only
 * (HI walks its own list), so the class and the writer's section get
 * TASKLET.
 * clock.c:rate_seq (a static DEFINE_SEQLOCK) is written with a plain
 * write_seqlock() in a timer and with write_seqlock_bh() in process
 * context: TIMER.  rate_peek() reads rate_seq with peek_lock held and
 * BH off: a reader holds nothing (the timer's write finishes and the
 * read retries), so the section gets no TIMER.
 *
 * A naive analysis gets wrong: read_seqbegin() is not a lock call, but it
 * spins while the sequence is odd; a tasklet reading on the CPU whose
 * writer section it interrupted would spin forever.  Seeing only the
 * spinlock inside seqlock_t, an analysis could also name the class
 * seqlock_t.lock (one class for all seqlocks) instead of the seqlock.
 * Counting a read inside a section like a lock the section holds gives
 * rate_peek() TIMER (imprecise: in the kernel every section that reads
 * the clock got every vector that writes it).
 */
#include "kernel.h"

struct stamp {
	seqlock_t seq;
	u64 sec;
	u64 nsec;
	struct tasklet_struct reader;
	u64 last_seen;
};

static DEFINE_SEQLOCK(rate_seq);
static DEFINE_SPINLOCK(peek_lock);
static u64 rate_seen;
static u64 rate_mult;
static struct timer_list rate_timer;

static void stamp_read(struct tasklet_struct *t)
{
	struct stamp *st = container_of(t, struct stamp, reader);
	unsigned int seq;
	u64 sec;

	do {
		seq = read_seqbegin(&st->seq);
		sec = st->sec;
	} while (read_seqretry(&st->seq, seq));
	st->last_seen = sec;
}

static void rate_adjust(struct timer_list *t)
{
	write_seqlock(&rate_seq);
	rate_mult++;
	write_sequnlock(&rate_seq);
	mod_timer(&rate_timer, jiffies + HZ);
}

void stamp_init(struct stamp *st)
{
	tasklet_setup(&st->reader, stamp_read);
	timer_setup(&rate_timer, rate_adjust, 0);
}

void stamp_update(struct stamp *st, u64 sec, u64 nsec)
{
	write_seqlock_bh(&st->seq);
	st->sec = sec;
	st->nsec = nsec;
	write_sequnlock_bh(&st->seq);
	tasklet_schedule(&st->reader);
}

void rate_set(u64 mult)
{
	write_seqlock_bh(&rate_seq);
	rate_mult = mult;
	write_sequnlock_bh(&rate_seq);
}

void rate_peek(void)
{
	unsigned int seq;

	spin_lock_bh(&peek_lock);
	do {
		seq = read_seqbegin(&rate_seq);
		rate_seen = rate_mult;
	} while (read_seqretry(&rate_seq, seq));
	spin_unlock_bh(&peek_lock);
}
