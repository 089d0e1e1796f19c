/* SPDX-License-Identifier: MIT */
/*
 * stats_table.h - the per-CPU statistics fxt-collect gives at the end of a
 * run: the table it prints, and --stats-json (collect/stats_table.c).
 */
#ifndef LIBFXT_STATS_TABLE_H
#define LIBFXT_STATS_TABLE_H

#include <stdbool.h>
#include <stdio.h>

#include "device.h"

/*
 * One row per possible CPU of d: records, drops, durable records, wraps,
 * bytes, with triggers the latencies missed, and the full-buffer flags.
 * 0, or -errno with the message in d->err (the rows so far are printed).
 */
int fxt_stats_table(struct fxt_device *d, bool triggers, FILE *f);

/*
 * The same figures for programs, into path (written whole to path.tmp,
 * then renamed): {"cpus": [ one object per possible CPU, one line each,
 * keys cpu, records, dropped, durable, durable_dropped, wraps, bytes,
 * trigger_missed, durable_full, rolling_full ]}. 0, or -errno with the
 * message in d->err.
 */
int fxt_stats_json(struct fxt_device *d, const char *path);

#endif /* LIBFXT_STATS_TABLE_H */
