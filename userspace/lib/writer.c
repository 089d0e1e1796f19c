// SPDX-License-Identifier: MIT
/*
 * writer.c - the FXT writer's buffer: fxt_writer_*(), and the reserve and
 * commit its record writers (writer_records.c) use.
 *
 * Each fxt_write_*() computes the record's size, reserves that many words
 * in the buffer (flushing first when they do not fit), encodes the record
 * in place and commits it. The buffer therefore only holds whole records
 * and a flush always ends on a record boundary. When write() fails
 * part-way through a flush, the file is truncated back to where the flush
 * started (when it is seekable), so the archive still ends with a whole
 * record.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "writer_internal.h"

/* ------------------------------------------------------------------ */
/* Buffer management.                                                   */

int fxt_writer_init(struct fxt_writer *w, int fd)
{
	memset(w, 0, sizeof(*w));
	w->fd = fd;
	if (fd < 0)
		return -EBADF;
	w->buf = malloc(FXT_WRITER_BUFSIZE);
	if (!w->buf) {
		w->error = -ENOMEM;
		return -ENOMEM;
	}
	w->cap = FXT_WRITER_BUFSIZE;
	return 0;
}

int fxt_writer_error(const struct fxt_writer *w)
{
	return w->error;
}

uint64_t fxt_writer_bytes(const struct fxt_writer *w)
{
	return w->bytes;
}

/*
 * Where the next byte will land in a regular file, or -1 (pipes, devices):
 * the end of the file with O_APPEND, else the file offset.
 */
static off_t write_position(int fd)
{
	struct stat st;
	int flags = fcntl(fd, F_GETFL);

	if (flags < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode))
		return -1;
	return (flags & O_APPEND) ? st.st_size : lseek(fd, 0, SEEK_CUR);
}

/* Write len bytes fully; on failure cut the file back to where we began. */
static int write_all(struct fxt_writer *w, const void *data, size_t len)
{
	const unsigned char *p = data;
	off_t start = write_position(w->fd);

	while (len) {
		ssize_t n = write(w->fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int err = n < 0 ? -errno : -EIO;

			if (start >= 0 && ftruncate(w->fd, start) == 0)
				(void)lseek(w->fd, start, SEEK_SET);
			w->error = err;
			return err;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int fxt_writer_flush(struct fxt_writer *w)
{
	int err;

	if (w->error)
		return w->error;
	if (!w->len)
		return 0;
	err = write_all(w, w->buf, w->len);
	w->len = 0;
	return err;
}

void fxt_writer_destroy(struct fxt_writer *w)
{
	if (w->buf)
		fxt_writer_flush(w);
	free(w->buf);
	w->buf = NULL;
	w->cap = 0;
	w->len = 0;
}

uint64_t *fxt_w_reserve(struct fxt_writer *w, size_t words, int *err)
{
	size_t bytes = words * 8;
	uint64_t *p;

	if (w->error) {
		*err = w->error;
		return NULL;
	}
	if (!w->buf) {
		*err = -EINVAL;
		return NULL;
	}
	if (bytes > w->cap) {
		*err = -E2BIG;
		return NULL;
	}
	if (w->cap - w->len < bytes) {
		*err = fxt_writer_flush(w);
		if (*err)
			return NULL;
	}
	p = (uint64_t *)(void *)(w->buf + w->len);
	memset(p, 0, bytes);
	return p;
}

void fxt_w_commit(struct fxt_writer *w, size_t words)
{
	w->len += words * 8;
	w->bytes += words * 8;
}

int fxt_write_raw(struct fxt_writer *w, const void *data, size_t len)
{
	int err;

	if (len % 8)
		return -EINVAL;
	if (w->error)
		return w->error;
	if (!w->buf)
		return -EINVAL;
	if (len > w->cap - w->len) {
		err = fxt_writer_flush(w);
		if (err)
			return err;
	}
	if (len > w->cap) {
		err = write_all(w, data, len);
		if (err)
			return err;
		w->bytes += len;
		return 0;
	}
	memcpy(w->buf + w->len, data, len);
	w->len += len;
	w->bytes += len;
	return 0;
}
