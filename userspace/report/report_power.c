// SPDX-License-Identifier: MIT
/*
 * report_power.c - fxt-report's Power section: per CPU, the time in each
 * idle state and the time active, from the kernel's cpu_idle events, and
 * the time-weighted mean frequency, from its cpu_frequency events. Both
 * come as Perfetto packets in blob records of FXT_BLOB_TYPE_PERFETTO
 * (include/fxt/perfetto_blob.h, decoded by lib/perfetto_blob.c), one event a
 * blob; nothing is printed when the archive has none.
 *
 * A CPU is the one an event is about (its cpu_id): cpufreq writes the
 * events of every CPU of a policy from the one that changed it. Its idle
 * time is counted from its first cpu_idle event, its frequency from its
 * first cpu_frequency event, both up to the end of the time span (what
 * came before is unknown); the states, and the active time, add up to
 * the idle time.
 *
 * The reading side makes each event an EV_POWER (struct ev), which goes
 * through the time order and the pipeline like the others: a CPU's
 * residency depends on the order of its events, and the events of one CPU
 * come from every CPU's cursor.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fxt/perfetto_blob.h>

#include "grow.h"
#include "report.h"

__extension__ typedef unsigned __int128 u128;

#define NO_ROW		UINT32_MAX	/* active: no idle state's row */
#define LOST_ROW	(UINT32_MAX - 1)	/* a state without memory for its row */

/* A CPU's power state. */
struct pcpu {
	bool idle_seen, freq_seen;
	uint32_t row;		/* the row of its idle state, or NO_ROW, LOST_ROW */
	uint64_t idle_first, idle_since;	/* ns: first cpu_idle, last counted */
	uint64_t active_ns, entries;
	uint32_t khz, khz_min, khz_max;
	uint64_t freq_first, freq_since;	/* ns: first cpu_frequency, last counted */
	uint64_t changes;	/* cpu_frequency events that changed it */
	u128 khz_ns;		/* kHz x ns since freq_first: the mean's sum */
};

/* One CPU's time in one idle state, and its entries into it. */
struct prow {
	uint32_t cpu, state;
	uint64_t ns, entries;
};

struct power {
	struct pcpu *cpus;	/* by cpu_id */
	size_t ncpus;
	struct prow *rows;
	size_t nrows, rcap;
	struct u64map rmap;	/* cpu << 32 | state -> index in rows */
};

/* ------------------------------------------------------------------ */
/* Reading side.                                                        */

bool report_power_event(const struct fxt_record *rec, struct ev *e)
{
	struct fxt_power_event pe;

	/* ts_ns 0: no power event in it (a loss report). */
	if (rec->u.blob.blob_type != FXT_BLOB_TYPE_PERFETTO || !rec->u.blob.payload ||
	    !rec->ts_ns)
		return false;
	/* fxt.ko writes one event a blob: the one its time is (ts_ns). */
	if (fxt_perfetto_power_events(rec->u.blob.payload, rec->u.blob.size, &pe, 1) < 1 ||
	    pe.cpu_id >= MAX_CPUS)
		return false;
	if (pe.event != FXT_PB_EVENT_CPU_IDLE && pe.event != FXT_PB_EVENT_CPU_FREQUENCY)
		return false;
	e->kind = EV_POWER;
	e->ts = rec->ts_ns;
	e->cpu = (uint16_t)pe.cpu_id;
	e->flags = pe.event == FXT_PB_EVENT_CPU_FREQUENCY ? EVF_FREQ : 0;
	e->handler = pe.state;
	return true;
}

/* ------------------------------------------------------------------ */
/* Analysis side.                                                       */

static struct pcpu *pcpu_get(struct power *pw, unsigned int cpu)
{
	struct pcpu *nc;

	if (cpu < pw->ncpus)
		return &pw->cpus[cpu];
	nc = grow_zeroed(pw->cpus, &pw->ncpus, cpu, 8, sizeof(*nc));
	if (!nc)
		return NULL;
	pw->cpus = nc;
	return &pw->cpus[cpu];
}

/* The row of CPU cpu's idle state state, created when new; LOST_ROW without memory. */
static uint32_t row_of(struct power *pw, uint32_t cpu, uint32_t state)
{
	uint64_t key = (uint64_t)cpu << 32 | state;
	int64_t i = fxt_u64map_get(&pw->rmap, key);
	struct prow *r;

	if (i >= 0)
		return (uint32_t)i;
	if (pw->nrows == pw->rcap) {
		struct prow *a = grow_zeroed(pw->rows, &pw->rcap, pw->nrows, 16, sizeof(*a));

		if (!a)
			return LOST_ROW;
		pw->rows = a;
	}
	if (pw->nrows >= LOST_ROW || fxt_u64map_put(&pw->rmap, key, (uint32_t)pw->nrows))
		return LOST_ROW;
	r = &pw->rows[pw->nrows];	/* zeroed */
	r->cpu = cpu;
	r->state = state;
	return (uint32_t)pw->nrows++;
}

/*
 * The time from the last event counted to ts goes to the state the CPU
 * was in. Time only moves on: an event earlier than the last (file order)
 * counts nothing, so the states always add up to the time observed.
 */
static void idle_account(struct power *pw, struct pcpu *c, uint64_t ts)
{
	uint64_t ns;

	if (ts <= c->idle_since)
		return;
	ns = ts - c->idle_since;
	if (c->row == NO_ROW)
		c->active_ns += ns;
	else if (c->row != LOST_ROW)
		pw->rows[c->row].ns += ns;
	c->idle_since = ts;
}

static void idle_event(struct power *pw, struct pcpu *c, uint32_t cpu, uint64_t ts,
		       uint32_t state)
{
	if (!c->idle_seen) {
		c->idle_seen = true;
		c->idle_first = c->idle_since = ts;
	}
	idle_account(pw, c, ts);
	if (state == FXT_PB_IDLE_EXIT) {
		c->row = NO_ROW;
		return;
	}
	/* Entering state; a second one without an exit between moves it there. */
	c->row = row_of(pw, cpu, state);
	c->entries++;
	if (c->row != LOST_ROW)
		pw->rows[c->row].entries++;
}

static void freq_account(struct pcpu *c, uint64_t ts)
{
	if (ts <= c->freq_since)
		return;
	c->khz_ns += (u128)c->khz * (ts - c->freq_since);
	c->freq_since = ts;
}

static void freq_event(struct pcpu *c, uint64_t ts, uint32_t khz)
{
	if (!c->freq_seen) {
		c->freq_seen = true;
		c->freq_first = c->freq_since = ts;
		c->khz_min = c->khz_max = khz;
	} else {
		freq_account(c, ts);
		c->changes += khz != c->khz;	/* the first one is no change */
	}
	c->khz = khz;
	c->khz_min = khz < c->khz_min ? khz : c->khz_min;
	c->khz_max = khz > c->khz_max ? khz : c->khz_max;
}

void report_power_apply(struct report *rp, const struct ev *e)
{
	struct power *pw = rp->power;
	struct pcpu *c;

	if (!pw) {
		pw = calloc(1, sizeof(*pw));
		if (!pw)
			return;		/* the section lacks it; the rest stands */
		rp->power = pw;
	}
	c = pcpu_get(pw, e->cpu);
	if (!c)
		return;
	if (e->flags & EVF_FREQ)
		freq_event(c, e->ts, e->handler);
	else
		idle_event(pw, c, e->cpu, e->ts, e->handler);
}

void report_power_finish(struct report *rp, uint64_t end)
{
	struct power *pw = rp->power;
	size_t i;

	for (i = 0; pw && i < pw->ncpus; i++) {
		struct pcpu *c = &pw->cpus[i];

		if (c->idle_seen)
			idle_account(pw, c, end);
		if (c->freq_seen)
			freq_account(c, end);
	}
}

void report_power_free(struct report *rp)
{
	struct power *pw = rp->power;

	if (!pw)
		return;
	free(pw->cpus);
	free(pw->rows);
	fxt_u64map_free(&pw->rmap);
	free(pw);
	rp->power = NULL;
}

/* ------------------------------------------------------------------ */
/* The section.                                                         */

/* By CPU, then state. */
static int cmp_rows(const void *a, const void *b)
{
	const struct prow *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->state < y->state ? -1 : x->state > y->state;
}

/* The CPU's time observed: its states (and active time) add up to it. */
static uint64_t idle_time(const struct pcpu *c)
{
	return c->idle_since - c->idle_first;
}

static uint64_t freq_time(const struct pcpu *c)
{
	return c->freq_since - c->freq_first;
}

/* The time-weighted mean in kHz, rounded; over no time, the frequency then. */
static uint64_t khz_mean(const struct pcpu *c)
{
	uint64_t t = freq_time(c);

	return t ? (uint64_t)((c->khz_ns + t / 2) / t) : c->khz;
}

/* ns as ms with 3 decimals. */
static void ms(char *buf, size_t size, uint64_t ns)
{
	snprintf(buf, size, "%llu.%03llu", (unsigned long long)(ns / 1000000),
		 (unsigned long long)(ns / 1000 % 1000));
}

/* part of whole in %, 1 decimal, rounded (as the CPUs table). */
static void pct(char *buf, size_t size, uint64_t part, uint64_t whole)
{
	uint64_t permille = whole ? (uint64_t)(((u128)part * 1000 + whole / 2) / whole) : 0;

	snprintf(buf, size, "%llu.%llu", (unsigned long long)(permille / 10),
		 (unsigned long long)(permille % 10));
}

static void text_row(struct outbuf *o, size_t cpu, const char *state, uint64_t ns,
		     uint64_t whole, const char *entries)
{
	char t[32], p[32];

	ms(t, sizeof(t), ns);
	pct(p, sizeof(p), ns, whole);
	fxt_ob_printf(o, "%4zu %-8s %11s %6s %8s\n", cpu, state, t, p, entries);
}

static void print_text(const struct power *pw, struct outbuf *o)
{
	char state[16], n[24], t[32];
	size_t i, k = 0;	/* k: the next row, rows sorted by CPU */

	fxt_ob_printf(o, "\nPower: idle states (per CPU, from its first cpu_idle event;"
		      " %% of that time)\n%4s %-8s %11s %6s %8s\n", "CPU", "STATE", "TIME ms",
		      "TIME%", "ENTRIES");
	for (i = 0; i < pw->ncpus; i++) {
		const struct pcpu *c = &pw->cpus[i];

		if (!c->idle_seen) {
			if (c->freq_seen)
				fxt_ob_printf(o, "%4zu %-8s %11s %6s %8s\n", i, "-", "-", "-", "-");
			continue;
		}
		snprintf(n, sizeof(n), "%llu", (unsigned long long)c->entries);
		text_row(o, i, "all", idle_time(c), idle_time(c), n);
		text_row(o, i, "active", c->active_ns, idle_time(c), "-");
		for (; k < pw->nrows && pw->rows[k].cpu == i; k++) {
			const struct prow *r = &pw->rows[k];

			snprintf(state, sizeof(state), "%u", r->state);
			snprintf(n, sizeof(n), "%llu", (unsigned long long)r->entries);
			text_row(o, i, state, r->ns, idle_time(c), n);
		}
	}

	fxt_ob_printf(o, "\nPower: frequency (per CPU, from its first cpu_frequency event)\n"
		      "%4s %11s %10s %10s %10s %8s\n", "CPU", "TIME ms", "avg kHz", "min kHz",
		      "max kHz", "CHANGES");
	for (i = 0; i < pw->ncpus; i++) {
		const struct pcpu *c = &pw->cpus[i];

		if (!c->freq_seen) {
			if (c->idle_seen)
				fxt_ob_printf(o, "%4zu %11s %10s %10s %10s %8s\n", i, "-", "-",
					      "-", "-", "-");
			continue;
		}
		ms(t, sizeof(t), freq_time(c));
		fxt_ob_printf(o, "%4zu %11s %10llu %10u %10u %8llu\n", i, t,
			      (unsigned long long)khz_mean(c), c->khz_min, c->khz_max,
			      (unsigned long long)c->changes);
	}
}

/* The CPU's frequency columns (empty without cpu_frequency events), and the line's end. */
static void csv_freq(struct outbuf *o, const struct pcpu *c)
{
	if (!c->freq_seen) {
		OB_LIT(o, ",,,,,\n");
		return;
	}
	fxt_ob_printf(o, ",%llu,%llu,%u,%u,%llu\n", (unsigned long long)freq_time(c),
		      (unsigned long long)khz_mean(c), c->khz_min, c->khz_max,
		      (unsigned long long)c->changes);
}

/*
 * One row per CPU and idle state ("active" first), each with the CPU's
 * idle time and frequency figures; a CPU without cpu_idle events, one row
 * with its idle columns empty.
 */
static void print_csv(const struct power *pw, struct outbuf *o)
{
	size_t i, k = 0;	/* k: the next row, rows sorted by CPU */

	OB_LIT(o, "\ntable,cpu,state,time_ns,entries,idle_time_ns,freq_time_ns,"
		  "freq_avg_khz,freq_min_khz,freq_max_khz,freq_changes\n");
	for (i = 0; i < pw->ncpus; i++) {
		const struct pcpu *c = &pw->cpus[i];

		if (!c->idle_seen && !c->freq_seen)
			continue;
		if (!c->idle_seen) {
			fxt_ob_printf(o, "power,%zu,,,,", i);
			csv_freq(o, c);
			continue;
		}
		fxt_ob_printf(o, "power,%zu,active,%llu,,%llu", i,
			      (unsigned long long)c->active_ns,
			      (unsigned long long)idle_time(c));
		csv_freq(o, c);
		for (; k < pw->nrows && pw->rows[k].cpu == i; k++) {
			const struct prow *r = &pw->rows[k];

			fxt_ob_printf(o, "power,%zu,%u,%llu,%llu,%llu", i, r->state,
				      (unsigned long long)r->ns, (unsigned long long)r->entries,
				      (unsigned long long)idle_time(c));
			csv_freq(o, c);
		}
	}
}

void report_print_power(struct report *rp, struct outbuf *o, bool csv)
{
	struct power *pw = rp->power;

	if (!pw)
		return;
	if (pw->nrows)
		qsort(pw->rows, pw->nrows, sizeof(*pw->rows), cmp_rows);
	if (csv)
		print_csv(pw, o);
	else
		print_text(pw, o);
}
