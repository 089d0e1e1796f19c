// SPDX-License-Identifier: MIT
/*
 * fxt-report - scheduling statistics of an FXT archive in one pass.
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
 * through libfxt's reader.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hist.h"
#include "libfxt.h"
#include "outbuf.h"
#include "u64map.h"

static const char usage[] =
"Usage: fxt-report [OPTION]... FILE\n"
"Scheduling statistics of an FXT archive, computed in one streaming pass.\n"
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
"  -h, --help       show this help and exit\n"
"\n"
"Threads: RUN time on CPU, SWITCHES (times switched in), PREEMPT (switched\n"
"out still runnable), RUNNABLE (time preempted-but-runnable until it ran\n"
"again), WAKEUPS, and DELAY: from a wakeup record to the next switch in,\n"
"as average, p50, p90, p99 and maximum (percentiles within 3%).\n"
"CPUs: time observed from the CPU's first context switch, BUSY and IDLE\n"
"(idle = thread koid 0), IRQ and SOFTIRQ time, switches, dropped records.\n"
"Interrupts: per handler name, exclusive of nested interrupts.\n"
"A progress indicator is shown on standard error when it is a terminal\n"
"and the archive is larger than 64 MiB.\n"
"Exit status: 0 success, 1 unreadable archive, 2 usage error.\n";

static char out_mem[OUTBUF_SIZE + OUTBUF_SLACK];
static struct outbuf out;
static const char *prog = "fxt-report";

#define IRQ_KOID_BASE	0x40000001ull	/* CPU c's interrupt pseudo-thread (records.rst) */
#define IRQ_STACK	16
#define MAX_CPUS	65536

enum tstate {
	T_UNKNOWN,
	T_RUNNING,
	T_PREEMPTED,	/* runnable, switched out by preemption */
	T_WOKEN,	/* runnable after a wakeup */
	T_SLEEPING,	/* blocked or suspended */
	T_DEAD,
};

struct tstat {
	uint64_t tid, pid;
	uint64_t since;		/* ns: entered state */
	uint64_t wake_ts;	/* ns: pending wakeup */
	uint8_t state;		/* enum tstate */
	bool has_wake;
	uint64_t run_ns, wait_ns, wait_max;
	uint64_t switches, preempts, wakeups;
	struct hist *delay;
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
	struct irqframe stack[IRQ_STACK];
};

struct handler {
	char name[64];
	uint8_t len;
	bool soft;
	uint64_t count, total_ns, max_ns;
};

struct report {
	struct fxt_reader *r;
	struct tstat *threads;
	size_t nthreads, tcap;
	struct u64map tmap;
	struct cstat *cpus;
	size_t ncpus;
	struct handler *handlers;
	size_t nhandlers, hcap;
	uint64_t first_ns, last_ns;
	bool any_ts;
	uint64_t switches, wakeups;
};

/* ------------------------------------------------------------------ */
/* State lookups.                                                       */

static struct tstat *thread_get(struct report *rp, uint64_t tid)
{
	int64_t i = u64map_get(&rp->tmap, tid);
	struct tstat *t;

	if (i >= 0)
		return &rp->threads[i];
	if (rp->nthreads == rp->tcap) {
		size_t n = rp->tcap ? rp->tcap * 2 : 64;
		struct tstat *nt = realloc(rp->threads, n * sizeof(*nt));

		if (!nt)
			return NULL;
		rp->threads = nt;
		rp->tcap = n;
	}
	if (u64map_put(&rp->tmap, tid, (uint32_t)rp->nthreads))
		return NULL;
	t = &rp->threads[rp->nthreads++];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->pid = tid;
	return t;
}

static struct cstat *cpu_get(struct report *rp, unsigned int cpu)
{
	if (cpu >= MAX_CPUS)
		return NULL;
	if (cpu >= rp->ncpus) {
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

static int handler_get(struct report *rp, bool soft, struct fxt_str name)
{
	size_t n = name.data ? name.len : 0, i;
	const char *data = name.data ? name.data : "";
	struct handler *h;

	if (n > sizeof(h->name) - 1)
		n = sizeof(h->name) - 1;
	for (i = 0; i < rp->nhandlers; i++) {
		h = &rp->handlers[i];
		if (h->soft == soft && h->len == n && !memcmp(h->name, data, n))
			return (int)i;
	}
	if (rp->nhandlers == rp->hcap) {
		size_t c = rp->hcap ? rp->hcap * 2 : 64;
		struct handler *nh;

		if (c > 65536)
			return -1;
		nh = realloc(rp->handlers, c * sizeof(*nh));
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
	return (int)rp->nhandlers++;
}

/* ------------------------------------------------------------------ */
/* Events.                                                              */

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

static void on_switch(struct report *rp, const struct fxt_record *rec, uint64_t ts)
{
	const struct fxt_thread *out = &rec->u.sw.out, *in = &rec->u.sw.in;
	bool v1 = rec->subtype == FXT_SCHED_CONTEXT_SWITCH;
	struct cstat *c = cpu_get(rp, rec->u.sw.cpu);
	struct tstat *t;

	rp->switches++;
	if (c) {
		if (!c->seen) {
			c->seen = true;
			c->first = ts;
		}
		cpu_account(c, ts);
		c->switches++;
		c->cur_valid = in->defined;
		c->cur_tid = in->tid;
	}
	if (out->defined && out->tid) {
		t = thread_get(rp, out->tid);
		if (t) {
			if (v1)
				t->pid = out->pid;
			if (t->state == T_RUNNING && ts >= t->since)
				t->run_ns += ts - t->since;
			switch (rec->u.sw.out_state) {
			case FXT_THREAD_NEW:
			case FXT_THREAD_RUNNING:
				t->state = T_PREEMPTED;
				t->preempts++;
				break;
			case FXT_THREAD_DEAD:
				t->state = T_DEAD;
				break;
			default:
				t->state = T_SLEEPING;
				break;
			}
			t->since = ts;
			t->has_wake = false;
		}
	}
	if (in->defined && in->tid) {
		t = thread_get(rp, in->tid);
		if (t) {
			if (v1)
				t->pid = in->pid;
			if (t->state == T_PREEMPTED && ts >= t->since) {
				uint64_t d = ts - t->since;

				t->wait_ns += d;
				if (d > t->wait_max)
					t->wait_max = d;
			}
			if (t->has_wake && ts >= t->wake_ts) {
				if (!t->delay) {
					t->delay = malloc(sizeof(*t->delay));
					if (t->delay)
						hist_init(t->delay);
				}
				if (t->delay)
					hist_add(t->delay, ts - t->wake_ts);
			}
			t->has_wake = false;
			t->state = T_RUNNING;
			t->since = ts;
			t->switches++;
		}
	}
}

static void on_wakeup(struct report *rp, const struct fxt_record *rec, uint64_t ts)
{
	struct tstat *t;

	rp->wakeups++;
	if (!rec->u.wakeup.tid)
		return;
	t = thread_get(rp, rec->u.wakeup.tid);
	if (!t)
		return;
	t->wakeups++;
	if (t->state == T_RUNNING || t->state == T_PREEMPTED || t->has_wake)
		return;
	t->state = T_WOKEN;
	t->since = ts;
	t->wake_ts = ts;
	t->has_wake = true;
}

static bool str_is(struct fxt_str s, const char *lit)
{
	size_t n = strlen(lit);

	return s.data && s.len == n && !memcmp(s.data, lit, n);
}

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
	if (f->handler < rp->nhandlers) {
		struct handler *h = &rp->handlers[f->handler];

		h->count++;
		h->total_ns += self;
		if (self > h->max_ns)
			h->max_ns = self;
	}
	if (c->depth && c->depth <= IRQ_STACK)
		c->stack[c->depth - 1].child_ns += dur;
}

static void on_event(struct report *rp, const struct fxt_record *rec, uint64_t ts)
{
	const struct fxt_thread *th = &rec->u.event.thread;
	unsigned int cpu;
	struct cstat *c;
	bool soft;

	if (rec->subtype == FXT_EVENT_COUNTER) {
		/* fxt/dropped: cumulative per CPU, counter id = CPU. */
		if (str_is(rec->u.event.category, "fxt") && str_is(rec->u.event.name, "dropped") &&
		    rec->nargs && (rec->args[0].type == FXT_ARG_UINT64 ||
				   rec->args[0].type == FXT_ARG_INT64)) {
			c = cpu_get(rp, (unsigned int)(rec->u.event.data < MAX_CPUS ?
							rec->u.event.data : MAX_CPUS));
			if (c) {
				c->dropped = rec->args[0].v.u64;
				c->dropped_seen = true;
			}
		}
		return;
	}
	if (rec->subtype != FXT_EVENT_DURATION_BEGIN && rec->subtype != FXT_EVENT_DURATION_END)
		return;
	if (str_is(rec->u.event.category, "irq"))
		soft = false;
	else if (str_is(rec->u.event.category, "softirq"))
		soft = true;
	else
		return;
	if (th->defined && th->tid >= IRQ_KOID_BASE && th->tid < IRQ_KOID_BASE + MAX_CPUS)
		cpu = (unsigned int)(th->tid - IRQ_KOID_BASE);
	else
		cpu = rec->provider;
	c = cpu_get(rp, cpu);
	if (!c)
		return;
	if (rec->subtype == FXT_EVENT_DURATION_BEGIN) {
		if (c->depth < IRQ_STACK) {
			struct irqframe *f = &c->stack[c->depth];
			int h = handler_get(rp, soft, rec->u.event.name);

			f->start = ts;
			f->child_ns = 0;
			f->handler = h < 0 ? UINT32_MAX : (uint32_t)h;
			f->soft = soft;
		}
		c->depth++;
	} else if (c->depth) {
		irq_close(rp, c, ts);	/* an end without a begin is ignored */
	}
}

static void finish(struct report *rp)
{
	uint64_t end = rp->last_ns;
	size_t i;

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

static const char *comm_of(const struct report *rp, uint64_t tid)
{
	const struct fxt_kobj_info *k = fxt_reader_kobj(rp->r, tid);

	return k && k->name_len ? k->name : "";
}

static uint64_t delay_value(const struct tstat *t, enum sort_key k)
{
	if (!t->delay || !t->delay->count)
		return 0;
	switch (k) {
	case K_AVG:
		return t->delay->sum / t->delay->count;
	case K_P50:
		return hist_percentile(t->delay, 50);
	case K_P90:
		return hist_percentile(t->delay, 90);
	case K_P99:
		return hist_percentile(t->delay, 99);
	default:
		return t->delay->max;
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
		return t->tid;
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
		c = strcmp(comm_of(sort_rp, x->tid), comm_of(sort_rp, y->tid));
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
	return x->tid < y->tid ? -1 : x->tid > y->tid;
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
	uint64_t span = rp->any_ts ? rp->last_ns - rp->first_ns : 0;
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
			  path, (unsigned long long)fxt_reader_records(rp->r),
			  (unsigned long long)fxt_reader_offset(rp->r),
			  (unsigned long long)rp->switches, (unsigned long long)rp->wakeups);
		OB_LIT(o, "time span ");
		put_ms(o, span, 0);
		ob_printf(o, " ms (%llu .. %llu ns)\n", (unsigned long long)rp->first_ns,
			  (unsigned long long)rp->last_ns);
		if (fxt_reader_diag_count(rp->r))
			ob_printf(o, "warning: %llu defects in the archive (fxt-dump --check)\n",
				  (unsigned long long)fxt_reader_diag_count(rp->r));

		rows = limit(n, top);
		ob_printf(o, "\nThreads (%zu of %zu, by %s)\n", rows, n, sort_names[sort_by]);
		ob_printf(o, "%8s %8s %-16s %11s %8s %7s %11s %7s %10s %10s %10s %10s %10s\n",
			  "TID", "PID", "COMM", "RUN ms", "SWITCHES", "PREEMPT",
			  "RUNNABLE ms", "WAKEUPS", "avg us", "p50 us", "p90 us",
			  "p99 us", "max us");
		for (i = 0; i < rows; i++) {
			const struct tstat *t = ts[i];

			ob_printf(o, "%8llu %8llu %-16s ", (unsigned long long)t->tid,
				  (unsigned long long)t->pid,
				  printable(comm_of(rp, t->tid), buf, sizeof(buf), 16));
			put_ms(o, t->run_ns, 11);
			ob_printf(o, " %8llu %7llu ", (unsigned long long)t->switches,
				  (unsigned long long)t->preempts);
			put_ms(o, t->wait_ns, 11);
			ob_printf(o, " %7llu", (unsigned long long)t->wakeups);
			if (t->delay && t->delay->count) {
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
			uint64_t cnt = t->delay ? t->delay->count : 0;

			ob_printf(o, "threads,%llu,%llu,", (unsigned long long)t->tid,
				  (unsigned long long)t->pid);
			csv_str(o, comm_of(rp, t->tid));
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

	if (id == FXT_D_TRUNCATED || id == FXT_D_IO_ERROR || id == FXT_D_SIZE_ZERO ||
	    id == FXT_D_BIG_ENDIAN || fxt_diag_severity(id) == FXT_SEV_WARNING) {
		fprintf(stderr, "%s: %s%s\n", prog,
			id == FXT_D_TRUNCATED ? "warning: " : "", msg);
		(void)offset;
	} else if (d->shown++ < 5) {
		fprintf(stderr, "%s: offset 0x%llx: %s\n", prog, (unsigned long long)offset, msg);
	}
	return 0;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "top", required_argument, NULL, 'n' },
		{ "sort", required_argument, NULL, 's' },
		{ "csv", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct diag_ctx dc = { 0 };
	struct report rp;
	struct fxt_record *rec;
	struct outbuf *o;
	bool csv = false, top_given = false, progress;
	long top = 20;
	double next_tick = 0;
	uint64_t size;
	int c, rc = 0, n;
	size_t k;
	char *end;

	while ((c = getopt_long(argc, argv, "n:s:ch", opts, NULL)) != -1) {
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
	rp.r = fxt_reader_open(argv[optind]);
	if (!rp.r) {
		fprintf(stderr, "%s: %s: %s\n", prog, argv[optind], strerror(errno));
		return 1;
	}
	fxt_reader_set_diag(rp.r, on_diag, &dc);
	rec = malloc(sizeof(*rec));
	o = &out;
	if (!rec || !o) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return 1;
	}
	ob_init(o, STDOUT_FILENO, out_mem, OUTBUF_SIZE);
	size = fxt_reader_size(rp.r);
	progress = isatty(STDERR_FILENO) && size > (64u << 20);

	while ((n = fxt_reader_next(rp.r, rec)) > 0) {
		uint64_t ts;

		if (rec->flags & (FXT_RF_MALFORMED | FXT_RF_UNKNOWN | FXT_RF_NO_PAYLOAD))
			continue;
		if (rec->type == FXT_REC_SCHED) {
			ts = fxt_reader_ticks_to_ns(rp.r, rec->ts);
			if (rec->subtype == FXT_SCHED_THREAD_WAKEUP)
				on_wakeup(&rp, rec, ts);
			else
				on_switch(&rp, rec, ts);
		} else if (rec->type == FXT_REC_EVENT) {
			ts = fxt_reader_ticks_to_ns(rp.r, rec->ts);
			on_event(&rp, rec, ts);
		} else {
			continue;
		}
		if (!rp.any_ts || ts < rp.first_ns)
			rp.first_ns = ts;
		if (!rp.any_ts || ts > rp.last_ns)
			rp.last_ns = ts;
		rp.any_ts = true;
		if (progress && !(fxt_reader_records(rp.r) & 0xfffff) && now() >= next_tick) {
			uint64_t off = fxt_reader_offset(rp.r);

			fprintf(stderr, "\r%s: %3u%% (%llu of %llu MiB)", prog,
				(unsigned int)(off * 100 / size), (unsigned long long)(off >> 20),
				(unsigned long long)(size >> 20));
			next_tick = now() + 0.25;
		}
	}
	if (progress)
		fprintf(stderr, "\r\033[K");
	if (n < 0)
		rc = 1;
	finish(&rp);
	print_report(&rp, o, argv[optind], top, csv);
	if (ob_flush(o)) {
		fprintf(stderr, "%s: write error: %s\n", prog, strerror(-o->error));
		rc = 1;
	}
	for (k = 0; k < rp.nthreads; k++)
		free(rp.threads[k].delay);
	free(rp.threads);
	free(rp.cpus);
	free(rp.handlers);
	u64map_free(&rp.tmap);
	fxt_reader_close(rp.r);
	free(rec);
	return rc;
}
