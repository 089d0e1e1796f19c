/* SPDX-License-Identifier: MIT */
/*
 * name_history.h - the names each thread koid had over time.
 *
 * Linux reuses tids: a thread that exits leaves its tid to a later one,
 * named at its fork with a later "named_at" (records.rst). The reader's
 * koid table keeps only a koid's newest name; this keeps, per thread
 * koid, the runs of (name, process) by "named_at", so a reader can ask
 * which name a thread had at a given time: the earlier thread keeps its
 * own name. A record that restates the name of the run it falls in (a
 * circular-mode generation naming a task again, a trailer) adds nothing:
 * memory grows with name changes, not with records.
 */
#ifndef LIBFXT_NAME_HISTORY_H
#define LIBFXT_NAME_HISTORY_H

#include <fxt/format.h>

#include "libfxt_reader.h"
#include "u64map.h"

struct name_runs {
	struct fxt_kobj_info *v;	/* by named_at, ascending */
	uint32_t n, cap;
};

struct name_history {
	struct u64map map;		/* thread koid -> index in runs */
	struct name_runs *runs;
	size_t n, cap;
	size_t bytes;			/* allocated, for the reader's limit */
};

/* Record that koid was named k->name (process k->process) at k->named_at. */
int fxt_name_history_add(struct name_history *h, const struct fxt_kobj_info *k);
/*
 * The name koid had at ns: the run with the latest named_at <= ns, else
 * the earliest run; NULL if the koid has none.
 */
const struct fxt_kobj_info *fxt_name_history_at(const struct name_history *h,
					    uint64_t koid, uint64_t ns);
void fxt_name_history_free(struct name_history *h);

#endif /* LIBFXT_NAME_HISTORY_H */
