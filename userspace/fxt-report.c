// SPDX-License-Identifier: MIT
/*
 * fxt-report - scheduling statistics of an FXT archive, in time order.
 *
 * Per thread: run time, switches in, preemptions, runnable wait (time
 * preempted but runnable until it runs again), wakeups and the scheduling
 * delay from a wakeup to the next switch in (p50/p90/p99/max from a
 * log-linear histogram, lib/hist.h). Per CPU: busy and idle time (idle is
 * thread koid 0), hard and soft interrupt time, switches, dropped records.
 * Per interrupt handler: count, time, average and maximum. Interrupt time
 * is exclusive: a hard interrupt nested in a softirq counts for the hard
 * interrupt only.
 *
 * Memory is per thread, per CPU and per handler name; records stream
 * through libfxt's merge (lib/merge.c: a first pass over the record
 * headers of the whole file, then each record decoded once; once more
 * only when two providers hold interrupts or switches of the same CPU,
 * see early()).
 */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hist.h"
#include "libfxt.h"
#include "outbuf.h"
#include "progress.h"
#include "u64map.h"

static const char usage[] =
"Usage: fxt-report [OPTION]... FILE\n"
"Scheduling statistics of an FXT archive, computed while streaming it.\n"
"FILE may be - for standard input.\n"
"\n"
"  -n, --top N      rows per table (default 20, 0 for all; with --csv all\n"
"                   rows unless --top is given)\n"
"  -s, --sort KEY   order of the thread table, largest first:\n"
"                   run (default), switches, preempt, wait, wakeups,\n"
"                   delay (maximum scheduling delay), avg, p50, p90, p99;\n"
"                   or tid, comm (ascending)\n"
"  -c, --csv        machine-readable CSV: one block per table (threads,\n"
"                   cpus, irqs), each with a header row, times in ns\n"
"  -j, --threads N  1 (default): decode and analyse on one thread; 2: the\n"
"                   analysis on a second thread, faster when a second CPU\n"
"                   is idle, slower when it is busy; same output\n"
"  -h, --help       show this help and exit\n"
"\n"
"Threads: RUN time on CPU, SWITCHES (times switched in), PREEMPT (switched\n"
"out still runnable), RUNNABLE (time preempted-but-runnable until it ran\n"
"again), WAKEUPS, and DELAY: from a wakeup record to the next switch in,\n"
"as average, p50, p90, p99 and maximum (percentiles within 3%). A tid\n"
"reused by a later thread has a row per thread, each with its own name.\n"
"CPUs: time observed from the CPU's first context switch, BUSY and IDLE\n"
"(idle = thread koid 0), IRQ and SOFTIRQ time, switches, dropped records.\n"
"Interrupts: per handler name, exclusive of nested interrupts.\n"
"A progress indicator is shown on standard error when it is a terminal\n"
"and the archive is larger than 64 MiB.\n"
"Records are taken in time order across CPUs: a regular file is read twice\n"
"(first only for where each CPU's chunks are), a pipe once in file order.\n"
"Defects in the archive are summarised on standard error (fxt-dump --check\n"
"lists them); records that cannot be decoded are skipped.\n"
"Exit status: 0 success, 1 the archive could not be read to its end (the\n"
"report covers what was read), 2 usage error.\n";

static char out_mem[OUTBUF_SIZE + OUTBUF_SLACK];
static struct outbuf out;
static const char *prog = "fxt-report";
static struct progress pg;	/* standard error, on a terminal */

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
} __attribute__((aligned(64)));

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
	uint32_t hash;
	uint64_t count, total_ns, max_ns;	/* copied from hstats at the end */
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
	uint32_t *hslot;	/* hash of handlers: index + 1, 0 empty */
	size_t hslots;
	uint64_t first_ns, last_ns;	/* UINT64_MAX and 0 until a timestamp */

	/* analysis side */
	_Alignas(64) struct tstat *threads;	/* hot state, 64-byte aligned */
	uint64_t *tids;		/* by the same index: cold */
	size_t nthreads, tcap;
	uint32_t *direct[DIRECT_TIDS / DIRECT_CHUNK];	/* tid -> index + 1 */
	struct u64map tmap;		/* other koids -> index */
	struct cstat *cpus;
	size_t ncpus;
	struct hstat *hstats;	/* by handler id */
	size_t nhstats;
	uint64_t switches, wakeups;
	bool early;		/* one thread: per-CPU parts applied when decoded */
	bool irqs_mixed;	/* a CPU's interrupts came from two cursors */
	bool switches_mixed;	/* a CPU's switches came from two cursors */
	struct pending pending[DELAY_LINE];	/* histogram samples on their way */
	unsigned int pend_head;
	char pad[64];
};

/* ------------------------------------------------------------------ */
/* State lookups.                                                       */

/* A new state for tid; NO_THREAD without memory. */
static uint32_t thread_new(struct report *rp, uint64_t tid)
{
	struct tstat *t;
	if (rp->nthreads == rp->tcap) {
		size_t n = rp->tcap ? rp->tcap * 2 : 64;
		struct tstat *nt = aligned_alloc(64, n * sizeof(*nt));
		uint64_t *tids = realloc(rp->tids, n * sizeof(*tids));

		if (tids)
			rp->tids = tids;
		if (!nt || !tids) {
			free(nt);
			return NO_THREAD;
		}
		if (rp->nthreads)
			memcpy(nt, rp->threads, rp->nthreads * sizeof(*nt));
		free(rp->threads);
		rp->threads = nt;
		rp->tcap = n;
	}
	if (tid < DIRECT_TIDS) {
		uint32_t **c = &rp->direct[tid / DIRECT_CHUNK];

		if (!*c)
			*c = calloc(DIRECT_CHUNK, sizeof(**c));
		if (!*c)
			return NO_THREAD;
		(*c)[tid % DIRECT_CHUNK] = (uint32_t)rp->nthreads + 1;
	} else if (u64map_put(&rp->tmap, tid, (uint32_t)rp->nthreads)) {
		return NO_THREAD;
	}
	t = &rp->threads[rp->nthreads];
	memset(t, 0, sizeof(*t));
	t->pid = tid;
	rp->tids[rp->nthreads] = tid;
	return (uint32_t)rp->nthreads++;
}

/*
 * The index of tid's state, created when new. Linux tids (below
 * PID_MAX_LIMIT) index a table of 4096-entry chunks directly; other koids
 * (the interrupt pseudo-threads) go through a hash.
 */
static inline uint32_t thread_index(struct report *rp, uint64_t tid)
{
	if (tid < DIRECT_TIDS) {
		const uint32_t *c = rp->direct[tid / DIRECT_CHUNK];

		if (c && c[tid % DIRECT_CHUNK])
			return c[tid % DIRECT_CHUNK] - 1;
	} else {
		int64_t i = u64map_get(&rp->tmap, tid);

		if (i >= 0)
			return (uint32_t)i;
	}
	return thread_new(rp, tid);
}

static struct cstat *cpu_grow(struct report *rp, unsigned int cpu)
{
	if (cpu >= MAX_CPUS)
		return NULL;
	{
		size_t n = rp->ncpus ? rp->ncpus : 8;
		struct cstat *nc;

		while (n <= cpu)
			n *= 2;
		nc = realloc(rp->cpus, n * sizeof(*nc));
		if (!nc)
			return NULL;
		memset(nc + rp->ncpus, 0, (n - rp->ncpus) * sizeof(*nc));
		rp->cpus = nc;
		rp->ncpus = n;
	}
	return &rp->cpus[cpu];
}

static inline struct cstat *cpu_get(struct report *rp, unsigned int cpu)
{
	return cpu < rp->ncpus ? &rp->cpus[cpu] : cpu_grow(rp, cpu);
}

static uint32_t name_hash(bool soft, const char *s, size_t n)
{
	uint32_t h = soft ? 0x811c9dc5u ^ 0x5f : 0x811c9dc5u;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x01000193u;
	return h;
}

/* The handler named name: an open-addressing hash over rp->handlers. */
static int handler_get(struct report *rp, bool soft, struct fxt_str name)
{
	size_t n = name.data ? name.len : 0, i;
	const char *data = name.data ? name.data : "";
	struct handler *h;
	uint32_t hash;

	if (n > sizeof(h->name) - 1)
		n = sizeof(h->name) - 1;
	hash = name_hash(soft, data, n);
	if (rp->hslots) {
		for (i = hash & (rp->hslots - 1);; i = (i + 1) & (rp->hslots - 1)) {
			uint32_t v = rp->hslot[i];

			if (!v)
				break;
			h = &rp->handlers[v - 1];
			if (h->hash == hash && h->soft == soft && h->len == n &&
			    !memcmp(h->name, data, n))
				return (int)(v - 1);
		}
	}
	if ((rp->nhandlers + 1) * 2 > rp->hslots) {
		size_t ns = rp->hslots ? rp->hslots * 2 : 128, k;
		uint32_t *slots;

		if (ns > (1u << 20))
			return -1;
		slots = calloc(ns, sizeof(*slots));
		if (!slots)
			return -1;
		for (k = 0; k < rp->nhandlers; k++) {
			for (i = rp->handlers[k].hash & (ns - 1); slots[i]; i = (i + 1) & (ns - 1))
				;
			slots[i] = (uint32_t)k + 1;
		}
		free(rp->hslot);
		rp->hslot = slots;
		rp->hslots = ns;
	}
	if (rp->nhandlers == rp->hcap) {
		size_t c = rp->hcap ? rp->hcap * 2 : 64;
		struct handler *nh = realloc(rp->handlers, c * sizeof(*nh));

		if (!nh)
			return -1;
		rp->handlers = nh;
		rp->hcap = c;
	}
	h = &rp->handlers[rp->nhandlers];
	memset(h, 0, sizeof(*h));
	memcpy(h->name, data, n);
	h->len = (uint8_t)n;
	h->soft = soft;
	h->hash = hash;
	for (i = hash & (rp->hslots - 1); rp->hslot[i]; i = (i + 1) & (rp->hslots - 1))
		;
	rp->hslot[i] = (uint32_t)rp->nhandlers + 1;
	return (int)rp->nhandlers++;
}

/* ------------------------------------------------------------------ */
/* Events: the reading thread turns records into struct ev, the         */
/* analysis thread applies them (see "Pipeline" below).                 */

enum ev_kind {
	EV_SWITCH, EV_WAKEUP, EV_IRQ_BEGIN, EV_IRQ_END, EV_DROP,
	EV_MARK,	/* only a place in the time order (see keep_order()) */
};

#define EVF_OUT		(1u << 0)	/* outgoing thread known */
#define EVF_IN		(1u << 1)	/* incoming thread known */
#define EVF_PIDS	(1u << 2)	/* pids valid (subtype 0 switch) */
#define EVF_SOFT	(1u << 3)	/* softirq, not a hard interrupt */

struct ev {
	uint64_t ts;		/* ns */
	uint64_t out_tid;	/* switch; wakeup: woken; drop: dropped count */
	uint64_t out_pid;
	uint64_t in_tid;
	uint64_t in_pid;
	uint32_t handler;	/* irq begin: handler id, UINT32_MAX unknown */
	uint32_t out_idx;	/* analysis: thread state index of out_tid, or NO_THREAD */
	uint32_t in_idx;	/* analysis: thread state index of in_tid, or NO_THREAD */
	uint16_t cpu;
	uint8_t kind;		/* enum ev_kind */
	uint8_t flags;		/* EVF_* */
	uint8_t out_state;
};

/*
 * Histogram updates go through a short delay line: a sample's bucket is
 * prefetched when it arrives and counted DELAY_LINE samples later, so the
 * cache miss on a thread's histogram does not stall the event loop.
 */
static inline void delay_sample(struct report *rp, struct hist *h, uint64_t v)
{
	struct pending *p = &rp->pending[rp->pend_head];

	if (p->h)
		hist_add(p->h, p->v);
	p->h = h;
	p->v = v;
	__builtin_prefetch(h, 1);
	__builtin_prefetch(&h->b[hist_index(v)], 1);
	rp->pend_head = (rp->pend_head + 1) % DELAY_LINE;
}

static void delay_drain(struct report *rp)
{
	unsigned int i;

	for (i = 0; i < DELAY_LINE; i++) {
		if (rp->pending[i].h)
			hist_add(rp->pending[i].h, rp->pending[i].v);
		rp->pending[i].h = NULL;
	}
}

static void cpu_account(struct cstat *c, uint64_t ts)
{
	if (c->cur_valid && ts > c->since) {
		if (c->cur_tid)
			c->busy_ns += ts - c->since;
		else
			c->idle_ns += ts - c->since;
	}
	c->since = ts;
}

/*
 * cond ? a : b and cond ? v : 0, computed: for conditions that are true or
 * false at random, where GCC may still turn ?: into a branch.
 */
static inline unsigned int select_if(bool cond, unsigned int a, unsigned int b)
{
	return b ^ ((a ^ b) & -(unsigned int)cond);
}

static inline uint64_t only_if(bool cond, uint64_t v)
{
	return v & -(uint64_t)cond;
}

/* The state a thread switched out in (FXT_THREAD_*) leaves it in. */
static const uint8_t out_states[16] = {
	T_PREEMPTED, T_PREEMPTED,		/* new (preempted), running */
	T_SLEEPING, T_SLEEPING,			/* suspended, blocked */
	T_DEAD, T_DEAD,				/* dying (a zombie), dead */
	T_SLEEPING, T_SLEEPING, T_SLEEPING, T_SLEEPING, T_SLEEPING,	/* undefined */
	T_SLEEPING, T_SLEEPING, T_SLEEPING, T_SLEEPING, T_SLEEPING,
};

/* The part of a switch that is its CPU's: busy and idle time, switches. */
static inline void cpu_switch(struct cstat *c, const struct ev *e)
{
	if (!c->seen) {
		c->seen = true;
		c->first = e->ts;
	}
	cpu_account(c, e->ts);
	c->switches++;
	c->cur_valid = e->flags & EVF_IN;
	c->cur_tid = e->in_tid;
}

static void on_switch(struct report *rp, const struct ev *e)
{
	uint64_t ts = e->ts;
	struct tstat *t;

	rp->switches++;
	if (!rp->early) {
		struct cstat *c = cpu_get(rp, e->cpu);

		if (c)
			cpu_switch(c, e);
	}
	/*
	 * The outgoing state and the time a thread was running or waiting
	 * vary from switch to switch: no branches on them (a mispredicted
	 * branch costs more than the arithmetic).
	 */
	if (e->out_idx != NO_THREAD) {
		uint8_t state = out_states[e->out_state & 15];
		uint64_t ran;

		t = &rp->threads[e->out_idx];
		if (e->flags & EVF_PIDS)
			t->pid = e->out_pid;
		ran = only_if(t->state == T_RUNNING && ts >= t->since, ts - t->since);
		t->run_ns += ran;
		t->preempts += state == T_PREEMPTED;
		t->state = state;
		t->since = ts;
	}
	if (e->in_idx != NO_THREAD) {
		uint64_t waited;

		t = &rp->threads[e->in_idx];
		if (e->flags & EVF_PIDS)
			t->pid = e->in_pid;
		waited = only_if(t->state == T_PREEMPTED && ts >= t->since, ts - t->since);
		t->wait_ns += waited;
		t->wait_max = waited > t->wait_max ? waited : t->wait_max;
		if (t->state == T_WOKEN && ts >= t->since) {
			struct hist **d = &t->delays;

			if (!*d) {
				*d = malloc(sizeof(**d));
				if (*d)
					hist_init(*d);
			}
			if (*d)
				delay_sample(rp, *d, ts - t->since);
		}
		t->state = T_RUNNING;
		t->since = ts;
		t->switches++;
	}
}

static void on_wakeup(struct report *rp, const struct ev *e)
{
	struct tstat *t;

	rp->wakeups++;
	if (e->out_idx == NO_THREAD)
		return;
	t = &rp->threads[e->out_idx];
	t->wakeups++;
	if (t->state == T_RUNNING || t->state == T_PREEMPTED || t->state == T_WOKEN)
		return;
	t->state = T_WOKEN;
	t->since = e->ts;
}

/* s equals the literal lit (compared inline: the length is a constant). */
#define STR_IS(s, lit)	((s).len == sizeof(lit) - 1 && (s).data && \
			 !memcmp((s).data, (lit), sizeof(lit) - 1))

static void irq_close(struct report *rp, struct cstat *c, uint64_t ts)
{
	struct irqframe *f;
	uint64_t dur, self;

	c->depth--;
	if (c->depth >= IRQ_STACK)
		return;
	f = &c->stack[c->depth];
	dur = ts > f->start ? ts - f->start : 0;
	self = dur > f->child_ns ? dur - f->child_ns : 0;
	if (f->soft)
		c->softirq_ns += self;
	else
		c->irq_ns += self;
	if (f->handler < rp->nhstats) {
		struct hstat *h = &rp->hstats[f->handler];

		h->count++;
		h->total_ns += self;
		if (self > h->max_ns)
			h->max_ns = self;
	}
	if (c->depth && c->depth <= IRQ_STACK)
		c->stack[c->depth - 1].child_ns += dur;
}

static void on_irq(struct report *rp, struct cstat *c, const struct ev *e)
{
	if (e->kind == EV_IRQ_BEGIN) {
		if (c->depth < IRQ_STACK) {
			struct irqframe *f = &c->stack[c->depth];

			if (e->handler != UINT32_MAX && e->handler >= rp->nhstats) {
				size_t n = rp->nhstats ? rp->nhstats : 64;
				struct hstat *nh;

				while (n <= e->handler)
					n *= 2;
				nh = realloc(rp->hstats, n * sizeof(*nh));
				if (nh) {
					memset(nh + rp->nhstats, 0, (n - rp->nhstats) * sizeof(*nh));
					rp->hstats = nh;
					rp->nhstats = n;
				}
			}
			f->start = e->ts;
			f->child_ns = 0;
			f->handler = e->handler;
			f->soft = e->flags & EVF_SOFT;
		}
		c->depth++;
	} else if (c->depth) {
		irq_close(rp, c, e->ts);	/* an end without a begin is ignored */
	}
}

static inline bool exited(const struct report *rp, uint32_t idx)
{
	return idx != NO_THREAD && rp->threads[idx].state == T_DEAD;
}

/*
 * The state of the thread tid names now, given the index resolve() found:
 * a thread that exited is not referred to again, so a record that does
 * refers to a later thread its tid was reused for (a row of its own).
 */
static uint32_t live_index(struct report *rp, uint32_t idx, uint64_t tid)
{
	if (!exited(rp, idx))
		return idx;
	idx = thread_index(rp, tid);	/* an earlier record may have renewed it */
	if (rp->threads[idx].state != T_DEAD)
		return idx;
	return thread_new(rp, tid);
}

static inline void apply(struct report *rp, const struct ev *e)
{
	struct ev renewed;

	if ((e->kind == EV_SWITCH || e->kind == EV_WAKEUP) &&
	    __builtin_expect(exited(rp, e->out_idx) || exited(rp, e->in_idx), 0)) {
		renewed = *e;
		renewed.out_idx = live_index(rp, e->out_idx, e->out_tid);
		renewed.in_idx = live_index(rp, e->in_idx, e->in_tid);
		e = &renewed;
	}
	switch (e->kind) {
	case EV_SWITCH:
		on_switch(rp, e);
		break;
	case EV_WAKEUP:
		on_wakeup(rp, e);
		break;
	case EV_IRQ_BEGIN:
	case EV_IRQ_END: {
		struct cstat *c = cpu_get(rp, e->cpu);

		if (c)
			on_irq(rp, c, e);
		break;
	}
	case EV_DROP: {
		struct cstat *c = cpu_get(rp, e->cpu);

		if (c) {
			c->dropped = e->out_tid;
			c->dropped_seen = true;
		}
		break;
	}
	case EV_MARK:
		break;
	}
}

/* Find (or create) the state of the event's threads: e->out_idx, e->in_idx. */
static inline void resolve(struct report *rp, struct ev *e)
{
	e->out_idx = e->in_idx = NO_THREAD;
	if (e->kind == EV_SWITCH) {
		if ((e->flags & EVF_OUT) && e->out_tid)
			e->out_idx = thread_index(rp, e->out_tid);
		if ((e->flags & EVF_IN) && e->in_tid)
			e->in_idx = thread_index(rp, e->in_tid);
	} else if (e->kind == EV_WAKEUP && e->out_tid) {
		e->out_idx = thread_index(rp, e->out_tid);
	}
}

/*
 * Apply a block of events in two passes: first find every thread's state
 * index and prefetch its line (the lookups are independent, so their cache
 * misses overlap), then apply the events in order.
 */
static void apply_block(struct report *rp, struct ev *blk, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct ev *e = &blk[i];

		resolve(rp, e);
		if (e->out_idx != NO_THREAD)
			__builtin_prefetch(&rp->threads[e->out_idx], 1);
		if (e->in_idx != NO_THREAD)
			__builtin_prefetch(&rp->threads[e->in_idx], 1);
	}
	for (i = 0; i < n; i++)
		apply(rp, &blk[i]);
}

/* The time span covers every timestamped record (reading side). */
static inline void saw_ts(struct report *rp, uint64_t ts)
{
	rp->first_ns = ts < rp->first_ns ? ts : rp->first_ns;
	rp->last_ns = ts > rp->last_ns ? ts : rp->last_ns;
}

#define QUEUE_EVENTS	256
#define HANDLER_CACHE	64

/* Events decoded ahead from one provider's cursor (see "Time order"). */
struct evqueue {
	unsigned int head, len;
	bool done;		/* the cursor has no more records */
	struct fxt_reader *r;	/* the cursor */
	struct fxt_record *rec;	/* its record being made an event */
	/*
	 * Handler ids of interrupt names that are string indices of this
	 * cursor, by index % HANDLER_CACHE: key is index << 1 | soft, 0 for
	 * none. An index means the same name until a string record
	 * redefines it or a provider record changes the string table.
	 */
	struct {
		uint16_t key;
		uint32_t id;
	} handler[HANDLER_CACHE];
	struct ev ev[QUEUE_EVENTS];
};

/* The handler of an interrupt name read from q's cursor: UINT32_MAX if none. */
static uint32_t handler_of(struct report *rp, struct evqueue *q, bool soft,
			   struct fxt_str name)
{
	uint16_t key = (uint16_t)(name.ref << 1 | soft);
	unsigned int slot = name.ref % HANDLER_CACHE;
	int h;

	if (name.ref && !(name.ref & FXT_STRING_REF_INLINE) && q->handler[slot].key == key)
		return q->handler[slot].id;
	h = handler_get(rp, soft, name);
	if (h < 0)
		return UINT32_MAX;
	if (name.ref && !(name.ref & FXT_STRING_REF_INLINE)) {
		q->handler[slot].key = key;
		q->handler[slot].id = (uint32_t)h;
	}
	return (uint32_t)h;
}

/* What a record read from q's cursor changes in its handler cache. */
static void handler_forget(struct evqueue *q, const struct fxt_record *rec)
{
	if (rec->type == FXT_REC_STRING && rec->words)
		q->handler[FXT_G(rec->words[0], FXT_STRING_INDEX_FIELD) % HANDLER_CACHE].key = 0;
	else if (rec->type == FXT_REC_STRING || rec->type == FXT_REC_METADATA)
		memset(q->handler, 0, sizeof(q->handler));
}

/* The reading side: the event a record of q's cursor stands for, if any. */
static bool make_event(struct report *rp, struct evqueue *q, const struct fxt_record *rec,
		       struct ev *e)
{
	const struct fxt_thread *th;
	uint64_t ts;

	if (rec->type == FXT_REC_SCHED) {
		ts = rec->ts_ns;
		saw_ts(rp, ts);
		e->ts = ts;
		if (rec->subtype == FXT_SCHED_THREAD_WAKEUP) {
			e->kind = EV_WAKEUP;
			e->out_tid = rec->u.wakeup.tid;
			return true;
		}
		e->kind = EV_SWITCH;
		e->cpu = rec->cpu;	/* the provider of a per-CPU provider */
		e->out_state = rec->u.sw.out_state;
		e->flags = (rec->u.sw.out.defined ? EVF_OUT : 0) |
			   (rec->u.sw.in.defined ? EVF_IN : 0) |
			   (rec->subtype == FXT_SCHED_CONTEXT_SWITCH ? EVF_PIDS : 0);
		e->out_tid = rec->u.sw.out.tid;
		e->out_pid = rec->u.sw.out.pid;
		e->in_tid = rec->u.sw.in.tid;
		e->in_pid = rec->u.sw.in.pid;
		return true;
	}
	if (rec->type != FXT_REC_EVENT)
		return false;
	ts = rec->ts_ns;
	saw_ts(rp, ts);
	e->ts = ts;
	if (rec->subtype == FXT_EVENT_COUNTER) {
		/* fxt/dropped: cumulative per CPU, counter id = CPU. */
		if (STR_IS(rec->u.event.category, FXT_DROPPED_CATEGORY) &&
		    STR_IS(rec->u.event.name, FXT_DROPPED_NAME) &&
		    rec->nargs && (rec->args[0].type == FXT_ARG_UINT64 ||
				   rec->args[0].type == FXT_ARG_INT64) &&
		    rec->u.event.data < MAX_CPUS) {
			e->kind = EV_DROP;
			e->cpu = (uint16_t)rec->u.event.data;
			e->out_tid = rec->args[0].v.u64;
			return true;
		}
		return false;
	}
	if (rec->subtype != FXT_EVENT_DURATION_BEGIN && rec->subtype != FXT_EVENT_DURATION_END)
		return false;
	if (STR_IS(rec->u.event.category, FXT_CAT_NAME_IRQ))
		e->flags = 0;
	else if (STR_IS(rec->u.event.category, FXT_CAT_NAME_SOFTIRQ))
		e->flags = EVF_SOFT;
	else
		return false;
	th = &rec->u.event.thread;
	if (th->defined && th->tid >= FXT_KOID_IRQ_THREAD(0) &&
	    th->tid < FXT_KOID_IRQ_THREAD(MAX_CPUS))
		e->cpu = (uint16_t)(th->tid - FXT_KOID_IRQ_THREAD(0));
	else if (rec->provider < MAX_CPUS)
		e->cpu = (uint16_t)rec->provider;
	else
		return false;
	if (rec->subtype == FXT_EVENT_DURATION_BEGIN) {
		e->kind = EV_IRQ_BEGIN;
		e->handler = handler_of(rp, q, e->flags & EVF_SOFT, rec->u.event.name);
	} else {
		e->kind = EV_IRQ_END;
	}
	return true;
}

/* ------------------------------------------------------------------ */
/* Time order: each provider's cursor (lib/merge.c) decodes ahead into  */
/* a small queue of events; the earliest head among the queues is next. */
/* Only events need ordering: names and strings are resolved as each    */
/* cursor decodes, and the report reads kernel object names at the end. */

#define SCAN_QUEUES	8	/* more: a heap */

struct evmerge {
	struct report *rp;
	struct fxt_merge *m;
	bool early;		/* one thread: resolve threads and apply per-CPU */
				/* parts (early()) as events are queued */
	size_t n;
	struct evqueue *q;
	uint64_t *keys;		/* ts of each queue's head, UINT64_MAX when empty */
				/* (at least SCAN_QUEUES, the extra ones UINT64_MAX) */
	unsigned int *heap;	/* more than SCAN_QUEUES: queues with events */
	size_t nheap;
	unsigned int top;	/* queue of the event handed out last */
	/* refill(), early: interrupts left out, where and when */
	unsigned int irq_at[QUEUE_EVENTS];
	uint64_t irq_ts[QUEUE_EVENTS];
};

static bool is_irq(const struct ev *e)
{
	return e->kind == EV_IRQ_BEGIN || e->kind == EV_IRQ_END;
}

/*
 * Per-CPU parts, on one thread. An interrupt event only touches its CPU's
 * interrupt state and the sums of its handler, which do not depend on
 * order; a switch, besides its threads, its CPU's busy and idle time. When
 * all of a CPU's interrupts (switches) come from one cursor, as fxt-collect
 * writes them (CPU c's in provider c), that cursor's order is their time
 * order: they are applied as decoded instead of through the merge, and the
 * merge only carries what needs it (switches for their threads, wakeups,
 * drop counts). Should a second cursor's name the same CPU, replay() does
 * them all again in time order.
 */
static inline void early(struct report *rp, unsigned int cursor, const struct ev *e)
{
	struct cstat *c = cpu_get(rp, e->cpu);
	bool irq = is_irq(e);
	uint32_t *from;

	if (!c)
		return;
	from = irq ? &c->irq_from : &c->switch_from;
	if (!*from)
		*from = cursor + 1;
	else if (*from != cursor + 1)
		*(irq ? &rp->irqs_mixed : &rp->switches_mixed) = true;
	if (irq)
		on_irq(rp, c, e);
	else
		cpu_switch(c, e);
}

/*
 * The interrupts left out of q in refill() still count. The queue must run
 * dry when the last event decoded into it is handed out, as if they were
 * there: that is when the cursor decodes on, which decides the kernel
 * object names the report shows (the last decoded) and the order of the
 * defects reported. And when timestamps go back within the batch, an event
 * left out may hold back the events after it. So: a mark with the time of
 * the last event when that was an interrupt; all of them put back in place
 * when the batch is not in time order (the rest of the time, leaving out
 * earlier events changes nothing: the queue's others come out when they
 * would have).
 */
static void keep_order(struct evmerge *em, struct evqueue *q, unsigned int nirq, bool sorted)
{
	unsigned int src = q->len, dst = q->len + nirq, k = nirq;

	if (sorted) {
		if (em->irq_at[nirq - 1] == q->len) {
			q->ev[q->len].kind = EV_MARK;
			q->ev[q->len++].ts = em->irq_ts[nirq - 1];
		}
		return;
	}
	while (k--) {
		while (src > em->irq_at[k])
			q->ev[--dst] = q->ev[--src];
		q->ev[--dst].kind = EV_MARK;
		q->ev[dst].ts = em->irq_ts[k];
	}
	q->len += nirq;
}

/* Decode cursor i's next records into its queue; false when none are left. */
static bool refill(struct evmerge *em, unsigned int i)
{
	struct evqueue *q = &em->q[i];
	const struct fxt_record *rec = q->rec;
	unsigned int n = 0, nirq = 0;	/* events decoded, interrupts left out */
	uint64_t prev = 0;
	bool sorted = true;

	q->head = q->len = 0;
	while (n < QUEUE_EVENTS && !q->done) {
		struct ev *e = &q->ev[q->len];

		if (fxt_reader_next(q->r, q->rec) <= 0) {
			q->done = true;
			break;
		}
		handler_forget(q, rec);
		if (rec->flags & (FXT_RF_MALFORMED | FXT_RF_UNKNOWN | FXT_RF_NO_PAYLOAD))
			continue;
		if (!make_event(em->rp, q, rec, e))
			continue;
		n++;
		if (em->early) {
			sorted &= e->ts >= prev;
			prev = e->ts;
			if (is_irq(e)) {
				early(em->rp, i, e);
				em->irq_at[nirq] = q->len;
				em->irq_ts[nirq++] = e->ts;
				continue;
			}
			/*
			 * Which index a thread's state gets does not matter
			 * to the report: look states up here, next to the
			 * decoding, rather than in time order.
			 */
			resolve(em->rp, e);
			if (e->kind == EV_SWITCH)
				early(em->rp, i, e);
		}
		q->len++;
	}
	if (nirq)
		keep_order(em, q, nirq, sorted);
	progress_update(&pg, fxt_merge_bytes(em->m));
	em->keys[i] = q->len ? q->ev[0].ts : UINT64_MAX;
	return q->len != 0;
}

static inline bool qbefore(const struct evmerge *em, unsigned int a, unsigned int b)
{
	return em->keys[a] < em->keys[b] || (em->keys[a] == em->keys[b] && a < b);
}

static void qsift(struct evmerge *em, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, min = i;
		unsigned int t;

		if (l < em->nheap && qbefore(em, em->heap[l], em->heap[min]))
			min = l;
		if (r < em->nheap && qbefore(em, em->heap[r], em->heap[min]))
			min = r;
		if (min == i)
			return;
		t = em->heap[i];
		em->heap[i] = em->heap[min];
		em->heap[min] = t;
		i = min;
	}
}

static int evmerge_init(struct evmerge *em, struct report *rp, struct fxt_merge *m,
			bool early)
{
	size_t i;

	memset(em, 0, sizeof(*em));
	em->rp = rp;
	em->m = m;
	em->early = early;
	em->n = fxt_merge_cursors(m);
	em->q = calloc(em->n, sizeof(*em->q));
	em->keys = malloc((em->n > SCAN_QUEUES ? em->n : SCAN_QUEUES) * sizeof(*em->keys));
	em->heap = malloc(em->n * sizeof(*em->heap));
	if (!em->q || !em->keys || !em->heap)
		return -1;
	for (i = em->n; i < SCAN_QUEUES; i++)
		em->keys[i] = UINT64_MAX;
	for (i = 0; i < em->n; i++) {
		em->q[i].r = fxt_merge_cursor(m, i);
		em->q[i].rec = malloc(sizeof(*em->q[i].rec));
		if (!em->q[i].rec)
			return -1;
	}
	for (i = 0; i < em->n; i++) {
		if (refill(em, (unsigned int)i))
			em->heap[em->nheap++] = (unsigned int)i;
	}
	for (i = em->nheap / 2 + 1; i-- > 0;)
		qsift(em, i);
	em->top = UINT32_MAX;
	return 0;
}

static void evmerge_free(struct evmerge *em)
{
	size_t i;

	for (i = 0; em->q && i < em->n; i++)
		free(em->q[i].rec);
	free(em->q);
	free(em->keys);
	free(em->heap);
}

/*
 * The earliest of keys[base..base+3], the lowest index on a tie: a
 * tournament without branches (which queue is next is anybody's guess).
 */
static inline unsigned int min4(const uint64_t *keys, unsigned int base)
{
	unsigned int a = base + (keys[base + 1] < keys[base]);
	unsigned int b = base + 2 + (keys[base + 3] < keys[base + 2]);

	return select_if(keys[b] < keys[a], b, a);
}

/* next_event() with more than SCAN_QUEUES queues: a binary heap of them. */
static const struct ev *heap_next(struct evmerge *em)
{
	unsigned int top = em->top;

	if (top != UINT32_MAX) {	/* move the last queue on */
		struct evqueue *q = &em->q[top];
		bool more = ++q->head < q->len || refill(em, top);

		if (more)
			em->keys[top] = q->ev[q->head].ts;
		else
			em->heap[0] = em->heap[--em->nheap];
		qsift(em, 0);
	}
	if (!em->nheap)
		return NULL;
	top = em->top = em->heap[0];
	return &em->q[top].ev[em->q[top].head];
}

/* The next event in time order, NULL at the end. */
static inline const struct ev *next_event(struct evmerge *em)
{
	unsigned int best, top = em->top;

	if (em->n > SCAN_QUEUES)
		return heap_next(em);
	if (top != UINT32_MAX) {	/* move the last queue on */
		struct evqueue *q = &em->q[top];

		if (++q->head < q->len)
			em->keys[top] = q->ev[q->head].ts;
		else
			refill(em, top);
	}
	best = min4(em->keys, 0);
	if (em->n > 4) {
		unsigned int hi = min4(em->keys, 4);

		best = select_if(em->keys[hi] < em->keys[best], hi, best);
	}
	if (em->keys[best] == UINT64_MAX) {
		/* every queue empty, or an event at UINT64_MAX */
		for (best = 0; best < em->n && em->q[best].head >= em->q[best].len; best++)
			;
		if (best == em->n)
			return NULL;
	}
	em->top = best;
	return &em->q[best].ev[em->q[best].head];
}

/* ------------------------------------------------------------------ */
/* Pipeline: reading and decoding run on the main thread, the analysis */
/* on a second one; blocks of events travel through a ring of NBLOCKS. */

#define BLOCK_EVENTS	2048
#define NBLOCKS		4

struct pipeline {
	_Alignas(64) pthread_mutex_t mu;
	pthread_cond_t cv;
	struct ev *blocks[NBLOCKS];
	unsigned int count[NBLOCKS];
	unsigned int head, filled;	/* consumer's next block, blocks ready */
	bool done;
	struct report *rp;
	char pad[64];
};

static void *analysis(void *arg)
{
	struct pipeline *p = arg;
	struct report *rp = p->rp;
	struct ev *blk;
	unsigned int n;

	for (;;) {
		pthread_mutex_lock(&p->mu);
		while (!p->filled && !p->done)
			pthread_cond_wait(&p->cv, &p->mu);
		if (!p->filled) {
			pthread_mutex_unlock(&p->mu);
			return NULL;
		}
		blk = p->blocks[p->head];
		n = p->count[p->head];
		pthread_mutex_unlock(&p->mu);

		/* Only locals and the block here: the other thread's lines stay put. */
		apply_block(rp, blk, n);

		pthread_mutex_lock(&p->mu);
		p->head = (p->head + 1) % NBLOCKS;
		p->filled--;
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
	}
}

/* Hand block tail (n events) over; wait for a free one. Returns the next tail. */
static unsigned int submit(struct pipeline *p, unsigned int tail, unsigned int n)
{
	pthread_mutex_lock(&p->mu);
	p->count[tail] = n;
	p->filled++;
	pthread_cond_broadcast(&p->cv);
	while (p->filled == NBLOCKS)
		pthread_cond_wait(&p->cv, &p->mu);
	pthread_mutex_unlock(&p->mu);
	return (tail + 1) % NBLOCKS;
}

/*
 * Hand out em's events in time order: applied here (one thread), in
 * blocks to the analysis thread (p), or, for replay(), only the per-CPU
 * parts that were mixed.
 */
static void drain(struct evmerge *em, struct pipeline *p, bool replaying)
{
	struct report *rp = em->rp;
	struct ev *block = p ? p->blocks[0] : NULL;
	unsigned int tail = 0, nev = 0;
	const struct ev *e;

	while ((e = next_event(em))) {
		if (p) {
			block[nev] = *e;
			if (++nev == BLOCK_EVENTS) {
				tail = submit(p, tail, nev);
				block = p->blocks[tail];
				nev = 0;
			}
		} else if (!replaying) {
			apply(rp, e);	/* in place, thread states already resolved */
		} else if (is_irq(e) ? rp->irqs_mixed : e->kind == EV_SWITCH && rp->switches_mixed) {
			struct cstat *c = cpu_get(rp, e->cpu);

			if (c && is_irq(e))
				on_irq(rp, c, e);
			else if (c)
				cpu_switch(c, e);
		}
	}
	if (p && nev)
		submit(p, tail, nev);
}

/*
 * A CPU's interrupts or switches came from two cursors (see early()):
 * forget those figures of every CPU and apply those events again in time
 * order, from a second reading of the archive (silent: the first one
 * reported its defects).
 */
static int replay(struct report *rp, const char *path)
{
	struct fxt_merge *m = fxt_merge_open(path);
	struct evmerge em;
	size_t i;
	int rc;

	if (!m)
		return -1;
	fxt_merge_skip_args(m, FXT_SKIP_SCHED_ARGS | FXT_SKIP_SPAN_ARGS);
	for (i = 0; i < rp->ncpus; i++) {
		struct cstat *c = &rp->cpus[i];

		if (rp->irqs_mixed) {
			c->irq_ns = c->softirq_ns = 0;
			c->depth = 0;
		}
		if (rp->switches_mixed) {
			c->seen = c->cur_valid = false;
			c->cur_tid = c->first = c->since = 0;
			c->busy_ns = c->idle_ns = c->switches = 0;
		}
	}
	if (rp->irqs_mixed && rp->nhstats)
		memset(rp->hstats, 0, rp->nhstats * sizeof(*rp->hstats));
	rc = evmerge_init(&em, rp, m, false);
	if (!rc)
		drain(&em, NULL, true);
	evmerge_free(&em);
	fxt_merge_close(m);
	return rc;
}

static void finish(struct report *rp)
{
	uint64_t end = rp->last_ns;
	size_t i;

	if (rp->first_ns > rp->last_ns)	/* no timestamp at all */
		rp->first_ns = 0;
	delay_drain(rp);
	for (i = 0; i < rp->ncpus; i++) {
		struct cstat *c = &rp->cpus[i];

		if (c->seen)
			cpu_account(c, end);
		while (c->depth)
			irq_close(rp, c, end);
	}
	for (i = 0; i < rp->nthreads; i++) {
		struct tstat *t = &rp->threads[i];

		if (t->state == T_RUNNING && end >= t->since)
			t->run_ns += end - t->since;
		if (t->state == T_PREEMPTED && end >= t->since) {
			t->wait_ns += end - t->since;
			if (end - t->since > t->wait_max)
				t->wait_max = end - t->since;
		}
	}
	for (i = 0; i < rp->nhandlers && i < rp->nhstats; i++) {
		rp->handlers[i].count = rp->hstats[i].count;
		rp->handlers[i].total_ns = rp->hstats[i].total_ns;
		rp->handlers[i].max_ns = rp->hstats[i].max_ns;
	}
}

/* ------------------------------------------------------------------ */
/* Output.                                                              */

enum sort_key {
	K_RUN, K_SWITCHES, K_PREEMPT, K_WAIT, K_WAKEUPS, K_DELAY, K_AVG,
	K_P50, K_P90, K_P99, K_TID, K_COMM,
};

static const char *const sort_names[] = {
	"run", "switches", "preempt", "wait", "wakeups", "delay", "avg",
	"p50", "p90", "p99", "tid", "comm",
};

static enum sort_key sort_by;
static struct report *sort_rp;

/*
 * A thread's name: a thread that exited, the name it had when it did (its
 * tid may be some later thread's); else its newest.
 */
static const char *comm_of(const struct report *rp, const struct tstat *t)
{
	uint64_t tid = rp->tids[t - rp->threads];
	uint64_t at = t->state == T_DEAD ? t->since : UINT64_MAX;
	const struct fxt_kobj_info *k = fxt_merge_thread_at(rp->m, tid, at);

	return k && k->name_len ? k->name : "";
}

static uint64_t tid_of(const struct tstat *t)
{
	return sort_rp->tids[t - sort_rp->threads];
}

static const struct hist *delay_of(const struct tstat *t)
{
	return t->delays;
}

static uint64_t delay_value(const struct tstat *t, enum sort_key k)
{
	const struct hist *d = delay_of(t);

	if (!d || !d->count)
		return 0;
	switch (k) {
	case K_AVG:
		return d->sum / d->count;
	case K_P50:
		return hist_percentile(d, 50);
	case K_P90:
		return hist_percentile(d, 90);
	case K_P99:
		return hist_percentile(d, 99);
	default:
		return d->max;
	}
}

static uint64_t key_value(const struct tstat *t)
{
	switch (sort_by) {
	case K_RUN:
		return t->run_ns;
	case K_SWITCHES:
		return t->switches;
	case K_PREEMPT:
		return t->preempts;
	case K_WAIT:
		return t->wait_ns;
	case K_WAKEUPS:
		return t->wakeups;
	case K_TID:
	case K_COMM:
		return tid_of(t);
	default:
		return delay_value(t, sort_by);
	}
}

static int cmp_threads(const void *a, const void *b)
{
	const struct tstat *x = *(const struct tstat *const *)a;
	const struct tstat *y = *(const struct tstat *const *)b;
	uint64_t vx, vy;
	int c;

	if (sort_by == K_COMM) {
		c = strcmp(comm_of(sort_rp, x), comm_of(sort_rp, y));
		if (c)
			return c;
	}
	vx = key_value(x);
	vy = key_value(y);
	if (vx != vy) {
		if (sort_by == K_TID || sort_by == K_COMM)
			return vx < vy ? -1 : 1;
		return vx > vy ? -1 : 1;
	}
	return tid_of(x) < tid_of(y) ? -1 : tid_of(x) > tid_of(y);
}

static int cmp_handlers(const void *a, const void *b)
{
	const struct handler *x = a, *y = b;
	int c;

	if (x->total_ns != y->total_ns)
		return x->total_ns > y->total_ns ? -1 : 1;
	if (x->soft != y->soft)
		return x->soft ? 1 : -1;
	c = memcmp(x->name, y->name, x->len < y->len ? x->len : y->len);
	return c ? c : (int)x->len - (int)y->len;
}

/* ns as "ms" with 3 decimals, or "us" with 3 decimals. */
static void put_ms(struct outbuf *o, uint64_t ns, int width)
{
	char tmp[32];

	snprintf(tmp, sizeof(tmp), "%llu.%03llu", (unsigned long long)(ns / 1000000),
		 (unsigned long long)(ns / 1000 % 1000));
	ob_printf(o, "%*s", width, tmp);
}

static void put_us(struct outbuf *o, uint64_t ns, int width)
{
	char tmp[32];

	snprintf(tmp, sizeof(tmp), "%llu.%03llu", (unsigned long long)(ns / 1000),
		 (unsigned long long)(ns % 1000));
	ob_printf(o, "%*s", width, tmp);
}

static void put_pct(struct outbuf *o, uint64_t part, uint64_t whole, int width)
{
	char tmp[32];
	uint64_t permille = whole ? (part * 1000 + whole / 2) / whole : 0;

	snprintf(tmp, sizeof(tmp), "%llu.%llu", (unsigned long long)(permille / 10),
		 (unsigned long long)(permille % 10));
	ob_printf(o, "%*s", width, tmp);
}

/* A CSV field: quoted when it holds a comma, quote or newline. */
static void csv_str(struct outbuf *o, const char *s)
{
	size_t i;

	if (!strpbrk(s, ",\"\n\r")) {
		ob_puts(o, s);
		return;
	}
	ob_putc(o, '"');
	for (i = 0; s[i]; i++) {
		if (s[i] == '"')
			ob_putc(o, '"');
		ob_putc(o, s[i]);
	}
	ob_putc(o, '"');
}

/* Printable copy of a name for the text tables (control bytes -> '?'). */
static const char *printable(const char *s, char *buf, size_t size, size_t width)
{
	size_t i;

	for (i = 0; s[i] && i < size - 1 && i < width; i++)
		buf[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
	buf[i] = 0;
	return buf;
}

static size_t limit(size_t n, long top)
{
	return top > 0 && (size_t)top < n ? (size_t)top : n;
}

static void print_report(struct report *rp, struct outbuf *o, const char *path,
			 long top, bool csv)
{
	struct tstat **ts = malloc((rp->nthreads ? rp->nthreads : 1) * sizeof(*ts));
	size_t n = 0, i, rows;
	uint64_t span = rp->last_ns - rp->first_ns;
	char buf[64];

	for (i = 0; i < rp->nthreads; i++)
		if (rp->threads[i].switches || rp->threads[i].wakeups ||
		    rp->threads[i].run_ns)
			ts[n++] = &rp->threads[i];
	sort_rp = rp;
	qsort(ts, n, sizeof(*ts), cmp_threads);
	if (rp->nhandlers)
		qsort(rp->handlers, rp->nhandlers, sizeof(*rp->handlers), cmp_handlers);

	if (!csv) {
		ob_printf(o, "%s: %llu records, %llu bytes, %llu switches, %llu wakeups\n",
			  path, (unsigned long long)fxt_merge_records(rp->m),
			  (unsigned long long)fxt_merge_bytes(rp->m),
			  (unsigned long long)rp->switches, (unsigned long long)rp->wakeups);
		OB_LIT(o, "time span ");
		put_ms(o, span, 0);
		ob_printf(o, " ms (%llu .. %llu ns)\n", (unsigned long long)rp->first_ns,
			  (unsigned long long)rp->last_ns);
		if (!fxt_merge_ordered(rp->m))
			ob_printf(o, "warning: read in file order (not a regular file, or over"
				  " 1024 providers): cross-CPU figures may be wrong\n");
		if (fxt_merge_diag_count(rp->m))
			ob_printf(o, "warning: %llu defects in the archive (fxt-dump --check)\n",
				  (unsigned long long)fxt_merge_diag_count(rp->m));

		rows = limit(n, top);
		ob_printf(o, "\nThreads (%zu of %zu, by %s)\n", rows, n, sort_names[sort_by]);
		ob_printf(o, "%8s %8s %-16s %11s %8s %7s %11s %7s %10s %10s %10s %10s %10s\n",
			  "TID", "PID", "COMM", "RUN ms", "SWITCHES", "PREEMPT",
			  "RUNNABLE ms", "WAKEUPS", "avg us", "p50 us", "p90 us",
			  "p99 us", "max us");
		for (i = 0; i < rows; i++) {
			const struct tstat *t = ts[i];

			ob_printf(o, "%8llu %8llu %-16s ", (unsigned long long)tid_of(t),
				  (unsigned long long)t->pid,
				  printable(comm_of(rp, t), buf, sizeof(buf), 16));
			put_ms(o, t->run_ns, 11);
			ob_printf(o, " %8llu %7llu ", (unsigned long long)t->switches,
				  (unsigned long long)t->preempts);
			put_ms(o, t->wait_ns, 11);
			ob_printf(o, " %7llu", (unsigned long long)t->wakeups);
			if (delay_of(t) && delay_of(t)->count) {
				static const enum sort_key ks[] = { K_AVG, K_P50, K_P90, K_P99, K_DELAY };
				unsigned int k;

				for (k = 0; k < 5; k++) {
					ob_putc(o, ' ');
					put_us(o, delay_value(t, ks[k]), 10);
				}
			} else {
				ob_printf(o, " %10s %10s %10s %10s %10s", "-", "-", "-", "-", "-");
			}
			ob_putc(o, '\n');
		}

		ob_printf(o, "\nCPUs\n%4s %11s %11s %6s %11s %6s %10s %10s %9s %9s\n", "CPU",
			  "TIME ms", "BUSY ms", "UTIL%", "IDLE ms", "IDLE%", "IRQ ms",
			  "SOFTIRQ ms", "SWITCHES", "DROPPED");
		for (i = 0; i < rp->ncpus; i++) {
			const struct cstat *c = &rp->cpus[i];
			uint64_t win = c->busy_ns + c->idle_ns;

			if (!c->seen && !c->irq_ns && !c->softirq_ns && !c->dropped_seen)
				continue;
			ob_printf(o, "%4zu ", i);
			put_ms(o, win, 11);
			ob_putc(o, ' ');
			put_ms(o, c->busy_ns, 11);
			ob_putc(o, ' ');
			put_pct(o, c->busy_ns, win, 6);
			ob_putc(o, ' ');
			put_ms(o, c->idle_ns, 11);
			ob_putc(o, ' ');
			put_pct(o, c->idle_ns, win, 6);
			ob_putc(o, ' ');
			put_ms(o, c->irq_ns, 10);
			ob_putc(o, ' ');
			put_ms(o, c->softirq_ns, 10);
			ob_printf(o, " %9llu %9llu\n", (unsigned long long)c->switches,
				  (unsigned long long)c->dropped);
		}

		rows = limit(rp->nhandlers, top);
		ob_printf(o, "\nInterrupts (%zu of %zu, by time)\n%-8s %-24s %9s %11s %10s %10s\n",
			  rows, rp->nhandlers, "TYPE", "NAME", "COUNT", "TOTAL ms", "avg us",
			  "max us");
		for (i = 0; i < rows; i++) {
			const struct handler *h = &rp->handlers[i];
			char name[65];

			memcpy(name, h->name, h->len);
			name[h->len] = 0;
			ob_printf(o, "%-8s %-24s %9llu ", h->soft ? "softirq" : "irq",
				  printable(name, buf, sizeof(buf), 24),
				  (unsigned long long)h->count);
			put_ms(o, h->total_ns, 11);
			ob_putc(o, ' ');
			put_us(o, h->count ? h->total_ns / h->count : 0, 10);
			ob_putc(o, ' ');
			put_us(o, h->max_ns, 10);
			ob_putc(o, '\n');
		}
	} else {
		rows = limit(n, top);
		OB_LIT(o, "table,tid,pid,comm,run_ns,switches,preempts,runnable_ns,"
			  "runnable_max_ns,wakeups,delays,delay_avg_ns,delay_p50_ns,"
			  "delay_p90_ns,delay_p99_ns,delay_max_ns\n");
		for (i = 0; i < rows; i++) {
			const struct tstat *t = ts[i];
			uint64_t cnt = delay_of(t) ? delay_of(t)->count : 0;

			ob_printf(o, "threads,%llu,%llu,", (unsigned long long)tid_of(t),
				  (unsigned long long)t->pid);
			csv_str(o, comm_of(rp, t));
			ob_printf(o, ",%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu\n",
				  (unsigned long long)t->run_ns, (unsigned long long)t->switches,
				  (unsigned long long)t->preempts, (unsigned long long)t->wait_ns,
				  (unsigned long long)t->wait_max, (unsigned long long)t->wakeups,
				  (unsigned long long)cnt,
				  (unsigned long long)delay_value(t, K_AVG),
				  (unsigned long long)delay_value(t, K_P50),
				  (unsigned long long)delay_value(t, K_P90),
				  (unsigned long long)delay_value(t, K_P99),
				  (unsigned long long)delay_value(t, K_DELAY));
		}
		OB_LIT(o, "\ntable,cpu,time_ns,busy_ns,idle_ns,irq_ns,softirq_ns,switches,dropped\n");
		for (i = 0; i < rp->ncpus; i++) {
			const struct cstat *c = &rp->cpus[i];

			if (!c->seen && !c->irq_ns && !c->softirq_ns && !c->dropped_seen)
				continue;
			ob_printf(o, "cpus,%zu,%llu,%llu,%llu,%llu,%llu,%llu,%llu\n", i,
				  (unsigned long long)(c->busy_ns + c->idle_ns),
				  (unsigned long long)c->busy_ns, (unsigned long long)c->idle_ns,
				  (unsigned long long)c->irq_ns, (unsigned long long)c->softirq_ns,
				  (unsigned long long)c->switches, (unsigned long long)c->dropped);
		}
		rows = limit(rp->nhandlers, top);
		OB_LIT(o, "\ntable,type,name,count,total_ns,avg_ns,max_ns\n");
		for (i = 0; i < rows; i++) {
			const struct handler *h = &rp->handlers[i];
			char name[65];

			memcpy(name, h->name, h->len);
			name[h->len] = 0;
			ob_printf(o, "irqs,%s,", h->soft ? "softirq" : "irq");
			csv_str(o, name);
			ob_printf(o, ",%llu,%llu,%llu,%llu\n", (unsigned long long)h->count,
				  (unsigned long long)h->total_ns,
				  (unsigned long long)(h->count ? h->total_ns / h->count : 0),
				  (unsigned long long)h->max_ns);
		}
	}
	free(ts);
}

/* ------------------------------------------------------------------ */

struct diag_ctx {
	uint64_t shown;
};

static int on_diag(void *ctx, uint64_t offset, enum fxt_diag_id id, const char *msg)
{
	struct diag_ctx *d = ctx;
	bool warning = fxt_diag_severity(id) == FXT_SEV_WARNING;

	progress_clear(&pg);
	if (id == FXT_D_TRUNCATED)
		fprintf(stderr, "%s: warning: %s\n", prog, msg);
	else if (warning || id == FXT_D_IO_ERROR || id == FXT_D_SIZE_ZERO ||
		 id == FXT_D_BIG_ENDIAN || d->shown++ < 5)
		fprintf(stderr, "%s: offset 0x%llx: %s%s\n", prog, (unsigned long long)offset,
			warning ? "warning: " : "", msg);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "top", required_argument, NULL, 'n' },
		{ "threads", required_argument, NULL, 'j' },
		{ "sort", required_argument, NULL, 's' },
		{ "csv", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static _Alignas(64) struct pipeline pipe;	/* off the stack: no line shared */
	static _Alignas(64) struct report rp;		/* with the reading thread's locals */
	struct diag_ctx dc = { 0 };
	pthread_t thread;
	struct evmerge em;
	struct outbuf *o;
	bool csv = false, top_given = false, one_thread = true;
	long top = 20;
	int c, rc = 0;
	size_t k;
	char *end;

	while ((c = getopt_long(argc, argv, "n:s:cj:h", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			errno = 0;
			top = strtol(optarg, &end, 10);
			if (errno || *end || top < 0) {
				fprintf(stderr, "%s: --top: not a count: %s\n", prog, optarg);
				return 2;
			}
			top_given = true;
			break;
		case 's':
			for (k = 0; k < sizeof(sort_names) / sizeof(sort_names[0]); k++)
				if (!strcmp(optarg, sort_names[k]))
					break;
			if (k == sizeof(sort_names) / sizeof(sort_names[0])) {
				fprintf(stderr, "%s: --sort: unknown key %s (see --help)\n",
					prog, optarg);
				return 2;
			}
			sort_by = (enum sort_key)k;
			break;
		case 'c':
			csv = true;
			break;
		case 'j':
			if (!strcmp(optarg, "1")) {
				one_thread = true;
			} else if (!strcmp(optarg, "2")) {
				one_thread = false;
			} else {
				fprintf(stderr, "%s: --threads: 1 or 2, not %s\n", prog, optarg);
				return 2;
			}
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "%s: expected one FILE (see --help)\n", prog);
		return 2;
	}
	if (csv && !top_given)
		top = 0;

	memset(&rp, 0, sizeof(rp));
	rp.first_ns = UINT64_MAX;
	rp.m = fxt_merge_open(argv[optind]);
	if (!rp.m) {
		fprintf(stderr, "%s: %s: %s\n", prog, argv[optind], strerror(errno));
		return 1;
	}
	fxt_merge_set_diag(rp.m, on_diag, &dc);
	fxt_merge_skip_args(rp.m, FXT_SKIP_SCHED_ARGS | FXT_SKIP_SPAN_ARGS);
	o = &out;
	ob_init(o, STDOUT_FILENO, out_mem, OUTBUF_SIZE);
	/* The report is printed at the end: the terminal is free until then. */
	progress_init(&pg, prog, STDERR_FILENO, fxt_merge_size(rp.m), PROGRESS_MIN_BYTES, true);

	memset(&pipe, 0, sizeof(pipe));
	pipe.rp = &rp;
	pthread_mutex_init(&pipe.mu, NULL);
	pthread_cond_init(&pipe.cv, NULL);
	for (k = 0; k < NBLOCKS && !one_thread; k++) {
		pipe.blocks[k] = malloc(BLOCK_EVENTS * sizeof(struct ev));
		if (!pipe.blocks[k]) {
			fprintf(stderr, "%s: out of memory\n", prog);
			return 1;
		}
	}
	if (!one_thread && pthread_create(&thread, NULL, analysis, &pipe)) {
		fprintf(stderr, "%s: cannot start the analysis thread\n", prog);
		return 1;
	}
	rp.early = one_thread;
	if (evmerge_init(&em, &rp, rp.m, one_thread)) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return 1;
	}
	drain(&em, one_thread ? NULL : &pipe, false);
	if (!one_thread) {
		pthread_mutex_lock(&pipe.mu);
		pipe.done = true;
		pthread_cond_broadcast(&pipe.cv);
		pthread_mutex_unlock(&pipe.mu);
		pthread_join(thread, NULL);
	}
	evmerge_free(&em);
	if ((rp.irqs_mixed || rp.switches_mixed) && replay(&rp, argv[optind])) {
		fprintf(stderr, "%s: %s: cannot read it again: %s\n", prog, argv[optind],
			strerror(errno));
		rc = 1;
	}
	for (k = 0; k < NBLOCKS; k++)
		free(pipe.blocks[k]);
	pthread_mutex_destroy(&pipe.mu);
	pthread_cond_destroy(&pipe.cv);
	progress_end(&pg);
	if (fxt_merge_status(rp.m) < 0)
		rc = 1;
	finish(&rp);
	print_report(&rp, o, argv[optind], top, csv);
	if (ob_flush(o)) {
		fprintf(stderr, "%s: write error: %s\n", prog, strerror(-o->error));
		rc = 1;
	}
	for (k = 0; k < rp.nthreads; k++)
		free(rp.threads[k].delays);
	free(rp.tids);
	free(rp.threads);
	free(rp.cpus);
	free(rp.handlers);
	free(rp.hslot);
	free(rp.hstats);
	u64map_free(&rp.tmap);
	for (k = 0; k < DIRECT_TIDS / DIRECT_CHUNK; k++)
		free(rp.direct[k]);
	fxt_merge_close(rp.m);
	return rc;
}
