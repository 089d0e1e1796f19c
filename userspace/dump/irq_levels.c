// SPDX-License-Identifier: MIT
/*
 * irq_levels.c - interrupt begins and ends as ftrace's events (irq_levels.h).
 *
 * Which CPU: the event's thread, CPU c's interrupt pseudo-thread
 * (FXT_KOID_IRQ_THREAD(c)); else its provider, which for fxt.ko is the
 * CPU. Levels deeper than IRQ_DEPTH are counted, as fxt.ko counts them,
 * and their ends matched by the count alone: nothing is written for them.
 */
#include <stdlib.h>
#include <string.h>

#include <fxt/format.h>

#include "grow.h"
#include "irq_levels.h"

#define IRQ_DEPTH	16	/* fxt.ko's own limit */

struct irq_level {
	uint8_t kind;		/* enum irq_kind, 0: not written */
	bool soft;		/* opened by a softirq begin */
	int32_t num;
};

struct irq_cpu {
	struct irq_level level[IRQ_DEPTH];
	unsigned int depth;	/* may exceed IRQ_DEPTH: only counted */
};

static const char *const softirq_names[] = { FXT_SOFTIRQ_NAMES };

static bool str_is(struct fxt_str s, const char *lit)
{
	size_t n = strlen(lit);

	return s.data && s.len == n && !memcmp(s.data, lit, n);
}

static const struct fxt_arg *arg_of(const struct fxt_record *rec, const char *name)
{
	for (unsigned int i = 0; i < rec->nargs; i++)
		if (str_is(rec->args[i].name, name))
			return &rec->args[i];
	return NULL;
}

/* The event's CPU, or -1. */
static long event_cpu(const struct fxt_record *rec)
{
	const struct fxt_thread *th = &rec->u.event.thread;

	if (th->defined && th->tid >= FXT_KOID_IRQ_THREAD(0) &&
	    th->tid < FXT_KOID_IRQ_THREAD(FXT_MAX_CPUS))
		return (long)(th->tid - FXT_KOID_IRQ_THREAD(0));
	return rec->provider < FXT_MAX_CPUS ? (long)rec->provider : -1;
}

/*
 * What a begin opens: its kind and number (-1: unknown), or kind 0 for a
 * softirq vector Perfetto has no name for (nothing is written).
 */
static struct irq_level begin_level(const struct fxt_record *rec, bool soft)
{
	struct irq_level lv = { 0, soft, 0 };
	const struct fxt_arg *a;
	size_t i;

	if (soft) {
		for (i = 0; i < sizeof(softirq_names) / sizeof(softirq_names[0]); i++)
			if (str_is(rec->u.event.name, softirq_names[i]))
				return (struct irq_level){ IRQ_SOFTIRQ, true, (int32_t)i };
		/* A vector without a name is one Perfetto has no name for. */
		return lv;
	}
	a = arg_of(rec, FXT_ARG_NAME_IRQ);
	if (a && a->type == FXT_ARG_INT32)
		return (struct irq_level){ IRQ_HANDLER, false, a->v.i32 };
	a = arg_of(rec, FXT_ARG_NAME_VECTOR);
	if (a && a->type == FXT_ARG_INT32) {
		if (str_is(rec->u.event.name, FXT_VECTOR_NAME_LOCAL_TIMER))
			return (struct irq_level){ IRQ_LOCAL_TIMER, false, a->v.i32 };
		return (struct irq_level){ IRQ_VECTOR, false, a->v.i32 };
	}
	/* A handler whose number the archive does not say (not fxt.ko's). */
	return (struct irq_level){ IRQ_HANDLER, false, -1 };
}

bool irq_levels_event(struct irq_levels *l, const struct fxt_record *rec,
		      struct irq_event *ev, bool *failed)
{
	bool soft, begin = rec->subtype == FXT_EVENT_DURATION_BEGIN;
	struct irq_level lv;
	struct irq_cpu *c;
	long cpu;

	*failed = false;
	if (rec->type != FXT_REC_EVENT ||
	    (!begin && rec->subtype != FXT_EVENT_DURATION_END))
		return false;
	if (str_is(rec->u.event.category, FXT_CAT_NAME_SOFTIRQ))
		soft = true;
	else if (str_is(rec->u.event.category, FXT_CAT_NAME_IRQ))
		soft = false;
	else
		return false;
	cpu = event_cpu(rec);
	if (cpu < 0)
		return false;
	if ((size_t)cpu >= l->ncpus) {
		c = grow_zeroed(l->cpus, &l->ncpus, (size_t)cpu, 4, sizeof(*c));
		if (!c) {
			*failed = true;
			return false;
		}
		l->cpus = c;
	}
	c = &l->cpus[cpu];
	memset(ev, 0, sizeof(*ev));
	ev->cpu = (unsigned int)cpu;
	if (begin) {
		lv = begin_level(rec, soft);
		if (c->depth < IRQ_DEPTH)
			c->level[c->depth] = lv;
		c->depth++;
		if (!lv.kind) {
			l->unknown++;
			return false;
		}
		if (c->depth > IRQ_DEPTH)
			return false;
		ev->entry = true;
		ev->name = rec->u.event.name;
	} else {
		const struct fxt_arg *h = arg_of(rec, FXT_ARG_NAME_HANDLED);

		/* An end closes the innermost level, if a begin of its kind
		 * opened it (a lost record must not close another's).
		 */
		if (!c->depth || (c->depth <= IRQ_DEPTH &&
				  c->level[c->depth - 1].soft != soft)) {
			l->unmatched++;
			return false;
		}
		c->depth--;
		if (c->depth >= IRQ_DEPTH)
			return false;
		lv = c->level[c->depth];
		if (!lv.kind)
			return false;
		ev->handled = !(h && h->type == FXT_ARG_BOOL && !h->v.b);
	}
	ev->kind = (enum irq_kind)lv.kind;
	ev->num = lv.num;
	return true;
}

void irq_levels_free(struct irq_levels *l)
{
	free(l->cpus);
	memset(l, 0, sizeof(*l));
}
