/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fm_util.h - helpers of fxt_modes: the collector as a child, its per-CPU
 * statistics table, fxt-dump --check, an archive scan through libfxt, and
 * small workloads (ping-pong pairs, sleepers, renames).
 */
#ifndef FXT_SELFTESTS_FM_UTIL_H
#define FXT_SELFTESTS_FM_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "collector.h"

#define FM_MAX_CPUS	64

/*
 * Start fxt-collect -o archive -m mode [extra...] with its output in log and
 * wait for "tracing started". Return: pid, or -errno / -ETIMEDOUT (*why set).
 */
pid_t fm_collect_start(const char *archive, const char *mode,
		       const char *const *extra, const char *log,
		       char *why, size_t why_size);

/* One row of fxt-collect's final statistics table. */
struct fm_stats_row {
	bool present;
	uint64_t records, dropped, durable, d_dropped, wraps, bytes;
	char flags[64];
};

/* Parse the table from a collector log; rows[cpu]. Return: rows found. */
int fm_parse_stats(const char *log, struct fm_stats_row rows[FM_MAX_CPUS]);

/* What fm_scan() finds per provider (= CPU). */
struct fm_sw {
	uint64_t ts;
	uint64_t out, in;	/* tids (0 = idle) */
};

struct fm_prov {
	bool seen;
	uint64_t switches;		/* context switch records */
	uint64_t tid_switches;		/* ... with a watched tid out or in */
	struct fm_sw first, last;	/* first and last context switch */
	uint64_t undefined_refs;	/* thread refs the reader cannot resolve */
	uint64_t buffer_full;		/* provider event 0 records */
	bool have_dropped;		/* an fxt/dropped counter was seen */
	uint64_t dropped_last;		/* its last "records" value */
	uint64_t irq_begin, irq_end;	/* duration begin/end on the irq thread */
	uint64_t nest_mismatch;		/* end not matching the innermost begin */
	uint64_t orphan_start;		/* ends on an empty stack before any begin */
	uint64_t orphan_late;		/* ends on an empty stack after a begin */
	uint64_t other_thread_irq;	/* irq/softirq events not on the pseudo-thread */
	uint64_t mismatch_shown;
	uint64_t thread_reassigned;	/* thread index redefined to another koid */
	unsigned int thread_indices;	/* distinct thread indices defined */
	uint64_t string_reassigned;	/* string index redefined to other text */
};

struct fm_scan {
	struct fm_prov prov[FM_MAX_CPUS];
	uint64_t records;
	uint64_t diags;
	uint64_t string_undefined, thread_undefined;	/* reader diagnostics */
	uint64_t undefined_strs;	/* event string refs with no data */
	bool read_error;
	uint64_t kobj_prefixed;		/* kernel objects named fm_kobj_prefix* */
	uint64_t kobj_watched;		/* kernel objects of the watched tids */
};

/* fm_scan() counts kernel object records whose name starts with this. */
extern const char *fm_kobj_prefix;

/* Scan an archive; tids (ntids) are the watched threads. 0 or -errno. */
int fm_scan(const char *path, const uint64_t *tids, int ntids,
	    struct fm_scan *s);

/* Online CPUs this process may run on; return: how many (<= max). */
int fm_cpus(int *cpus, int max);

/*
 * Two threads ping-pong one byte rounds times over pipes, pinned to cpu_a and
 * cpu_b (-1: not pinned). tids[2] receives their tids. 0 or -errno.
 */
int fm_pingpong(unsigned long rounds, int cpu_a, int cpu_b, pid_t tids[2]);

/* A ping-pong in the background: start, then join. */
struct fm_bg;
struct fm_bg *fm_pingpong_bg(unsigned long rounds, int cpu_a, int cpu_b);
/* Ask the pair to stop early (the leader stops first, its peer sees EOF). */
void fm_bg_stop(struct fm_bg *bg);
int fm_bg_join(struct fm_bg *bg, pid_t tids[2]);

/* n threads, each doing iters nanosleep(ns), pinned round-robin to cpus. */
int fm_sleepers(int n, unsigned long iters, long ns, const int *cpus, int ncpus);

#endif /* FXT_SELFTESTS_FM_UTIL_H */
