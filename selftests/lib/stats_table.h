/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats_table.h - fxt-collect's per-CPU statistics table, read back from
 * the collector's log (the last table printed wins):
 *
 *   cpu records dropped durable d.dropped wraps bytes [flags]
 */
#ifndef FXT_SELFTESTS_STATS_TABLE_H
#define FXT_SELFTESTS_STATS_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#define STATS_MAX_CPUS	256	/* fxt_layout.possible_cpus has 256 bits */

/* One row of the table; rows[] is indexed by CPU. */
struct stats_row {
	bool present;			/* the table has a row for this CPU */
	uint64_t records, dropped, durable, d_dropped, wraps, bytes;
	char flags[64];			/* the rest of the line, "" if none */
};

/* Parse the table from a collector log into rows[cpu]. Return: rows found. */
int stats_table_parse(const char *log, struct stats_row rows[STATS_MAX_CPUS]);

#endif /* FXT_SELFTESTS_STATS_TABLE_H */
