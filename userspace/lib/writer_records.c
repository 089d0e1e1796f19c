// SPDX-License-Identifier: MIT
/*
 * writer_records.c - one fxt_write_*() per FXT record type: each computes
 * the record's size, reserves it (writer.c), encodes it in place with the
 * encoders of include/fxt/format.h and the pieces of writer_internal.h,
 * and commits it.
 */
#include <errno.h>
#include <string.h>

#include "writer_internal.h"

int fxt_write_magic(struct fxt_writer *w)
{
	int err;
	uint64_t *p = fxt_w_reserve(w, 1, &err);

	if (!p)
		return err;
	p[0] = FXT_MAGIC_RECORD;
	fxt_w_commit(w, 1);
	return 0;
}

static int provider_info(struct fxt_writer *w, uint32_t id, const char *name, size_t len)
{
	size_t words = 1 + FXT_WORDS(len);
	uint64_t *p;
	int err;

	if (!FXT_FITS(len, FXT_PROVIDER_INFO_NAME_LEN_FIELD) || (len && !name))
		return -EINVAL;
	p = fxt_w_reserve(w, words, &err);
	if (!p)
		return err;
	p[0] = fxt_provider_info_header(id, (unsigned int)len);
	fxt_w_put_bytes(p + 1, name, len);
	fxt_w_commit(w, words);
	return 0;
}

int fxt_write_provider_info(struct fxt_writer *w, uint32_t id, const char *name)
{
	return provider_info(w, id, name, name ? strlen(name) : 0);
}

int fxt_write_provider_section(struct fxt_writer *w, uint32_t id)
{
	int err;
	uint64_t *p = fxt_w_reserve(w, 1, &err);

	if (!p)
		return err;
	p[0] = fxt_provider_section_header(id);
	fxt_w_commit(w, 1);
	return 0;
}

int fxt_write_provider_event(struct fxt_writer *w, uint32_t id, unsigned int event)
{
	int err;
	uint64_t *p;

	if (!FXT_FITS(event, FXT_PROVIDER_EVENT_FIELD))
		return -EINVAL;
	p = fxt_w_reserve(w, 1, &err);
	if (!p)
		return err;
	p[0] = fxt_provider_event_header(id, event);
	fxt_w_commit(w, 1);
	return 0;
}

int fxt_write_init(struct fxt_writer *w, uint64_t ticks_per_second)
{
	int err;
	uint64_t *p = fxt_w_reserve(w, 2, &err);

	if (!p)
		return err;
	p[0] = fxt_init_header();
	p[1] = ticks_per_second;
	fxt_w_commit(w, 2);
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
	p = fxt_w_reserve(w, words, &err);
	if (!p)
		return err;
	p[0] = fxt_string_header(index, (uint32_t)len);
	fxt_w_put_bytes(p + 1, s, len);
	fxt_w_commit(w, words);
	return 0;
}

int fxt_write_thread(struct fxt_writer *w, uint8_t index, uint64_t pid, uint64_t tid)
{
	int err;
	uint64_t *p;

	if (index == 0)
		return -EINVAL;
	p = fxt_w_reserve(w, 3, &err);
	if (!p)
		return err;
	p[0] = fxt_thread_header(index);
	p[1] = pid;
	p[2] = tid;
	fxt_w_commit(w, 3);
	return 0;
}

int fxt_write_kobj(struct fxt_writer *w, unsigned int obj_type, uint64_t koid,
		   struct fxt_str name, const struct fxt_arg *args, unsigned int nargs)
{
	int ok, err;
	size_t aw = fxt_w_args_words(args, nargs, &ok);
	size_t words = 2 + fxt_w_str_words(name) + aw, k = 2;
	uint64_t *p;

	if (!ok || !fxt_w_str_ok(name) || !FXT_FITS(obj_type, FXT_KOBJ_TYPE_FIELD))
		return -EINVAL;
	if (words > FXT_MAX_RECORD_WORDS)
		return -E2BIG;
	p = fxt_w_reserve(w, words, &err);
	if (!p)
		return err;
	p[0] = fxt_kobj_header((unsigned int)words, obj_type, fxt_w_str_ref(name), nargs);
	p[1] = koid;
	k += fxt_w_put_str(p + k, name);
	fxt_w_put_args(p + k, args, nargs);
	fxt_w_commit(w, words);
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
	size_t aw = fxt_w_args_words(args, nargs, &ok);
	size_t dw = event_data_words(event_type);
	size_t words = 2 + fxt_w_thread_words(thread) + fxt_w_str_words(category) +
		       fxt_w_str_words(name) + aw + dw;
	size_t k = 2;
	uint64_t *p;

	if (!ok || event_type > FXT_EVENT_FLOW_END || !fxt_w_str_ok(category) ||
	    !fxt_w_str_ok(name))
		return -EINVAL;
	if (words > FXT_MAX_RECORD_WORDS)
		return -E2BIG;
	p = fxt_w_reserve(w, words, &err);
	if (!p)
		return err;
	p[0] = fxt_event_header((unsigned int)words, event_type, nargs, thread.ref,
				fxt_w_str_ref(category), fxt_w_str_ref(name));
	p[1] = ts;
	k += fxt_w_put_thread(p + k, thread);
	k += fxt_w_put_str(p + k, category);
	k += fxt_w_put_str(p + k, name);
	k += fxt_w_put_args(p + k, args, nargs);
	if (dw)
		p[k] = data;
	fxt_w_commit(w, words);
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
	size_t words = 2 + fxt_w_thread_words(out) + fxt_w_thread_words(in), k = 2;
	uint64_t *p;
	int err;

	if (!FXT_FITS(cpu, FXT_SWITCH_CPU_FIELD) ||
	    !FXT_FITS(out_state, FXT_SWITCH_OUT_STATE_FIELD) ||
	    !FXT_FITS(out_prio, FXT_SWITCH_OUT_PRIO_FIELD) ||
	    !FXT_FITS(in_prio, FXT_SWITCH_IN_PRIO_FIELD))
		return -EINVAL;
	p = fxt_w_reserve(w, words, &err);
	if (!p)
		return err;
	p[0] = fxt_switch_header((unsigned int)words, cpu, out_state, out.ref,
				 in.ref, (__u8)out_prio, (__u8)in_prio);
	p[1] = ts;
	k += fxt_w_put_thread(p + k, out);
	fxt_w_put_thread(p + k, in);
	fxt_w_commit(w, words);
	return 0;
}

int fxt_write_switch_v2(struct fxt_writer *w, unsigned int cpu, uint64_t ts,
			unsigned int out_state, uint64_t out_tid,
			uint64_t in_tid, const struct fxt_arg *args,
			unsigned int nargs)
{
	int ok, err;
	size_t aw = fxt_w_args_words(args, nargs, &ok);
	size_t words = 4 + aw;
	uint64_t *p;

	if (!ok || !FXT_FITS(cpu, FXT_SWITCH_V2_CPU_FIELD) ||
	    !FXT_FITS(out_state, FXT_SWITCH_V2_OUT_STATE_FIELD))
		return -EINVAL;
	if (words > FXT_MAX_RECORD_WORDS)
		return -E2BIG;
	p = fxt_w_reserve(w, words, &err);
	if (!p)
		return err;
	p[0] = fxt_switch_v2_header((unsigned int)words, nargs, cpu, out_state);
	p[1] = ts;
	p[2] = out_tid;
	p[3] = in_tid;
	fxt_w_put_args(p + 4, args, nargs);
	fxt_w_commit(w, words);
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
	p = fxt_w_reserve(w, FXT_SWITCH_WIDE_WORDS, &err);
	if (!p)
		return err;
	fxt_fill_switch_wide((__u64 *)p, cpu, out_state, ts, out_tid, out_weight,
			     in_tid, in_weight, out_name, in_name);
	fxt_w_commit(w, FXT_SWITCH_WIDE_WORDS);
	return 0;
}

int fxt_write_wakeup_args(struct fxt_writer *w, unsigned int cpu, uint64_t ts,
			  uint64_t woken_tid, const struct fxt_arg *args,
			  unsigned int nargs)
{
	int ok, err;
	size_t aw = fxt_w_args_words(args, nargs, &ok);
	size_t words = 3 + aw;
	uint64_t *p;

	if (!ok || !FXT_FITS(cpu, FXT_WAKEUP_CPU_FIELD))
		return -EINVAL;
	if (words > FXT_MAX_RECORD_WORDS)
		return -E2BIG;
	p = fxt_w_reserve(w, words, &err);
	if (!p)
		return err;
	p[0] = fxt_wakeup_header((unsigned int)words, nargs, cpu);
	p[1] = ts;
	p[2] = woken_tid;
	fxt_w_put_args(p + 3, args, nargs);
	fxt_w_commit(w, words);
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
	size_t words = 1 + fxt_w_str_words(name) + FXT_WORDS(size), k = 1;
	uint64_t *p;
	int err;

	if (!fxt_w_str_ok(name) || !FXT_FITS(size, FXT_BLOB_SIZE_FIELD) ||
	    !FXT_FITS(blob_type, FXT_BLOB_TYPE_FIELD) || (size && !payload))
		return -EINVAL;
	if (words > FXT_MAX_RECORD_WORDS)
		return -E2BIG;
	p = fxt_w_reserve(w, words, &err);
	if (!p)
		return err;
	p[0] = fxt_blob_header((unsigned int)words, fxt_w_str_ref(name),
			       (unsigned int)size, blob_type);
	k += fxt_w_put_str(p + k, name);
	fxt_w_put_bytes(p + k, payload, size);
	fxt_w_commit(w, words);
	return 0;
}

int fxt_write_uobj(struct fxt_writer *w, uint64_t pointer, struct fxt_thread process,
		   struct fxt_str name, const struct fxt_arg *args, unsigned int nargs)
{
	int ok, err;
	size_t aw = fxt_w_args_words(args, nargs, &ok);
	size_t words = 2 + (process.ref ? 0 : 1) + fxt_w_str_words(name) + aw, k = 2;
	uint64_t *p;

	if (!ok || !fxt_w_str_ok(name))
		return -EINVAL;
	if (words > FXT_MAX_RECORD_WORDS)
		return -E2BIG;
	p = fxt_w_reserve(w, words, &err);
	if (!p)
		return err;
	p[0] = fxt_uobj_header((unsigned int)words, process.ref, fxt_w_str_ref(name), nargs);
	p[1] = pointer;
	if (!process.ref)
		p[k++] = process.pid;
	k += fxt_w_put_str(p + k, name);
	fxt_w_put_args(p + k, args, nargs);
	fxt_w_commit(w, words);
	return 0;
}

int fxt_write_log(struct fxt_writer *w, uint64_t ts, struct fxt_thread thread,
		  const char *msg, size_t len)
{
	size_t words = 2 + fxt_w_thread_words(thread) + FXT_WORDS(len), k = 2;
	uint64_t *p;
	int err;

	if (!FXT_FITS(len, FXT_LOG_LEN_FIELD) || (len && !msg))
		return -EINVAL;
	if (words > FXT_MAX_RECORD_WORDS)
		return -E2BIG;
	p = fxt_w_reserve(w, words, &err);
	if (!p)
		return err;
	p[0] = fxt_log_header((unsigned int)words, (unsigned int)len, thread.ref);
	p[1] = ts;
	k += fxt_w_put_thread(p + k, thread);
	fxt_w_put_bytes(p + k, msg, len);
	fxt_w_commit(w, words);
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
		aw = fxt_w_args_words(args, nargs, &ok);
	else if (format != FXT_LARGE_BLOB_NO_METADATA)
		return -EINVAL;
	if (!ok || !fxt_w_str_ok(category) || !fxt_w_str_ok(name) || (size && !payload))
		return -EINVAL;
	words = 2 + fxt_w_str_words(category) + fxt_w_str_words(name) + 1 + FXT_WORDS(size);
	if (format == FXT_LARGE_BLOB_WITH_METADATA)
		words += 1 + fxt_w_thread_words(thread) + aw;
	p = fxt_w_reserve(w, words, &err);
	if (!p)
		return err;
	p[0] = fxt_large_blob_header((uint32_t)words, format);
	if (format == FXT_LARGE_BLOB_WITH_METADATA)
		p[1] = fxt_large_blob_format_word(fxt_w_str_ref(category), fxt_w_str_ref(name),
						  nargs, thread.ref);
	else
		p[1] = fxt_large_blob_format_word(fxt_w_str_ref(category), fxt_w_str_ref(name), 0, 0);
	k += fxt_w_put_str(p + k, category);
	k += fxt_w_put_str(p + k, name);
	if (format == FXT_LARGE_BLOB_WITH_METADATA) {
		p[k++] = ts;
		k += fxt_w_put_thread(p + k, thread);
		k += fxt_w_put_args(p + k, args, nargs);
	}
	p[k++] = size;
	fxt_w_put_bytes(p + k, payload, size);
	fxt_w_commit(w, words);
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
