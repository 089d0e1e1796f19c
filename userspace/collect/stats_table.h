/* SPDX-License-Identifier: MIT */
/*
 * stats_table.h - the per-CPU statistics table fxt-collect prints at the
 * end of a run (collect/stats_table.c).
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

#endif /* LIBFXT_STATS_TABLE_H */
