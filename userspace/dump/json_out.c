// SPDX-License-Identifier: MIT
/*
 * json_out.c - the JSON conversion's thread table and output pieces:
 * event openings, names, places, durations, metadata events, arguments.
 */
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "json_internal.h"

/* ------------------------------------------------------------------ */
/* State.                                                               */

static struct jthread *thread_get(struct json *j, uint64_t tid)
{
	int64_t i = fxt_u64map_get(&j->map, tid);
	struct jthread *t;

	if (i >= 0)
		return &j->threads[i];
	if (j->nthreads == j->cap) {
		size_t ncap = j->cap ? j->cap * 2 : 64;
		struct jthread *n = realloc(j->threads, ncap * sizeof(*n));

		if (!n)
			return NULL;
		j->threads = n;
		j->cap = ncap;
	}
	if (fxt_u64map_put(&j->map, tid, (uint32_t)j->nthreads))
		return NULL;
	t = &j->threads[j->nthreads++];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->pid = tid;
	return t;
}

/* Learn pid from a thread ref (or the koid table) when not known yet. */
struct jthread *json_thread_ref(struct json *j, uint64_t tid, uint64_t pid, bool have_pid)
{
	struct jthread *t = thread_get(j, tid);

	if (!t)
		return NULL;
	if (have_pid) {
		t->pid = pid;
		t->pid_known = true;
	} else if (!t->pid_known) {
		const struct fxt_kobj_info *k = fxt_merge_kobj(j->m, FXT_OBJ_THREAD, tid);

		if (k && k->process) {
			t->pid = k->process;
			t->pid_known = true;
		}
	}
	return t;
}

/* ------------------------------------------------------------------ */
/* Output.                                                              */

void json_ev_open(struct json *j)
{
	struct outbuf *o = j->o;

	if (j->first) {
		j->first = false;
		OB_LIT(o, "{");
	} else {
		OB_LIT(o, ",\n{");
	}
}

void json_put_name(struct outbuf *o, struct fxt_str s)
{
	if (s.data) {
		fxt_ob_json_str(o, s.data, s.len);
	} else {
		OB_LIT(o, "\"<undefined #");
		fxt_ob_u64(o, s.ref);
		OB_LIT(o, ">\"");
	}
}

/* A thread's name from the koid table, else "tid N". */
void json_put_thread_name(struct json *j, uint64_t tid)
{
	const struct fxt_kobj_info *k = fxt_merge_kobj(j->m, FXT_OBJ_THREAD, tid);

	if (k && k->name_len) {
		fxt_ob_json_str(j->o, k->name, k->name_len);
	} else {
		OB_LIT(j->o, "\"tid ");
		fxt_ob_u64(j->o, tid);
		fxt_ob_putc(j->o, '"');
	}
}

/* ,"ph":"X","ts":..,"pid":..,"tid":.. */
void json_put_where(struct json *j, char ph, uint64_t ts, uint64_t pid, uint64_t tid)
{
	struct outbuf *o = j->o;

	OB_LIT(o, ",\"ph\":\"");
	fxt_ob_putc(o, ph);
	OB_LIT(o, "\",\"ts\":");
	fxt_ob_us(o, ts);
	OB_LIT(o, ",\"pid\":");
	fxt_ob_u64(o, pid);
	OB_LIT(o, ",\"tid\":");
	fxt_ob_u64(o, tid);
}

void json_put_dur(struct json *j, uint64_t start, uint64_t end)
{
	OB_LIT(j->o, ",\"dur\":");
	fxt_ob_us(j->o, end > start ? end - start : 0);
}

void json_meta(struct json *j, const char *what, uint64_t pid, uint64_t tid,
	       const char *name, size_t len)
{
	struct outbuf *o = j->o;

	json_ev_open(j);
	OB_LIT(o, "\"name\":\"");
	fxt_ob_puts(o, what);
	OB_LIT(o, "\",\"ph\":\"M\",\"pid\":");
	fxt_ob_u64(o, pid);
	OB_LIT(o, ",\"tid\":");
	fxt_ob_u64(o, tid);
	OB_LIT(o, ",\"args\":{\"name\":");
	fxt_ob_json_str(o, name, len);
	OB_LIT(o, "}}");
}

void json_meta_sort(struct json *j, const char *what, uint64_t pid, uint64_t tid,
		    uint64_t index)
{
	struct outbuf *o = j->o;

	json_ev_open(j);
	OB_LIT(o, "\"name\":\"");
	fxt_ob_puts(o, what);
	OB_LIT(o, "\",\"ph\":\"M\",\"pid\":");
	fxt_ob_u64(o, pid);
	OB_LIT(o, ",\"tid\":");
	fxt_ob_u64(o, tid);
	OB_LIT(o, ",\"args\":{\"sort_index\":");
	fxt_ob_u64(o, index);
	OB_LIT(o, "}}");
}

/* Argument members "name":value,... (no braces). */
void json_put_arg_members(struct outbuf *o, const struct fxt_record *rec, bool numeric_only)
{
	bool first = true;
	unsigned int i;

	for (i = 0; i < rec->nargs; i++) {
		const struct fxt_arg *a = &rec->args[i];

		if (numeric_only && (a->type == FXT_ARG_NULL || a->type == FXT_ARG_STRING ||
				     a->type == FXT_ARG_BOOL || a->type == FXT_ARG_POINTER ||
				     a->type > FXT_ARG_BOOL))
			continue;
		if (a->type > FXT_ARG_BOOL)
			continue;
		if (!first)
			fxt_ob_putc(o, ',');
		first = false;
		json_put_name(o, a->name);
		fxt_ob_putc(o, ':');
		switch (a->type) {
		case FXT_ARG_NULL:
			OB_LIT(o, "null");
			break;
		case FXT_ARG_INT32:
			fxt_ob_i64(o, a->v.i32);
			break;
		case FXT_ARG_UINT32:
			fxt_ob_u64(o, a->v.u32);
			break;
		case FXT_ARG_INT64:
			fxt_ob_i64(o, a->v.i64);
			break;
		case FXT_ARG_UINT64:
			fxt_ob_u64(o, a->v.u64);
			break;
		case FXT_ARG_DOUBLE:
			fxt_ob_json_double(o, a->v.f64);
			break;
		case FXT_ARG_STRING:
			json_put_name(o, a->v.str);
			break;
		case FXT_ARG_POINTER:
			fxt_ob_putc(o, '"');
			fxt_ob_hex(o, a->v.ptr);
			fxt_ob_putc(o, '"');
			break;
		case FXT_ARG_KOID:
			fxt_ob_u64(o, a->v.koid);
			break;
		case FXT_ARG_BOOL:
			fxt_ob_puts(o, a->v.b ? "true" : "false");
			break;
		}
	}
}

void json_put_args(struct json *j, const struct fxt_record *rec)
{
	if (!rec->nargs)
		return;
	OB_LIT(j->o, ",\"args\":{");
	json_put_arg_members(j->o, rec, false);
	fxt_ob_putc(j->o, '}');
}
