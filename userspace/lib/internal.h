/* SPDX-License-Identifier: MIT */
/*
 * internal.h - what the reader (reader.c) offers merge.c, and nobody else.
 */
#ifndef LIBFXT_INTERNAL_H
#define LIBFXT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <fxt/format.h>

#include "libfxt_reader.h"

/* Read buffer of each merge cursor. */
#define FXT_MERGE_BUFSIZE	(512u << 10)

/* A byte range [start, end) of the archive file, starting on a record. */
struct fxt_segment {
	uint64_t start, end;
};

/*
 * A reader of the segments of fd, in order, with pread (fd is not closed).
 * at_start: the first segment starts at offset 0 (magic number checked).
 * segs must stay valid while the reader is used.
 */
struct fxt_reader *fxt_reader_open_segments(int fd, const struct fxt_segment *segs,
					    size_t nsegs, bool at_start);
/* Use owner's kernel object table instead of r's own (owner outlives r). */
void fxt_reader_share_kobjs(struct fxt_reader *r, struct fxt_reader *owner);
/* fxt_reader_next() returned -1: reading stopped on an error. */
bool fxt_reader_failed(const struct fxt_reader *r);

#endif /* LIBFXT_INTERNAL_H */
