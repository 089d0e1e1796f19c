/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fxt_buffer.h - the buffer layer: each CPU's durable and rolling buffers
 * (fxt_buffer.c), and the common case of a rolling reserve and commit,
 * inline. The bottom of the writer's stack: it knows records as lengths,
 * not what they say, and calls nothing above it.
 *
 * Every context switch reserves, fills and commits one record: out of
 * line, that is calls for a few loads and stores each. Inline here is only
 * the case that needs nothing more: a record that fits the current
 * rolling buffer, with no window closing (fxt_session.freeze_at), no full
 * durable buffer, and no nested writer in between. Anything else calls
 * fxt_rolling_reserve_slow(), which checks everything from the start.
 *
 * So when a nested writer (an interrupt's probe) moves the reserve word
 * between the fast path's read and its cmpxchg, the retry checks the
 * closing window and the stopped CPU again: the record that lost the race
 * is kept or dropped by the state the nested writer left (no record after
 * a window it closed), where a retry inside the reserve loop kept it.
 */
#ifndef _FXT_BUFFER_H
#define _FXT_BUFFER_H

#include "fxt.h"
#include <linux/ktime.h>
#include <linux/timekeeping.h>
#include <asm/local.h>

int fxt_buffers_alloc(struct fxt_session *s, u64 size, u64 durable_size);
void fxt_buffers_free(struct fxt_session *s);
void fxt_buffers_clear(struct fxt_session *s, bool durable_too);
u64 *fxt_rolling_reserve_slow(struct fxt_cpu *c, unsigned int len, u64 *ts,
			      unsigned int *bufno);
/* fxt_durable_reserve() put the record in the durable buffer (else: bufno) */
#define FXT_IN_DURABLE	(-1)
u64 *fxt_durable_reserve(struct fxt_cpu *c, unsigned int len, int *where);
void fxt_rolling_make_room_slow(struct fxt_cpu *c, long old);
/* Two tasks' thread and process records and the record itself, at most. */
#define FXT_NAMED_RECORD_MAX	512
void fxt_durable_commit(struct fxt_cpu *c, unsigned int len, int where);
int fxt_buffer_saved(struct fxt_session *s, const struct fxt_packet *pkt);
void fxt_buffers_sync_notifications(struct fxt_session *s);
void fxt_cpu_stats(struct fxt_session *s, struct fxt_cpu_stats *st);
/* Posts a CPU's SAVE_BUFFER request, outside the probe that made it. */
void fxt_save_work_fn(struct irq_work *work);

/* Whether @len bytes fit the rolling buffer the reserve word @old is in. */
static inline bool fxt_rolling_fits(const struct fxt_cpu *c, long old,
				    unsigned int len)
{
	return (old & FXT_ROLLING_OFFSET_MASK) + len <= c->rolling_size;
}

/* The rolling buffer generation the reserve word @old is in. */
static inline u32 fxt_rolling_gen_of(long old)
{
	return (u64)old >> FXT_ROLLING_OFFSET_BITS;
}

/**
 * fxt_rolling_gen() - the rolling buffer generation being written now
 * @c: the CPU
 *
 * Return: how many times its rolling buffers rolled since they were emptied.
 */
static inline u32 fxt_rolling_gen(struct fxt_cpu *c)
{
	return fxt_rolling_gen_of(local_read(FXT_LOCAL(c->hdr->rolling_current)));
}

/**
 * fxt_rolling_make_room() - circular mode: roll now unless @len bytes fit
 * @c: this CPU's state; preemption disabled
 * @len: bytes about to be written in a row
 *
 * A record and the names written just before it (fxt_names.c) then land in
 * the same buffer, as long as no nested writer fills it meanwhile: the
 * tail left unused is at most @len, and the data end says where it starts.
 */
static inline void fxt_rolling_make_room(struct fxt_cpu *c, unsigned int len)
{
	long old = local_read(FXT_LOCAL(c->hdr->rolling_current));

	if (unlikely(!fxt_rolling_fits(c, old, len)))
		fxt_rolling_make_room_slow(c, old);
}

/*
 * One try at reserving @len bytes where the reserve word @old points (they
 * fit): timestamp, then move the word on, unless a nested writer moved it
 * since it was read. The clock is read after the word, so records with
 * later offsets in a buffer never have earlier timestamps. Returns the
 * record, or NULL when the word moved (read it again). @clock false: *@ts
 * is the caller's, read with interrupts off since (fxt_rolling_reserve_at()).
 */
static __always_inline u64 *__fxt_rolling_try(struct fxt_cpu *c, long old,
					      unsigned int len, u64 *ts,
					      unsigned int *bufno, bool clock)
{
	local_t *cur = FXT_LOCAL(c->hdr->rolling_current);
	unsigned int b = ((u64)old >> FXT_ROLLING_OFFSET_BITS) & 1;

	if (clock)
		*ts = ktime_get_boot_fast_ns();
	if (unlikely(local_cmpxchg(cur, old, old + len) != old))
		return NULL;
	*bufno = b;
	return (u64 *)(c->rolling[b] + (old & FXT_ROLLING_OFFSET_MASK));
}

static inline u64 *fxt_rolling_try(struct fxt_cpu *c, long old,
				   unsigned int len, u64 *ts,
				   unsigned int *bufno)
{
	return __fxt_rolling_try(c, old, len, ts, bufno, true);
}

/**
 * fxt_rolling_reserve() - reserve a rolling record and timestamp it
 * @c: this CPU's state; preemption disabled
 * @len: record length in bytes, a multiple of 8
 * @ts: set to the record's timestamp
 * @bufno: set to the buffer to pass to fxt_rolling_commit()
 *
 * The flags test is broader than a stopped CPU (circular mode only): in
 * the other modes a full durable buffer also sends records the long way,
 * where they are kept; and a CPU that dropped a record refuses the next
 * ones the long way until it rolls, though a shorter one may still fit
 * (fxt_rolling_switch()).
 *
 * Return: where to write the record, or NULL if it was dropped (counted).
 */
static __always_inline u64 *
fxt_rolling_reserve_fast(struct fxt_cpu *c, unsigned int len, u64 *ts,
			 unsigned int *bufno, bool clock)
{
	long old = local_read(FXT_LOCAL(c->hdr->rolling_current));
	u64 *p;

	if (likely(!READ_ONCE(fxt_session.freeze_at)) &&
	    likely(!(READ_ONCE(c->hdr->flags) &
		     (FXT_CPU_DURABLE_FULL | FXT_CPU_ROLLING_FULL))) &&
	    likely(fxt_rolling_fits(c, old, len))) {
		p = __fxt_rolling_try(c, old, len, ts, bufno, clock);
		if (likely(p))
			return p;
	}
	return fxt_rolling_reserve_slow(c, len, ts, bufno);
}

static inline u64 *fxt_rolling_reserve(struct fxt_cpu *c, unsigned int len,
				       u64 *ts, unsigned int *bufno)
{
	return fxt_rolling_reserve_fast(c, len, ts, bufno, true);
}

/**
 * fxt_rolling_reserve_at() - fxt_rolling_reserve() for a time already read
 * @c: this CPU's state; interrupts off since @at was read
 * @len: record length in bytes, a multiple of 8
 * @at: the record's timestamp, read by the caller
 * @bufno: set to the buffer to pass to fxt_rolling_commit()
 *
 * A switch into D reads its time before the walk for the function blocked
 * in (fxt_emit_switch_sleep()): reading the clock again here would only be
 * thrown away. With interrupts off no record of this CPU can come in
 * between, so the buffer stays in time order. The long way (a roll, a
 * full buffer) reads the clock itself; the record is stamped @at anyway.
 *
 * Return: where to write the record, or NULL if it was dropped (counted).
 */
static inline u64 *fxt_rolling_reserve_at(struct fxt_cpu *c, unsigned int len,
					  u64 at, unsigned int *bufno)
{
	u64 ts = at;

	return fxt_rolling_reserve_fast(c, len, &ts, bufno, false);
}

/**
 * fxt_rolling_commit() - publish a record fxt_rolling_reserve() reserved
 * @c: this CPU's state; preemption disabled
 * @len: the record's length in bytes, as reserved
 * @bufno: what fxt_rolling_reserve() put in its @bufno
 */
static inline void fxt_rolling_commit(struct fxt_cpu *c, unsigned int len,
				      unsigned int bufno)
{
	struct fxt_buffer_header *h = c->hdr;

	/* The record's words before the count that publishes them. */
	smp_wmb();
	local_add(len, FXT_LOCAL(h->rolling_committed[bufno]));
	local_inc(FXT_LOCAL(h->records_written));
}

#endif /* _FXT_BUFFER_H */
