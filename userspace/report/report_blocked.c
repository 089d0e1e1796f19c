// SPDX-License-Identifier: MIT
/*
 * report_blocked.c - fxt-report's Blocked in section: the sleeps in D
 * (uninterruptible: a sleep event "D" before the switch out, records.rst
 * "Sleep states") by the function the thread blocked in, its blocked_in
 * argument: how many, their total, p99 and longest time, and the threads
 * that spent the most D time in it. Sleeps whose event had no function
 * are "(unknown)". Nothing when the archive has no D sleep.
 *
 * The reading side interns the names (a function id per name, carried by
 * the switch's event); the analysis keeps one sample per D sleep ended,
 * grouped here at the end: a D sleep is far rarer than a switch.
 */
#include <stdio.h>
#include <stdlib.h>

#include "report.h"

#define FN_NAME_MAX	255	/* fxt.ko cuts names there too */
#define TOP_THREADS	3
#define UNKNOWN_FN	"(unknown)"

uint32_t report_blocked_fn(struct report *rp, struct fxt_str name)
{
	return fxt_name_intern(&rp->fns, name.data, name.data ? name.len : 0, FN_NAME_MAX);
}

void report_blocked_sample(struct report *rp, uint32_t fn, uint32_t idx, uint64_t ns)
{
	struct dsample *s;

	if (rp->ndsamples == rp->dscap) {
		size_t c = rp->dscap ? rp->dscap * 2 : 256;
		struct dsample *a = realloc(rp->dsamples, c * sizeof(*a));

		if (!a)
			return;		/* the section lacks it; the thread sums stand */
		rp->dsamples = a;
		rp->dscap = c;
	}
	s = &rp->dsamples[rp->ndsamples++];
	s->fn = fn;
	s->thread = idx;
	s->ns = ns;
}

void report_blocked_free(struct report *rp)
{
	fxt_name_intern_free(&rp->fns);
	free(rp->dsamples);
}

/* ------------------------------------------------------------------ */
/* The section.                                                         */

/* A function's row: its sums and its top threads by D time in it. */
struct fn_row {
	uint32_t fn;
	uint64_t count, total_ns, p99_ns, max_ns;
	unsigned int ntop;
	uint32_t top[TOP_THREADS];	/* tstat indices, most D time first */
	uint64_t top_ns[TOP_THREADS];
};

/* By function, then thread, then length: rows, threads, percentiles. */
static int cmp_samples(const void *a, const void *b)
{
	const struct dsample *x = a, *y = b;

	if (x->fn != y->fn)
		return x->fn < y->fn ? -1 : 1;
	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	return x->ns < y->ns ? -1 : x->ns > y->ns;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* A thread's D time in the row's function: among the top ones if it is. */
static void row_thread(struct fn_row *r, uint32_t thread, uint64_t ns)
{
	unsigned int k = r->ntop < TOP_THREADS ? r->ntop++ : TOP_THREADS;

	/* Samples come by thread index: an equal time keeps the earlier. */
	while (k > 0 && r->top_ns[k - 1] < ns) {
		if (k < TOP_THREADS) {
			r->top[k] = r->top[k - 1];
			r->top_ns[k] = r->top_ns[k - 1];
		}
		k--;
	}
	if (k < TOP_THREADS) {
		r->top[k] = thread;
		r->top_ns[k] = ns;
	}
}

/* The nearest-rank p99 of n lengths (sorted here). */
static uint64_t p99(uint64_t *ns, size_t n)
{
	size_t rank = (n * 99 + 99) / 100;	/* ceil(0.99 n), 1-based */

	qsort(ns, n, sizeof(*ns), cmp_u64);
	return ns[rank ? rank - 1 : 0];
}

static int cmp_rows(const void *a, const void *b)
{
	const struct fn_row *x = a, *y = b;

	if (x->total_ns != y->total_ns)
		return x->total_ns > y->total_ns ? -1 : 1;
	return x->fn < y->fn ? -1 : x->fn > y->fn;
}

/* The rows, by D time: *nrows of them; NULL without memory. */
static struct fn_row *make_rows(struct report *rp, size_t *nrows)
{
	struct dsample *s = rp->dsamples;
	size_t n = rp->ndsamples, i = 0, j, nr = 0;
	struct fn_row *rows = calloc(n, sizeof(*rows));
	uint64_t *lens = malloc(n * sizeof(*lens));

	if (!rows || !lens) {
		free(rows);
		free(lens);
		return NULL;
	}
	qsort(s, n, sizeof(*s), cmp_samples);
	while (i < n) {
		struct fn_row *r = &rows[nr++];
		size_t nl = 0;

		r->fn = s[i].fn;
		for (j = i; j < n && s[j].fn == r->fn;) {
			uint32_t th = s[j].thread;
			uint64_t sum = 0;

			for (; j < n && s[j].fn == r->fn && s[j].thread == th; j++) {
				sum += s[j].ns;
				lens[nl++] = s[j].ns;
				r->max_ns = s[j].ns > r->max_ns ? s[j].ns : r->max_ns;
			}
			r->total_ns += sum;
			row_thread(r, th, sum);
		}
		r->count = nl;
		r->p99_ns = p99(lens, nl);
		i = j;
	}
	free(lens);
	qsort(rows, nr, sizeof(*rows), cmp_rows);
	*nrows = nr;
	return rows;
}

static const char *fn_name(const struct report *rp, uint32_t fn)
{
	size_t len = 0;
	const char *name = fxt_name_intern_text(&rp->fns, fn, &len);

	return name && len ? name : UNKNOWN_FN;
}

/* "comm(tid)" of a thread, cut to size. */
static void thread_label(const struct report *rp, uint32_t idx, char *buf, size_t size)
{
	snprintf(buf, size, "%s(%llu)", report_comm_of(rp, &rp->threads[idx]),
		 (unsigned long long)rp->tids[idx]);
}

/* ns as ms, or us, with 3 decimals. */
static void ms(char *buf, size_t size, uint64_t ns)
{
	snprintf(buf, size, "%llu.%03llu", (unsigned long long)(ns / 1000000),
		 (unsigned long long)(ns / 1000 % 1000));
}

static void us(char *buf, size_t size, uint64_t ns)
{
	snprintf(buf, size, "%llu.%03llu", (unsigned long long)(ns / 1000),
		 (unsigned long long)(ns % 1000));
}

/* Printable, cut to width (control bytes -> '?'). */
static const char *printable(const char *s, char *buf, size_t width)
{
	size_t i;

	for (i = 0; s[i] && i < width; i++)
		buf[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
	buf[i] = 0;
	return buf;
}

static void print_text(struct report *rp, struct outbuf *o, const struct fn_row *rows,
		       size_t nrows, size_t shown)
{
	char name[33], total[32], p[32], max[32], label[96], shown_label[96];
	size_t i;
	unsigned int k;

	fxt_ob_printf(o, "\nBlocked in (%zu of %zu functions, by D time)\n"
		      "%-32s %7s %11s %10s %10s  %s\n", shown, nrows, "FUNCTION", "COUNT",
		      "D ms", "p99 us", "max us", "TOP THREADS (by D time)");
	for (i = 0; i < shown; i++) {
		const struct fn_row *r = &rows[i];

		ms(total, sizeof(total), r->total_ns);
		us(p, sizeof(p), r->p99_ns);
		us(max, sizeof(max), r->max_ns);
		fxt_ob_printf(o, "%-32s %7llu %11s %10s %10s ",
			      printable(fn_name(rp, r->fn), name, 32),
			      (unsigned long long)r->count, total, p, max);
		for (k = 0; k < r->ntop; k++) {
			thread_label(rp, r->top[k], label, sizeof(label));
			fxt_ob_printf(o, "%s%s", k ? ", " : " ",
				      printable(label, shown_label, sizeof(shown_label) - 1));
		}
		fxt_ob_putc(o, '\n');
	}
}

static void print_csv(struct report *rp, struct outbuf *o, const struct fn_row *rows,
		      size_t shown)
{
	char label[96];
	size_t i;
	unsigned int k;

	OB_LIT(o, "\ntable,function,count,d_ns,d_p99_ns,d_max_ns,"
		  "thread1,thread1_d_ns,thread2,thread2_d_ns,thread3,thread3_d_ns\n");
	for (i = 0; i < shown; i++) {
		const struct fn_row *r = &rows[i];

		OB_LIT(o, "blocked,");
		fxt_ob_csv_str(o, fn_name(rp, r->fn));
		fxt_ob_printf(o, ",%llu,%llu,%llu,%llu", (unsigned long long)r->count,
			      (unsigned long long)r->total_ns, (unsigned long long)r->p99_ns,
			      (unsigned long long)r->max_ns);
		for (k = 0; k < TOP_THREADS; k++) {
			fxt_ob_putc(o, ',');
			if (k >= r->ntop) {
				fxt_ob_putc(o, ',');
				continue;
			}
			thread_label(rp, r->top[k], label, sizeof(label));
			fxt_ob_csv_str(o, label);
			fxt_ob_printf(o, ",%llu", (unsigned long long)r->top_ns[k]);
		}
		fxt_ob_putc(o, '\n');
	}
}

void report_print_blocked(struct report *rp, struct outbuf *o, long top, bool csv)
{
	size_t nrows = 0, shown;
	struct fn_row *rows;

	if (!rp->ndsamples)
		return;
	rows = make_rows(rp, &nrows);
	if (!rows)
		return;
	shown = top > 0 && (size_t)top < nrows ? (size_t)top : nrows;
	if (csv)
		print_csv(rp, o, rows, shown);
	else
		print_text(rp, o, rows, nrows, shown);
	free(rows);
}
