// SPDX-License-Identifier: MIT
/*
 * reader_decode.c - the records one at a time: framing from the input
 * buffer (fxt_reader_next()), then one decoder per record type (metadata,
 * kernel objects, events, scheduling, large records). Each checks what the
 * specification demands of its record and reports through the
 * diagnostics callback.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader_cursor.h"

/* ------------------------------------------------------------------ */
/* Records.                                                             */

static void decode_metadata(struct cur *c, uint64_t h)
{
	struct fxt_reader *r = c->r;
	struct fxt_record *rec = c->rec;
	unsigned int type = (unsigned int)FXT_G(h, FXT_META_TYPE_FIELD);
	uint32_t id = (uint32_t)FXT_G(h, FXT_META_PROVIDER_FIELD);
	struct provider *p;

	rec->subtype = (uint8_t)type;
	rec->u.meta.provider_id = id;
	switch (type) {
	case FXT_META_PROVIDER_INFO: {
		unsigned int len = (unsigned int)FXT_G(h, FXT_PROVIDER_INFO_NAME_LEN_FIELD);
		const char *name;

		reserved(c, h, FXT_PROVIDER_INFO_RESERVED_FIELD, "provider info");
		name = take_stream(c, len, "provider name");
		rec->u.meta.name.ref = 0;
		rec->u.meta.name.len = name ? (uint16_t)len : 0;
		rec->u.meta.name.data = name ? name : fxt_rd_empty_string;
		if (c->bad)
			return;
		p = fxt_rd_provider_get(r, id, rec->offset);
		fxt_rd_provider_clear(r, p);
		p->announced = true;
		p->warned = false;
		memcpy(p->name, rec->u.meta.name.data, rec->u.meta.name.len);
		p->name[rec->u.meta.name.len] = 0;
		p->per_cpu = fxt_rd_per_cpu_name(p->name, id);
		r->cur = p;
		break;
	}
	case FXT_META_PROVIDER_SECTION:
		reserved(c, h, FXT_PROVIDER_SECTION_RESERVED_FIELD, "provider section");
		p = fxt_rd_provider_find(r, id);
		if (!p || !p->announced) {
			p = fxt_rd_provider_get(r, id, rec->offset);
			if (!p->warned) {
				p->warned = true;
				REPORT(c, PROVIDER_UNKNOWN, "%u", id);
			}
		}
		r->cur = p;
		break;
	case FXT_META_PROVIDER_EVENT:
		rec->u.meta.event = (uint8_t)FXT_G(h, FXT_PROVIDER_EVENT_FIELD);
		reserved(c, h, FXT_PROVIDER_EVENT_RESERVED_FIELD, "provider event");
		p = fxt_rd_provider_find(r, id);
		if (!p || !p->announced)
			REPORT(c, PROVIDER_UNKNOWN, "%u", id);
		if (rec->u.meta.event != FXT_PROVIDER_EVENT_BUFFER_FULL) {
			REPORT(c, UNKNOWN_SUBTYPE, "provider event %u", rec->u.meta.event);
			rec->flags |= FXT_RF_UNKNOWN;
		}
		break;
	case FXT_META_TRACE_INFO:
		rec->u.meta.trace_info_type = (uint8_t)FXT_G(h, FXT_TRACE_INFO_TYPE_FIELD);
		rec->u.meta.provider_id = 0;
		if (rec->u.meta.trace_info_type != FXT_TRACE_INFO_MAGIC) {
			REPORT(c, UNKNOWN_SUBTYPE, "trace info type %u",
			       rec->u.meta.trace_info_type);
			rec->flags |= FXT_RF_UNKNOWN;
			c->p = c->end;
			return;
		}
		rec->u.meta.magic = (uint32_t)FXT_G(h, FXT_TRACE_INFO_MAGIC_FIELD);
		if (rec->u.meta.magic != FXT_MAGIC_NUMBER)
			REPORT(c, BAD_MAGIC_RECORD, "magic number 0x%x",
			       rec->u.meta.magic);
		if (FXT_G(h, FXT_TRACE_INFO_RESERVED_FIELD))
			REPORT(c, BAD_MAGIC_RECORD, "bits [56..63] set");
		if (rec->nwords != 1) {
			REPORT(c, BAD_MAGIC_RECORD, "%llu words, not 1",
			       (unsigned long long)rec->nwords);
			c->p = c->end;
		}
		break;
	default:
		REPORT(c, UNKNOWN_SUBTYPE, "metadata type %u", type);
		rec->flags |= FXT_RF_UNKNOWN;
		c->p = c->end;
		break;
	}
}

static void decode_kobj(struct cur *c, uint64_t h)
{
	struct fxt_record *rec = c->rec;
	const struct fxt_arg *proc, *at, *parent;
	uint64_t process = 0;

	rec->u.kobj.obj_type = (uint8_t)FXT_G(h, FXT_KOBJ_TYPE_FIELD);
	rec->u.kobj.named_at = 0;
	rec->u.kobj.parent = FXT_KOID_NONE;
	reserved(c, h, FXT_KOBJ_RESERVED_FIELD, "kernel object record");
	rec->u.kobj.koid = take(c, "koid");
	rec->u.kobj.name = get_str(c, (uint16_t)FXT_G(h, FXT_KOBJ_NAME_FIELD),
				   "kernel object name");
	fxt_rd_get_args(c, (unsigned int)FXT_G(h, FXT_KOBJ_NARGS_FIELD));
	if (c->bad)
		return;
	if (!rec->u.kobj.name.len && rec->u.kobj.name.data)
		REPORT(c, KOBJ_NAME, "%llu", (unsigned long long)rec->u.kobj.koid);
	at = fxt_rd_find_arg(rec, FXT_ARG_NAME_NAMED_AT);
	if (at && at->type == FXT_ARG_UINT64)
		rec->u.kobj.named_at = at->v.u64;
	parent = fxt_rd_find_arg(rec, FXT_ARG_NAME_PARENT);
	if (rec->u.kobj.obj_type == FXT_OBJ_PROCESS && parent &&
	    parent->type == FXT_ARG_KOID)
		rec->u.kobj.parent = parent->v.koid;
	if (rec->u.kobj.obj_type == FXT_OBJ_THREAD) {
		proc = fxt_rd_find_arg(rec, FXT_ARG_NAME_PROCESS);
		if (!proc)
			REPORT(c, KOBJ_NO_PROCESS, "%llu has no \"process\" argument",
			       (unsigned long long)rec->u.kobj.koid);
		else if (proc->type != FXT_ARG_KOID)
			REPORT(c, KOBJ_NO_PROCESS, "%llu: \"process\" is %s, not koid",
			       (unsigned long long)rec->u.kobj.koid,
			       fxt_arg_type_name(proc->type));
		else
			process = proc->v.koid;
	}
	if (c->r->track_kobjs)
		fxt_rd_kobj_set(c->r, rec->u.kobj.koid, rec->u.kobj.obj_type,
			 rec->u.kobj.name, process, rec->u.kobj.parent,
			 rec->u.kobj.named_at, rec->offset);
}

static void decode_event(struct cur *c, uint64_t h)
{
	struct fxt_record *rec = c->rec;
	unsigned int type = (unsigned int)FXT_G(h, FXT_EVENT_TYPE_FIELD);

	rec->subtype = (uint8_t)type;
	check_provider(c);
	if (type > FXT_EVENT_FLOW_END) {
		REPORT(c, UNKNOWN_SUBTYPE, "event type %u", type);
		rec->flags |= FXT_RF_UNKNOWN;
		c->p = c->end;
		return;
	}
	rec->ts = take(c, "timestamp");
	get_thread(c, (uint8_t)FXT_G(h, FXT_EVENT_THREAD_FIELD), &rec->u.event.thread);
	rec->u.event.category = get_str(c, (uint16_t)FXT_G(h, FXT_EVENT_CATEGORY_FIELD),
					"category");
	rec->u.event.name = get_str(c, (uint16_t)FXT_G(h, FXT_EVENT_NAME_FIELD), "event name");
	if ((c->r->skip_args & FXT_SKIP_SPAN_ARGS) &&
	    (type == FXT_EVENT_DURATION_BEGIN || type == FXT_EVENT_DURATION_END))
		skip_args(c, (unsigned int)FXT_G(h, FXT_EVENT_NARGS_FIELD));
	else
		fxt_rd_get_args(c, (unsigned int)FXT_G(h, FXT_EVENT_NARGS_FIELD));
	rec->u.event.data = 0;
	if (type != FXT_EVENT_INSTANT && type != FXT_EVENT_DURATION_BEGIN &&
	    type != FXT_EVENT_DURATION_END)
		rec->u.event.data = take(c, type == FXT_EVENT_COUNTER ? "counter id" :
					 type == FXT_EVENT_DURATION_COMPLETE ? "end time" :
					 "correlation id");
	if (c->bad)
		return;
	check_ts(c, rec->ts);
	if (type == FXT_EVENT_DURATION_COMPLETE && rec->u.event.data < rec->ts)
		REPORT(c, DURATION_END, "%llu < %llu",
		       (unsigned long long)rec->u.event.data, (unsigned long long)rec->ts);
	if (c->r->check_durations && rec->u.event.thread.defined &&
	    (type == FXT_EVENT_DURATION_BEGIN || type == FXT_EVENT_DURATION_END))
		fxt_rd_check_duration(c, type);
	if (c->r->check_sleeps && type == FXT_EVENT_INSTANT)
		fxt_rd_check_sleep_event(c);
}

static void decode_sched(struct cur *c, uint64_t h)
{
	struct fxt_record *rec = c->rec;
	unsigned int sub = fxt_sched_subtype(h), state;

	rec->subtype = (uint8_t)sub;
	rec->cpu = 0;
	check_provider(c);
	switch (sub) {
	case FXT_SCHED_CONTEXT_SWITCH:
		rec->u.sw.cpu = (uint16_t)FXT_G(h, FXT_SWITCH_CPU_FIELD);
		sched_cpu(c, rec->u.sw.cpu, 8, "context switch");
		state = (unsigned int)FXT_G(h, FXT_SWITCH_OUT_STATE_FIELD);
		rec->u.sw.out_prio = (uint8_t)FXT_G(h, FXT_SWITCH_OUT_PRIO_FIELD);
		rec->u.sw.in_prio = (uint8_t)FXT_G(h, FXT_SWITCH_IN_PRIO_FIELD);
		rec->ts = take(c, "timestamp");
		get_thread(c, (uint8_t)FXT_G(h, FXT_SWITCH_OUT_THREAD_FIELD), &rec->u.sw.out);
		get_thread(c, (uint8_t)FXT_G(h, FXT_SWITCH_IN_THREAD_FIELD), &rec->u.sw.in);
		rec->nargs = 0;
		break;
	case FXT_SCHED_CONTEXT_SWITCH_V2:
		rec->u.sw.cpu = (uint16_t)FXT_G(h, FXT_SWITCH_V2_CPU_FIELD);
		sched_cpu(c, rec->u.sw.cpu, 16, "context switch");
		state = (unsigned int)FXT_G(h, FXT_SWITCH_V2_OUT_STATE_FIELD);
		reserved(c, h, FXT_SWITCH_V2_RESERVED_FIELD, "context switch");
		rec->u.sw.out_prio = rec->u.sw.in_prio = 0;
		rec->ts = take(c, "timestamp");
		memset(&rec->u.sw.out, 0, sizeof(rec->u.sw.out));
		memset(&rec->u.sw.in, 0, sizeof(rec->u.sw.in));
		rec->u.sw.out.defined = rec->u.sw.in.defined = true;
		rec->u.sw.out.tid = take(c, "outgoing thread koid");
		rec->u.sw.in.tid = take(c, "incoming thread koid");
		if (c->r->skip_args & FXT_SKIP_SCHED_ARGS) {
			skip_args(c, (unsigned int)FXT_G(h, FXT_SWITCH_V2_NARGS_FIELD));
		} else {
			fxt_rd_get_args(c, (unsigned int)FXT_G(h, FXT_SWITCH_V2_NARGS_FIELD));
			fxt_rd_check_arg_types(c, FXT_ARG_NAME_OUTGOING_WEIGHT,
					sizeof(FXT_ARG_NAME_OUTGOING_WEIGHT) - 1, FXT_ARG_INT32,
					FXT_ARG_NAME_INCOMING_WEIGHT,
					sizeof(FXT_ARG_NAME_INCOMING_WEIGHT) - 1, FXT_ARG_INT32);
		}
		break;
	case FXT_SCHED_THREAD_WAKEUP:
		rec->u.wakeup.cpu = (uint16_t)FXT_G(h, FXT_WAKEUP_CPU_FIELD);
		sched_cpu(c, rec->u.wakeup.cpu, 16, "thread wakeup");
		reserved(c, h, FXT_WAKEUP_RESERVED_FIELD, "thread wakeup");
		rec->ts = take(c, "timestamp");
		rec->u.wakeup.tid = take(c, "woken thread koid");
		if (c->r->skip_args & FXT_SKIP_SCHED_ARGS) {
			skip_args(c, (unsigned int)FXT_G(h, FXT_WAKEUP_NARGS_FIELD));
		} else {
			fxt_rd_get_args(c, (unsigned int)FXT_G(h, FXT_WAKEUP_NARGS_FIELD));
			fxt_rd_check_arg_types(c, FXT_ARG_NAME_WEIGHT, sizeof(FXT_ARG_NAME_WEIGHT) - 1,
					FXT_ARG_INT32, FXT_ARG_NAME_WAKER,
					sizeof(FXT_ARG_NAME_WAKER) - 1, FXT_ARG_KOID);
		}
		if (!c->bad)
			check_ts(c, rec->ts);
		return;
	default:
		REPORT(c, UNKNOWN_SUBTYPE, "scheduling record subtype %u", sub);
		rec->flags |= FXT_RF_UNKNOWN;
		c->p = c->end;
		return;
	}
	rec->u.sw.out_state = (uint8_t)state;
	if (state == FXT_THREAD_RUNNING || state > FXT_THREAD_DEAD)
		REPORT(c, SWITCH_STATE, "%u (%s)", state, fxt_thread_state_name(state));
	if (!c->bad)
		check_ts(c, rec->ts);
	if (unlikely(c->prov->sleep) && !c->bad)
		fxt_rd_check_sleep_switch(c);
}

static void decode_large(struct cur *c, uint64_t h)
{
	struct fxt_record *rec = c->rec;
	unsigned int ltype = (unsigned int)FXT_G(h, FXT_LARGE_TYPE_FIELD);
	unsigned int format = (unsigned int)FXT_G(h, FXT_LBLOB_FORMAT_FIELD);
	uint64_t f, size;

	rec->subtype = (uint8_t)ltype;
	if (ltype != FXT_LARGE_BLOB) {
		REPORT(c, UNKNOWN_SUBTYPE, "large record type %u", ltype);
		rec->flags |= FXT_RF_UNKNOWN;
		c->p = c->end;
		return;
	}
	rec->u.lblob.format = (uint8_t)format;
	if (format > FXT_LARGE_BLOB_NO_METADATA) {
		REPORT(c, UNKNOWN_SUBTYPE, "large blob format %u", format);
		rec->flags |= FXT_RF_UNKNOWN;
		c->p = c->end;
		return;
	}
	reserved(c, h, FXT_LBLOB_RESERVED_FIELD, "large blob");
	f = take(c, "format header");
	if (format == FXT_LARGE_BLOB_WITH_METADATA)
		reserved(c, f, FXT_LBLOB_META_RESERVED_FIELD, "large blob format header");
	else
		reserved(c, f, FXT_LBLOB_NO_META_RESERVED_FIELD, "large blob format header");
	rec->u.lblob.category = get_str(c, (uint16_t)FXT_G(f, FXT_LBLOB_CATEGORY_FIELD),
					"category");
	rec->u.lblob.name = get_str(c, (uint16_t)FXT_G(f, FXT_LBLOB_NAME_FIELD), "blob name");
	rec->nargs = 0;
	memset(&rec->u.lblob.thread, 0, sizeof(rec->u.lblob.thread));
	rec->ts = 0;
	if (format == FXT_LARGE_BLOB_WITH_METADATA) {
		check_provider(c);
		rec->ts = take(c, "timestamp");
		get_thread(c, (uint8_t)FXT_G(f, FXT_LBLOB_THREAD_FIELD), &rec->u.lblob.thread);
		fxt_rd_get_args(c, (unsigned int)FXT_G(f, FXT_LBLOB_NARGS_FIELD));
	}
	size = take(c, "blob size");
	rec->u.lblob.size = size;
	rec->u.lblob.payload = NULL;
	if (c->bad)
		return;
	if (size > (uint64_t)(c->end - c->p) * 8 || FXT_WORDS(size) != (uint64_t)(c->end - c->p)) {
		REPORT(c, BLOB_SIZE, "%llu", (unsigned long long)size);
		if (size > (uint64_t)(c->end - c->p) * 8) {
			c->bad = true;
			return;
		}
	}
	rec->u.lblob.payload = take_stream(c, (size_t)size, "blob payload");
	c->p = c->end;	/* a size mismatch was reported as BLOB_SIZE */
}

static void decode(struct fxt_reader *r, struct fxt_record *rec)
{
	struct cur c = { r, r->cur, rec, rec->words + 1, rec->words + rec->nwords, -1, false };
	uint64_t h = rec->words[0];

	switch (fxt_record_type(h)) {	/* rec->type, known to be below 16 */
	case FXT_REC_METADATA:
		decode_metadata(&c, h);
		break;
	case FXT_REC_INIT:
		reserved(&c, h, FXT_INIT_RESERVED_FIELD, "initialization record");
		check_provider(&c);
		rec->u.init.ticks_per_second = take(&c, "ticks per second");
		if (c.bad)
			break;
		if (!rec->u.init.ticks_per_second)
			REPORT(&c, INIT_ZERO, NULL);
		else
			r->cur->ticks_per_second = rec->u.init.ticks_per_second;
		break;
	case FXT_REC_STRING: {
		unsigned int index = (unsigned int)FXT_G(h, FXT_STRING_INDEX_FIELD);
		unsigned int len = (unsigned int)FXT_G(h, FXT_STRING_LEN_FIELD);

		reserved(&c, h, FXT_STRING_RESERVED1_FIELD, "string record");
		reserved(&c, h, FXT_STRING_RESERVED2_FIELD, "string record");
		check_provider(&c);
		rec->u.string.index = (uint16_t)index;
		rec->u.string.str.ref = (uint16_t)index;
		rec->u.string.str.len = (uint16_t)len;
		if (len > FXT_STRING_MAX_LEN)
			REPORT(&c, STRING_TOO_LONG, "string record of %u bytes", len);
		rec->u.string.str.data = take_stream(&c, len, "string");
		if (c.bad) {
			rec->u.string.str.len = 0;
			break;
		}
		if (!index)
			REPORT(&c, STRING_INDEX_0, NULL);
		else
			fxt_rd_string_define(r, r->cur, index, rec->u.string.str.data, len,
				      rec->offset);
		break;
	}
	case FXT_REC_THREAD: {
		unsigned int index = (unsigned int)FXT_G(h, FXT_THREAD_INDEX_FIELD);

		reserved(&c, h, FXT_THREAD_RESERVED_FIELD, "thread record");
		check_provider(&c);
		rec->u.thread.index = (uint8_t)index;
		rec->u.thread.pid = take(&c, "process koid");
		rec->u.thread.tid = take(&c, "thread koid");
		if (c.bad)
			break;
		if (!index) {
			REPORT(&c, THREAD_INDEX_0, NULL);
		} else {
			struct thread_slot *t = &r->cur->threads[index];

			t->pid = rec->u.thread.pid;
			t->tid = rec->u.thread.tid;
			t->defined = true;
		}
		break;
	}
	case FXT_REC_EVENT:
		decode_event(&c, h);
		break;
	case FXT_REC_BLOB: {
		unsigned int size = (unsigned int)FXT_G(h, FXT_BLOB_SIZE_FIELD);

		rec->u.blob.payload = NULL;	/* none unless it is whole */
		reserved(&c, h, FXT_BLOB_RESERVED1_FIELD, "blob record");
		reserved(&c, h, FXT_BLOB_RESERVED2_FIELD, "blob record");
		check_provider(&c);
		rec->u.blob.blob_type = (uint8_t)FXT_G(h, FXT_BLOB_TYPE_FIELD);
		rec->u.blob.name = get_str(&c, (uint16_t)FXT_G(h, FXT_BLOB_NAME_FIELD),
					   "blob name");
		rec->u.blob.size = size;
		if (!c.bad && FXT_WORDS(size) != (size_t)(c.end - c.p)) {
			REPORT(&c, BLOB_SIZE, "%u", size);
			if (FXT_WORDS(size) > (size_t)(c.end - c.p)) {
				c.bad = true;
				break;
			}
		}
		rec->u.blob.payload = take_stream(&c, size, "blob payload");
		c.p = c.end;	/* a size mismatch was reported as BLOB_SIZE */
		break;
	}
	case FXT_REC_USERSPACE_OBJ: {
		uint8_t ref = (uint8_t)FXT_G(h, FXT_UOBJ_PROCESS_FIELD);

		reserved(&c, h, FXT_UOBJ_RESERVED_FIELD, "userspace object record");
		check_provider(&c);
		rec->u.uobj.pointer = take(&c, "pointer");
		rec->u.uobj.process.ref = ref;
		rec->u.uobj.process.defined = true;
		rec->u.uobj.process.tid = 0;
		if (!ref) {
			rec->u.uobj.process.pid = take(&c, "process koid");
		} else if (r->cur->threads[ref].defined) {
			rec->u.uobj.process.pid = r->cur->threads[ref].pid;
		} else {
			rec->u.uobj.process.pid = 0;
			rec->u.uobj.process.defined = false;
			REPORT(&c, THREAD_UNDEFINED, "%u", ref);
		}
		rec->u.uobj.name = get_str(&c, (uint16_t)FXT_G(h, FXT_UOBJ_NAME_FIELD),
					   "object name");
		fxt_rd_get_args(&c, (unsigned int)FXT_G(h, FXT_UOBJ_NARGS_FIELD));
		break;
	}
	case FXT_REC_KERNEL_OBJ:
		decode_kobj(&c, h);
		break;
	case FXT_REC_SCHED:
		decode_sched(&c, h);
		break;
	case FXT_REC_LOG: {
		unsigned int len = (unsigned int)FXT_G(h, FXT_LOG_LEN_FIELD);

		reserved(&c, h, FXT_LOG_RESERVED1_FIELD, "log record");
		reserved(&c, h, FXT_LOG_RESERVED2_FIELD, "log record");
		check_provider(&c);
		rec->ts = take(&c, "timestamp");
		get_thread(&c, (uint8_t)FXT_G(h, FXT_LOG_THREAD_FIELD), &rec->u.log.thread);
		rec->u.log.msg.ref = 0;
		rec->u.log.msg.len = (uint16_t)len;
		rec->u.log.msg.data = take_stream(&c, len, "log message");
		if (!rec->u.log.msg.data)
			rec->u.log.msg.len = 0;
		break;
	}
	case FXT_REC_LARGE:
		decode_large(&c, h);
		break;
	default:
		REPORT(&c, UNKNOWN_RECORD, "%u", rec->type);
		rec->flags |= FXT_RF_UNKNOWN;
		c.p = c.end;
		break;
	}
	if (c.bad) {
		rec->flags |= FXT_RF_MALFORMED;
	} else if (c.p != c.end) {
		REPORT(&c, SIZE_MISMATCH, "%llu words, content is %llu",
		       (unsigned long long)rec->nwords,
		       (unsigned long long)(c.p - rec->words));
	}
}

/* ------------------------------------------------------------------ */
/* Framing.                                                             */

/* A read of the input failed (lib/reader_input.c): say so once, and stop. */
static COLD void read_failed(struct fxt_reader *r)
{
	fxt_rd_report(r, r->in.error_off, FXT_D_IO_ERROR, "%s", strerror(r->in.error));
	r->in.error = 0;
	fxt_rd_stop(r, -1);
}

static void truncated(struct fxt_reader *r, uint64_t offset, uint64_t need,
		      uint64_t have)
{
	fxt_rd_report(r, offset, FXT_D_TRUNCATED,
	       "0x%llx: the record is %llu bytes, the archive ends after %llu",
	       (unsigned long long)offset, (unsigned long long)need,
	       (unsigned long long)have);
	fxt_rd_stop(r, 0);
}

/* The first record (the buffer holds 8 bytes of it) must be the magic number. */
static int first_record(struct fxt_reader *r)
{
	uint64_t h;

	memcpy(&h, r->in.buf + r->in.pos, 8);
	r->started = true;
	if (h == __builtin_bswap64(FXT_MAGIC_RECORD)) {
		fxt_rd_report(r, r->in.buf_off + r->in.pos, FXT_D_BIG_ENDIAN, NULL);
		fxt_rd_stop(r, -1);
		return -1;
	}
	if (h != FXT_MAGIC_RECORD)
		fxt_rd_report(r, r->in.buf_off + r->in.pos, FXT_D_NO_MAGIC, NULL);
	return 0;
}

int fxt_reader_next(struct fxt_reader *r, struct fxt_record *rec)
{
	uint64_t h, words, bytes;
	size_t avail;

	if (r->stopped)
		return r->end_rc;
	avail = r->in.len - r->in.pos;
	if (avail < 8) {	/* also before the first record: no buffer yet */
		if (!r->in.buf && fxt_input_alloc(&r->in)) {
			fxt_rd_report(r, 0, FXT_D_IO_ERROR, "%s", strerror(ENOMEM));
			fxt_rd_stop(r, -1);
			return -1;
		}
		fxt_input_fill(&r->in, 8);
		if (unlikely(r->in.error))
			read_failed(r);
		avail = r->in.len - r->in.pos;
		if (r->stopped)
			return r->end_rc;
		if (avail == 0) {
			/* Every FXT archive starts with the magic number record. */
			if (!r->started) {
				r->started = true;
				fxt_rd_report(r, r->in.buf_off, FXT_D_NO_MAGIC, NULL);
			}
			if (r->check_sleeps)
				fxt_rd_check_sleeps_end(r);
			return 0;
		}
		if (avail < 8) {
			truncated(r, r->in.buf_off + r->in.pos, 8, avail);
			return 0;
		}
		if (!r->started && first_record(r))
			return -1;
	}
	memcpy(&h, r->in.buf + r->in.pos, 8);
	rec->offset = r->in.buf_off + r->in.pos;
	rec->type = (uint8_t)fxt_record_type(h);
	words = fxt_record_span(h);
	rec->nwords = words;
	rec->flags = 0;
	rec->nargs = 0;
	rec->subtype = 0;
	rec->ts = 0;
	rec->ts_ns = 0;

	if (!words) {
		fxt_rd_report(r, rec->offset, FXT_D_SIZE_ZERO, NULL);
		fxt_rd_stop(r, -1);
		return -1;
	}
	bytes = words * 8;
	if (bytes > avail) {
		if (bytes <= r->in.cap) {
			fxt_input_fill(&r->in, (size_t)bytes);
			if (unlikely(r->in.error))
				read_failed(r);
			avail = r->in.len - r->in.pos;
			if (r->stopped)
				return r->end_rc;
			if (bytes > avail) {
				truncated(r, rec->offset, bytes, avail);
				return 0;
			}
		} else {
			uint64_t got = avail + fxt_input_skip(&r->in, bytes - avail);

			if (r->in.error)
				read_failed(r);
			if (got < bytes) {
				truncated(r, rec->offset, bytes, got);
				return 0;
			}
			fxt_rd_report(r, rec->offset, FXT_D_TOO_LARGE, "%llu",
			       (unsigned long long)bytes);
			rec->words = NULL;
			rec->flags = FXT_RF_NO_PAYLOAD;
			rec->provider = r->cur->id;
			r->nrecords++;
			r->nbytes += bytes;
			return 1;
		}
	}
	rec->words = (const uint64_t *)(const void *)(r->in.buf + r->in.pos);
	rec->provider = r->cur->id;
	r->in.pos += (size_t)bytes;
	r->nrecords++;
	r->nbytes += bytes;
	decode(r, rec);
	rec->ts_ns = rec->ts ? ticks_to_ns(r, rec->ts) : 0;
	if (rec->type == FXT_REC_BLOB && !(rec->flags & FXT_RF_MALFORMED) &&
	    rec->u.blob.payload && rec->u.blob.blob_type == FXT_BLOB_TYPE_PERFETTO)
		(void)fxt_perfetto_blob_time(rec->u.blob.payload, rec->u.blob.size,
					     &rec->ts_ns);
	return 1;
}
