// SPDX-License-Identifier: MIT
/*
 * merge.c - read an archive in time order across providers.
 *
 * fxt-collect writes each CPU's data as its own provider, in chunks, in the
 * order the chunks were saved (Documentation/records.rst): a CPU's chunk
 * may cover seconds during which other CPUs' chunks were saved too. Within
 * a provider timestamps never go back, but across providers the file is
 * not in time order, and anything that follows a thread from CPU to CPU (a
 * wakeup on one, the switch in on another) must see records in time order.
 *
 * So, for a seekable file:
 *
 *   1. a first pass hops from record header to record header and cuts the
 *      file into segments at every provider info and provider section
 *      record, collecting each provider's segments (the records before the
 *      first provider record go with the first provider). It reads the
 *      whole file in 1 MiB preads: headers are on every page, and one
 *      small pread per header was 180 times slower (Documentation/tools.rst
 *      has the numbers);
 *   2. one cursor per provider, a reader of its segments only (pread, a
 *      512 KiB buffer, its own string and thread tables, the kernel object
 *      table shared), keeps its next record decoded;
 *   3. a binary heap hands out the cursor whose next record is earliest.
 *      Records without a timestamp (strings, threads, names, metadata) take
 *      the time of their cursor's previous record, so they come out in
 *      place, before the records that use them.
 *
 * The order (step 3) is lib/merge_order.h, which fxt-report shares: it
 * merges queues of events it decodes from these cursors.
 *
 * So the file is read twice, the second time usually from the page cache.
 * Memory: the segment lists (16 bytes per chunk) and the cursors; not the
 * records. A pipe cannot be read twice: from one, records come in file
 * order (fxt_merge_ordered() says so).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fxt/format.h>

#include "internal.h"
#include "libfxt_merge.h"
#include "merge_order.h"
#include "record_frame.h"
#include "u64map.h"

#define SCAN_BUFSIZE	(1u << 20)
#define MAX_CURSORS	1024	/* more providers than this: file order */

struct cursor {
	uint32_t provider;
	struct fxt_segment *segs;
	size_t nsegs, cap;
	struct fxt_reader *r;
	struct fxt_record *rec;
};

struct fxt_merge {
	int fd;
	uint64_t size;
	struct cursor *c;
	size_t n;
	struct merge_order order;	/* of the cursors: key, the ns of the next */
					/* record, or of the previous one */
	bool ordered;		/* else one cursor in file order: not seekable, */
				/* or too many providers */
	int status;
};

/* ------------------------------------------------------------------ */
/* Pass 1: segments.                                                    */

static int add_segment(struct cursor *c, uint64_t start, uint64_t end)
{
	if (start == end)
		return 0;
	if (c->nsegs && c->segs[c->nsegs - 1].end == start) {
		c->segs[c->nsegs - 1].end = end;
		return 0;
	}
	if (c->nsegs == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 16;
		struct fxt_segment *s = realloc(c->segs, cap * sizeof(*s));

		if (!s)
			return -ENOMEM;
		c->segs = s;
		c->cap = cap;
	}
	c->segs[c->nsegs].start = start;
	c->segs[c->nsegs].end = end;
	c->nsegs++;
	return 0;
}

/* The cursor of provider id, created when new; NULL when there are too many. */
static struct cursor *cursor_of(struct fxt_merge *m, struct u64map *ids, uint32_t id)
{
	int64_t i = fxt_u64map_get(ids, id);
	struct cursor *c;

	if (i >= 0)
		return &m->c[i];
	if (m->n == MAX_CURSORS)
		return NULL;
	if (!(m->n & (m->n - 1))) {	/* grow at powers of two */
		struct cursor *nc = realloc(m->c, (m->n ? m->n * 2 : 4) * sizeof(*nc));

		if (!nc)
			return NULL;
		m->c = nc;
	}
	if (fxt_u64map_put(ids, id, (uint32_t)m->n))
		return NULL;
	c = &m->c[m->n++];
	memset(c, 0, sizeof(*c));
	c->provider = id;
	return c;
}

/*
 * Hop over the records, cutting at provider info and section metadata.
 * Returns 0, or -1 when the providers are too many (read in file order).
 */
static int scan(struct fxt_merge *m)
{
	size_t bufsize = m->size < SCAN_BUFSIZE ? (size_t)m->size + 8 : SCAN_BUFSIZE;
	unsigned char *buf = malloc(bufsize);
	struct fxt_segment pre = { 0, 0 };	/* records before any provider */
	struct u64map ids = { NULL, NULL, 0, 0 };
	long cur = -1;		/* index: m->c moves as it grows */
	uint64_t off = 0, seg_start = 0;
	int rc = 0;

	if (!buf || m->size < 8) {	/* not even a record: file order says it all */
		free(buf);
		return -1;
	}
	while (off + 8 <= m->size) {
		ssize_t n = pread(m->fd, buf, bufsize, (off_t)off);
		size_t at = 0;	/* in buf */

		if (n < 8)
			break;	/* the cursors will meet the error */
		if ((uint64_t)n > m->size - off)
			n = (ssize_t)(m->size - off);
		/* The records whose header is in buf: at is all that links them. */
		while (at + 8 <= (size_t)n) {
			uint64_t h;
			size_t words = fxt_frame(buf, (size_t)n, at, false, &h);

			if (!words)
				goto last;	/* size 0: whoever reads it reports it */
			if (fxt_record_type(h) == FXT_REC_METADATA &&
			    (FXT_G(h, FXT_META_TYPE_FIELD) == FXT_META_PROVIDER_INFO ||
			     FXT_G(h, FXT_META_TYPE_FIELD) == FXT_META_PROVIDER_SECTION)) {
				uint32_t id = (uint32_t)FXT_G(h, FXT_META_PROVIDER_FIELD);
				struct cursor *next = cursor_of(m, &ids, id);

				if (!next) {
					rc = -1;
					goto out;
				}
				if (cur >= 0) {
					if (add_segment(&m->c[cur], seg_start, off + at)) {
						rc = -1;
						goto out;
					}
				} else {
					pre.end = off + at;
				}
				cur = next - m->c;
				seg_start = off + at;
			}
			at += words * 8;
		}
		off += at;
	}
last:
	/* The last segment runs to the end of the file (a truncated record too). */
	if (cur < 0) {
		if (!cursor_of(m, &ids, 0)) {
			rc = -1;
			goto out;
		}
		pre.end = m->size;
	} else if (add_segment(&m->c[cur], seg_start, m->size)) {
		rc = -1;
		goto out;
	}
	/* The records before the first provider go first, to the first provider. */
	if (pre.end) {
		struct cursor *first = &m->c[0];
		struct fxt_segment *s = realloc(first->segs, (first->nsegs + 1) * sizeof(*s));

		if (!s) {
			rc = -1;
			goto out;
		}
		memmove(s + 1, s, first->nsegs * sizeof(*s));
		s[0] = pre;
		first->segs = s;
		first->nsegs++;
		first->cap = first->nsegs;
		if (first->nsegs > 1 && s[0].end == s[1].start) {
			s[0].end = s[1].end;
			memmove(s + 1, s + 2, (first->nsegs - 2) * sizeof(*s));
			first->nsegs--;
		}
	}
out:
	fxt_u64map_free(&ids);
	free(buf);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Pass 2: cursors, in the order of lib/merge_order.h.             */

static bool timestamped(const struct fxt_record *rec)
{
	if (rec->flags & (FXT_RF_MALFORMED | FXT_RF_UNKNOWN | FXT_RF_NO_PAYLOAD))
		return false;
	switch (rec->type) {
	case FXT_REC_EVENT:
	case FXT_REC_SCHED:
	case FXT_REC_LOG:
		return true;
	case FXT_REC_LARGE:
		return rec->u.lblob.format == FXT_LARGE_BLOB_WITH_METADATA;
	case FXT_REC_BLOB:	/* a power event's (fxt_perfetto_blob_time()) */
		return rec->ts_ns != 0;
	default:
		return false;
	}
}

/* The order's hook: read cursor i's next record; false when it has none left. */
static bool advance(void *ctx, unsigned int i, uint64_t *key)
{
	struct fxt_merge *m = ctx;
	struct cursor *c = &m->c[i];
	int n = fxt_reader_next(c->r, c->rec);

	if (n <= 0) {
		if (n < 0)
			m->status = -1;
		return false;
	}
	if (timestamped(c->rec))
		*key = c->rec->ts_ns;
	return true;
}

const struct fxt_record *fxt_merge_next(struct fxt_merge *m, struct fxt_reader **from)
{
	int top;

	if (!m->ordered) {
		int n = fxt_reader_next(m->c[0].r, m->c[0].rec);

		if (n <= 0) {
			if (n < 0)
				m->status = -1;
			return NULL;
		}
		*from = m->c[0].r;
		return m->c[0].rec;
	}
	if (!m->order.keys && merge_order_init(&m->order, m->n)) {
		m->status = -1;
		return NULL;
	}
	top = merge_order_next(&m->order, advance, m);
	if (top < 0)
		return NULL;
	*from = m->c[top].r;
	return m->c[top].rec;
}

size_t fxt_merge_cursors(const struct fxt_merge *m)
{
	return m->n;
}

struct fxt_reader *fxt_merge_cursor(const struct fxt_merge *m, size_t i)
{
	return m->c[i].r;
}

/* ------------------------------------------------------------------ */
/* Setup.                                                               */

/* A big-endian archive: leave it to one reader, which reports it and stops. */
static bool byte_swapped(int fd)
{
	uint64_t h;

	return pread(fd, &h, 8, 0) == 8 && h == __builtin_bswap64(FXT_MAGIC_RECORD);
}

static void free_cursors(struct fxt_merge *m)
{
	size_t i;

	/* cursor 0 owns the shared kernel object table: close it last */
	for (i = m->n; i-- > 0;) {
		fxt_reader_close(m->c[i].r);
		free(m->c[i].rec);
		free(m->c[i].segs);
	}
	free(m->c);
	m->c = NULL;
	m->n = 0;
}

struct fxt_merge *fxt_merge_open(const char *path)
{
	struct fxt_merge *m = calloc(1, sizeof(*m));
	struct stat st;
	size_t i;

	if (!m)
		return NULL;
	m->fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : dup(0);
	if (m->fd < 0) {
		free(m);
		return NULL;
	}
	if (fstat(m->fd, &st) == 0 && S_ISREG(st.st_mode) && !byte_swapped(m->fd)) {
		m->size = (uint64_t)st.st_size;
		(void)posix_fadvise(m->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
		if (scan(m) == 0) {
			for (i = 0; i < m->n; i++) {
				struct cursor *c = &m->c[i];

				if (!c->nsegs)
					goto fail;	/* cannot happen: every cursor has a segment */
				c->r = fxt_reader_open_segments(m->fd, c->segs, c->nsegs,
								c->segs[0].start == 0);
				c->rec = malloc(sizeof(*c->rec));
				if (!c->r || !c->rec)
					goto fail;
				if (i)
					fxt_reader_share_kobjs(c->r, m->c[0].r);
			}
			m->ordered = true;
			return m;
		}
		free_cursors(m);
		if (lseek(m->fd, 0, SEEK_SET))
			goto fail;
	}
	/* In file order, one cursor: a pipe, or too many providers. */
	m->c = calloc(1, sizeof(*m->c));
	if (!m->c)
		goto fail;
	m->n = 1;
	m->c[0].r = fxt_reader_open_fd(m->fd);
	m->c[0].rec = malloc(sizeof(*m->c[0].rec));
	if (!m->c[0].r || !m->c[0].rec)
		goto fail;
	m->size = fxt_reader_size(m->c[0].r);
	return m;
fail:
	fxt_merge_close(m);
	errno = ENOMEM;
	return NULL;
}

void fxt_merge_close(struct fxt_merge *m)
{
	if (!m)
		return;
	free_cursors(m);
	merge_order_free(&m->order);
	if (m->fd >= 0)
		close(m->fd);
	free(m);
}

void fxt_merge_set_diag(struct fxt_merge *m, fxt_diag_fn fn, void *ctx)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		fxt_reader_set_diag(m->c[i].r, fn, ctx);
}

void fxt_merge_skip_args(struct fxt_merge *m, unsigned int what)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		fxt_reader_skip_args(m->c[i].r, what);
}

bool fxt_merge_ordered(const struct fxt_merge *m)
{
	return m->ordered;
}

int fxt_merge_status(const struct fxt_merge *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		if (fxt_reader_failed(m->c[i].r))
			return -1;
	return m->status;
}

uint64_t fxt_merge_records(const struct fxt_merge *m)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < m->n; i++)
		n += fxt_reader_records(m->c[i].r);
	return n;
}

uint64_t fxt_merge_bytes(const struct fxt_merge *m)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < m->n; i++)
		n += fxt_reader_bytes(m->c[i].r);
	return n;
}

uint64_t fxt_merge_size(const struct fxt_merge *m)
{
	return m->size;
}

uint64_t fxt_merge_diag_count(const struct fxt_merge *m)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < m->n; i++)
		n += fxt_reader_diag_count(m->c[i].r);
	return n;
}

const struct fxt_kobj_info *fxt_merge_kobj(const struct fxt_merge *m, unsigned int type,
					   uint64_t koid)
{
	return m->n ? fxt_reader_kobj(m->c[0].r, type, koid) : NULL;
}

struct fxt_str fxt_merge_kobj_name(const struct fxt_merge *m, const struct fxt_record *rec)
{
	const struct fxt_kobj_info *k = fxt_merge_kobj(m, rec->u.kobj.obj_type, rec->u.kobj.koid);
	struct fxt_str name = rec->u.kobj.name;

	if (k && k->named_at > rec->u.kobj.named_at && k->name_len) {
		name.data = k->name;
		name.len = k->name_len;
	}
	return name;
}

const struct fxt_kobj_info *fxt_merge_thread_at(const struct fxt_merge *m,
						uint64_t koid, uint64_t ns)
{
	return m->n ? fxt_reader_thread_at(m->c[0].r, koid, ns) : NULL;
}
