/* SPDX-License-Identifier: MIT */
/*
 * libfxt: time-ordered reading across providers (lib/merge.c).
 */
#ifndef LIBFXT_MERGE_H
#define LIBFXT_MERGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libfxt_reader.h"

/*
 * fxt-collect writes each CPU as a provider, in chunks saved as they fill,
 * so the file is in time order within a provider but not across them.
 * A merge reads a seekable archive twice: a first pass over the whole file
 * looks only at record headers to find each provider's chunks, then one
 * reader (cursor) per provider decodes its records, handed out in
 * timestamp order; records without a timestamp
 * come in place, right after their provider's previous record. Each
 * provider's records keep their order. Kernel object names are shared.
 * From a pipe (or with more than 1024 providers) records come in file
 * order. Set the diagnostics and skipped arguments before the first
 * fxt_merge_next().
 */
struct fxt_merge;

struct fxt_merge *fxt_merge_open(const char *path);	/* NULL and errno */
void fxt_merge_close(struct fxt_merge *m);
void fxt_merge_set_diag(struct fxt_merge *m, fxt_diag_fn fn, void *ctx);
void fxt_merge_skip_args(struct fxt_merge *m, unsigned int what);
/*
 * The next record, NULL at the end; *from is the reader it came from (for
 * fxt_reader_ticks_to_ns() and its provider). Valid until the next call.
 */
const struct fxt_record *fxt_merge_next(struct fxt_merge *m, struct fxt_reader **from);
/*
 * Or merge yourself: the cursors (one per provider, or a single one in
 * file order), each a reader of its provider's records in their order
 * (fxt_reader_next()). Do not mix with fxt_merge_next().
 */
size_t fxt_merge_cursors(const struct fxt_merge *m);
struct fxt_reader *fxt_merge_cursor(const struct fxt_merge *m, size_t i);
bool fxt_merge_ordered(const struct fxt_merge *m);	/* false: file order */
int fxt_merge_status(const struct fxt_merge *m);	/* 0, or -1: a reader stopped on an error */
/*
 * Records read so far and their bytes: those handed out, and with
 * fxt_merge_next() up to one more per cursor, read ahead.
 */
uint64_t fxt_merge_records(const struct fxt_merge *m);
uint64_t fxt_merge_bytes(const struct fxt_merge *m);
uint64_t fxt_merge_size(const struct fxt_merge *m);	/* archive size when known */
uint64_t fxt_merge_diag_count(const struct fxt_merge *m);
const struct fxt_kobj_info *fxt_merge_kobj(const struct fxt_merge *m, unsigned int type,
					   uint64_t koid);
const struct fxt_kobj_info *fxt_merge_thread_at(const struct fxt_merge *m,
						uint64_t koid, uint64_t ns);
/*
 * A kernel object record's name, or the newer one its koid already has
 * when the record is older by "named_at" (a restated name): the newest.
 */
struct fxt_str fxt_merge_kobj_name(const struct fxt_merge *m, const struct fxt_record *rec);

#endif /* LIBFXT_MERGE_H */
