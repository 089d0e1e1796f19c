// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_irq_probes.c - the interrupt probes: device handlers, softirqs and
 * the x86 vectors that bypass irq_handler_entry, and the nesting of their
 * begin and end events on each CPU. fxt_probes.c hooks them.
 */
#include <linux/kernel.h>
#include <linux/interrupt.h>
#include <linux/irqflags.h>
#include <fxt/format.h>
#include "fxt.h"
#include "fxt_tables.h"
#include "fxt_triggers.h"
#include "fxt_irq_probes.h"

/*
 * Interrupt begin/end events nest per CPU (a hard interrupt can interrupt a
 * softirq or a probe, never the reverse). Each CPU keeps a stack of the
 * open levels, each saying which interrupt opened it (kind and number) and
 * whether its begin was written. An end closes the level of that same
 * interrupt (the innermost, but for PREEMPT_RT: see fxt_irq_end()) and is
 * written exactly when its begin was: not for an interrupt that began
 * before tracing did, nor for one whose begin was dropped, nor for one
 * whose exit probe was hooked before its entry probe (exits are hooked
 * first): such an end matches no level and closes none, where popping the
 * innermost would close, say, a softirq with a local_timer end. The end
 * reuses its begin's name index. A level whose end is never seen (its exit
 * unhooked while it ran) stays open, as at the end of any trace: the next
 * start empties the stack.
 *
 * The stack and the record are handled with interrupts off, so a nested
 * probe never sees a half-made level; the work is bounded.
 */
static void fxt_irq_begin(struct fxt_cpu *c, enum fxt_irq_kind kind,
			  u32 number, u16 cat, u16 name,
			  const char *inline_name, u16 arg_name,
			  unsigned int arg_type, u32 arg_value)
{
	struct fxt_irq_level *l;
	unsigned long flags;
	unsigned int level;

	local_irq_save(flags);
	level = c->irq_depth++;
	if (level < FXT_IRQ_MAX_DEPTH) {
		l = &c->irq_stack[level];
		l->kind = kind;
		l->number = number;
		l->name = name;
		l->inline_name = name ? NULL : inline_name;
		l->cat = cat;
		l->arg_name = arg_name;
		l->arg_type = arg_type;
		l->arg_value = arg_value;
		l->begin_ns = fxt_trig_irq_begin();
		l->written = fxt_emit_irq_event(c, FXT_EVENT_DURATION_BEGIN,
						cat, name, inline_name,
						 arg_name, arg_type, arg_value);
	}
	local_irq_restore(flags);
}

/*
 * Cut a level that stays open around an outer level's end (PREEMPT_RT):
 * write its end, or its begin again, with the begin's name and argument.
 * Only a level whose last record is in the buffer is cut, so that begins
 * and ends still pair: an end that could not be written leaves the level
 * unwritten, as a dropped begin does.
 */
static void fxt_irq_cut(struct fxt_cpu *c, struct fxt_irq_level *l,
			unsigned int type)
{
	u16 arg_name = type == FXT_EVENT_DURATION_BEGIN ? l->arg_name : 0;

	if (l->written)
		l->written = fxt_emit_irq_event(c, type, l->cat, l->name,
						l->inline_name, arg_name,
						 l->arg_type, l->arg_value);
}

/*
 * Close the level that (kind, number) opened: normally the innermost. On
 * PREEMPT_RT interrupt handlers and softirqs run in preemptible threads, so
 * an outer level can end before an inner one. The level is then found
 * further down and taken out, so that no level stays open forever and
 * fills the stack, and the records still nest, as every reader of
 * begin/end pairs (Perfetto included) pairs an end with the innermost
 * begin: the levels above it end first, then it, then they begin again,
 * each a record of its own, in that order. An end that matches no level
 * (its entry was not hooked yet) closes nothing. Writes the end when the
 * begin was written.
 * @inline_name: the name to write when the begin had no index for it.
 */
static void fxt_irq_end(struct fxt_cpu *c, enum fxt_irq_kind kind,
			u32 number, u16 cat, const char *inline_name,
			u16 arg_name, unsigned int arg_type, u32 arg_value)
{
	struct fxt_irq_level l;
	unsigned long flags;
	unsigned int level, i;

	local_irq_save(flags);
	level = c->irq_depth;
	if (!level)
		goto out;		/* it began before tracing did */
	if (level > FXT_IRQ_MAX_DEPTH) {
		c->irq_depth--;		/* too deep to be recorded */
		goto out;
	}
	while (level--) {
		l = c->irq_stack[level];
		if (l.kind == kind && l.number == number)
			break;
	}
	if (l.kind != kind || l.number != number)
		goto out;		/* not an open interrupt's end */
	for (i = c->irq_depth - 1; i > level; i--)
		fxt_irq_cut(c, &c->irq_stack[i], FXT_EVENT_DURATION_END);
	if (l.written)
		fxt_emit_irq_event(c, FXT_EVENT_DURATION_END, cat, l.name,
				   l.name ? NULL : inline_name, arg_name,
				    arg_type, arg_value);
	memmove(&c->irq_stack[level], &c->irq_stack[level + 1],
		(c->irq_depth - 1 - level) * sizeof(l));
	c->irq_depth--;
	for (i = level; i < c->irq_depth; i++)
		fxt_irq_cut(c, &c->irq_stack[i], FXT_EVENT_DURATION_BEGIN);
	fxt_trig_irq_end(c, l.begin_ns);
out:
	local_irq_restore(flags);
}

/**
 * fxt_probe_irq_entry() - irq_handler_entry: a device handler begins
 * @data: unused
 * @irq: the interrupt number
 * @action: the handler, by whose name the event is called
 */
void fxt_probe_irq_entry(void *data, int irq, struct irqaction *action)
{
	struct fxt_cpu *c = fxt_this_cpu();

	if (c)
		fxt_irq_begin(c, FXT_IRQ_HANDLER, irq, FXT_S_IRQ,
			      fxt_irq_name_ref(c, irq, action->name),
			      action->name, FXT_S_IRQ, FXT_ARG_INT32, irq);
}

/**
 * fxt_probe_irq_exit() - irq_handler_exit: the handler ends
 * @data: unused
 * @irq: the interrupt number
 * @action: the handler
 * @ret: what it returned; IRQ_NONE is written as "handled" false
 */
void fxt_probe_irq_exit(void *data, int irq, struct irqaction *action,
			int ret)
{
	struct fxt_cpu *c = fxt_this_cpu();

	/* "handled" only when false: the common case costs no argument. */
	if (c)
		fxt_irq_end(c, FXT_IRQ_HANDLER, irq, FXT_S_IRQ, action->name,
			    ret == IRQ_NONE ? FXT_S_HANDLED : 0, FXT_ARG_BOOL,
			    false);
}

static u16 fxt_softirq_name(unsigned int vec)
{
	return vec < NR_SOFTIRQS ? FXT_S_SOFTIRQ_FIRST + vec : 0;
}

/**
 * fxt_probe_softirq_entry() - softirq_entry: a softirq vector begins
 * @data: unused
 * @vec: the vector, named by its constant string
 */
void fxt_probe_softirq_entry(void *data, unsigned int vec)
{
	struct fxt_cpu *c = fxt_this_cpu();
	u16 name = fxt_softirq_name(vec);

	/* The name says which vector; a number without one says it. */
	if (c)
		fxt_irq_begin(c, FXT_IRQ_SOFTIRQ, vec, FXT_S_SOFTIRQ, name,
			      NULL, name ? 0 : FXT_S_VECTOR, FXT_ARG_UINT32,
			      vec);
}

/**
 * fxt_probe_softirq_exit() - softirq_exit: the vector ends
 * @data: unused
 * @vec: the vector
 *
 * Ends carry no argument: their begin's says it (records.rst).
 */
void fxt_probe_softirq_exit(void *data, unsigned int vec)
{
	struct fxt_cpu *c = fxt_this_cpu();

	if (c)
		fxt_irq_end(c, FXT_IRQ_SOFTIRQ, vec, FXT_S_SOFTIRQ, NULL,
			    0, 0, 0);
}

/**
 * fxt_probe_vector_entry() - an x86 irq_vectors entry (local_timer_entry,
 *	reschedule_entry, ...): the vector's handler begins
 * @data: the string index of the vector's name
 * @vector: the vector number
 */
void fxt_probe_vector_entry(void *data, int vector)
{
	struct fxt_cpu *c = fxt_this_cpu();
	u16 name = (u16)(uintptr_t)data;

	if (c)
		fxt_irq_begin(c, FXT_IRQ_VECTOR, name, FXT_S_IRQ, name, NULL,
			      FXT_S_VECTOR, FXT_ARG_INT32, vector);
}

/**
 * fxt_probe_vector_exit() - the x86 irq_vectors exit of the same vector
 * @data: the string index of the vector's name
 * @vector: the vector number
 */
void fxt_probe_vector_exit(void *data, int vector)
{
	struct fxt_cpu *c = fxt_this_cpu();

	if (c)
		fxt_irq_end(c, FXT_IRQ_VECTOR, (u16)(uintptr_t)data, FXT_S_IRQ,
			    NULL, 0, 0, 0);
}
