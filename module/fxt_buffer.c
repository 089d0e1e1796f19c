// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_buffer.c - per-CPU durable and rolling buffers: the writers' side
 * (reserve, commit, roll, drop) and the collector's hand-shake over saved
 * buffers. fxt_buffer_setup.c allocates, lays out and empties them.
 *
 * Lock-free per-CPU buffers, split the Fuchsia way; oneshot, circular and
 * streaming modes. Documentation/buffers.rst has the diagrams; in short:
 *
 * Each CPU owns one region of the mapped area: a header page (struct
 * fxt_buffer_header, read by the collector), a durable buffer for records
 * that give meaning to others (strings, threads, names) and that is never
 * overwritten, and two rolling buffers for everything else. Oneshot mode
 * uses the two rolling halves as one buffer.
 *
 * Writers are the probes of one CPU: task, softirq and hardirq contexts that
 * nest, never run in parallel, and never sleep. A writer reserves space with
 * local_cmpxchg() on the CPU's reserve word, fills the record, then adds its
 * length to the buffer's commit count with local_add(). A nested writer
 * completes before the writer it interrupted resumes, so a buffer is
 * complete exactly when its commit count equals its data end. The timestamp
 * is read inside the reserve loop: if a nested writer reserves between our
 * clock read and our cmpxchg, the cmpxchg fails and we read the clock again,
 * so records are in time order within each CPU's buffers.
 *
 * The rolling reserve word packs (wrapped count << 32 | offset) so that a
 * switch to the other rolling buffer is one store. Switching is the slow
 * path and runs with interrupts off, which makes "reset the next buffer,
 * close the current one, switch" one step for every writer on the CPU.
 */
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/timekeeping.h>
#include <linux/nospec.h>
#include <asm/local.h>
#include "fxt.h"
#include "fxt_buffer.h"

/*
 * No room is made this close before the window closes: more than a
 * probe takes from making room to reserving its record, with interrupts
 * off (fxt_rolling_make_room_slow()).
 */
#define FXT_MAKE_ROOM_MARGIN_NS	(1000 * 1000)
static void fxt_flag_set(struct fxt_cpu *c, u64 flag)
{
	unsigned long irqflags;

	/* Writers of this CPU nest: make the read-modify-write one step. */
	local_irq_save(irqflags);
	WRITE_ONCE(c->hdr->flags, READ_ONCE(c->hdr->flags) | flag);
	local_irq_restore(irqflags);
}

/* Circular mode cannot keep a record that refers to a lost durable one. */
static bool fxt_cpu_stopped(struct fxt_cpu *c)
{
	return unlikely(READ_ONCE(c->hdr->flags) & FXT_CPU_DURABLE_FULL) &&
	       c->hdr->mode == FXT_MODE_CIRCULAR;
}

/*
 * The window closes within @margin ns from now, or has: the buffers keep
 * what they hold. Only called once a window is open (freeze_at set).
 */
static bool fxt_window_closes_within(u64 margin)
{
	u64 at = READ_ONCE(fxt_session.freeze_at);

	return at && ktime_get_boot_fast_ns() + margin >= at;
}

/*
 * The window closed, a trigger's or the stop's (fxt_session.freeze_at):
 * the buffers keep what they hold.
 */
static bool fxt_window_closed(void)
{
	return unlikely(READ_ONCE(fxt_session.freeze_at)) &&
	       fxt_window_closes_within(0);
}

/*
 * Roll from the full current buffer to the other one. @old is the reserve
 * word the caller found full. Returns true when the caller should retry,
 * false when the record must be dropped. @drop: the caller's record is
 * dropped if no roll happens, and counted here, with interrupts off like
 * the roll: a nested writer's roll, which notes the count in the buffer it
 * rolls into (rolling_lost_before[]), then sees it or not whole, and the
 * collector places every drop between the right two buffers.
 */
static bool fxt_rolling_switch(struct fxt_cpu *c, long old, bool drop)
{
	struct fxt_buffer_header *h = c->hdr;
	local_t *cur = FXT_LOCAL(h->rolling_current);
	u32 wrapped = (u64)old >> FXT_ROLLING_OFFSET_BITS;
	unsigned int b = wrapped & 1, nb = b ^ 1;
	unsigned long irqflags;
	bool retry = true;

	if (h->mode == FXT_MODE_ONESHOT) {
		if (!(READ_ONCE(h->flags) & FXT_CPU_ROLLING_FULL))
			fxt_flag_set(c, FXT_CPU_ROLLING_FULL);
		/* Nothing ever rolls: counting it later is the same. */
		if (drop)
			local_inc(FXT_LOCAL(h->records_dropped));
		return false;
	}

	local_irq_save(irqflags);
	if (local_read(cur) != old)
		goto out;		/* a nested writer moved on: retry */
	/*
	 * A circular CPU whose trigger window closed, or that stopped (its
	 * durable buffer is full), never rolls: rolling would empty the older
	 * buffer, the context before the trigger, and lose it uncounted.
	 * The caller's record is refused as every record after the freeze is.
	 */
	if (h->mode == FXT_MODE_CIRCULAR &&
	    (fxt_cpu_stopped(c) || fxt_window_closed())) {
		retry = false;
		goto out;
	}
	if (h->mode == FXT_MODE_STREAMING && !test_bit(nb, &c->ready)) {
		/* The collector has not saved it yet: drop until it has. */
		retry = false;
		goto out;
	}
	/*
	 * Circular and streaming modes reuse the other buffer. A writer this
	 * one interrupted may still hold a reservation there, from before the
	 * last roll (the nested writers since then filled a whole buffer: an
	 * interrupt whose softirqs wake many tasks while a fork's name is
	 * being written), or a writer stalled there (a preempted vCPU) while
	 * the collector gave up waiting for it and handed the buffer back.
	 * Emptying it would let new records overwrite that one and its commit
	 * count in the next generation's: drop this record instead (counted),
	 * as LTTng refuses such a switch, until the stalled writer commits.
	 * The collector is trusted with nothing here.
	 */
	if (local_read(FXT_LOCAL(h->rolling_committed[nb])) !=
	    READ_ONCE(h->rolling_data_end[nb])) {
		retry = false;
		goto out;
	}
	local_set(FXT_LOCAL(h->rolling_committed[nb]), 0);
	WRITE_ONCE(h->rolling_data_end[nb], 0);
	WRITE_ONCE(h->rolling_data_end[b], old & FXT_ROLLING_OFFSET_MASK);
	/* What was lost before this buffer's first record: after b's last. */
	WRITE_ONCE(h->rolling_lost_before[nb],
		   local_read(FXT_LOCAL(h->records_dropped)));
	/* Order the resets and the data end before the new reserve word. */
	smp_wmb();
	local_set(cur, (long)((u64)(wrapped + 1) << FXT_ROLLING_OFFSET_BITS));
	if (h->mode == FXT_MODE_STREAMING) {
		clear_bit(nb, &c->ready);
		c->save_wrapped = wrapped;
		c->save_durable_end =
			local_read(FXT_LOCAL(h->durable_reserved));
		/* The request's data before the flag fxt_save_work_fn() reads. */
		smp_wmb();
		WRITE_ONCE(c->save_pending, true);
		/* Probes can hold the runqueue lock: wake the reader later. */
		irq_work_queue(&c->save_work);
	}
	/* Records fit again. */
	if (READ_ONCE(h->flags) & FXT_CPU_ROLLING_FULL)
		WRITE_ONCE(h->flags, h->flags & ~(u64)FXT_CPU_ROLLING_FULL);
out:
	/*
	 * The window closed: the record is refused, not lost. Else
	 * it is counted, and every later record of the CPU is refused too
	 * until a roll (FXT_CPU_ROLLING_FULL sends them the long way), though
	 * a shorter one may still fit: records are then lost only after the
	 * buffer's last one, where the count noted at the roll puts them.
	 */
	if (!retry && drop && !fxt_window_closed()) {
		local_inc(FXT_LOCAL(h->records_dropped));
		if (!(READ_ONCE(h->flags) & FXT_CPU_ROLLING_FULL))
			WRITE_ONCE(h->flags, h->flags | FXT_CPU_ROLLING_FULL);
	}
	local_irq_restore(irqflags);
	return retry;
}

/* Reserve in the current rolling buffer, rolling over if needed. */
static u64 *__fxt_rolling_reserve(struct fxt_cpu *c, unsigned int len,
				  u64 *ts, unsigned int *bufno)
{
	local_t *cur = FXT_LOCAL(c->hdr->rolling_current);
	long old;
	u64 *p;

	for (;;) {
		old = local_read(cur);
		/* Refusing (a record was dropped): only a roll takes it. */
		if (likely(fxt_rolling_fits(c, old, len)) &&
		    !(READ_ONCE(c->hdr->flags) & FXT_CPU_ROLLING_FULL)) {
			p = fxt_rolling_try(c, old, len, ts, bufno);
			if (likely(p))
				return p;
			continue;	/* a nested writer moved on */
		}
		if (!fxt_rolling_switch(c, old, true))
			return NULL;	/* dropped, counted */
	}
}

/**
 * fxt_rolling_make_room_slow() - fxt_rolling_make_room() once the bytes it
 *	makes room for do not fit
 * @c: this CPU's state; preemption disabled
 * @old: the reserve word fxt_rolling_make_room() read
 */
void fxt_rolling_make_room_slow(struct fxt_cpu *c, long old)
{
	/*
	 * A roll here empties the older buffer for the records written next:
	 * not when the window closes before they would be. They go
	 * the slow way, which rolls and reserves in one loop if the window
	 * is still open, and the older buffer keeps its records.
	 */
	if (unlikely(READ_ONCE(fxt_session.freeze_at)) &&
	    fxt_window_closes_within(FXT_MAKE_ROOM_MARGIN_NS))
		return;
	fxt_rolling_switch(c, old, false);
}

/**
 * fxt_rolling_reserve_slow() - fxt_rolling_reserve() beyond its fast path
 * @c: this CPU's state; preemption disabled
 * @len: record length in bytes, a multiple of 8
 * @ts: set to the record's timestamp
 * @bufno: set to the buffer to pass to fxt_rolling_commit()
 *
 * Every check again, in full: the window (a trigger's, the stop's), a
 * stopped CPU, a roll, a nested writer that moved the reserve word.
 *
 * Return: where to write the record, or NULL if it was dropped (counted).
 */
u64 *fxt_rolling_reserve_slow(struct fxt_cpu *c, unsigned int len, u64 *ts,
			      unsigned int *bufno)
{
	/* The window closed (a trigger, a stop): nothing more, nothing lost. */
	if (fxt_window_closed())
		return NULL;
	if (fxt_cpu_stopped(c)) {
		local_inc(FXT_LOCAL(c->hdr->records_dropped));
		return NULL;
	}
	/* A drop there is counted there; one the window refused is not. */
	return __fxt_rolling_reserve(c, len, ts, bufno);
}

/**
 * fxt_durable_reserve() - reserve a durable record
 * @c: this CPU's state; preemption disabled
 * @len: record length in bytes, a multiple of 8
 * @where: set to what to pass to fxt_durable_commit()
 *
 * When the durable buffer is full, circular mode stops recording on this
 * CPU (as Fuchsia's engine does): the rolling buffers get overwritten, and
 * a kept record that refers to a lost durable record would be garbage. In
 * oneshot and streaming modes nothing rolling is ever overwritten, so the
 * durable record goes to the rolling buffer instead, still ahead of every
 * record that refers to it, and the trace goes on.
 *
 * Return: where to write the record, or NULL if it was dropped (counted).
 */
u64 *fxt_durable_reserve(struct fxt_cpu *c, unsigned int len, int *where)
{
	struct fxt_buffer_header *h = c->hdr;
	local_t *res = FXT_LOCAL(h->durable_reserved);
	unsigned int bufno;
	u64 ts, *p = NULL;
	long old;

	if (unlikely(READ_ONCE(h->flags) & FXT_CPU_DURABLE_FULL))
		goto full;
	do {
		old = local_read(res);
		if (unlikely(old + len > c->durable_size)) {
			fxt_flag_set(c, FXT_CPU_DURABLE_FULL);
			goto full;
		}
	} while (local_cmpxchg(res, old, old + len) != old);
	*where = FXT_IN_DURABLE;
	return (u64 *)(c->durable + old);
full:
	/* Past the window's end nothing is written, nor counted. */
	if (fxt_window_closed())
		return NULL;
	if (h->mode != FXT_MODE_CIRCULAR) {
		p = __fxt_rolling_reserve(c, len, &ts, &bufno);
		*where = bufno;
	}
	if (!p)
		local_inc(FXT_LOCAL(h->durable_dropped));
	return p;
}

/**
 * fxt_durable_commit() - publish a record fxt_durable_reserve() reserved
 * @c: this CPU's state; preemption disabled
 * @len: the record's length in bytes, as reserved
 * @where: what fxt_durable_reserve() put in its @where
 */
void fxt_durable_commit(struct fxt_cpu *c, unsigned int len, int where)
{
	struct fxt_buffer_header *h = c->hdr;

	/* The record's words before the count that publishes them. */
	smp_wmb();
	if (where == FXT_IN_DURABLE)
		local_add(len, FXT_LOCAL(h->durable_committed));
	else
		local_add(len, FXT_LOCAL(h->rolling_committed[where]));
	local_inc(FXT_LOCAL(h->durable_records));
}

/**
 * fxt_save_work_fn() - post a CPU's SAVE_BUFFER request
 * @work: the CPU's save_work, queued by the roll that made the request
 *
 * Hard interrupt context, PREEMPT_RT included: no sleeping lock here.
 */
void fxt_save_work_fn(struct irq_work *work)
{
	struct fxt_cpu *c = container_of(work, struct fxt_cpu, save_work);

	if (!READ_ONCE(c->save_pending))
		return;
	/* Pairs with the smp_wmb() in fxt_rolling_switch(). */
	smp_rmb();
	fxt_packet_post_hardirq(&fxt_session, FXT_PKT_SAVE_BUFFER, c->cpu,
				c->save_wrapped, c->save_durable_end);
}

/**
 * fxt_buffer_saved() - the collector saved the buffer a request named
 * @s: the session, streaming; s->lock held
 * @pkt: a BUFFER_SAVED packet with the request's cpu, data32 and data64
 *
 * Return: 0, or -EINVAL when no such request is outstanding or its
 * SAVE_BUFFER packet has not been read yet.
 */
int fxt_buffer_saved(struct fxt_session *s, const struct fxt_packet *pkt)
{
	unsigned int cpu = pkt->cpu;
	struct fxt_cpu *c;

	if (pkt->request != FXT_PKT_BUFFER_SAVED || cpu >= nr_cpu_ids)
		return -EINVAL;
	/* User space picks the index: no speculation past the bound. */
	cpu = array_index_nospec(cpu, nr_cpu_ids);
	c = s->cpus[cpu];
	if (!c)
		return -EINVAL;		/* not possible, or not traced */
	if (!READ_ONCE(c->save_pending) || pkt->data32 != c->save_wrapped ||
	    pkt->data64 != c->save_durable_end ||
	    !fxt_packets_take_delivered(s, cpu))
		return -EINVAL;
	WRITE_ONCE(c->save_pending, false);
	/* The request is answered before the buffer may be rolled into. */
	smp_mb__before_atomic();
	set_bit(pkt->data32 & 1, &c->ready);
	return 0;
}

/**
 * fxt_buffers_sync_notifications() - wait until no SAVE_BUFFER
 * notification is still on its way
 * @s: the session; its probes unregistered, so none is queued anew
 */
void fxt_buffers_sync_notifications(struct fxt_session *s)
{
	unsigned int cpu;

	for_each_cpu(cpu, s->traced)
		irq_work_sync(&s->cpus[cpu]->save_work);
}
