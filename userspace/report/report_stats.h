/* SPDX-License-Identifier: MIT */
/*
 * report_stats.h - fxt-report's analysis (report/report_stats.c): the
 * state of each thread, CPU and interrupt handler (report_state.c), and
 * the events applied to it; the state lookups inline, where every event
 * needs them.
 */
#ifndef FXT_REPORT_STATS_H
#define FXT_REPORT_STATS_H

#include "report.h"

/* ------------------------------------------------------------------ */
/* State lookups (report_state.c), inline where every event needs them. */

/* A new state for tid; NO_THREAD without memory. */
uint32_t report_thread_new(struct report *rp, uint64_t tid);
struct cstat *report_cpu_grow(struct report *rp, unsigned int cpu);
/* The handler named name, created when new; -1 without memory. */
int report_handler_get(struct report *rp, bool soft, struct fxt_str name);

/*
 * The index of tid's state, created when new. Linux tids (below
 * PID_MAX_LIMIT) index a table of 4096-entry chunks directly; other koids
 * (the interrupt pseudo-threads) go through a hash.
 */
static inline uint32_t report_thread_index(struct report *rp, uint64_t tid)
{
	if (tid < DIRECT_TIDS) {
		const uint32_t *c = rp->direct[tid / DIRECT_CHUNK];

		if (c && c[tid % DIRECT_CHUNK])
			return c[tid % DIRECT_CHUNK] - 1;
	} else {
		int64_t i = fxt_u64map_get(&rp->tmap, tid);

		if (i >= 0)
			return (uint32_t)i;
	}
	return report_thread_new(rp, tid);
}

static inline struct cstat *report_cpu_get(struct report *rp, unsigned int cpu)
{
	return cpu < rp->ncpus ? &rp->cpus[cpu] : report_cpu_grow(rp, cpu);
}

/* Find (or create) the state of the event's threads: e->out_idx, e->in_idx. */
static inline void report_resolve(struct report *rp, struct ev *e)
{
	e->out_idx = e->in_idx = NO_THREAD;
	if (e->kind == EV_SWITCH) {
		if ((e->flags & EVF_OUT) && e->out_tid)
			e->out_idx = report_thread_index(rp, e->out_tid);
		if ((e->flags & EVF_IN) && e->in_tid)
			e->in_idx = report_thread_index(rp, e->in_tid);
	} else if (e->kind == EV_WAKEUP && e->out_tid) {
		e->out_idx = report_thread_index(rp, e->out_tid);
	}
}

/* ------------------------------------------------------------------ */
/* Analysis (report_stats.c; the start and the end, report_state.c).   */

void report_init(struct report *rp, struct fxt_merge *m);
void report_free(struct report *rp);
/* Apply one event, its threads resolved, in time order. */
void report_apply(struct report *rp, const struct ev *e);
/* Apply a block of events in time order, resolving their threads. */
void report_apply_block(struct report *rp, struct ev *blk, unsigned int n);
/* One thread: the per-CPU part of an event of cursor, as it is decoded. */
void report_early(struct report *rp, unsigned int cursor, const struct ev *e);
/* The same for a gap (EV_GAP): its CPU's interrupts and busy time stop. */
void report_early_gap(struct report *rp, unsigned int cursor, const struct ev *e);
/* The per-CPU figures early() got from mixed cursors: forgotten... */
void report_forget_mixed(struct report *rp);
/* ...and applied again by this, in time order. */
void report_replay_event(struct report *rp, const struct ev *e);
/* Close the books at the last timestamp. */
void report_finish(struct report *rp);

#endif /* FXT_REPORT_STATS_H */
