// SPDX-License-Identifier: MIT
/*
 * json_sched.c - the JSON conversion's scheduling tracks: the thread
 * running on each CPU, each thread's state, and wakeups with their flows.
 * A sleep event (records.rst "Sleep states") names the state its thread
 * switches out into by its letter (D, I, P, t) instead of Sleeping or
 * Stopped, with the function a D blocked in as the slice's argument.
 */
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "json_internal.h"

/* Is the string s (a struct fxt_str) the literal lit? */
#define NAME_IS(s, lit)	((s).len == sizeof(lit) - 1 && (s).data && \
			 !memcmp((s).data, (lit), sizeof(lit) - 1))

static const char *const state_names[] = {
	"Unknown", "Running", "Runnable", "Sleeping", "Stopped", "Dying", "Dead",
};

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
			json_meta(j, "process_name", JSON_CPUS_PID, JSON_CPUS_PID, "CPUs", 4);
			json_meta_sort(j, "process_sort_index", JSON_CPUS_PID, JSON_CPUS_PID, 0);
		}
		snprintf(name, sizeof(name), "CPU %u", cpu);
		json_meta(j, "thread_name", JSON_CPUS_PID, JSON_CPUS_PID + 1 + cpu, name, strlen(name));
		json_meta_sort(j, "thread_sort_index", JSON_CPUS_PID, JSON_CPUS_PID + 1 + cpu, cpu);
	}
	return c;
}

/* Close the slice of the thread running on c at ts. */
void json_cpu_close(struct json *j, unsigned int cpu, struct jcpu *c, uint64_t ts,
		    const char *end_state)
{
	struct outbuf *o = j->o;

	if (!c->valid || c->tid == 0)
		return;
	json_ev_open(j);
	OB_LIT(o, "\"name\":");
	json_put_thread_name(j, c->tid);
	OB_LIT(o, ",\"cat\":\"sched\"");
	json_put_where(j, 'X', c->since, JSON_CPUS_PID, JSON_CPUS_PID + 1 + cpu);
	json_put_dur(j, c->since, ts);
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
void json_thread_set(struct json *j, struct jthread *t, enum jstate_kind state, uint64_t ts)
{
	struct outbuf *o = j->o;

	if (t->tid && t->state != JS_UNKNOWN && t->state != JS_DEAD && ts >= t->since) {
		bool slept = t->sleep && (t->state == JS_SLEEPING || t->state == JS_STOPPED);
		const char *fn;
		size_t fn_len;

		json_ev_open(j);
		OB_LIT(o, "\"name\":\"");
		if (slept)
			fxt_ob_putc(o, t->sleep);
		else
			fxt_ob_puts(o, state_names[t->state]);
		OB_LIT(o, "\",\"cat\":\"thread_state\"");
		json_put_where(j, 'X', t->since, t->pid, t->tid);
		json_put_dur(j, t->since, ts);
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
		} else if (slept && (fn = fxt_name_intern_text(&j->sleeps.fns, t->sleep_fn, &fn_len))) {
			OB_LIT(o, ",\"args\":{\"" FXT_ARG_NAME_BLOCKED_IN "\":");
			fxt_ob_json_str(o, fn, fn_len);
			OB_LIT(o, "}}");
		} else {
			fxt_ob_putc(o, '}');
		}
	}
	t->state = (uint8_t)state;
	t->since = ts;
	t->sleep = 0;
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

void json_on_switch(struct json *j, const struct fxt_record *rec, uint64_t ts)
{
	const struct fxt_thread *out = &rec->u.sw.out, *in = &rec->u.sw.in;
	bool v1 = rec->subtype == FXT_SCHED_CONTEXT_SWITCH;
	unsigned int st = rec->u.sw.out_state;
	struct jthread *to, *ti;
	struct jcpu *c;
	char es[2] = { st < 6 ? end_state_letter[st] : '?', 0 };
	int32_t in_prio32, out_prio32;
	uint8_t in_prio, out_prio;
	uint32_t fn;
	char sleep;

	fxt_switch_prios(rec, &out_prio32, &in_prio32);
	in_prio = (uint8_t)in_prio32;
	out_prio = (uint8_t)out_prio32;
	/* The provider's sleep event, when this switch switches its thread out. */
	sleep = sleep_pairs_switch(&j->sleeps, rec, &fn);
	if (sleep)
		es[0] = sleep;
	c = cpu_get(j, rec->cpu);
	if (!c)
		return;
	json_cpu_close(j, rec->cpu, c, ts, es);

	to = out->defined ? json_thread_ref(j, out->tid, out->pid, v1) : NULL;
	if (to && to->tid) {
		to->prio = out_prio;
		json_thread_set(j, to, state_of(st), ts);
		to->woken = false;
		to->sleep = sleep;
		to->sleep_fn = fn;
	}
	ti = in->defined ? json_thread_ref(j, in->tid, in->pid, v1) : NULL;
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
			json_thread_set(j, ti, JS_RUNNING, ts);
		c->valid = true;
		c->tid = ti->tid;
		c->pid = ti->pid;
		c->prio = in_prio;
		c->since = ts;
	} else {
		c->valid = false;
	}
}

void json_on_wakeup(struct json *j, const struct fxt_record *rec, uint64_t ts)
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
	if (have_waker && !json_thread_ref(j, waker, 0, false))
		have_waker = false;
	t = json_thread_ref(j, rec->u.wakeup.tid, 0, false);
	if (!t)
		return;
	if (have_waker)
		w = json_thread_ref(j, waker, 0, false);
	if (t->tid && t->state != JS_RUNNING && t->state != JS_RUNNABLE) {
		json_thread_set(j, t, JS_RUNNABLE, ts);
		t->woken = true;
	}
	json_ev_open(j);
	OB_LIT(o, "\"name\":\"wakeup\",\"cat\":\"wakeup\"");
	json_put_where(j, 'i', ts, t->pid, t->tid);
	OB_LIT(o, ",\"s\":\"t\",\"args\":{\"cpu\":");
	fxt_ob_u64(o, rec->cpu);
	/* A wakeup without "weight" has the default one (records.rst). */
	if (!have_weight) {
		OB_LIT(o, ",\"weight\":");
		fxt_ob_u64(o, FXT_WAKEUP_WEIGHT_DEFAULT);
	}
	if (rec->nargs) {
		fxt_ob_putc(o, ',');
		json_put_arg_members(o, rec, false);
	}
	if (w) {
		OB_LIT(o, ",\"waker_name\":");
		json_put_thread_name(j, w->tid);
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

		json_ev_open(j);
		OB_LIT(o, "\"name\":\"wakeup\",\"cat\":\"wakeup\"");
		json_put_where(j, 's', ts, w->pid, w->tid);
		OB_LIT(o, ",\"id\":");
		fxt_ob_u64(o, id);
		fxt_ob_putc(o, '}');
		json_ev_open(j);
		OB_LIT(o, "\"name\":\"wakeup\",\"cat\":\"wakeup\"");
		json_put_where(j, 'f', ts, t->pid, t->tid);
		OB_LIT(o, ",\"id\":");
		fxt_ob_u64(o, id);
		fxt_ob_putc(o, '}');
	}
}

/* ------------------------------------------------------------------ */
/* Gaps (records.rst "Loss").                                           */

/*
 * From ts, the state of every thread not running is unknown: any of them
 * may have run on the CPU whose records are missing. Their slices end here.
 */
static void forget_waits(struct json *j, uint64_t ts)
{
	for (size_t i = 0; i < j->nthreads; i++) {
		struct jthread *t = &j->threads[i];

		if (t->state != JS_RUNNING && t->state != JS_DEAD &&
		    t->state != JS_UNKNOWN)
			json_thread_set(j, t, JS_UNKNOWN, ts);
	}
}

/*
 * The thread running on cpu at from is not known to run after it: its
 * slice and its Running state end there, and the CPU shows nothing until
 * its next switch. No wait or sleep is drawn across the gap either, as
 * fxt-report counts none: waits end at from, and again at to.
 */
void json_on_gap(struct json *j, uint32_t cpu, uint64_t from, uint64_t to)
{
	struct jcpu *c = cpu_get(j, cpu);

	if (!c)
		return;
	if (c->valid && c->tid) {
		struct jthread *t = json_thread_ref(j, c->tid, c->pid, false);

		json_cpu_close(j, cpu, c, from, NULL);
		if (t && t->state == JS_RUNNING && t->cpu == cpu)
			json_thread_set(j, t, JS_UNKNOWN, from);
	}
	c->valid = false;
	forget_waits(j, from);
	if (j->ngap_ends == j->gap_cap) {
		size_t n = j->gap_cap ? j->gap_cap * 2 : 8;
		uint64_t *e = realloc(j->gap_ends, n * sizeof(*e));

		if (!e)
			return;	/* its end is not marked: waits after it are kept */
		j->gap_ends = e;
		j->gap_cap = n;
	}
	j->gap_ends[j->ngap_ends++] = to;
}

void json_gap_ends(struct json *j, uint64_t ts)
{
	while (j->ngap_ends) {
		size_t k = 0;

		for (size_t i = 1; i < j->ngap_ends; i++)
			if (j->gap_ends[i] < j->gap_ends[k])
				k = i;
		if (j->gap_ends[k] > ts)
			return;
		forget_waits(j, j->gap_ends[k]);
		j->gap_ends[k] = j->gap_ends[--j->ngap_ends];
	}
}
