/* SPDX-License-Identifier: MIT */
/*
 * reader_input.h - the reader's input (lib/reader_input.c): a buffer
 * filled from a file descriptor (read), from segments of a file (pread:
 * merge cursors), or from memory. The reader (lib/reader.c) frames and
 * decodes records in place in buf[pos..len); this only keeps bytes there.
 * Internal to libfxt.
 */
#ifndef LIBFXT_READER_INPUT_H
#define LIBFXT_READER_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "internal.h"

struct fxt_input {
	int fd;
	bool own_fd;
	const unsigned char *mem;	/* fxt_reader_open_mem() */
	size_t mem_len, mem_pos;
	uint64_t size;			/* archive size when known */

	/* the buffer: buf[pos..len) is unread, buf[0] is at buf_off */
	unsigned char *buf;
	size_t cap, len, pos;
	uint64_t buf_off;
	bool eof;			/* no more input */

	/* segments of a file (merge cursors, merge.c) */
	const struct fxt_segment *segs;
	size_t nsegs, seg;
	uint64_t file_pos;

	/* a read failed: its errno and the offset it was at (for the reader's report) */
	int error;
	uint64_t error_off;
};

/* No input yet, a buffer of cap bytes once allocated. */
void fxt_input_init(struct fxt_input *in, size_t cap);
/* Read fd (not closed unless own_fd is set); its size when a regular file. */
void fxt_input_set_fd(struct fxt_input *in, int fd);
/* pread the segments of fd in order, with a buffer of cap bytes at most. */
void fxt_input_set_segments(struct fxt_input *in, int fd, const struct fxt_segment *segs,
			size_t nsegs, size_t cap);
void fxt_input_set_mem(struct fxt_input *in, const void *data, size_t len);
/* Allocate the buffer (no larger than the input when its size is known): 0 or -ENOMEM. */
int fxt_input_alloc(struct fxt_input *in);
/* Read until the buffer holds want bytes past pos or input ends (eof, or error). */
void fxt_input_fill(struct fxt_input *in, size_t want);
/* Skip bytes of input past the buffer (a record too large for it); returns those skipped. */
uint64_t fxt_input_skip(struct fxt_input *in, uint64_t bytes);
void fxt_input_close(struct fxt_input *in);

#endif /* LIBFXT_READER_INPUT_H */
