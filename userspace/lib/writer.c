// SPDX-License-Identifier: MIT
/*
 * writer.c - the buffered FXT record writer.
 *
 * Each fxt_write_*() computes the record's size, reserves that many words
 * in the buffer (flushing first when they do not fit), encodes the record
 * in place with the encoders of include/fxt/format.h and commits it. The
 * buffer therefore only holds whole records and a flush always ends on a
 * record boundary. When write() fails part-way through a flush, the file is
 * truncated back to where the flush started (when it is seekable), so the
 * archive still ends with a whole record.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libfxt.h"

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

/* Room for words 8-byte words, zeroed, or NULL with *err set. */
static uint64_t *reserve(struct fxt_writer *w, size_t words, int *err)
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

static void commit(struct fxt_writer *w, size_t words)
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

/* ------------------------------------------------------------------ */
/* Pieces of records: strings, threads, arguments.                      */

/* The ref a struct fxt_str is written as. */
static uint16_t str_ref(struct fxt_str s)
{
	if (s.ref & FXT_STRING_REF_INLINE)	/* inline, even of length 0 */
		return fxt_inline_string_ref(s.len);
	if (s.ref)
		return s.ref;
	if (!s.len)
		return 0;
	return fxt_inline_string_ref(s.len);
}

static int str_ok(struct fxt_str s)
{
	if (s.ref && !(s.ref & FXT_STRING_REF_INLINE))
		return 1;
	return s.len <= FXT_STRING_MAX_LEN && (s.len == 0 || s.data);
}

/* Words of the inline stream of s (0 for empty or indexed). */
static size_t str_words(struct fxt_str s)
{
	return fxt_string_ref_words(str_ref(s));
}

/* Copy s's inline stream (if any) at p; returns the words used. */
static size_t put_str(uint64_t *p, struct fxt_str s)
{
	size_t n = str_words(s);

	if (n)
		memcpy(p, s.data, s.len);	/* p is zeroed: padding is 0 */
	return n;
}

static size_t put_bytes(uint64_t *p, const void *data, size_t len)
{
	if (len)
		memcpy(p, data, len);
	return FXT_WORDS(len);
}

/* Value words of an argument type beyond its header and name. */
static size_t arg_value_words(const struct fxt_arg *a)
{
	switch (a->type) {
	case FXT_ARG_INT64:
	case FXT_ARG_UINT64:
	case FXT_ARG_DOUBLE:
	case FXT_ARG_POINTER:
	case FXT_ARG_KOID:
		return 1;
	case FXT_ARG_STRING:
		return str_words(a->v.str);
	default:
		return 0;
	}
}

static size_t arg_words(const struct fxt_arg *a)
{
	return 1 + str_words(a->name) + arg_value_words(a);
}

/* Check args and return their total size in words, or 0 if invalid. */
static size_t args_words(const struct fxt_arg *args, unsigned int nargs, int *ok)
{
	size_t total = 0;
	unsigned int i;

	*ok = nargs <= FXT_MAX_ARGS && (nargs == 0 || args);
	for (i = 0; *ok && i < nargs; i++) {
		const struct fxt_arg *a = &args[i];

		if (a->type > FXT_ARG_BOOL || !str_ok(a->name) ||
		    (a->type == FXT_ARG_STRING && !str_ok(a->v.str))) {
			*ok = 0;
			break;
		}
		total += arg_words(a);
	}
	return total;
}

static size_t put_args(uint64_t *p, const struct fxt_arg *args, unsigned int nargs)
{
	size_t used = 0;
	unsigned int i;

	for (i = 0; i < nargs; i++) {
		const struct fxt_arg *a = &args[i];
		size_t words = arg_words(a);
		uint64_t *q = p + used;
		uint32_t value32 = 0;
		size_t k = 1;

		switch (a->type) {
		case FXT_ARG_INT32:
			value32 = (uint32_t)a->v.i32;
			break;
		case FXT_ARG_UINT32:
			value32 = a->v.u32;
			break;
		case FXT_ARG_STRING:
			value32 = str_ref(a->v.str);
			break;
		case FXT_ARG_BOOL:
			value32 = a->v.b ? 1 : 0;
			break;
		default:
			break;
		}
		q[0] = fxt_arg_header(a->type, (unsigned int)words,
				      str_ref(a->name), value32);
		k += put_str(q + k, a->name);
		switch (a->type) {
		case FXT_ARG_INT64:
			q[k++] = (uint64_t)a->v.i64;
			break;
		case FXT_ARG_UINT64:
			q[k++] = a->v.u64;
			break;
		case FXT_ARG_DOUBLE:
			memcpy(&q[k++], &a->v.f64, 8);
			break;
		case FXT_ARG_POINTER:
			q[k++] = a->v.ptr;
			break;
		case FXT_ARG_KOID:
			q[k++] = a->v.koid;
			break;
		case FXT_ARG_STRING:
			k += put_str(q + k, a->v.str);
			break;
		default:
			break;
		}
		used += words;
	}
	return used;
}

static size_t thread_words(struct fxt_thread t)
{
	return t.ref ? 0 : 2;
}

static size_t put_thread(uint64_t *p, struct fxt_thread t)
{
	if (t.ref)
		return 0;
	p[0] = t.pid;
	p[1] = t.tid;
	return 2;
}

/* ------------------------------------------------------------------ */
/* Argument constructors.                                               */

#define ARG_CTOR(fn, atype, ctype, field)				\
	struct fxt_arg fn(struct fxt_str name, ctype v)			\
	{								\
		struct fxt_arg a;					\
									\
		memset(&a, 0, sizeof(a));				\
		a.type = atype;						\
		a.name = name;						\
		a.v.field = v;						\
		return a;						\
	}

ARG_CTOR(fxt_arg_i32, FXT_ARG_INT32, int32_t, i32)
ARG_CTOR(fxt_arg_u32, FXT_ARG_UINT32, uint32_t, u32)
ARG_CTOR(fxt_arg_i64, FXT_ARG_INT64, int64_t, i64)
ARG_CTOR(fxt_arg_u64, FXT_ARG_UINT64, uint64_t, u64)
ARG_CTOR(fxt_arg_f64, FXT_ARG_DOUBLE, double, f64)
ARG_CTOR(fxt_arg_string, FXT_ARG_STRING, struct fxt_str, str)
ARG_CTOR(fxt_arg_ptr, FXT_ARG_POINTER, uint64_t, ptr)
ARG_CTOR(fxt_arg_koid, FXT_ARG_KOID, uint64_t, koid)
ARG_CTOR(fxt_arg_bool, FXT_ARG_BOOL, bool, b)

struct fxt_arg fxt_arg_null(struct fxt_str name)
{
	struct fxt_arg a;

	memset(&a, 0, sizeof(a));
	a.type = FXT_ARG_NULL;
	a.name = name;
	return a;
}

/* ------------------------------------------------------------------ */
/* Records.                                                             */

int fxt_write_magic(struct fxt_writer *w)
{
	int err;
	uint64_t *p = reserve(w, 1, &err);

	if (!p)
		return err;
	p[0] = FXT_MAGIC_RECORD;
	commit(w, 1);
	return 0;
}

static int provider_info(struct fxt_writer *w, uint32_t id, const char *name, size_t len)
{
	size_t words = 1 + FXT_WORDS(len);
	uint64_t *p;
	int err;

	if (!FXT_FITS(len, FXT_PROVIDER_INFO_NAME_LEN_FIELD) || (len && !name))
		return -EINVAL;
	p = reserve(w, words, &err);
	if (!p)
		return err;
	p[0] = fxt_provider_info_header(id, (unsigned int)len);
	put_bytes(p + 1, name, len);
	commit(w, words);
	return 0;
}

int fxt_write_provider_info(struct fxt_writer *w, uint32_t id, const char *name)
{
	return provider_info(w, id, name, name ? strlen(name) : 0);
}

int fxt_write_provider_section(struct fxt_writer *w, uint32_t id)
{
	int err;
	uint64_t *p = reserve(w, 1, &err);

	if (!p)
		return err;
	p[0] = fxt_provider_section_header(id);
	commit(w, 1);
	return 0;
}

int fxt_write_provider_event(struct fxt_writer *w, uint32_t id, unsigned int event)
{
	int err;
	uint64_t *p;

	if (!FXT_FITS(event, FXT_PROVIDER_EVENT_FIELD))
		return -EINVAL;
	p = reserve(w, 1, &err);
	if (!p)
		return err;
	p[0] = fxt_provider_event_header(id, event);
	commit(w, 1);
	return 0;
}

int fxt_write_init(struct fxt_writer *w, uint64_t ticks_per_second)
{
	int err;
	uint64_t *p = reserve(w, 2, &err);

	if (!p)
		return err;
	p[0] = fxt_init_header();
	p[1] = ticks_per_second;
	commit(w, 2);
	return 0;
}

int fxt_write_string(struct fxt_writer *w, uint16_t index, const char *s, size_t len)
{
	size_t words = 1 + FXT_WORDS(len);
	uint64_t *p;
	int err;

	if (index == 0 || index > FXT_STRING_INDEX_MAX ||
	    len > FXT_STRING_MAX_LEN || (len && !s))
		return -EINVAL;
	p = reserve(w, words, &err);
	if (!p)
		return err;
	p[0] = fxt_string_header(index, (uint32_t)len);
	put_bytes(p + 1, s, len);
	commit(w, words);
	return 0;
}

int fxt_write_thread(struct fxt_writer *w, uint8_t index, uint64_t pid, uint64_t tid)
{
	int err;
	uint64_t *p;

	if (index == 0)
		return -EINVAL;
	p = reserve(w, 3, &err);
	if (!p)
		return err;
	p[0] = fxt_thread_header(index);
	p[1] = pid;
	p[2] = tid;
	commit(w, 3);
	return 0;
}

int fxt_write_kobj(struct fxt_writer *w, unsigned int obj_type, uint64_t koid,
		   struct fxt_str name, const struct fxt_arg *args, unsigned int nargs)
{
	int ok, err;
	size_t aw = args_words(args, nargs, &ok);
	size_t words = 2 + str_words(name) + aw, k = 2;
	uint64_t *p;

	if (!ok || !str_ok(name) || !FXT_FITS(obj_type, FXT_KOBJ_TYPE_FIELD))
		return -EINVAL;
	if (words > FXT_MAX_RECORD_WORDS)
		return -E2BIG;
	p = reserve(w, words, &err);
	if (!p)
		return err;
	p[0] = fxt_kobj_header((unsigned int)words, obj_type, str_ref(name), nargs);
	p[1] = koid;
	k += put_str(p + k, name);
	put_args(p + k, args, nargs);
	commit(w, words);
	return 0;
}

int fxt_write_process(struct fxt_writer *w, uint64_t koid, const char *name)
{
	return fxt_write_kobj(w, FXT_OBJ_PROCESS, koid, fxt_str(name), NULL, 0);
}

int fxt_write_thread_kobj(struct fxt_writer *w, uint64_t koid, const char *name,
			  uint64_t process_koid)
{
	struct fxt_arg a = fxt_arg_koid(fxt_str(FXT_ARG_NAME_PROCESS), process_koid);

	return fxt_write_kobj(w, FXT_OBJ_THREAD, koid, fxt_str(name), &a, 1);
}

/* Event-type specific data words. */
static size_t event_data_words(unsigned int event_type)
{
	switch (event_type) {
	case FXT_EVENT_INSTANT:
	case FXT_EVENT_DURATION_BEGIN:
	case FXT_EVENT_DURATION_END:
		return 0;
	default:
		return 1;
	}
}

int fxt_write_event(struct fxt_writer *w, unsigned int event_type, uint64_t ts,
		    struct fxt_thread thread, struct fxt_str category,
		    struct fxt_str name, const struct fxt_arg *args,
		    unsigned int nargs, uint64_t data)
{
	int ok, err;
	size_t aw = args_words(args, nargs, &ok);
	size_t dw = event_data_words(event_type);
	size_t words = 2 + thread_words(thread) + str_words(category) +
		       str_words(name) + aw + dw;
	size_t k = 2;
	uint64_t *p;

	if (!ok || event_type > FXT_EVENT_FLOW_END || !str_ok(category) ||
	    !str_ok(name))
		return -EINVAL;
	if (words > FXT_MAX_RECORD_WORDS)
		return -E2BIG;
	p = reserve(w, words, &err);
	if (!p)
		return err;
	p[0] = fxt_event_header((unsigned int)words, event_type, nargs, thread.ref,
				str_ref(category), str_ref(name));
	p[1] = ts;
	k += put_thread(p + k, thread);
	k += put_str(p + k, category);
	k += put_str(p + k, name);
	k += put_args(p + k, args, nargs);
	if (dw)
		p[k] = data;
	commit(w, words);
	return 0;
}

int fxt_write_counter_u64(struct fxt_writer *w, uint64_t ts, uint64_t pid,
			  uint64_t tid, const char *category, const char *name,
			  uint64_t counter_id, const char *arg_name,
			  uint64_t value)
{
	struct fxt_arg a = fxt_arg_u64(fxt_str(arg_name), value);

	return fxt_write_event(w, FXT_EVENT_COUNTER, ts,
			       fxt_thread_inline(pid, tid), fxt_str(category),
			       fxt_str(name), &a, 1, counter_id);
}

int fxt_write_switch(struct fxt_writer *w, unsigned int cpu, uint64_t ts,
		     unsigned int out_state, struct fxt_thread out,
		     unsigned int out_prio, struct fxt_thread in,
		     unsigned int in_prio)
{
	size_t words = 2 + thread_words(out) + thread_words(in), k = 2;
	uint64_t *p;
	int err;

	if (!FXT_FITS(cpu, FXT_SWITCH_CPU_FIELD) ||
	    !FXT_FITS(out_state, FXT_SWITCH_OUT_STATE_FIELD) ||
	    !FXT_FITS(out_prio, FXT_SWITCH_OUT_PRIO_FIELD) ||
	    !FXT_FITS(in_prio, FXT_SWITCH_IN_PRIO_FIELD))
		return -EINVAL;
	p = reserve(w, words, &err);
	if (!p)
		return err;
	p[0] = fxt_switch_header((unsigned int)words, cpu, out_state, out.ref,
				 in.ref, (__u8)out_prio, (__u8)in_prio);
	p[1] = ts;
	k += put_thread(p + k, out);
	put_thread(p + k, in);
	commit(w, words);
	return 0;
}

int fxt_write_switch_v2(struct fxt_writer *w, unsigned int cpu, uint64_t ts,
			unsigned int out_state, uint64_t out_tid,
			uint64_t in_tid, const struct fxt_arg *args,
			unsigned int nargs)
{
	int ok, err;
	size_t aw = args_words(args, nargs, &ok);
	size_t words = 4 + aw;
	uint64_t *p;

	if (!ok || !FXT_FITS(cpu, FXT_SWITCH_V2_CPU_FIELD) ||
	    !FXT_FITS(out_state, FXT_SWITCH_V2_OUT_STATE_FIELD))
		return -EINVAL;
	if (words > FXT_MAX_RECORD_WORDS)
		return -E2BIG;
	p = reserve(w, words, &err);
	if (!p)
		return err;
	p[0] = fxt_switch_v2_header((unsigned int)words, nargs, cpu, out_state);
	p[1] = ts;
	p[2] = out_tid;
	p[3] = in_tid;
	put_args(p + 4, args, nargs);
	commit(w, words);
	return 0;
}

int fxt_write_switch_wide(struct fxt_writer *w, unsigned int cpu, uint64_t ts,
			  unsigned int out_state, uint64_t out_tid,
			  int32_t out_weight, uint64_t in_tid, int32_t in_weight,
			  uint16_t out_name, uint16_t in_name)
{
	uint64_t *p;
	int err;

	if (!FXT_FITS(cpu, FXT_SWITCH_V2_CPU_FIELD) ||
	    !FXT_FITS(out_state, FXT_SWITCH_V2_OUT_STATE_FIELD))
		return -EINVAL;
	p = reserve(w, FXT_SWITCH_WIDE_WORDS, &err);
	if (!p)
		return err;
	fxt_fill_switch_wide((__u64 *)p, cpu, out_state, ts, out_tid, out_weight,
			     in_tid, in_weight, out_name, in_name);
	commit(w, FXT_SWITCH_WIDE_WORDS);
	return 0;
}

int fxt_write_wakeup_args(struct fxt_writer *w, unsigned int cpu, uint64_t ts,
			  uint64_t woken_tid, const struct fxt_arg *args,
			  unsigned int nargs)
{
	int ok, err;
	size_t aw = args_words(args, nargs, &ok);
	size_t words = 3 + aw;
	uint64_t *p;

	if (!ok || !FXT_FITS(cpu, FXT_WAKEUP_CPU_FIELD))
		return -EINVAL;
	if (words > FXT_MAX_RECORD_WORDS)
		return -E2BIG;
	p = reserve(w, words, &err);
	if (!p)
		return err;
	p[0] = fxt_wakeup_header((unsigned int)words, nargs, cpu);
	p[1] = ts;
	p[2] = woken_tid;
	put_args(p + 3, args, nargs);
	commit(w, words);
	return 0;
}

int fxt_write_wakeup(struct fxt_writer *w, unsigned int cpu, uint64_t ts,
		     uint64_t woken_tid, int32_t weight, uint64_t waker_tid)
{
	struct fxt_arg a[2];
	unsigned int n = 0;

	/* the default weight goes unsaid, as fxt.ko writes it (format.h) */
	if (weight != FXT_WAKEUP_WEIGHT_DEFAULT)
		a[n++] = fxt_arg_i32(fxt_str(FXT_ARG_NAME_WEIGHT), weight);
	a[n++] = fxt_arg_koid(fxt_str(FXT_ARG_NAME_WAKER), waker_tid);
	return fxt_write_wakeup_args(w, cpu, ts, woken_tid, a, n);
}

int fxt_write_blob(struct fxt_writer *w, struct fxt_str name, unsigned int blob_type,
		   const void *payload, size_t size)
{
	size_t words = 1 + str_words(name) + FXT_WORDS(size), k = 1;
	uint64_t *p;
	int err;

	if (!str_ok(name) || !FXT_FITS(size, FXT_BLOB_SIZE_FIELD) ||
	    !FXT_FITS(blob_type, FXT_BLOB_TYPE_FIELD) || (size && !payload))
		return -EINVAL;
	if (words > FXT_MAX_RECORD_WORDS)
		return -E2BIG;
	p = reserve(w, words, &err);
	if (!p)
		return err;
	p[0] = fxt_blob_header((unsigned int)words, str_ref(name),
			       (unsigned int)size, blob_type);
	k += put_str(p + k, name);
	put_bytes(p + k, payload, size);
	commit(w, words);
	return 0;
}

int fxt_write_uobj(struct fxt_writer *w, uint64_t pointer, struct fxt_thread process,
		   struct fxt_str name, const struct fxt_arg *args, unsigned int nargs)
{
	int ok, err;
	size_t aw = args_words(args, nargs, &ok);
	size_t words = 2 + (process.ref ? 0 : 1) + str_words(name) + aw, k = 2;
	uint64_t *p;

	if (!ok || !str_ok(name))
		return -EINVAL;
	if (words > FXT_MAX_RECORD_WORDS)
		return -E2BIG;
	p = reserve(w, words, &err);
	if (!p)
		return err;
	p[0] = fxt_uobj_header((unsigned int)words, process.ref, str_ref(name), nargs);
	p[1] = pointer;
	if (!process.ref)
		p[k++] = process.pid;
	k += put_str(p + k, name);
	put_args(p + k, args, nargs);
	commit(w, words);
	return 0;
}

int fxt_write_log(struct fxt_writer *w, uint64_t ts, struct fxt_thread thread,
		  const char *msg, size_t len)
{
	size_t words = 2 + thread_words(thread) + FXT_WORDS(len), k = 2;
	uint64_t *p;
	int err;

	if (!FXT_FITS(len, FXT_LOG_LEN_FIELD) || (len && !msg))
		return -EINVAL;
	if (words > FXT_MAX_RECORD_WORDS)
		return -E2BIG;
	p = reserve(w, words, &err);
	if (!p)
		return err;
	p[0] = fxt_log_header((unsigned int)words, (unsigned int)len, thread.ref);
	p[1] = ts;
	k += put_thread(p + k, thread);
	put_bytes(p + k, msg, len);
	commit(w, words);
	return 0;
}

int fxt_write_large_blob(struct fxt_writer *w, unsigned int format,
			 struct fxt_str category, struct fxt_str name, uint64_t ts,
			 struct fxt_thread thread, const struct fxt_arg *args,
			 unsigned int nargs, const void *payload, size_t size)
{
	int ok = 1, err;
	size_t aw = 0, words, k = 2;
	uint64_t *p;

	if (format == FXT_LARGE_BLOB_WITH_METADATA)
		aw = args_words(args, nargs, &ok);
	else if (format != FXT_LARGE_BLOB_NO_METADATA)
		return -EINVAL;
	if (!ok || !str_ok(category) || !str_ok(name) || (size && !payload))
		return -EINVAL;
	words = 2 + str_words(category) + str_words(name) + 1 + FXT_WORDS(size);
	if (format == FXT_LARGE_BLOB_WITH_METADATA)
		words += 1 + thread_words(thread) + aw;
	p = reserve(w, words, &err);
	if (!p)
		return err;
	p[0] = fxt_large_blob_header((uint32_t)words, format);
	if (format == FXT_LARGE_BLOB_WITH_METADATA)
		p[1] = fxt_large_blob_format_word(str_ref(category), str_ref(name),
						  nargs, thread.ref);
	else
		p[1] = fxt_large_blob_format_word(str_ref(category), str_ref(name), 0, 0);
	k += put_str(p + k, category);
	k += put_str(p + k, name);
	if (format == FXT_LARGE_BLOB_WITH_METADATA) {
		p[k++] = ts;
		k += put_thread(p + k, thread);
		k += put_args(p + k, args, nargs);
	}
	p[k++] = size;
	put_bytes(p + k, payload, size);
	commit(w, words);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Re-encoding decoded records.                                         */

int fxt_write_record(struct fxt_writer *w, const struct fxt_record *r)
{
	if (r->flags & (FXT_RF_MALFORMED | FXT_RF_UNKNOWN | FXT_RF_NO_PAYLOAD))
		return -EINVAL;
	switch (r->type) {
	case FXT_REC_METADATA:
		switch (r->subtype) {
		case FXT_META_PROVIDER_INFO:
			return provider_info(w, r->u.meta.provider_id, r->u.meta.name.data,
					     r->u.meta.name.len);
		case FXT_META_PROVIDER_SECTION:
			return fxt_write_provider_section(w, r->u.meta.provider_id);
		case FXT_META_PROVIDER_EVENT:
			return fxt_write_provider_event(w, r->u.meta.provider_id,
							r->u.meta.event);
		case FXT_META_TRACE_INFO:
			return fxt_write_magic(w);
		}
		return -EINVAL;
	case FXT_REC_INIT:
		return fxt_write_init(w, r->u.init.ticks_per_second);
	case FXT_REC_STRING:
		return fxt_write_string(w, r->u.string.index, r->u.string.str.data,
					r->u.string.str.len);
	case FXT_REC_THREAD:
		return fxt_write_thread(w, r->u.thread.index, r->u.thread.pid,
					r->u.thread.tid);
	case FXT_REC_EVENT:
		return fxt_write_event(w, r->subtype, r->ts, r->u.event.thread,
				       r->u.event.category, r->u.event.name,
				       r->args, r->nargs, r->u.event.data);
	case FXT_REC_BLOB:
		return fxt_write_blob(w, r->u.blob.name, r->u.blob.blob_type,
				      r->u.blob.payload, r->u.blob.size);
	case FXT_REC_USERSPACE_OBJ:
		return fxt_write_uobj(w, r->u.uobj.pointer, r->u.uobj.process,
				      r->u.uobj.name, r->args, r->nargs);
	case FXT_REC_KERNEL_OBJ:
		return fxt_write_kobj(w, r->u.kobj.obj_type, r->u.kobj.koid,
				      r->u.kobj.name, r->args, r->nargs);
	case FXT_REC_SCHED:
		switch (r->subtype) {
		case FXT_SCHED_CONTEXT_SWITCH:
			return fxt_write_switch(w, r->u.sw.cpu, r->ts, r->u.sw.out_state,
						r->u.sw.out, r->u.sw.out_prio,
						r->u.sw.in, r->u.sw.in_prio);
		case FXT_SCHED_CONTEXT_SWITCH_V2:
			return fxt_write_switch_v2(w, r->u.sw.cpu, r->ts,
						   r->u.sw.out_state, r->u.sw.out.tid,
						   r->u.sw.in.tid, r->args, r->nargs);
		case FXT_SCHED_THREAD_WAKEUP:
			return fxt_write_wakeup_args(w, r->u.wakeup.cpu, r->ts,
						     r->u.wakeup.tid, r->args, r->nargs);
		}
		return -EINVAL;
	case FXT_REC_LOG:
		return fxt_write_log(w, r->ts, r->u.log.thread, r->u.log.msg.data,
				     r->u.log.msg.len);
	case FXT_REC_LARGE:
		if (r->subtype != FXT_LARGE_BLOB)
			return -EINVAL;
		return fxt_write_large_blob(w, r->u.lblob.format, r->u.lblob.category,
					    r->u.lblob.name, r->ts, r->u.lblob.thread,
					    r->args, r->nargs, r->u.lblob.payload,
					    (size_t)r->u.lblob.size);
	}
	return -EINVAL;
}
