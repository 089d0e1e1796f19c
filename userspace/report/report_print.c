// SPDX-License-Identifier: MIT
/*
 * report_print.c - fxt-report's tables: threads (sorted by a key), CPUs
 * and interrupt handlers, as aligned text or CSV; then the Processes
 * (report_processes.c), Blocked in (report_blocked.c), Power
 * (report_power.c), Losses (report_losses.c) and Triggers
 * (report_triggers.c) sections.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

enum sort_key {
	K_RUN, K_SWITCHES, K_PREEMPT, K_WAIT, K_WAKEUPS, K_DELAY, K_AVG,
	K_P50, K_P90, K_P99, K_TID, K_COMM, K_S, K_D, K_DMAX,
};

static const char *const sort_names[] = {
	"run", "switches", "preempt", "wait", "wakeups", "delay", "avg",
	"p50", "p90", "p99", "tid", "comm", "s", "d", "dmax",
};

/* What cmp_threads() compares by, set by report_print(). */
static enum sort_key sort_by;
static struct report *sort_rp;

static uint64_t tid_of(const struct tstat *t)
{
	return sort_rp->tids[t - sort_rp->threads];
}

static const struct tsleep *sleep_of(const struct tstat *t)
{
	return &sort_rp->sleeps[t - sort_rp->threads];
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
	case K_S:
		return sleep_of(t)->s_ns;
	case K_D:
		return sleep_of(t)->d_ns;
	case K_DMAX:
		return sleep_of(t)->d_max;
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
		c = strcmp(report_comm_of(sort_rp, x), report_comm_of(sort_rp, y));
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
	fxt_ob_printf(o, "%*s", width, tmp);
}

static void put_us(struct outbuf *o, uint64_t ns, int width)
{
	char tmp[32];

	snprintf(tmp, sizeof(tmp), "%llu.%03llu", (unsigned long long)(ns / 1000),
		 (unsigned long long)(ns % 1000));
	fxt_ob_printf(o, "%*s", width, tmp);
}

static void put_pct(struct outbuf *o, uint64_t part, uint64_t whole, int width)
{
	char tmp[32];
	uint64_t permille = whole ? (part * 1000 + whole / 2) / whole : 0;

	snprintf(tmp, sizeof(tmp), "%llu.%llu", (unsigned long long)(permille / 10),
		 (unsigned long long)(permille % 10));
	fxt_ob_printf(o, "%*s", width, tmp);
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

int report_sort_key(const char *name)
{
	size_t k;

	for (k = 0; k < sizeof(sort_names) / sizeof(sort_names[0]); k++)
		if (!strcmp(name, sort_names[k]))
			return (int)k;
	return -1;
}

void report_print(struct report *rp, struct outbuf *o, const char *path,
		  int sort, long top, bool csv)
{
	struct tstat **ts = malloc((rp->nthreads ? rp->nthreads : 1) * sizeof(*ts));
	size_t n = 0, i, rows;
	uint64_t span = rp->last_ns - rp->first_ns;
	char buf[64];

	for (i = 0; i < rp->nthreads; i++)
		if (rp->threads[i].switches || rp->threads[i].wakeups ||
		    rp->threads[i].run_ns)
			ts[n++] = &rp->threads[i];
	sort_by = (enum sort_key)sort;
	sort_rp = rp;
	qsort(ts, n, sizeof(*ts), cmp_threads);
	if (rp->nhandlers)
		qsort(rp->handlers, rp->nhandlers, sizeof(*rp->handlers), cmp_handlers);

	if (!csv) {
		fxt_ob_printf(o, "%s: %llu records, %llu bytes, %llu switches, %llu wakeups\n",
			  path, (unsigned long long)fxt_merge_records(rp->m),
			  (unsigned long long)fxt_merge_bytes(rp->m),
			  (unsigned long long)rp->switches, (unsigned long long)rp->wakeups);
		OB_LIT(o, "time span ");
		put_ms(o, span, 0);
		fxt_ob_printf(o, " ms (%llu .. %llu ns)\n", (unsigned long long)rp->first_ns,
			  (unsigned long long)rp->last_ns);
		if (!fxt_merge_ordered(rp->m))
			fxt_ob_printf(o, "warning: read in file order (not a regular file, or over"
				  " 1024 providers): cross-CPU figures may be wrong\n");
		if (fxt_merge_diag_count(rp->m))
			fxt_ob_printf(o, "warning: %llu defects in the archive (fxt-dump --check)\n",
				  (unsigned long long)fxt_merge_diag_count(rp->m));

		rows = limit(n, top);
		fxt_ob_printf(o, "\nThreads (%zu of %zu, by %s)\n", rows, n, sort_names[sort_by]);
		fxt_ob_printf(o, "%8s %8s %-16s %11s %8s %7s %11s %7s %10s %10s %10s %10s %10s"
			  " %11s %11s %10s\n",
			  "TID", "PID", "COMM", "RUN ms", "SWITCHES", "PREEMPT",
			  "RUNNABLE ms", "WAKEUPS", "avg us", "p50 us", "p90 us",
			  "p99 us", "max us", "S ms", "D ms", "D max ms");
		for (i = 0; i < rows; i++) {
			const struct tstat *t = ts[i];

			fxt_ob_printf(o, "%8llu %8llu %-16s ", (unsigned long long)tid_of(t),
				  (unsigned long long)t->pid,
				  printable(report_comm_of(rp, t), buf, sizeof(buf), 16));
			put_ms(o, t->run_ns, 11);
			fxt_ob_printf(o, " %8llu %7llu ", (unsigned long long)t->switches,
				  (unsigned long long)t->preempts);
			put_ms(o, t->wait_ns, 11);
			fxt_ob_printf(o, " %7llu", (unsigned long long)t->wakeups);
			if (delay_of(t) && delay_of(t)->count) {
				static const enum sort_key ks[] = { K_AVG, K_P50, K_P90, K_P99, K_DELAY };
				unsigned int k;

				for (k = 0; k < 5; k++) {
					fxt_ob_putc(o, ' ');
					put_us(o, delay_value(t, ks[k]), 10);
				}
			} else {
				fxt_ob_printf(o, " %10s %10s %10s %10s %10s", "-", "-", "-", "-", "-");
			}
			fxt_ob_putc(o, ' ');
			put_ms(o, sleep_of(t)->s_ns, 11);
			fxt_ob_putc(o, ' ');
			put_ms(o, sleep_of(t)->d_ns, 11);
			fxt_ob_putc(o, ' ');
			put_ms(o, sleep_of(t)->d_max, 10);
			fxt_ob_putc(o, '\n');
		}

		fxt_ob_printf(o, "\nCPUs\n%4s %11s %11s %6s %11s %6s %10s %10s %9s %9s\n", "CPU",
			  "TIME ms", "BUSY ms", "UTIL%", "IDLE ms", "IDLE%", "IRQ ms",
			  "SOFTIRQ ms", "SWITCHES", "DROPPED");
		for (i = 0; i < rp->ncpus; i++) {
			const struct cstat *c = &rp->cpus[i];
			uint64_t win = c->busy_ns + c->idle_ns;

			if (!c->seen && !c->irq_ns && !c->softirq_ns && !c->dropped_seen)
				continue;
			fxt_ob_printf(o, "%4zu ", i);
			put_ms(o, win, 11);
			fxt_ob_putc(o, ' ');
			put_ms(o, c->busy_ns, 11);
			fxt_ob_putc(o, ' ');
			put_pct(o, c->busy_ns, win, 6);
			fxt_ob_putc(o, ' ');
			put_ms(o, c->idle_ns, 11);
			fxt_ob_putc(o, ' ');
			put_pct(o, c->idle_ns, win, 6);
			fxt_ob_putc(o, ' ');
			put_ms(o, c->irq_ns, 10);
			fxt_ob_putc(o, ' ');
			put_ms(o, c->softirq_ns, 10);
			fxt_ob_printf(o, " %9llu %9llu\n", (unsigned long long)c->switches,
				  (unsigned long long)c->dropped);
		}

		rows = limit(rp->nhandlers, top);
		fxt_ob_printf(o, "\nInterrupts (%zu of %zu, by time)\n%-8s %-24s %9s %11s %10s %10s\n",
			  rows, rp->nhandlers, "TYPE", "NAME", "COUNT", "TOTAL ms", "avg us",
			  "max us");
		for (i = 0; i < rows; i++) {
			const struct handler *h = &rp->handlers[i];
			char name[65];

			memcpy(name, h->name, h->len);
			name[h->len] = 0;
			fxt_ob_printf(o, "%-8s %-24s %9llu ", h->soft ? "softirq" : "irq",
				  printable(name, buf, sizeof(buf), 24),
				  (unsigned long long)h->count);
			put_ms(o, h->total_ns, 11);
			fxt_ob_putc(o, ' ');
			put_us(o, h->count ? h->total_ns / h->count : 0, 10);
			fxt_ob_putc(o, ' ');
			put_us(o, h->max_ns, 10);
			fxt_ob_putc(o, '\n');
		}
	} else {
		rows = limit(n, top);
		OB_LIT(o, "table,tid,pid,comm,run_ns,switches,preempts,runnable_ns,"
			  "runnable_max_ns,wakeups,delays,delay_avg_ns,delay_p50_ns,"
			  "delay_p90_ns,delay_p99_ns,delay_max_ns,s_ns,d_ns,d_max_ns\n");
		for (i = 0; i < rows; i++) {
			const struct tstat *t = ts[i];
			uint64_t cnt = delay_of(t) ? delay_of(t)->count : 0;

			fxt_ob_printf(o, "threads,%llu,%llu,", (unsigned long long)tid_of(t),
				  (unsigned long long)t->pid);
			fxt_ob_csv_str(o, report_comm_of(rp, t));
			fxt_ob_printf(o, ",%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu"
				  ",%llu,%llu,%llu\n",
				  (unsigned long long)t->run_ns, (unsigned long long)t->switches,
				  (unsigned long long)t->preempts, (unsigned long long)t->wait_ns,
				  (unsigned long long)t->wait_max, (unsigned long long)t->wakeups,
				  (unsigned long long)cnt,
				  (unsigned long long)delay_value(t, K_AVG),
				  (unsigned long long)delay_value(t, K_P50),
				  (unsigned long long)delay_value(t, K_P90),
				  (unsigned long long)delay_value(t, K_P99),
				  (unsigned long long)delay_value(t, K_DELAY),
				  (unsigned long long)sleep_of(t)->s_ns,
				  (unsigned long long)sleep_of(t)->d_ns,
				  (unsigned long long)sleep_of(t)->d_max);
		}
		OB_LIT(o, "\ntable,cpu,time_ns,busy_ns,idle_ns,irq_ns,softirq_ns,switches,dropped\n");
		for (i = 0; i < rp->ncpus; i++) {
			const struct cstat *c = &rp->cpus[i];

			if (!c->seen && !c->irq_ns && !c->softirq_ns && !c->dropped_seen)
				continue;
			fxt_ob_printf(o, "cpus,%zu,%llu,%llu,%llu,%llu,%llu,%llu,%llu\n", i,
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
			fxt_ob_printf(o, "irqs,%s,", h->soft ? "softirq" : "irq");
			fxt_ob_csv_str(o, name);
			fxt_ob_printf(o, ",%llu,%llu,%llu,%llu\n", (unsigned long long)h->count,
				  (unsigned long long)h->total_ns,
				  (unsigned long long)(h->count ? h->total_ns / h->count : 0),
				  (unsigned long long)h->max_ns);
		}
	}
	report_print_processes(rp, o, top, csv);
	report_print_blocked(rp, o, top, csv);
	report_print_power(rp, o, csv);
	report_print_losses(rp, o, csv);
	report_print_triggers(rp, o, csv);
	free(ts);
}
