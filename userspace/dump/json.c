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
 *    "thread_state": Running, Runnable, Sleeping, Stopped, Dying;
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

#include "grow.h"
#include "json.h"
#include "u64map.h"

#define DSTACK_MAX	16	/* nesting kept per thread */
#define FRAME_NAME	64
#define FRAME_CAT	32
#define FRAME_ARGS	200
/* Is the string s (a struct fxt_str) the literal lit? */
#define NAME_IS(s, lit)	((s).len == sizeof(lit) - 1 && (s).data && \
			 !memcmp((s).data, (lit), sizeof(lit) - 1))

enum jstate_kind {
	JS_UNKNOWN,
	JS_RUNNING,
	JS_RUNNABLE,
	JS_SLEEPING,
	JS_STOPPED,
	JS_DYING,
	JS_DEAD,
};

static const char *const state_names[] = {
	"Unknown", "Running", "Runnable", "Sleeping", "Stopped", "Dying", "Dead",
};

struct dframe {
	uint64_t start;
	uint8_t name_len, cat_len;
	uint16_t args_len;	/* JSON members without braces, or 0 */
	char name[FRAME_NAME];
	char cat[FRAME_CAT];
	char args[FRAME_ARGS];
};

struct dstack {
	unsigned int depth;	/* may exceed DSTACK_MAX: deeper frames are not kept */
	struct dframe f[DSTACK_MAX];
};

struct jthread {
	uint64_t tid, pid;
	uint64_t since;		/* ns: start of the current state */
	uint8_t state;		/* enum jstate_kind */
	uint8_t prio;
	uint16_t cpu;
	bool pid_known;		/* from a thread ref or a kernel object record */
	bool woken;		/* Runnable because of a wakeup (else preempted) */
	struct dstack *stack;
};

struct jcpu {
	bool seen;		/* metadata written */
	bool valid;		/* tid/since describe the running thread */
	uint8_t prio;
	uint64_t tid, pid;
	uint64_t since;
};

struct json {
	struct fxt_merge *m;
	struct fxt_reader *from;	/* reader of the current record */
	struct outbuf *o;
	struct outbuf scratch;	/* rendering begin args for later */
	char scratch_mem[1024 + OUTBUF_SLACK];
	struct jthread *threads;
	size_t nthreads, cap;
	struct u64map map;
	struct jcpu *cpus;
	size_t ncpus;
	bool cpus_named;
	bool first;
	uint64_t last_ns;
	uint64_t flow_id;
};

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
static struct jthread *thread_ref(struct json *j, uint64_t tid, uint64_t pid, bool have_pid)
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

static void ev_open(struct json *j)
{
	struct outbuf *o = j->o;

	if (j->first) {
		j->first = false;
		OB_LIT(o, "{");
	} else {
		OB_LIT(o, ",\n{");
	}
}

static void put_name(struct outbuf *o, struct fxt_str s)
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
static void put_thread_name(struct json *j, uint64_t tid)
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
static void put_where(struct json *j, char ph, uint64_t ts, uint64_t pid, uint64_t tid)
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

static void put_dur(struct json *j, uint64_t start, uint64_t end)
{
	OB_LIT(j->o, ",\"dur\":");
	fxt_ob_us(j->o, end > start ? end - start : 0);
}

static void meta(struct json *j, const char *what, uint64_t pid, uint64_t tid,
		 const char *name, size_t len)
{
	struct outbuf *o = j->o;

	ev_open(j);
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

static void meta_sort(struct json *j, const char *what, uint64_t pid, uint64_t tid,
		      uint64_t index)
{
	struct outbuf *o = j->o;

	ev_open(j);
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
static void put_arg_members(struct outbuf *o, const struct fxt_record *rec, bool numeric_only)
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
		put_name(o, a->name);
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
			put_name(o, a->v.str);
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

static void put_args(struct json *j, const struct fxt_record *rec)
{
	if (!rec->nargs)
		return;
	OB_LIT(j->o, ",\"args\":{");
	put_arg_members(j->o, rec, false);
	fxt_ob_putc(j->o, '}');
}

/* ------------------------------------------------------------------ */
/* CPUs and thread states.                                              */

static const char end_state_letter[] = "RRTSZX";	/* by FXT thread state */

static struct jcpu *cpu_get(struct json *j, unsigned int cpu)
{
	struct jcpu *c;
	char name[32];

	if (cpu >= j->ncpus) {
		struct jcpu *nc = grow_zeroed(j->cpus, &j->ncpus, cpu, 8, sizeof(*nc));

		if (!nc)
			return NULL;
		j->cpus = nc;
	}
	c = &j->cpus[cpu];
	if (!c->seen) {
		c->seen = true;
		if (!j->cpus_named) {
			j->cpus_named = true;
			meta(j, "process_name", JSON_CPUS_PID, JSON_CPUS_PID, "CPUs", 4);
			meta_sort(j, "process_sort_index", JSON_CPUS_PID, JSON_CPUS_PID, 0);
		}
		snprintf(name, sizeof(name), "CPU %u", cpu);
		meta(j, "thread_name", JSON_CPUS_PID, JSON_CPUS_PID + 1 + cpu, name, strlen(name));
		meta_sort(j, "thread_sort_index", JSON_CPUS_PID, JSON_CPUS_PID + 1 + cpu, cpu);
	}
	return c;
}

/* Close the slice of the thread running on c at ts. */
static void cpu_close(struct json *j, unsigned int cpu, struct jcpu *c, uint64_t ts,
		      const char *end_state)
{
	struct outbuf *o = j->o;

	if (!c->valid || c->tid == 0)
		return;
	ev_open(j);
	OB_LIT(o, "\"name\":");
	put_thread_name(j, c->tid);
	OB_LIT(o, ",\"cat\":\"sched\"");
	put_where(j, 'X', c->since, JSON_CPUS_PID, JSON_CPUS_PID + 1 + cpu);
	put_dur(j, c->since, ts);
	OB_LIT(o, ",\"args\":{\"tid\":");
	fxt_ob_u64(o, c->tid);
	OB_LIT(o, ",\"pid\":");
	fxt_ob_u64(o, c->pid);
	OB_LIT(o, ",\"prio\":");
	fxt_ob_u64(o, c->prio);
	if (end_state) {
		OB_LIT(o, ",\"end_state\":\"");
		fxt_ob_puts(o, end_state);
		fxt_ob_putc(o, '"');
	}
	OB_LIT(o, "}}");
}

/* Move t to state at ts, writing the slice of the state it leaves. */
static void thread_set(struct json *j, struct jthread *t, enum jstate_kind state, uint64_t ts)
{
	struct outbuf *o = j->o;

	if (t->tid && t->state != JS_UNKNOWN && t->state != JS_DEAD && ts >= t->since) {
		ev_open(j);
		OB_LIT(o, "\"name\":\"");
		fxt_ob_puts(o, state_names[t->state]);
		OB_LIT(o, "\",\"cat\":\"thread_state\"");
		put_where(j, 'X', t->since, t->pid, t->tid);
		put_dur(j, t->since, ts);
		if (t->state == JS_RUNNING) {
			OB_LIT(o, ",\"args\":{\"cpu\":");
			fxt_ob_u64(o, t->cpu);
			OB_LIT(o, ",\"prio\":");
			fxt_ob_u64(o, t->prio);
			OB_LIT(o, "}}");
		} else if (t->state == JS_RUNNABLE) {
			OB_LIT(o, ",\"args\":{\"reason\":\"");
			fxt_ob_puts(o, t->woken ? "woken" : "preempted");
			OB_LIT(o, "\"}}");
		} else {
			fxt_ob_putc(o, '}');
		}
	}
	t->state = (uint8_t)state;
	t->since = ts;
}

static enum jstate_kind state_of(unsigned int fxt_state)
{
	switch (fxt_state) {
	case FXT_THREAD_NEW:
	case FXT_THREAD_RUNNING:
		return JS_RUNNABLE;
	case FXT_THREAD_SUSPENDED:
		return JS_STOPPED;
	case FXT_THREAD_BLOCKED:
		return JS_SLEEPING;
	case FXT_THREAD_DYING:
		return JS_DYING;
	default:
		return JS_DEAD;
	}
}

static void on_switch(struct json *j, const struct fxt_record *rec, uint64_t ts)
{
	const struct fxt_thread *out = &rec->u.sw.out, *in = &rec->u.sw.in;
	bool v1 = rec->subtype == FXT_SCHED_CONTEXT_SWITCH;
	unsigned int st = rec->u.sw.out_state;
	struct jthread *to, *ti;
	struct jcpu *c;
	char es[2] = { st < 6 ? end_state_letter[st] : '?', 0 };
	uint8_t in_prio = rec->u.sw.in_prio, out_prio = rec->u.sw.out_prio;
	unsigned int i;

	if (!v1) {
		for (i = 0; i < rec->nargs; i++) {
			const struct fxt_arg *a = &rec->args[i];

			if (a->type != FXT_ARG_INT32 || !a->name.data)
				continue;
			if (NAME_IS(a->name, FXT_ARG_NAME_INCOMING_WEIGHT))
				in_prio = (uint8_t)a->v.i32;
			else if (NAME_IS(a->name, FXT_ARG_NAME_OUTGOING_WEIGHT))
				out_prio = (uint8_t)a->v.i32;
		}
	}
	c = cpu_get(j, rec->cpu);
	if (!c)
		return;
	cpu_close(j, rec->cpu, c, ts, es);

	to = out->defined ? thread_ref(j, out->tid, out->pid, v1) : NULL;
	if (to && to->tid) {
		to->prio = out_prio;
		thread_set(j, to, state_of(st), ts);
		to->woken = false;
	}
	ti = in->defined ? thread_ref(j, in->tid, in->pid, v1) : NULL;
	if (ti) {
		ti->prio = in_prio;
		ti->cpu = rec->cpu;
		/*
		 * Switched in while running: its switch out was dropped, so
		 * how long it ran is not known. Show nothing for that time,
		 * as fxt-report counts none of it.
		 */
		if (ti->state == JS_RUNNING)
			ti->state = JS_UNKNOWN;
		if (ti->tid)
			thread_set(j, ti, JS_RUNNING, ts);
		c->valid = true;
		c->tid = ti->tid;
		c->pid = ti->pid;
		c->prio = in_prio;
		c->since = ts;
	} else {
		c->valid = false;
	}
}

static void on_wakeup(struct json *j, const struct fxt_record *rec, uint64_t ts)
{
	struct outbuf *o = j->o;
	struct jthread *t, *w = NULL;
	uint64_t waker = 0;
	bool have_waker = false, have_weight = false;
	unsigned int i;

	for (i = 0; i < rec->nargs; i++) {
		const struct fxt_arg *a = &rec->args[i];

		if (a->type == FXT_ARG_KOID && NAME_IS(a->name, FXT_ARG_NAME_WAKER)) {
			waker = a->v.koid;
			have_waker = true;
		}
		if (NAME_IS(a->name, FXT_ARG_NAME_WEIGHT))
			have_weight = true;
	}
	/* Create the waker first: looking it up again then cannot move t. */
	if (have_waker && !thread_ref(j, waker, 0, false))
		have_waker = false;
	t = thread_ref(j, rec->u.wakeup.tid, 0, false);
	if (!t)
		return;
	if (have_waker)
		w = thread_ref(j, waker, 0, false);
	if (t->tid && t->state != JS_RUNNING && t->state != JS_RUNNABLE) {
		thread_set(j, t, JS_RUNNABLE, ts);
		t->woken = true;
	}
	ev_open(j);
	OB_LIT(o, "\"name\":\"wakeup\",\"cat\":\"wakeup\"");
	put_where(j, 'i', ts, t->pid, t->tid);
	OB_LIT(o, ",\"s\":\"t\",\"args\":{\"cpu\":");
	fxt_ob_u64(o, rec->cpu);
	/* A wakeup without "weight" has the default one (records.rst). */
	if (!have_weight) {
		OB_LIT(o, ",\"weight\":");
		fxt_ob_u64(o, FXT_WAKEUP_WEIGHT_DEFAULT);
	}
	if (rec->nargs) {
		fxt_ob_putc(o, ',');
		put_arg_members(o, rec, false);
	}
	if (w) {
		OB_LIT(o, ",\"waker_name\":");
		put_thread_name(j, w->tid);
	}
	OB_LIT(o, "}}");
	/*
	 * A flow starts in the slice that encloses it on the waker's track:
	 * its Running state, or for an interrupt pseudo-thread an interrupt.
	 * The idle task's wakeups outside interrupts (named after the CPU's
	 * pseudo-thread, Documentation/records.rst) have none: no arrow.
	 */
	if (w && w->tid != t->tid &&
	    (w->state == JS_RUNNING || (w->stack && w->stack->depth))) {
		uint64_t id = ++j->flow_id;

		ev_open(j);
		OB_LIT(o, "\"name\":\"wakeup\",\"cat\":\"wakeup\"");
		put_where(j, 's', ts, w->pid, w->tid);
		OB_LIT(o, ",\"id\":");
		fxt_ob_u64(o, id);
		fxt_ob_putc(o, '}');
		ev_open(j);
		OB_LIT(o, "\"name\":\"wakeup\",\"cat\":\"wakeup\"");
		put_where(j, 'f', ts, t->pid, t->tid);
		OB_LIT(o, ",\"id\":");
		fxt_ob_u64(o, id);
		fxt_ob_putc(o, '}');
	}
}

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

	ev_open(j);
	OB_LIT(o, "\"name\":");
	fxt_ob_json_str(o, f->name, f->name_len);
	OB_LIT(o, ",\"cat\":");
	fxt_ob_json_str(o, f->cat, f->cat_len);
	put_where(j, 'X', f->start, t->pid, t->tid);
	put_dur(j, f->start, ts);
	if (f->args_len || (end && end->nargs)) {
		OB_LIT(o, ",\"args\":{");
		fxt_ob_write(o, f->args, f->args_len);
		if (end && end->nargs) {
			if (f->args_len)
				fxt_ob_putc(o, ',');
			put_arg_members(o, end, false);
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
		put_arg_members(&j->scratch, rec, false);
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
	if (rec->subtype == FXT_EVENT_DURATION_BEGIN ||
	    rec->subtype == FXT_EVENT_DURATION_END) {
		t = thread_ref(j, tid, pid, true);
		if (!t)
			return;
		if (rec->subtype == FXT_EVENT_DURATION_BEGIN)
			on_begin(j, t, rec, ts);
		else
			on_end(j, t, rec, ts);
		return;
	}
	ev_open(j);
	OB_LIT(o, "\"name\":");
	put_name(o, rec->u.event.name);
	OB_LIT(o, ",\"cat\":");
	put_name(o, rec->u.event.category);
	put_where(j, phase[rec->subtype], ts, pid, tid);
	switch (rec->subtype) {
	case FXT_EVENT_INSTANT:
		OB_LIT(o, ",\"s\":\"t\"");
		break;
	case FXT_EVENT_COUNTER:
		OB_LIT(o, ",\"id\":\"");
		fxt_ob_u64(o, rec->u.event.data);
		OB_LIT(o, "\",\"args\":{");
		put_arg_members(o, rec, true);
		OB_LIT(o, "}}");
		return;
	case FXT_EVENT_DURATION_COMPLETE:
		put_dur(j, ts, fxt_reader_ticks_to_ns(j->from, rec->u.event.data));
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
	put_args(j, rec);
	fxt_ob_putc(o, '}');
}

static void on_kobj(struct json *j, const struct fxt_record *rec)
{
	const struct fxt_kobj_info *k = fxt_merge_kobj(j->m, rec->u.kobj.obj_type,
						       rec->u.kobj.koid);
	struct fxt_str name = rec->u.kobj.name;
	uint64_t koid = rec->u.kobj.koid;
	struct jthread *t;

	if (!name.data || !name.len)
		return;
	/* A record older (by "named_at") than one already read: the newest. */
	if (k && k->named_at > rec->u.kobj.named_at && k->name_len) {
		name.data = k->name;
		name.len = k->name_len;
	}
	if (rec->u.kobj.obj_type == FXT_OBJ_PROCESS) {
		meta(j, "process_name", koid, koid, name.data, name.len);
	} else if (rec->u.kobj.obj_type == FXT_OBJ_THREAD) {
		bool known = k && k->process;

		t = thread_ref(j, koid, known ? k->process : koid, known);
		meta(j, "thread_name", t ? t->pid : koid, koid, name.data, name.len);
	}
}

/* ------------------------------------------------------------------ */

static void finish(struct json *j)
{
	uint64_t end = j->last_ns;
	size_t i;

	for (i = 0; i < j->ncpus; i++)
		if (j->cpus[i].seen)
			cpu_close(j, (unsigned int)i, &j->cpus[i], end, NULL);
	for (i = 0; i < j->nthreads; i++) {
		struct jthread *t = &j->threads[i];

		thread_set(j, t, JS_UNKNOWN, end);
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
				on_wakeup(&j, rec, ts);
			else
				on_switch(&j, rec, ts);
			break;
		case FXT_REC_KERNEL_OBJ:
			on_kobj(&j, rec);
			break;
		case FXT_REC_METADATA:
			if (rec->subtype == FXT_META_PROVIDER_EVENT &&
			    rec->u.meta.event == FXT_PROVIDER_EVENT_BUFFER_FULL) {
				ev_open(&j);
				fxt_ob_printf(o, "\"name\":\"buffer full\",\"cat\":\"fxt\"");
				put_where(&j, 'i', j.last_ns, 0, 0);
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
	free(j.cpus);
	fxt_u64map_free(&j.map);
	return fxt_merge_status(m);
}
