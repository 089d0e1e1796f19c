// SPDX-License-Identifier: GPL-2.0
/*
 * unseen_runs.c - runs an archive hides (unseen_runs.h).
 *
 * The archive's switches become marks (tid, time, running or not), sorted
 * by thread then time; the log's switches in are sorted the same way. For
 * each mark "not running" the thread's next "running" mark ends the span,
 * and one binary search in the thread's logged switches in says whether it
 * ran inside. (Wakeups also start a "not running" span in a reader, but
 * the log has no time for them on its clock; a span from a switch out
 * contains every span from a wakeup after it.)
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "fxt/format.h"
#include "unseen_runs.h"

struct mark {
	uint64_t tid, ts;
	bool running;
};

static int cmp_mark(const void *x, const void *y)
{
	const struct mark *a = x, *b = y;

	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	if (a->ts != b->ts)
		return a->ts < b->ts ? -1 : 1;
	return (int)a->running - (int)b->running;
}

static int cmp_run(const void *x, const void *y)
{
	const struct logged_run *a = x, *b = y;

	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	return a->ts < b->ts ? -1 : a->ts > b->ts;
}

/* Index of the first of log[0..n-1] at or after (tid, ts). */
static size_t first_at(const struct logged_run *log, size_t n, uint64_t tid, uint64_t ts)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (log[mid].tid < tid || (log[mid].tid == tid && log[mid].ts < ts))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Threads the log and the archive both name: not idle, not a pseudo-thread. */
static bool real_thread(uint64_t tid)
{
	return tid && tid < FXT_KOID_IRQ_PROCESS;
}

int unseen_runs_find(const struct records_switch *sw, const uint64_t *ts, size_t nsw,
		     struct logged_run *log, size_t n, uint64_t lo, uint64_t hi,
		     struct unseen_runs *out)
{
	struct mark *m = malloc((2 * nsw + 1) * sizeof(*m));
	size_t nm = 0, i;
	uint64_t next_run = 0;

	*out = (struct unseen_runs){ 0 };
	if (!m)
		return -ENOMEM;
	for (i = 0; i < nsw; i++) {
		if (real_thread(sw[i].out_tid))
			m[nm++] = (struct mark){ sw[i].out_tid, ts[i], false };
		if (real_thread(sw[i].in_tid))
			m[nm++] = (struct mark){ sw[i].in_tid, ts[i], true };
	}
	qsort(m, nm, sizeof(*m), cmp_mark);
	qsort(log, n, sizeof(*log), cmp_run);
	/* Backwards, so that the thread's next switch in is known. */
	for (i = nm; i-- > 0;) {
		size_t k;

		if (m[i].running) {
			next_run = m[i].ts;
			continue;
		}
		if (i + 1 == nm || m[i + 1].tid != m[i].tid)
			next_run = 0;	/* never runs again in the archive */
		if (!next_run || m[i].ts < lo || next_run > hi)
			continue;
		out->gaps++;
		k = first_at(log, n, m[i].tid, m[i].ts + 1);
		if (k == n || log[k].tid != m[i].tid || log[k].ts >= next_run)
			continue;
		out->unseen++;
		if (next_run - m[i].ts > out->to - out->from) {
			out->tid = m[i].tid;
			out->from = m[i].ts;
			out->to = next_run;
			out->ran_at = log[k].ts;
		}
	}
	free(m);
	return 0;
}
