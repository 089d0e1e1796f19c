// SPDX-License-Identifier: MIT
/*
 * dump_text.c - one line of text per record (fxt-dump without options):
 * the record's offset, type and fields, string and thread references
 * resolved.
 */
#include <stdio.h>
#include <string.h>

#include <fxt/perfetto_blob.h>

#include "dump_text.h"

static void put_str(struct outbuf *o, struct fxt_str s)
{
	if (!s.data) {
		fxt_ob_printf(o, "<undefined #%u>", s.ref);
		return;
	}
	fxt_ob_quoted(o, s.data, s.len);
	if (s.ref && !(s.ref & FXT_STRING_REF_INLINE))
		fxt_ob_printf(o, "#%u", s.ref);
}

/*
 * A koid argument's name: for "process" the process's, else the thread's,
 * else the process's (a process and its main thread share a koid).
 */
static void put_koid_name(struct outbuf *o, struct fxt_reader *r, struct fxt_str arg,
			  uint64_t koid)
{
	bool process = arg.data && arg.len == sizeof(FXT_ARG_NAME_PROCESS) - 1 &&
		       !memcmp(arg.data, FXT_ARG_NAME_PROCESS, arg.len);
	unsigned int first = process ? FXT_OBJ_PROCESS : FXT_OBJ_THREAD;
	const struct fxt_kobj_info *k = fxt_reader_kobj(r, first, koid);

	if (!k)
		k = fxt_reader_kobj(r, process ? FXT_OBJ_THREAD : FXT_OBJ_PROCESS, koid);

	if (k && k->name_len) {
		fxt_ob_putc(o, ' ');
		fxt_ob_quoted(o, k->name, k->name_len);
	}
}

/* The name thread tid had at ns (a reused tid: the earlier thread's). */
static void put_thread_name(struct outbuf *o, struct fxt_reader *r, uint64_t tid,
			    uint64_t ns)
{
	const struct fxt_kobj_info *k = fxt_reader_thread_at(r, tid, ns);

	if (k && k->name_len) {
		fxt_ob_putc(o, ' ');
		fxt_ob_quoted(o, k->name, k->name_len);
	}
}

static void put_thread(struct outbuf *o, struct fxt_reader *r, struct fxt_thread t,
		       uint64_t ns)
{
	if (!t.defined) {
		fxt_ob_printf(o, "{ref=%u undefined}", t.ref);
		return;
	}
	OB_LIT(o, "{tid=");
	fxt_ob_u64(o, t.tid);
	OB_LIT(o, " pid=");
	fxt_ob_u64(o, t.pid);
	put_thread_name(o, r, t.tid, ns);
	if (t.ref) {
		OB_LIT(o, " ref=");
		fxt_ob_u64(o, t.ref);
	}
	fxt_ob_putc(o, '}');
}

/*
 * The power events of a Perfetto blob (records.rst "Power"): each as
 * cpu_idle or cpu_frequency, the CPU it is about, its time and state.
 */
static void put_power(struct outbuf *o, const struct fxt_record *rec)
{
	struct fxt_power_event ev[4];
	int n;

	if (rec->u.blob.blob_type != FXT_BLOB_TYPE_PERFETTO || !rec->u.blob.payload)
		return;
	n = fxt_perfetto_power_events(rec->u.blob.payload, rec->u.blob.size, ev, 4);
	if (n < 0) {
		OB_LIT(o, " <malformed packet>");
		return;
	}
	for (int i = 0; i < n && i < 4; i++) {
		const struct fxt_power_event *e = &ev[i];

		fxt_ob_printf(o, " %s cpu=%u ts=%llu pid=%u ",
			      e->event == FXT_PB_EVENT_CPU_IDLE ? "cpu_idle" : "cpu_frequency",
			      e->cpu_id, (unsigned long long)e->ts, e->pid);
		if (e->event == FXT_PB_EVENT_CPU_IDLE && e->state == FXT_PB_IDLE_EXIT)
			OB_LIT(o, "state=exit");
		else
			fxt_ob_printf(o, "state=%u", e->state);
	}
	if (n > 4)
		fxt_ob_printf(o, " (+%d more)", n - 4);
}

static void put_args(struct outbuf *o, struct fxt_reader *r, const struct fxt_record *rec)
{
	unsigned int i;

	if (!rec->nargs)
		return;
	OB_LIT(o, " args={");
	for (i = 0; i < rec->nargs; i++) {
		const struct fxt_arg *a = &rec->args[i];

		if (i)
			OB_LIT(o, ", ");
		put_str(o, a->name);
		fxt_ob_printf(o, ": %s", fxt_arg_type_name(a->type));
		switch (a->type) {
		case FXT_ARG_INT32:
			fxt_ob_printf(o, " %d", a->v.i32);
			break;
		case FXT_ARG_UINT32:
			fxt_ob_printf(o, " %u", a->v.u32);
			break;
		case FXT_ARG_INT64:
			fxt_ob_printf(o, " %lld", (long long)a->v.i64);
			break;
		case FXT_ARG_UINT64:
			fxt_ob_printf(o, " %llu", (unsigned long long)a->v.u64);
			break;
		case FXT_ARG_DOUBLE:
			fxt_ob_putc(o, ' ');
			fxt_ob_json_double(o, a->v.f64);
			break;
		case FXT_ARG_STRING:
			fxt_ob_putc(o, ' ');
			put_str(o, a->v.str);
			break;
		case FXT_ARG_POINTER:
			fxt_ob_putc(o, ' ');
			fxt_ob_hex(o, a->v.ptr);
			break;
		case FXT_ARG_KOID:
			fxt_ob_printf(o, " %llu", (unsigned long long)a->v.koid);
			put_koid_name(o, r, a->name, a->v.koid);
			break;
		case FXT_ARG_BOOL:
			fxt_ob_puts(o, a->v.b ? " true" : " false");
			break;
		default:
			break;
		}
	}
	fxt_ob_putc(o, '}');
}

void fxt_dump_record(struct outbuf *o, struct fxt_reader *r, const struct fxt_record *rec)
{
	fxt_ob_printf(o, "0x%08llx ", (unsigned long long)rec->offset);
	if (rec->flags & FXT_RF_NO_PAYLOAD) {
		fxt_ob_printf(o, "%s words=%llu (too large, skipped)\n",
			  fxt_record_type_name(rec->type), (unsigned long long)rec->nwords);
		return;
	}
	if (rec->flags & FXT_RF_MALFORMED) {
		fxt_ob_printf(o, "malformed %s words=%llu\n", fxt_record_type_name(rec->type),
			  (unsigned long long)rec->nwords);
		return;
	}
	if (rec->flags & FXT_RF_UNKNOWN) {
		fxt_ob_printf(o, "unknown %s subtype=%u words=%llu\n",
			  fxt_record_type_name(rec->type), rec->subtype,
			  (unsigned long long)rec->nwords);
		return;
	}
	switch (rec->type) {
	case FXT_REC_METADATA:
		switch (rec->subtype) {
		case FXT_META_PROVIDER_INFO:
			fxt_ob_printf(o, "provider_info id=%u name=", rec->u.meta.provider_id);
			put_str(o, rec->u.meta.name);
			break;
		case FXT_META_PROVIDER_SECTION:
			fxt_ob_printf(o, "provider_section id=%u", rec->u.meta.provider_id);
			break;
		case FXT_META_PROVIDER_EVENT:
			fxt_ob_printf(o, "provider_event id=%u event=%u%s", rec->u.meta.provider_id,
				  rec->u.meta.event,
				  rec->u.meta.event == FXT_PROVIDER_EVENT_BUFFER_FULL ?
				  " (buffer full)" : "");
			break;
		case FXT_META_TRACE_INFO:
			fxt_ob_printf(o, "magic 0x%x", rec->u.meta.magic);
			break;
		}
		break;
	case FXT_REC_INIT:
		fxt_ob_printf(o, "init ticks_per_second=%llu",
			  (unsigned long long)rec->u.init.ticks_per_second);
		break;
	case FXT_REC_STRING:
		fxt_ob_printf(o, "string index=%u ", rec->u.string.index);
		fxt_ob_quoted(o, rec->u.string.str.data, rec->u.string.str.len);
		break;
	case FXT_REC_THREAD:
		fxt_ob_printf(o, "thread index=%u pid=%llu tid=%llu", rec->u.thread.index,
			  (unsigned long long)rec->u.thread.pid,
			  (unsigned long long)rec->u.thread.tid);
		break;
	case FXT_REC_EVENT:
		fxt_ob_printf(o, "event %s ts=%llu thread=", fxt_event_type_name(rec->subtype),
			  (unsigned long long)rec->ts);
		put_thread(o, r, rec->u.event.thread, rec->ts_ns);
		OB_LIT(o, " category=");
		put_str(o, rec->u.event.category);
		OB_LIT(o, " name=");
		put_str(o, rec->u.event.name);
		switch (rec->subtype) {
		case FXT_EVENT_COUNTER:
			fxt_ob_printf(o, " counter_id=%llu", (unsigned long long)rec->u.event.data);
			break;
		case FXT_EVENT_DURATION_COMPLETE:
			fxt_ob_printf(o, " end_ts=%llu", (unsigned long long)rec->u.event.data);
			break;
		case FXT_EVENT_INSTANT:
		case FXT_EVENT_DURATION_BEGIN:
		case FXT_EVENT_DURATION_END:
			break;
		default:
			fxt_ob_printf(o, " id=%llu", (unsigned long long)rec->u.event.data);
			break;
		}
		put_args(o, r, rec);
		break;
	case FXT_REC_BLOB:
		OB_LIT(o, "blob name=");
		put_str(o, rec->u.blob.name);
		fxt_ob_printf(o, " type=%u size=%u", rec->u.blob.blob_type, rec->u.blob.size);
		put_power(o, rec);
		break;
	case FXT_REC_USERSPACE_OBJ:
		OB_LIT(o, "uobject pointer=");
		fxt_ob_hex(o, rec->u.uobj.pointer);
		if (rec->u.uobj.process.defined)
			fxt_ob_printf(o, " pid=%llu", (unsigned long long)rec->u.uobj.process.pid);
		else
			fxt_ob_printf(o, " pid=<undefined ref %u>", rec->u.uobj.process.ref);
		OB_LIT(o, " name=");
		put_str(o, rec->u.uobj.name);
		put_args(o, r, rec);
		break;
	case FXT_REC_KERNEL_OBJ:
		fxt_ob_printf(o, "kobject type=%s koid=%llu name=",
			  rec->u.kobj.obj_type == FXT_OBJ_PROCESS ? "process" :
			  rec->u.kobj.obj_type == FXT_OBJ_THREAD ? "thread" : "other",
			  (unsigned long long)rec->u.kobj.koid);
		put_str(o, rec->u.kobj.name);
		if (rec->u.kobj.obj_type != FXT_OBJ_PROCESS &&
		    rec->u.kobj.obj_type != FXT_OBJ_THREAD)
			fxt_ob_printf(o, " obj_type=%u", rec->u.kobj.obj_type);
		put_args(o, r, rec);
		break;
	case FXT_REC_SCHED:
		if (rec->subtype == FXT_SCHED_THREAD_WAKEUP) {
			fxt_ob_printf(o, "wakeup cpu=%u ts=%llu tid=%llu", rec->u.wakeup.cpu,
				  (unsigned long long)rec->ts,
				  (unsigned long long)rec->u.wakeup.tid);
			put_thread_name(o, r, rec->u.wakeup.tid, rec->ts_ns);
			put_args(o, r, rec);
			break;
		}
		fxt_ob_printf(o, "%s cpu=%u ts=%llu out=",
			  rec->subtype == FXT_SCHED_CONTEXT_SWITCH ? "switch" : "switch_v2",
			  rec->u.sw.cpu, (unsigned long long)rec->ts);
		put_thread(o, r, rec->u.sw.out, rec->ts_ns);
		fxt_ob_printf(o, " state=%s", fxt_thread_state_name(rec->u.sw.out_state));
		if (rec->subtype == FXT_SCHED_CONTEXT_SWITCH)
			fxt_ob_printf(o, " prio=%u", rec->u.sw.out_prio);
		OB_LIT(o, " in=");
		put_thread(o, r, rec->u.sw.in, rec->ts_ns);
		if (rec->subtype == FXT_SCHED_CONTEXT_SWITCH)
			fxt_ob_printf(o, " prio=%u", rec->u.sw.in_prio);
		put_args(o, r, rec);
		break;
	case FXT_REC_LOG:
		fxt_ob_printf(o, "log ts=%llu thread=", (unsigned long long)rec->ts);
		put_thread(o, r, rec->u.log.thread, rec->ts_ns);
		OB_LIT(o, " msg=");
		fxt_ob_quoted(o, rec->u.log.msg.data, rec->u.log.msg.len);
		break;
	case FXT_REC_LARGE:
		fxt_ob_printf(o, "large_blob format=%u category=", rec->u.lblob.format);
		put_str(o, rec->u.lblob.category);
		OB_LIT(o, " name=");
		put_str(o, rec->u.lblob.name);
		if (rec->u.lblob.format == FXT_LARGE_BLOB_WITH_METADATA) {
			fxt_ob_printf(o, " ts=%llu thread=", (unsigned long long)rec->ts);
			put_thread(o, r, rec->u.lblob.thread, rec->ts_ns);
			put_args(o, r, rec);
		}
		fxt_ob_printf(o, " size=%llu", (unsigned long long)rec->u.lblob.size);
		break;
	}
	fxt_ob_putc(o, '\n');
}
