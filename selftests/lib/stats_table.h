/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats_table.h - fxt-collect's per-CPU statistics, read back from the
 * JSON its --stats-json writes (collector_spawn() asks for it, beside the
 * collector's log: LOG.stats.json), one CPU a line:
 *
 *   {"cpu": 0, "records": N, "dropped": N, "durable": N,
 *    "durable_dropped": N, "wraps": N, "bytes": N, "trigger_missed": N,
 *    "durable_full": false, "rolling_full": false}
 */
#ifndef FXT_SELFTESTS_STATS_TABLE_H
#define FXT_SELFTESTS_STATS_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STATS_MAX_CPUS	256	/* fxt_layout.possible_cpus has 256 bits */

/* One CPU's statistics; rows[] is indexed by CPU. */
struct stats_row {
	bool present;			/* the collector gave this CPU's figures */
	uint64_t records, dropped, durable, d_dropped, wraps, bytes, missed;
	char flags[64];			/* "durable-full rolling-full", as set */
};

/* Where the statistics of the collector that logs to log go: 0, or -1. */
int stats_table_path(const char *log, char *path, size_t size);

/*
 * The statistics of the collector that logged to log, into rows[cpu].
 * Return: the CPUs found (0: none, or no file).
 */
int stats_table_parse(const char *log, struct stats_row rows[STATS_MAX_CPUS]);

#endif /* FXT_SELFTESTS_STATS_TABLE_H */
