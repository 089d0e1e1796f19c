/* SPDX-License-Identifier: MIT */
/*
 * report.h - fxt-report's scheduling statistics, shared by its parts:
 *
 *   report_events.c    records of each cursor -> struct ev, in time order
 *   report_stats.c     events -> per-thread, per-CPU and per-handler sums
 *   report_pipeline.c  the analysis on a second thread (--threads 2)
 *   report_print.c     the tables, as text or CSV
 *   report_triggers.c  the latency triggers' events, their own section
 *   report_blocked.c   sleeps in D by the function blocked in: names
 *                      (reading side), samples (analysis), their section
 *   report_power.c     cpu_idle and cpu_frequency events: per-CPU idle
 *                      residency and mean frequency, their section
 *   report_losses.c    fxt-collect's loss records (fxt/lost): the gaps
 *                      (reading side), their figures, the Losses section;
 *                      what a gap does to threads and CPUs is report_stats.c's
 *
 * Internal to the tools: not part of libfxt.h.
 */
#ifndef LIBFXT_REPORT_H
#define LIBFXT_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "hist.h"
#include "libfxt.h"
#include "name_intern.h"
#include "outbuf.h"
#include "u64map.h"

#define IRQ_STACK	16
#define NO_THREAD	UINT32_MAX	/* no thread state index */
#define DIRECT_TIDS	(1u << 22)	/* Linux PID_MAX_LIMIT: tids below index directly */
#define DIRECT_CHUNK	4096
#define MAX_CPUS	65536

enum tstate {
	T_UNKNOWN,
	T_RUNNING,
	T_PREEMPTED,	/* runnable, switched out by preemption */
	T_WOKEN,	/* runnable after a wakeup */
	T_SLEEPING,	/* blocked or suspended */
	T_DEAD,
};

/*
 * The kind of sleep a thread switched out blocked (FXT state 3) went into
 * (tstat.sleep): D when a sleep event "D" came before the switch, else S
 * (I and P, idle sleeps, count as S). Suspended threads: SL_NONE.
 */
enum sleep_kind { SL_NONE, SL_S, SL_D };

/*
 * What every switch and wakeup touches: one cache line per thread. A
 * thread is T_WOKEN from a wakeup until it is switched in or out: since
 * is the time of that wakeup.
 */
struct tstat {
	uint64_t since;		/* ns: entered state */
	uint64_t run_ns, wait_ns, wait_max;
	uint64_t pid;
	struct hist *delays;	/* allocated at the first sample */
	uint32_t switches, preempts, wakeups;
	uint8_t state;		/* enum tstate */
	uint8_t sleep;		/* T_SLEEPING (and T_WOKEN): enum sleep_kind */
	uint16_t cpu;		/* T_RUNNING: the CPU it was switched in on */
} __attribute__((aligned(64)));
_Static_assert(sizeof(struct tstat) == 64, "struct tstat is one cache line");

/*
 * What only sleeps touch, by the same index as the hot tstat: the time in
 * S and in D, the longest D, and the function of the D sleep under way.
 */
struct tsleep {
	uint64_t s_ns, d_ns, d_max;
	uint32_t d_fn;		/* blocked_in function id of the current D */
};

/* One D sleep, ended (report_blocked.c): its function, thread, length. */
struct dsample {
	uint32_t fn;
	uint32_t thread;	/* tstat index */
	uint64_t ns;
};

struct irqframe {
	uint64_t start, child_ns;
	uint32_t handler;
	bool soft;
};

struct cstat {
	bool seen;		/* a switch was seen: the window is open */
	bool cur_valid;
	uint64_t cur_tid;
	uint64_t first, since;
	uint64_t busy_ns, idle_ns;
	uint64_t irq_ns, softirq_ns;
	uint64_t switches, dropped;
	bool dropped_seen;
	unsigned int depth;
	uint32_t irq_from;	/* one thread: 1 + the cursor of its first interrupt */
	uint32_t switch_from;	/* and of its first switch */
	struct irqframe stack[IRQ_STACK];
};

/* Handler names belong to the reading thread, their statistics to the analysis. */
struct handler {
	char name[64];
	uint8_t len;
	bool soft;
	uint64_t count, total_ns, max_ns;	/* copied from hstats at the end */
};

/* A latency trigger's event (report_triggers.c). */
struct trigger_ev {
	uint64_t ts;		/* ns */
	uint64_t tid, pid;	/* the thread it is on */
	uint64_t latency_ns, threshold_ns;
	uint32_t cpu;		/* UINT32_MAX: unknown */
	uint32_t index;		/* its "trigger" argument, UINT32_MAX if none */
	char kind[24];		/* "?" if none */
	bool first;
};

struct hstat {
	uint64_t count, total_ns, max_ns;
};

#define DELAY_LINE	16

struct pending {
	struct hist *h;
	uint64_t v;
};

/*
 * The reading side and the analysis side each write only their own half,
 * and the halves sit on different cache lines (no false sharing).
 */
struct report {
	struct fxt_merge *m;
	struct fxt_reader *from;	/* reader of the current record */

	/* reading side: handler names, time span */
	_Alignas(64) struct handler *handlers;
	size_t nhandlers, hcap;
	struct fxt_name_intern hnames;	/* soft or hard, and name: id in handlers */
	uint64_t first_ns, last_ns;	/* UINT64_MAX and 0 until a timestamp */
	struct trigger_ev *triggers;	/* in the order read */
	size_t ntriggers, trcap;
	struct fxt_name_intern fns;	/* blocked_in names by function id; "" if none */

	/* analysis side */
	_Alignas(64) struct tstat *threads;	/* hot state, 64-byte aligned */
	uint64_t *tids;		/* by the same index: cold */
	struct tsleep *sleeps;	/* by the same index: touched by sleeps only */
	struct dsample *dsamples;	/* every D sleep that ended */
	size_t ndsamples, dscap;
	size_t nthreads, tcap;
	uint32_t *direct[DIRECT_TIDS / DIRECT_CHUNK];	/* tid -> index + 1 */
	struct u64map tmap;		/* other koids -> index */
	struct cstat *cpus;
	size_t ncpus;
	struct hstat *hstats;	/* by handler id */
	size_t nhstats;
	struct power *power;	/* report_power.c; NULL until a power event */
	struct losses *losses;	/* report_losses.c; NULL until a gap */
	/*
	 * Gaps (EV_GAP) under way (report_stats.c, "Gaps"): the earliest end
	 * of those, and gap_gate, 0 while one is, UINT64_MAX (both) when none.
	 */
	uint64_t gap_end, gap_gate;
	uint64_t switches, wakeups;
	bool early;		/* one thread: per-CPU parts applied when decoded */
	bool irqs_mixed;	/* a CPU's interrupts came from two cursors */
	bool switches_mixed;	/* a CPU's switches came from two cursors */
	struct pending pending[DELAY_LINE];	/* histogram samples on their way */
	unsigned int pend_head;
	char pad[64];
};

/* ------------------------------------------------------------------ */
/* Events: the reading side turns records into struct ev, the analysis  */
/* side applies them.                                                    */

enum ev_kind {
	EV_SWITCH, EV_WAKEUP, EV_IRQ_BEGIN, EV_IRQ_END, EV_DROP,
	EV_MARK,	/* only a place in the time order (see keep_order()) */
	EV_POWER,	/* cpu_idle or cpu_frequency (report_power.c) */
	EV_GAP,		/* CPU cpu lost records from ts to in_tid (report_losses.c) */
};

#define EVF_OUT		(1u << 0)	/* outgoing thread known */
#define EVF_IN		(1u << 1)	/* incoming thread known */
#define EVF_PIDS	(1u << 2)	/* pids valid (subtype 0 switch) */
#define EVF_SOFT	(1u << 3)	/* softirq, not a hard interrupt */
#define EVF_FREQ	(1u << 4)	/* power: cpu_frequency, not cpu_idle */

struct ev {
	uint64_t ts;		/* ns */
	uint64_t out_tid;	/* switch; wakeup: woken; drop, gap: records lost */
	uint64_t out_pid;
	uint64_t in_tid;	/* switch; gap: its end (ns) */
	uint64_t in_pid;
	uint32_t handler;	/* irq begin: handler id, UINT32_MAX unknown; */
				/* switch with sleep 'D': blocked_in function id; */
				/* power: the state (idle state, or kHz) */
	uint32_t out_idx;	/* analysis: thread state index of out_tid, or NO_THREAD */
	uint32_t in_idx;	/* analysis: thread state index of in_tid, or NO_THREAD */
	uint16_t cpu;		/* power: the CPU the event is about (cpu_id); */
				/* gap: the CPU that lost records */
	uint8_t kind;		/* enum ev_kind */
	uint8_t flags;		/* EVF_* */
	uint8_t out_state;
	uint8_t sleep;		/* switch: the sleep event's letter before it, or 0 */
};

static inline bool ev_is_irq(const struct ev *e)
{
	return e->kind == EV_IRQ_BEGIN || e->kind == EV_IRQ_END;
}

/* ------------------------------------------------------------------ */
/* Records to events, in time order (report_events.c).                  */

struct progress;
/*
 * Hand out the events of m's records in time order: applied here (p NULL:
 * one thread, or replaying: only the per-CPU parts that were mixed), or
 * in blocks to the analysis thread p. early: one thread, per-CPU parts
 * applied as decoded (report_early()). -1 without memory.
 */
struct pipeline;
int report_drain(struct report *rp, struct fxt_merge *m, struct pipeline *p,
		 bool early, bool replaying, struct progress *pg);

/* ------------------------------------------------------------------ */
/* Two threads (report_pipeline.c): blocks of events to the analysis.   */

#define BLOCK_EVENTS	2048

/* The analysis of rp on a second thread; NULL without memory or thread. */
struct pipeline *pipeline_start(struct report *rp);
/* The block to fill next (BLOCK_EVENTS events). */
struct ev *pipeline_block(struct pipeline *p);
/* Hand the block over with its n events; waits for a free one. */
void pipeline_submit(struct pipeline *p, unsigned int n);
/* Wait for the analysis to apply everything handed over, and free p. */
void pipeline_stop(struct pipeline *p);

/* ------------------------------------------------------------------ */
/* Output (report_print.c).                                             */

/* Index of a --sort key name, or -1. */
int report_sort_key(const char *name);
void report_print(struct report *rp, struct outbuf *o, const char *path,
		  int sort, long top, bool csv);

/* ------------------------------------------------------------------ */
/* Sleeps in D by function (report_blocked.c).                          */

/* The id of a blocked_in name (reading side); UINT32_MAX without memory. */
uint32_t report_blocked_fn(struct report *rp, struct fxt_str name);
/* A D sleep of thread idx in function fn ended after ns (analysis side). */
void report_blocked_sample(struct report *rp, uint32_t fn, uint32_t idx, uint64_t ns);
/* The Blocked in section, by D time; nothing without D sleeps. */
void report_print_blocked(struct report *rp, struct outbuf *o, long top, bool csv);
void report_blocked_free(struct report *rp);
/* The Processes section (report_processes.c): parent, threads, times. */
void report_print_processes(struct report *rp, struct outbuf *o, long top, bool csv);
/* A thread's name (report_names.c): for one that exited, its name then. */
const char *report_comm_of(const struct report *rp, const struct tstat *t);

/* ------------------------------------------------------------------ */
/* Latency triggers (report_triggers.c).                                */

/* Keep rec if it is a trigger's event (reading side): true if it is one. */
bool report_trigger_record(struct report *rp, const struct fxt_record *rec);
/* The Triggers section, in time order; nothing without triggers. */
void report_print_triggers(struct report *rp, struct outbuf *o, bool csv);

/* ------------------------------------------------------------------ */
/* Power: cpu_idle and cpu_frequency (report_power.c).                  */

/* A blob record's power event as e (reading side): false if it has none. */
bool report_power_event(const struct fxt_record *rec, struct ev *e);
/* Apply a power event, in time order (analysis side). */
void report_power_apply(struct report *rp, const struct ev *e);
/* Count every CPU's current idle state and frequency up to end. */
void report_power_finish(struct report *rp, uint64_t end);
/* The Power section; nothing without power events. */
void report_print_power(struct report *rp, struct outbuf *o, bool csv);
void report_power_free(struct report *rp);

/* ------------------------------------------------------------------ */
/* Losses: fxt-collect's fxt/lost records (report_losses.c).            */

/*
 * A loss record read from r as e, an EV_GAP (reading side): false if rec
 * is none, or a malformed one (no "cpu" or "records", an end before its
 * start, a CPU from MAX_CPUS on).
 */
bool report_gap_event(const struct fxt_reader *r, const struct fxt_record *rec,
		      struct ev *e);
/* Count gap e in the Losses figures (analysis side, once per gap). */
void report_losses_add(struct report *rp, const struct ev *e);
/* A gap ending at end is under way; false without memory. */
bool report_losses_open(struct report *rp, uint64_t end);
/*
 * The gaps ended by ts (ends <= ts) are over: the earliest end of those
 * still under way, UINT64_MAX if none.
 */
uint64_t report_losses_close(struct report *rp, uint64_t ts);
/* The Losses section; nothing without gaps. */
void report_print_losses(struct report *rp, struct outbuf *o, bool csv);
void report_losses_free(struct report *rp);

#endif /* LIBFXT_REPORT_H */
