// SPDX-License-Identifier: MIT
/*
 * reader.c - the streaming FXT reader.
 *
 * The archive is read through one fixed buffer (FXT_READER_BUFSIZE, kept
 * filled by lib/reader_input.c): a record is decoded in place, so the
 * buffer is the only copy of the data and memory does not grow with the
 * archive. What does grow is bounded by one
 * memory limit (FXT_READER_MEM_LIMIT):
 *
 *   providers	one struct provider per provider id (at most
 *		FXT_MAX_PROVIDERS): ticks per second, the 255-entry thread
 *		table, and the string table in chunks of 256 slots allocated
 *		when first used;
 *   strings	one allocation per string record, replaced in place;
 *   kernel	one open-addressing hash of koid -> name, type and process,
 *   objects	global as the specification says;
 *   duration	with fxt_reader_check_durations() only: per provider, one
 *   stacks	struct dur_thread per thread koid with duration events.
 *
 * Provider info metadata makes a fresh provider state current (announcing
 * an id again starts it over); provider section metadata switches to an
 * existing one. Before any of them provider 0 is current (as in Perfetto),
 * but a record read in a provider that was never announced is a defect.
 *
 * Every check of the specification happens while decoding and is reported
 * through the diagnostics callback (enum fxt_diag_id); decoding goes on
 * whenever the record's size still tells where the next one starts.
 *
 * This file opens and closes a reader and holds its settings
 * (reader_state.h names the others).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reader_cursor.h"

/* ------------------------------------------------------------------ */
/* Setup.                                                               */

static struct fxt_reader *reader_new(void)
{
	struct fxt_reader *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	fxt_input_init(&r->in, FXT_READER_BUFSIZE);
	r->mem_limit = FXT_READER_MEM_LIMIT;
	r->track_kobjs = true;
	r->kt = &r->own_kt;
	r->spare = calloc(1, sizeof(*r->spare));
	if (!r->spare) {
		free(r);
		errno = ENOMEM;
		return NULL;
	}
	r->spare->ticks_per_second = NS_PER_SEC;
	r->cur = fxt_rd_provider_get(r, 0, 0);
	return r;
}

struct fxt_reader *fxt_reader_open_fd(int fd)
{
	struct fxt_reader *r = reader_new();

	if (!r)
		return NULL;
	fxt_input_set_fd(&r->in, fd);
	return r;
}

struct fxt_reader *fxt_reader_open_segments(int fd, const struct fxt_segment *segs,
					    size_t nsegs, bool at_start)
{
	struct fxt_reader *r;

	if (!nsegs)
		return NULL;
	r = reader_new();
	if (!r)
		return NULL;
	fxt_input_set_segments(&r->in, fd, segs, nsegs, FXT_MERGE_BUFSIZE);
	r->started = !at_start;		/* only offset 0 holds the magic number */
	return r;
}

void fxt_reader_share_kobjs(struct fxt_reader *r, struct fxt_reader *owner)
{
	r->kt = owner->kt;
}

bool fxt_reader_failed(const struct fxt_reader *r)
{
	return r->stopped && r->end_rc < 0;
}

struct fxt_reader *fxt_reader_open(const char *path)
{
	struct fxt_reader *r;
	int fd;

	if (!strcmp(path, "-"))
		return fxt_reader_open_fd(0);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	r = fxt_reader_open_fd(fd);
	if (!r) {
		int e = errno;

		close(fd);
		errno = e;
		return NULL;
	}
	r->in.own_fd = true;
	return r;
}

struct fxt_reader *fxt_reader_open_mem(const void *data, size_t len)
{
	struct fxt_reader *r = reader_new();

	if (!r)
		return NULL;
	fxt_input_set_mem(&r->in, data ? data : (const void *)fxt_rd_empty_string, data ? len : 0);
	return r;
}

void fxt_reader_close(struct fxt_reader *r)
{
	unsigned int i;

	if (!r)
		return;
	for (i = 0; i < PROV_BUCKETS; i++) {
		struct provider *p = r->buckets[i], *n;

		for (; p; p = n) {
			n = p->hnext;
			fxt_rd_provider_clear(r, p);
			free(p);
		}
	}
	fxt_rd_provider_clear(r, r->spare);
	free(r->spare);
	free(r->own_kt.slots);
	fxt_name_history_free(&r->own_kt.threads);
	fxt_input_close(&r->in);
	free(r);
}

int fxt_reader_set_buffer_size(struct fxt_reader *r, size_t bytes)
{
	if (r->in.buf || bytes < MIN_BUFSIZE || bytes % 8)
		return -EINVAL;
	r->in.cap = bytes;
	return 0;
}

void fxt_reader_set_diag(struct fxt_reader *r, fxt_diag_fn fn, void *ctx)
{
	r->diag = fn;
	r->diag_ctx = ctx;
}

void fxt_reader_set_mem_limit(struct fxt_reader *r, size_t bytes)
{
	r->mem_limit = bytes ? bytes : FXT_READER_MEM_LIMIT;
}

void fxt_reader_skip_args(struct fxt_reader *r, unsigned int what)
{
	r->skip_args = what;
}

void fxt_reader_set_track_kobjs(struct fxt_reader *r, bool on)
{
	r->track_kobjs = on;
}

void fxt_reader_check_durations(struct fxt_reader *r, bool on)
{
	r->check_durations = on;
}

void fxt_reader_check_sleeps(struct fxt_reader *r, bool on)
{
	r->check_sleeps = on;
}

uint64_t fxt_reader_offset(const struct fxt_reader *r)
{
	return r->in.buf_off + r->in.pos;
}

uint64_t fxt_reader_size(const struct fxt_reader *r)
{
	return r->in.size;
}

uint64_t fxt_reader_diag_count(const struct fxt_reader *r)
{
	return r->ndiags;
}

uint64_t fxt_reader_diag_count_id(const struct fxt_reader *r, enum fxt_diag_id id)
{
	return (unsigned int)id < FXT_D_COUNT ? r->diag_counts[id] : 0;
}

uint64_t fxt_reader_records(const struct fxt_reader *r)
{
	return r->nrecords;
}

uint64_t fxt_reader_bytes(const struct fxt_reader *r)
{
	return r->nbytes;
}

uint32_t fxt_reader_provider(const struct fxt_reader *r)
{
	return r->cur->id;
}

const char *fxt_reader_provider_name(const struct fxt_reader *r, uint32_t id)
{
	const struct provider *p = fxt_rd_provider_find(r, id);

	if (!p && r->cur->id == id)
		p = r->cur;
	return p ? p->name : NULL;
}

uint64_t fxt_reader_ticks_per_second(const struct fxt_reader *r)
{
	return r->cur->ticks_per_second;
}

uint64_t fxt_reader_ticks_to_ns(const struct fxt_reader *r, uint64_t ticks)
{
	return ticks_to_ns(r, ticks);
}
