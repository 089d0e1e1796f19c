/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unseen_runs.h - runs an archive hides: between a thread's switch out and
 * its next switch in, every reader (Perfetto, fxt-report) draws the thread
 * not running. A complete log of switches (oracle/swlog.h) says whether it
 * really did not run then: a circular window whose CPUs start at different
 * times once drew, from a CPU that knew early, a wait across a run on a CPU
 * whose records were overwritten (Documentation/buffers.rst, "Window
 * edges").
 *
 * The archive's switches are timed by the log's clock (ts[], the log's
 * time of the same switch, found by the caller): the two stamp one switch
 * up to milliseconds apart under TCG, where one host thread runs every
 * vCPU, but each is exact against itself.
 */
#ifndef FXT_SELFTESTS_UNSEEN_RUNS_H
#define FXT_SELFTESTS_UNSEEN_RUNS_H

#include <stddef.h>
#include <stdint.h>

#include "records.h"

/* One switch in of the log: when, and which thread. */
struct logged_run {
	uint64_t ts;
	uint32_t tid;
};

struct unseen_runs {
	size_t gaps;			/* not-running spans checked */
	size_t unseen;			/* of them, with a logged switch in inside */
	/* the longest such span, and the logged switch in inside it */
	uint64_t tid, from, to, ran_at;
};

/*
 * Check every span of sw[0..nsw-1] (ts[k]: sw[k]'s time) that lies in
 * [lo, hi] against log[0..n-1] (any order; sorted in place). 0, or
 * -ENOMEM.
 */
int unseen_runs_find(const struct records_switch *sw, const uint64_t *ts, size_t nsw,
		     struct logged_run *log, size_t n, uint64_t lo, uint64_t hi,
		     struct unseen_runs *out);

#endif /* FXT_SELFTESTS_UNSEEN_RUNS_H */
