/* SPDX-License-Identifier: MIT */
/*
 * libfxt: the newest names, fxt-collect's trailer (lib/name_trailer.c),
 * and the command lines it may add (lib/proc_cmdline.c).
 */
#ifndef LIBFXT_TRAILER_H
#define LIBFXT_TRAILER_H

#include <stddef.h>
#include <stdint.h>

#include "libfxt_values.h"
#include "libfxt_writer.h"

/*
 * Perfetto names a koid after the last kernel object record it reads for
 * it; in an archive the CPUs' records come in save order, not time order.
 * Fed the durable records in the order they are written to the archive,
 * a tracker keeps, per (object type, koid), the newest name (by the
 * "named_at" argument; records without one are the oldest) and whether the
 * last record written carried it. fxt_newest_write_trailer() then appends
 * provider FXT_NAMES_PROVIDER_ID with one kernel object record (inline
 * strings, "process" koid and "named_at" uint64 arguments) per koid whose
 * last record was not its newest. About 80 bytes per koid, for at most
 * max_objects koids; records beyond are counted as untracked.
 */
struct fxt_newest;

struct fxt_newest *fxt_newest_new(size_t max_objects);	/* NULL: no memory */
void fxt_newest_free(struct fxt_newest *n);
/* Whole records of provider, as written to the archive (a partial one is ignored). */
void fxt_newest_feed(struct fxt_newest *n, uint32_t provider, const void *data,
		     size_t len);
size_t fxt_newest_stale(const struct fxt_newest *n);	/* koids the trailer rewrites */
size_t fxt_newest_koids(const struct fxt_newest *n);	/* koids tracked */
uint64_t fxt_newest_untracked(const struct fxt_newest *n);	/* records not tracked */
/* Records written (0: none needed, no provider either), or -errno. */
int fxt_newest_write_trailer(struct fxt_newest *n, struct fxt_writer *w);

/*
 * Command lines for the trailer: for a process (pid, its newest name, its
 * parent or FXT_KOID_NONE) that no record gave a "cmdline", the length of
 * the one the lookup put in buf (at most cap bytes, not NUL-terminated), or
 * 0 for none. The trailer then writes that process's record with it.
 */
#define FXT_TRAILER_CMDLINE_MAX	256	/* fxt.ko's exec records: the same */
typedef size_t (*fxt_cmdline_lookup)(void *ctx, uint32_t pid, struct fxt_str name,
				     uint64_t parent, char *buf, size_t cap);
void fxt_newest_lookup_cmdlines(struct fxt_newest *n, fxt_cmdline_lookup fn,
				void *ctx);
size_t fxt_newest_cmdlines(const struct fxt_newest *n);	/* the trailer wrote */
/*
 * The lookup from procfs (lib/proc_cmdline.c), ctx the procfs root
 * ("/proc", or NULL for it): /proc/PID/cmdline, arguments joined by
 * spaces, if /proc/PID/stat still has that name and, when known, that
 * parent: a process that exited, or whose pid was reused by another
 * command or parent, gets none.
 */
size_t fxt_proc_cmdline(void *ctx, uint32_t pid, struct fxt_str name,
			uint64_t parent, char *buf, size_t cap);

#endif /* LIBFXT_TRAILER_H */
