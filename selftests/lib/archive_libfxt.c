// SPDX-License-Identifier: GPL-2.0
/*
 * archive_libfxt.c - archive_count_libfxt(): the archive counts of archive.c,
 * taken again through userspace/lib's reader (libfxt.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "archive.h"
#include "fxtread.h"

int archive_count_libfxt(const char *path, const uint64_t *tids, int ntids,
		     struct archive_lib_counts *c)
{
	struct fxt_reader *r;
	struct fxt_record rec;
	unsigned int shown = 0;
	int ret;

	memset(c, 0, sizeof(*c));
	r = fxt_reader_open(path);
	if (!r)
		return -errno;
	fxt_reader_set_diag(r, fxtread_diag_first10, &shown);
	while ((ret = fxt_reader_next(r, &rec)) == 1) {
		if (rec.type != FXT_REC_SCHED ||
		    (rec.flags & (FXT_RF_MALFORMED | FXT_RF_UNKNOWN)) ||
		    rec.provider >= ARCHIVE_MAX_PROVIDERS)
			continue;
		if (rec.subtype == FXT_SCHED_CONTEXT_SWITCH) {
			const struct fxt_thread *o = &rec.u.sw.out, *i = &rec.u.sw.in;

			c->undefined_refs += !o->defined + !i->defined;
			if ((o->defined && fxtread_is_tid(tids, ntids, o->tid)) ||
			    (i->defined && fxtread_is_tid(tids, ntids, i->tid)))
				c->switches[rec.provider]++;
		} else if (rec.subtype == FXT_SCHED_THREAD_WAKEUP) {
			unsigned int waking = rec.provider;

			for (unsigned int i = 0; i < rec.nargs; i++) {
				const struct fxt_arg *a = &rec.args[i];

				if (a->type == FXT_ARG_UINT32 &&
				    a->name.len == strlen(FXT_ARG_NAME_WAKING_CPU) &&
				    !memcmp(a->name.data, FXT_ARG_NAME_WAKING_CPU, a->name.len)) {
					waking = a->v.u32;
					c->deferred_wakeups++;
				}
			}
			if (fxtread_is_tid(tids, ntids, rec.u.wakeup.tid) &&
			    waking < ARCHIVE_MAX_PROVIDERS)
				c->wakeups[waking]++;
		}
	}
	c->diags = fxt_reader_diag_count(r);
	c->records = fxt_reader_records(r);
	fxt_reader_close(r);
	return ret < 0 ? -EIO : 0;
}
