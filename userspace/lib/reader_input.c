// SPDX-License-Identifier: MIT
/*
 * reader_input.c - the reader's input buffer (reader_input.h): bytes from
 * a file descriptor, from segments of a file, or from memory, kept in one
 * buffer for the reader to decode in place. A failed read ends the input
 * and is left in error for the reader to report.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reader_input.h"

void fxt_input_init(struct fxt_input *in, size_t cap)
{
	memset(in, 0, sizeof(*in));
	in->fd = -1;
	in->cap = cap;
}

void fxt_input_set_fd(struct fxt_input *in, int fd)
{
	struct stat st;

	in->fd = fd;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		in->size = (uint64_t)st.st_size;
		(void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	}
}

void fxt_input_set_segments(struct fxt_input *in, int fd, const struct fxt_segment *segs,
			size_t nsegs, size_t cap)
{
	size_t i;

	in->fd = fd;
	in->segs = segs;
	in->nsegs = nsegs;
	in->file_pos = in->buf_off = segs[0].start;
	for (i = 0; i < nsegs; i++)	/* sizes the buffer: no more than it reads */
		in->size += segs[i].end - segs[i].start;
	in->cap = cap;
}

void fxt_input_set_mem(struct fxt_input *in, const void *data, size_t len)
{
	in->mem = data;
	in->mem_len = len;
	in->size = len;
}

/*
 * Allocate the read buffer on first use: cap bytes, or less when the whole
 * archive is known to be smaller (a record larger than the archive is
 * truncated whatever the buffer).
 */
int fxt_input_alloc(struct fxt_input *in)
{
	size_t size = in->cap;

	if (in->size && in->size < size)
		size = (size_t)((in->size + 4095) & ~4095ull);
	in->buf = malloc(size);
	if (!in->buf)
		return -ENOMEM;
	in->cap = size;
	return 0;
}

void fxt_input_close(struct fxt_input *in)
{
	free(in->buf);
	in->buf = NULL;
	if (in->own_fd)
		close(in->fd);
}

/*
 * Up to max bytes of input at the current position: from memory, from the
 * fd, or from the current segment. 0 at the end of the input or of the
 * segment, -1 on a read error (kept in in->error, input ends).
 */
static ssize_t input(struct fxt_input *in, void *dst, size_t max)
{
	ssize_t n;

	if (in->mem) {
		n = (ssize_t)(in->mem_len - in->mem_pos < max ? in->mem_len - in->mem_pos : max);
		if (dst)
			memcpy(dst, in->mem + in->mem_pos, (size_t)n);
		in->mem_pos += (size_t)n;
		return n;
	}
	if (in->segs) {
		uint64_t left = in->segs[in->seg].end - in->file_pos;

		if (max > left)
			max = (size_t)left;
		if (!max)
			return 0;
	}
	do {
		if (in->segs)
			n = pread(in->fd, dst ? dst : in->buf, max, (off_t)in->file_pos);
		else
			n = read(in->fd, dst ? dst : in->buf, max);
	} while (n < 0 && errno == EINTR);
	if (n < 0) {
		in->error = errno;
		in->error_off = in->buf_off + in->len;
		in->eof = true;
		return -1;
	}
	in->file_pos += (uint64_t)n;
	return n;
}

/* At the end of a segment, with nothing left in the buffer: on to the next. */
static bool next_segment(struct fxt_input *in)
{
	if (!in->segs || in->seg + 1 >= in->nsegs || in->len != in->pos ||
	    in->file_pos != in->segs[in->seg].end)
		return false;
	in->seg++;
	in->file_pos = in->segs[in->seg].start;
	in->buf_off = in->file_pos;
	in->len = in->pos = 0;
	return true;
}

void fxt_input_fill(struct fxt_input *in, size_t want)
{
	if (in->pos) {
		size_t left = in->len - in->pos;

		memmove(in->buf, in->buf + in->pos, left);
		in->buf_off += in->pos;
		in->len = left;
		in->pos = 0;
	}
	while (!in->eof && in->len < want) {
		ssize_t n = input(in, in->buf + in->len, in->cap - in->len);

		if (n < 0)
			return;
		if (n == 0) {
			if (next_segment(in))
				continue;
			in->eof = true;
			break;
		}
		in->len += (size_t)n;
	}
}

uint64_t fxt_input_skip(struct fxt_input *in, uint64_t bytes)
{
	uint64_t skipped = 0;

	in->buf_off += in->len;
	in->len = in->pos = 0;
	while (skipped < bytes && !in->eof) {
		size_t want = bytes - skipped < in->cap ? (size_t)(bytes - skipped) : in->cap;
		ssize_t n = input(in, NULL, want);

		if (n < 0)
			break;
		if (n == 0)
			in->eof = true;
		skipped += (uint64_t)n;
		in->buf_off += (uint64_t)n;
	}
	return skipped;
}
