// SPDX-License-Identifier: GPL-2.0
/*
 * archive_libfxt.c - archive_count_libfxt(): the archive counts of archive.c,
 * taken again through userspace/lib's reader (libfxt.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "archive.h"
#include "libfxt.h"

static bool is_tid(const uint64_t *tids, int ntids, uint64_t koid)
{
	for (int i = 0; i < ntids; i++)
		if (tids[i] == koid)
			return true;
	return false;
}

/* Show the first few diagnostics as TAP diagnostics; keep reading. */
static int print_diag(void *ctx, uint64_t offset, enum fxt_diag_id id,
		      const char *message)
{
	unsigned int *shown = ctx;

	if ((*shown)++ < 10)
		printf("# libfxt: offset %llu: %s: %s\n",
		       (unsigned long long)offset, fxt_diag_name(id), message);
	return 0;
}

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
	fxt_reader_set_diag(r, print_diag, &shown);
	while ((ret = fxt_reader_next(r, &rec)) == 1) {
		if (rec.type != FXT_REC_SCHED ||
		    (rec.flags & (FXT_RF_MALFORMED | FXT_RF_UNKNOWN)) ||
		    rec.provider >= ARCHIVE_MAX_PROVIDERS)
			continue;
		if (rec.subtype == FXT_SCHED_CONTEXT_SWITCH) {
			const struct fxt_thread *o = &rec.u.sw.out, *i = &rec.u.sw.in;

			c->undefined_refs += !o->defined + !i->defined;
			if ((o->defined && is_tid(tids, ntids, o->tid)) ||
			    (i->defined && is_tid(tids, ntids, i->tid)))
				c->switches[rec.provider]++;
		} else if (rec.subtype == FXT_SCHED_THREAD_WAKEUP) {
			if (is_tid(tids, ntids, rec.u.wakeup.tid))
				c->wakeups[rec.provider]++;
		}
	}
	c->diags = fxt_reader_diag_count(r);
	c->records = fxt_reader_records(r);
	fxt_reader_close(r);
	return ret < 0 ? -EIO : 0;
}
