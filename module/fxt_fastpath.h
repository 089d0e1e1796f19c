/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fxt_fastpath.h - the common case of a probe's write, inline.
 *
 * Every context switch looks up two threads and reserves, fills and
 * commits one record. Out of line, that was four calls and returns, each
 * an indirect jump that a TCG guest looks up and a real CPU predicts
 * through its return stack, for a few loads and stores each. Inline here
 * is only the case that needs nothing more: an indexed thread found in its
 * home slot; a record that fits the current rolling buffer, with no
 * window closed, the CPU not stopped, and no nested writer in between.
 * Anything else takes the out-of-line function, which checks everything
 * again from the start (fxt_tables.c, fxt_buffer.c): the fast path only
 * ever skips work whose outcome it has already seen.
 */
#ifndef _FXT_FASTPATH_H
#define _FXT_FASTPATH_H

#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/timekeeping.h>
#include <asm/local.h>
#include "fxt.h"

/* The slot the thread table's linear probe for @tid starts at. */
static inline u32 fxt_thread_home(u32 tid)
{
	return hash_32(tid, ilog2(FXT_THREAD_SLOTS));
}

/**
 * fxt_thread_ref() - the thread ref to write for @p on this CPU
 * @c: this CPU; called from the sched_switch probe only
 * @p: the task
 *
 * Return: a thread index, or 0 for "write the koids inline".
 */
static inline u8 fxt_thread_ref(struct fxt_cpu *c, struct task_struct *p)
{
	const struct fxt_thread_slot *slot =
		&c->threads[fxt_thread_home(p->pid)];

	/* Indexed, and the same thread: a reused tid has another tgid. */
	if (likely(slot->index && slot->tid == p->pid && slot->tgid == p->tgid))
		return slot->index;
	return fxt_thread_ref_slow(c, p);
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
 * where they are kept.
 *
 * Return: where to write the record, or NULL if it was dropped (counted).
 */
static inline u64 *fxt_rolling_reserve(struct fxt_cpu *c, unsigned int len,
				       u64 *ts, unsigned int *bufno)
{
	struct fxt_buffer_header *h = c->hdr;
	local_t *cur = FXT_LOCAL(h->rolling_current);
	long old = local_read(cur);
	u64 off = old & FXT_ROLLING_OFFSET_MASK;

	if (likely(!READ_ONCE(fxt_session.trig.freeze_at) &&
		   !(READ_ONCE(h->flags) & FXT_CPU_DURABLE_FULL) &&
		   off + len <= c->rolling_size)) {
		*ts = ktime_get_boot_fast_ns();
		if (likely(local_cmpxchg(cur, old, old + len) == old)) {
			*bufno = ((u64)old >> FXT_ROLLING_OFFSET_BITS) & 1;
			return (u64 *)(c->rolling[*bufno] + off);
		}
	}
	return fxt_rolling_reserve_slow(c, len, ts, bufno);
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

#endif /* _FXT_FASTPATH_H */
