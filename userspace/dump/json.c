// SPDX-License-Identifier: MIT
/*
 * json.c - FXT to the JSON Trace Event Format, streaming.
 *
 * Output: {"traceEvents":[ ... ],"displayTimeUnit":"ns"}, ts and dur in
 * microseconds with three decimals (nanosecond precision). Tracks:
 *
 *  - process "CPUs" (pid JSON_CPUS_PID), one thread "CPU c" per CPU: the
 *    thread running on the CPU as complete events (X) named after it, with
 *    args tid, pid, prio and end_state; idle (koid 0) leaves a gap;
 *  - every thread's own track: its state as complete events, cat
 *    "thread_state": Running, Runnable, Sleeping, Stopped, Dying, or the
 *    letter of a sleep event before the switch (D, I, P, t; D with its
 *    blocked_in);
 *  - wakeups: an instant event (i) "wakeup" on the woken thread and a flow
 *    (s on the waker, f on the woken thread) when the waker is known;
 *  - FXT events on their thread: duration begin/end paired per thread into
 *    complete events (an end without a begin is dropped, as
 *    Documentation/records.rst says), complete events, instants, counters
 *    (C, the drop counter among them), async (b/n/e) and flow (s/t/f);
 *  - names: process_name / thread_name metadata events (M) for every kernel
 *    object record, and for the CPU tracks;
 *  - provider "buffer full" events as global instants.
 *
 * Memory: per-thread state (a hash by koid), per-CPU state and the
 * begin/end stacks of threads with duration events; nothing per record.
 */
#include <stdlib.h>
#include <string.h>

#include "json_internal.h"

/* ------------------------------------------------------------------ */
/* FXT events.                                                          */

static void copy_str(char *dst, uint8_t *len, size_t cap, struct fxt_str s)
{
	size_t n = s.data ? s.len : 0;

	if (n > cap)
		n = cap;
	if (n)
		memcpy(dst, s.data, n);
	*len = (uint8_t)n;
}

static void frame_close(struct json *j, struct jthread *t, const struct dframe *f,
			uint64_t ts, const struct fxt_record *end)
{
	struct outbuf *o = j->o;

	json_ev_open(j);
	OB_LIT(o, "\"name\":");
	fxt_ob_json_str(o, f->name, f->name_len);
	OB_LIT(o, ",\"cat\":");
	fxt_ob_json_str(o, f->cat, f->cat_len);
	json_put_where(j, 'X', f->start, t->pid, t->tid);
	json_put_dur(j, f->start, ts);
	if (f->args_len || (end && end->nargs)) {
		OB_LIT(o, ",\"args\":{");
		fxt_ob_write(o, f->args, f->args_len);
		if (end && end->nargs) {
			if (f->args_len)
				fxt_ob_putc(o, ',');
			json_put_arg_members(o, end, false);
		}
		fxt_ob_putc(o, '}');
	}
	fxt_ob_putc(o, '}');
}

static void on_begin(struct json *j, struct jthread *t, const struct fxt_record *rec, uint64_t ts)
{
	struct dframe *f;

	if (!t->stack) {
		t->stack = calloc(1, sizeof(*t->stack));
		if (!t->stack)
			return;
	}
	if (t->stack->depth++ >= DSTACK_MAX)
		return;
	f = &t->stack->f[t->stack->depth - 1];
	f->start = ts;
	copy_str(f->name, &f->name_len, FRAME_NAME, rec->u.event.name);
	copy_str(f->cat, &f->cat_len, FRAME_CAT, rec->u.event.category);
	f->args_len = 0;
	if (rec->nargs) {
		j->scratch.len = 0;
		j->scratch.error = 0;
		json_put_arg_members(&j->scratch, rec, false);
		if (!j->scratch.error && j->scratch.len <= FRAME_ARGS) {
			memcpy(f->args, j->scratch.buf, j->scratch.len);
			f->args_len = (uint16_t)j->scratch.len;
		}
		j->scratch.len = 0;
	}
}

static void on_end(struct json *j, struct jthread *t, const struct fxt_record *rec, uint64_t ts)
{
	if (!t->stack || !t->stack->depth)
		return;		/* an end without a begin: dropped */
	t->stack->depth--;
	if (t->stack->depth < DSTACK_MAX)
		frame_close(j, t, &t->stack->f[t->stack->depth], ts, rec);
}

static void on_event(struct json *j, const struct fxt_record *rec, uint64_t ts)
{
	static const char phase[] = "iCBEXbnestf";
	const struct fxt_thread *th = &rec->u.event.thread;
	struct outbuf *o = j->o;
	uint64_t pid = th->pid, tid = th->tid;
	struct jthread *t;

	if (!th->defined)
		return;
	if (rec->subtype == FXT_EVENT_DURATION_COMPLETE) {
		uint64_t to;
		uint32_t cpu;

		if (fxt_lost_event(rec, &cpu, &to, NULL))
			json_on_gap(j, cpu, ts, fxt_reader_ticks_to_ns(j->from, to));
	}
	if (rec->subtype == FXT_EVENT_DURATION_BEGIN ||
	    rec->subtype == FXT_EVENT_DURATION_END) {
		t = json_thread_ref(j, tid, pid, true);
		if (!t)
			return;
		if (rec->subtype == FXT_EVENT_DURATION_BEGIN)
			on_begin(j, t, rec, ts);
		else
			on_end(j, t, rec, ts);
		return;
	}
	if (rec->subtype == FXT_EVENT_INSTANT) {
		struct fxt_str blocked_in;
		char letter = fxt_sleep_event(rec, &blocked_in);

		if (letter)	/* shown as an instant too, as Perfetto does */
			sleep_pairs_event(&j->sleeps, rec, letter, blocked_in);
	}
	json_ev_open(j);
	OB_LIT(o, "\"name\":");
	json_put_name(o, rec->u.event.name);
	OB_LIT(o, ",\"cat\":");
	json_put_name(o, rec->u.event.category);
	json_put_where(j, phase[rec->subtype], ts, pid, tid);
	switch (rec->subtype) {
	case FXT_EVENT_INSTANT:
		OB_LIT(o, ",\"s\":\"t\"");
		break;
	case FXT_EVENT_COUNTER:
		OB_LIT(o, ",\"id\":\"");
		fxt_ob_u64(o, rec->u.event.data);
		OB_LIT(o, "\",\"args\":{");
		json_put_arg_members(o, rec, true);
		OB_LIT(o, "}}");
		return;
	case FXT_EVENT_DURATION_COMPLETE:
		json_put_dur(j, ts, fxt_reader_ticks_to_ns(j->from, rec->u.event.data));
		if (fxt_reader_ticks_to_ns(j->from, rec->u.event.data) > j->last_ns)
			j->last_ns = fxt_reader_ticks_to_ns(j->from, rec->u.event.data);
		break;
	case FXT_EVENT_FLOW_END:
		OB_LIT(o, ",\"bp\":\"e\"");
		/* fall through */
	default:
		OB_LIT(o, ",\"id\":\"");
		fxt_ob_hex(o, rec->u.event.data);
		fxt_ob_putc(o, '"');
		break;
	}
	json_put_args(j, rec);
	fxt_ob_putc(o, '}');
}

static void on_kobj(struct json *j, const struct fxt_record *rec)
{
	const struct fxt_kobj_info *k = fxt_merge_kobj(j->m, rec->u.kobj.obj_type,
						       rec->u.kobj.koid);
	struct fxt_str name = fxt_merge_kobj_name(j->m, rec);
	uint64_t koid = rec->u.kobj.koid;
	struct jthread *t;

	if (!name.data || !name.len)
		return;
	if (rec->u.kobj.obj_type == FXT_OBJ_PROCESS) {
		json_meta(j, "process_name", koid, koid, name.data, name.len);
	} else if (rec->u.kobj.obj_type == FXT_OBJ_THREAD) {
		bool known = k && k->process;

		t = json_thread_ref(j, koid, known ? k->process : koid, known);
		json_meta(j, "thread_name", t ? t->pid : koid, koid, name.data, name.len);
	}
}

/* ------------------------------------------------------------------ */

static void finish(struct json *j)
{
	uint64_t end = j->last_ns;
	size_t i;

	for (i = 0; i < j->ncpus; i++)
		if (j->cpus[i].seen)
			json_cpu_close(j, (unsigned int)i, &j->cpus[i], end, NULL);
	for (i = 0; i < j->nthreads; i++) {
		struct jthread *t = &j->threads[i];

		json_thread_set(j, t, JS_UNKNOWN, end);
		if (t->stack) {
			while (t->stack->depth) {
				t->stack->depth--;
				if (t->stack->depth < DSTACK_MAX)
					frame_close(j, t, &t->stack->f[t->stack->depth], end, NULL);
			}
			free(t->stack);
		}
	}
}

int fxt_json_convert(struct fxt_merge *m, struct outbuf *o, struct progress *pg)
{
	const struct fxt_record *rec;
	struct fxt_reader *r;
	unsigned int n = 0;
	struct json j;

	memset(&j, 0, sizeof(j));
	j.m = m;
	j.o = o;
	j.first = true;
	fxt_ob_init(&j.scratch, -1, j.scratch_mem, 1024);
	OB_LIT(o, "{\"traceEvents\":[\n");
	while ((rec = fxt_merge_next(m, &r))) {
		uint64_t ts;

		j.from = r;
		if (pg && !(++n & 4095))
			fxt_progress_update(pg, fxt_merge_bytes(m));
		if (rec->flags & (FXT_RF_MALFORMED | FXT_RF_UNKNOWN | FXT_RF_NO_PAYLOAD))
			continue;
		if (j.ngap_ends && rec->ts_ns)
			json_gap_ends(&j, rec->ts_ns);
		switch (rec->type) {
		case FXT_REC_EVENT:
			ts = rec->ts_ns;
			if (ts > j.last_ns)
				j.last_ns = ts;
			on_event(&j, rec, ts);
			break;
		case FXT_REC_SCHED:
			ts = rec->ts_ns;
			if (ts > j.last_ns)
				j.last_ns = ts;
			if (rec->subtype == FXT_SCHED_THREAD_WAKEUP)
				json_on_wakeup(&j, rec, ts);
			else
				json_on_switch(&j, rec, ts);
			break;
		case FXT_REC_KERNEL_OBJ:
			on_kobj(&j, rec);
			break;
		case FXT_REC_BLOB:
			/* a power event (records.rst "Power"): not drawn, but
			 * in the span, as fxt-report and Perfetto count it */
			if (rec->ts_ns > j.last_ns)
				j.last_ns = rec->ts_ns;
			break;
		case FXT_REC_METADATA:
			if (rec->subtype == FXT_META_PROVIDER_EVENT &&
			    rec->u.meta.event == FXT_PROVIDER_EVENT_BUFFER_FULL) {
				json_ev_open(&j);
				fxt_ob_printf(o, "\"name\":\"buffer full\",\"cat\":\"fxt\"");
				json_put_where(&j, 'i', j.last_ns, 0, 0);
				fxt_ob_printf(o, ",\"s\":\"g\",\"args\":{\"provider\":%u}}",
					  rec->u.meta.provider_id);
			}
			break;
		default:
			break;
		}
	}
	finish(&j);
	OB_LIT(o, "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"converter\":\"fxt-dump --json\"}}\n");
	free(j.threads);
	free(j.gap_ends);
	free(j.cpus);
	sleep_pairs_free(&j.sleeps);
	fxt_u64map_free(&j.map);
	return fxt_merge_status(m);
}
