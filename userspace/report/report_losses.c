// SPDX-License-Identifier: MIT
/*
 * report_losses.c - fxt-report's Losses section: the gaps fxt-collect
 * recorded where a CPU lost records. Its loss record (records.rst, "Loss";
 * FXT_LOST_NAME in <fxt/format.h>) is a duration complete event fxt/lost
 * on the CPU's interrupt pseudo-thread, from A, the time of the CPU's last
 * kept record before the loss (or the start), to B, that of its first kept
 * record after it (or the stop), with "cpu" (uint32) and "records"
 * (uint64) lost: nothing is known of what that CPU did in (A, B).
 *
 * The reading side makes each an EV_GAP (struct ev), which goes through
 * the time order and the pipeline like the others; what it does to the
 * threads and the CPU (no run, wait, sleep, busy or idle time across it)
 * is report_stats.c's. Here: its figures per CPU (gaps, records lost, the
 * time unknown, the longest gap), the ends of the gaps under way, and the
 * section, printed only when the archive has gaps.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "report.h"

/* One CPU's gaps. */
struct lcpu {
	uint64_t gaps, records, unknown_ns, longest_ns;
};

struct losses {
	struct lcpu *cpus;	/* by CPU */
	size_t ncpus;
	uint64_t *ends;		/* ns: the ends of the gaps under way */
	size_t nends, ecap;
};

/* ------------------------------------------------------------------ */
/* Reading side.                                                        */

bool report_gap_event(const struct fxt_reader *r, const struct fxt_record *rec,
		      struct ev *e)
{
	uint64_t to, records;
	uint32_t cpu;

	if (!fxt_lost_event(rec, &cpu, &to, &records) || cpu >= MAX_CPUS)
		return false;
	e->kind = EV_GAP;
	e->ts = rec->ts_ns;
	e->in_tid = fxt_reader_ticks_to_ns(r, to);
	e->out_tid = records;
	e->cpu = (uint16_t)cpu;
	e->flags = 0;
	return true;
}

/* ------------------------------------------------------------------ */
/* Analysis side.                                                       */

static struct losses *losses_get(struct report *rp)
{
	if (!rp->losses)
		rp->losses = calloc(1, sizeof(*rp->losses));
	return rp->losses;
}

void report_losses_add(struct report *rp, const struct ev *e)
{
	struct losses *l = losses_get(rp);
	uint64_t ns = e->in_tid - e->ts;	/* the end is not before the start */
	struct lcpu *c;

	if (!l)
		return;		/* the section lacks it; the rest stands */
	if (e->cpu >= l->ncpus) {
		struct lcpu *nc = grow_zeroed(l->cpus, &l->ncpus, e->cpu, 8, sizeof(*nc));

		if (!nc)
			return;
		l->cpus = nc;
	}
	c = &l->cpus[e->cpu];
	c->gaps++;
	c->records += e->out_tid;
	c->unknown_ns += ns;
	c->longest_ns = ns > c->longest_ns ? ns : c->longest_ns;
}

bool report_losses_open(struct report *rp, uint64_t end)
{
	struct losses *l = losses_get(rp);

	if (!l)
		return false;
	if (l->nends == l->ecap) {
		size_t n = l->ecap ? l->ecap * 2 : 8;
		uint64_t *ne = realloc(l->ends, n * sizeof(*ne));

		if (!ne)
			return false;
		l->ends = ne;
		l->ecap = n;
	}
	l->ends[l->nends++] = end;
	return true;
}

uint64_t report_losses_close(struct report *rp, uint64_t ts)
{
	struct losses *l = rp->losses;
	uint64_t next = UINT64_MAX;
	size_t i, k = 0;

	for (i = 0; l && i < l->nends; i++) {
		if (l->ends[i] <= ts)
			continue;
		next = l->ends[i] < next ? l->ends[i] : next;
		l->ends[k++] = l->ends[i];
	}
	if (l)
		l->nends = k;
	return next;
}

void report_losses_free(struct report *rp)
{
	struct losses *l = rp->losses;

	if (!l)
		return;
	free(l->cpus);
	free(l->ends);
	free(l);
	rp->losses = NULL;
}

/* ------------------------------------------------------------------ */
/* The section.                                                         */

/* ns as ms with 3 decimals. */
static void ms(char *buf, size_t size, uint64_t ns)
{
	snprintf(buf, size, "%llu.%03llu", (unsigned long long)(ns / 1000000),
		 (unsigned long long)(ns / 1000 % 1000));
}

void report_print_losses(struct report *rp, struct outbuf *o, bool csv)
{
	const struct losses *l = rp->losses;
	char u[32], m[32];
	size_t i;

	if (!l)
		return;
	if (csv)
		OB_LIT(o, "\ntable,cpu,gaps,records,unknown_ns,longest_ns\n");
	else
		fxt_ob_printf(o, "\nLosses (per CPU, gaps in its records: their time counts as"
			      " no thread's run, wait or sleep, nor busy or idle)\n"
			      "%4s %6s %12s %11s %11s\n", "CPU", "GAPS", "RECORDS",
			      "UNKNOWN ms", "LONGEST ms");
	for (i = 0; i < l->ncpus; i++) {
		const struct lcpu *c = &l->cpus[i];

		if (!c->gaps)
			continue;
		if (csv) {
			fxt_ob_printf(o, "losses,%zu,%llu,%llu,%llu,%llu\n", i,
				      (unsigned long long)c->gaps,
				      (unsigned long long)c->records,
				      (unsigned long long)c->unknown_ns,
				      (unsigned long long)c->longest_ns);
			continue;
		}
		ms(u, sizeof(u), c->unknown_ns);
		ms(m, sizeof(m), c->longest_ns);
		fxt_ob_printf(o, "%4zu %6llu %12llu %11s %11s\n", i,
			      (unsigned long long)c->gaps, (unsigned long long)c->records, u, m);
	}
}
