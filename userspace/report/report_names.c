// SPDX-License-Identifier: MIT
/*
 * report_names.c - the name fxt-report prints for a thread: a thread that
 * exited, the name it had when it did (its tid may be some later
 * thread's); else its newest. From the merge's name history (lib/merge.c),
 * for every section that names threads (threads, blocked in, processes).
 */
#include <stdint.h>

#include "report.h"

const char *report_comm_of(const struct report *rp, const struct tstat *t)
{
	uint64_t tid = rp->tids[t - rp->threads];
	uint64_t at = t->state == T_DEAD ? t->since : UINT64_MAX;
	const struct fxt_kobj_info *k = fxt_merge_thread_at(rp->m, tid, at);

	return k && k->name_len ? k->name : "";
}
