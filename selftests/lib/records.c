// SPDX-License-Identifier: GPL-2.0
/*
 * records.c - an archive loaded record by record through libfxt, for the
 * record-content selftests (records.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fxtread.h"
#include "records.h"

static bool grow(void **p, size_t *cap, size_t n, size_t elem)
{
	void *q;
	size_t c;

	if (n < *cap)
		return true;
	c = *cap ? *cap * 2 : 1024;
	q = realloc(*p, c * elem);
	if (!q)
		return false;
	*p = q;
	*cap = c;
	return true;
}

static void load_kobj(struct records *a, const struct fxt_record *rec)
{
	struct records_kobj *k = &a->kobjs[a->nkobjs++];

	memset(k, 0, sizeof(*k));
	k->offset = rec->offset;
	k->provider = rec->provider;
	k->obj_type = rec->u.kobj.obj_type;
	k->koid = rec->u.kobj.koid;
	fxtread_str_copy(k->name, sizeof(k->name), &rec->u.kobj.name);
	for (unsigned int i = 0; i < rec->nargs; i++) {
		const struct fxt_arg *arg = &rec->args[i];
		char an[32];

		fxtread_str_copy(an, sizeof(an), &arg->name);
		if (!strcmp(an, "named_at")) {
			k->has_named_at = true;
			k->named_at_type = arg->type;
			if (arg->type == FXT_ARG_UINT64)
				k->named_at = arg->v.u64;
			continue;
		}
		if (!strcmp(an, "parent") && arg->type == FXT_ARG_KOID) {
			k->has_parent = true;
			k->parent = arg->v.koid;
			continue;
		}
		if (!strcmp(an, "cmdline") && arg->type == FXT_ARG_STRING) {
			k->has_cmdline = true;
			fxtread_str_copy(k->cmdline, sizeof(k->cmdline), &arg->v.str);
			continue;
		}
		if (strcmp(an, "process"))
			continue;
		k->has_process = true;
		k->process_arg_type = arg->type;
		if (arg->type == FXT_ARG_KOID)
			k->process = arg->v.koid;
	}
}

static void load_event(struct records *a, const struct fxt_record *rec)
{
	struct records_event *e = &a->ev[a->nev++];
	const struct fxt_arg *arg = &rec->args[0];

	memset(e, 0, sizeof(*e));
	e->offset = rec->offset;
	e->provider = rec->provider;
	e->event_type = rec->subtype;
	e->ts = rec->ts;
	e->thread_defined = rec->u.event.thread.defined;
	e->pid = rec->u.event.thread.pid;
	e->tid = rec->u.event.thread.tid;
	fxtread_str_copy(e->category, sizeof(e->category), &rec->u.event.category);
	fxtread_str_copy(e->name, sizeof(e->name), &rec->u.event.name);
	e->nargs = rec->nargs;
	if (!rec->nargs)
		return;
	e->arg_type = arg->type;
	fxtread_str_copy(e->arg_name, sizeof(e->arg_name), &arg->name);
	switch (arg->type) {
	case FXT_ARG_INT32:
		e->arg_value = arg->v.i32;
		break;
	case FXT_ARG_UINT32:
		e->arg_value = arg->v.u32;
		break;
	case FXT_ARG_INT64:
		e->arg_value = arg->v.i64;
		break;
	case FXT_ARG_UINT64:
		e->arg_value = (int64_t)arg->v.u64;
		break;
	case FXT_ARG_BOOL:
		e->arg_value = arg->v.b;
		break;
	case FXT_ARG_STRING:
		fxtread_str_copy(e->arg_str, sizeof(e->arg_str), &arg->v.str);
		break;
	default:
		break;
	}
}

static void load_wakeup(struct records *a, const struct fxt_record *rec)
{
	struct records_wakeup *w = &a->wk[a->nwk++];

	memset(w, 0, sizeof(*w));
	w->offset = rec->offset;
	w->provider = rec->provider;
	w->cpu = rec->u.wakeup.cpu;
	w->ts = rec->ts;
	w->tid = rec->u.wakeup.tid;
	w->nargs = rec->nargs;
	w->words = (uint16_t)rec->nwords;
	for (unsigned int i = 0; i < rec->nargs; i++) {
		const struct fxt_arg *arg = &rec->args[i];
		char an[32];

		fxtread_str_copy(an, sizeof(an), &arg->name);
		if (!strcmp(an, "waker") && arg->type == FXT_ARG_KOID) {
			w->has_waker = true;
			w->waker = arg->v.koid;
		}
		if (!strcmp(an, "weight") && arg->type == FXT_ARG_INT32) {
			w->has_weight = true;
			w->weight = arg->v.i32;
		}
		if (!strcmp(an, FXT_ARG_NAME_WAKING_CPU) && arg->type == FXT_ARG_UINT32) {
			w->has_waking_cpu = true;
			w->waking_cpu = arg->v.u32;
		}
	}
}

int records_load(const char *path, struct records *a)
{
	return records_load_each(path, a, NULL, NULL);
}

int records_load_each(const char *path, struct records *a,
		      void (*each)(const struct fxt_record *rec, void *ctx),
		      void *ctx)
{
	size_t kcap = 0, scap = 0, ecap = 0, wcap = 0, tcap = 0;
	struct fxt_reader *r;
	struct fxt_record *rec;
	unsigned int shown = 0;
	int ret;

	memset(a, 0, sizeof(*a));
	a->max_provider = -1;
	rec = malloc(sizeof(*rec));
	if (!rec)
		return -ENOMEM;
	r = fxt_reader_open(path);
	if (!r) {
		ret = -errno;
		free(rec);
		return ret;
	}
	fxt_reader_set_diag(r, fxtread_diag_first10, &shown);
	while ((ret = fxt_reader_next(r, rec)) == 1) {
		if (rec->flags & (FXT_RF_MALFORMED | FXT_RF_UNKNOWN |
				  FXT_RF_NO_PAYLOAD)) {
			a->malformed++;
			continue;
		}
		if (each)
			each(rec, ctx);
		if ((int)rec->provider > a->max_provider &&
		    rec->provider != FXT_NAMES_PROVIDER_ID &&
		    rec->type != FXT_REC_METADATA)
			a->max_provider = (int)rec->provider;
		switch (rec->type) {
		case FXT_REC_METADATA:
			if (rec->subtype == FXT_META_PROVIDER_EVENT &&
			    rec->u.meta.event == FXT_PROVIDER_EVENT_BUFFER_FULL)
				a->buffer_full++;
			break;
		case FXT_REC_STRING: {
			struct records_string *t;

			if (!grow((void **)&a->str, &tcap, a->nstr, sizeof(*a->str)))
				goto nomem;
			t = &a->str[a->nstr++];
			t->offset = rec->offset;
			t->provider = rec->provider;
			t->index = rec->u.string.index;
			fxtread_str_copy(t->text, sizeof(t->text), &rec->u.string.str);
			break;
		}
		case FXT_REC_KERNEL_OBJ:
			if (!grow((void **)&a->kobjs, &kcap, a->nkobjs,
				  sizeof(*a->kobjs)))
				goto nomem;
			load_kobj(a, rec);
			break;
		case FXT_REC_SCHED:
			if (rec->subtype == FXT_SCHED_THREAD_WAKEUP) {
				if (!grow((void **)&a->wk, &wcap, a->nwk,
					  sizeof(*a->wk)))
					goto nomem;
				load_wakeup(a, rec);
				break;
			}
			if (rec->subtype != FXT_SCHED_CONTEXT_SWITCH)
				break;
			if (!grow((void **)&a->sw, &scap, a->nsw, sizeof(*a->sw)))
				goto nomem;
			a->sw[a->nsw++] = (struct records_switch){
				.offset = rec->offset,
				.provider = rec->provider,
				.cpu = rec->u.sw.cpu,
				.out_state = rec->u.sw.out_state,
				.out_prio = rec->u.sw.out_prio,
				.in_prio = rec->u.sw.in_prio,
				.out_defined = rec->u.sw.out.defined,
				.in_defined = rec->u.sw.in.defined,
				.out_pid = rec->u.sw.out.pid,
				.out_tid = rec->u.sw.out.tid,
				.in_pid = rec->u.sw.in.pid,
				.in_tid = rec->u.sw.in.tid,
				.ts = rec->ts,
			};
			break;
		case FXT_REC_EVENT:
			if (!grow((void **)&a->ev, &ecap, a->nev, sizeof(*a->ev)))
				goto nomem;
			load_event(a, rec);
			break;
		default:
			break;
		}
	}
	if (ret < 0)
		snprintf(a->error, sizeof(a->error), "libfxt stopped at offset %llu",
			 (unsigned long long)fxt_reader_offset(r));
	a->records = fxt_reader_records(r);
	a->diags = fxt_reader_diag_count(r);
	fxt_reader_close(r);
	free(rec);
	return 0;
nomem:
	snprintf(a->error, sizeof(a->error), "out of memory");
	fxt_reader_close(r);
	free(rec);
	return 0;
}

int records_read(const char *path, struct records *a, char *why,
		 size_t why_size)
{
	int ret = records_load(path, a);

	if (ret)
		snprintf(why, why_size, "%.300s: %s", path, strerror(-ret));
	return ret;
}

void records_free(struct records *a)
{
	free(a->kobjs);
	free(a->sw);
	free(a->ev);
	free(a->wk);
	free(a->str);
	memset(a, 0, sizeof(*a));
}

size_t records_kobjs_of(const struct records *a, uint8_t obj_type, uint64_t koid,
		   const struct records_kobj **out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < a->nkobjs; i++) {
		if (a->kobjs[i].obj_type != obj_type || a->kobjs[i].koid != koid)
			continue;
		if (n < max)
			out[n] = &a->kobjs[i];
		n++;
	}
	return n;
}

const struct records_kobj *records_cmdline_of(const struct records *a,
					      uint64_t pid, bool from_trailer)
{
	const struct records_kobj *last = NULL;

	for (size_t i = 0; i < a->nkobjs; i++) {
		const struct records_kobj *k = &a->kobjs[i];

		if (k->obj_type == FXT_OBJ_PROCESS && k->koid == pid &&
		    k->has_cmdline &&
		    (k->provider == FXT_NAMES_PROVIDER_ID) == from_trailer)
			last = k;
	}
	return last;
}

bool records_has_kobj_named(const struct records *a, uint8_t obj_type,
		       uint64_t koid, const char *name)
{
	for (size_t i = 0; i < a->nkobjs; i++)
		if (a->kobjs[i].obj_type == obj_type && a->kobjs[i].koid == koid &&
		    !strcmp(a->kobjs[i].name, name))
			return true;
	return false;
}
