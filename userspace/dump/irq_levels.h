/* SPDX-License-Identifier: MIT */
/*
 * irq_levels.h - an archive's interrupt events as the ftrace events Linux
 * would have written for them (fxt-dump --perfetto).
 *
 * fxt.ko writes interrupts as duration begin/end events on each CPU's
 * interrupt pseudo-thread (Documentation/records.rst, "Interrupt events"):
 * a handler's begin says its irq number, an end only its name, and a
 * softirq says its vector by its name. ftrace's irq_handler_exit and
 * softirq_exit carry the number again, so the ends are paired with their
 * begins here, as a stack per CPU: a hard interrupt can interrupt a
 * softirq, never the reverse.
 */
#ifndef FXT_DUMP_IRQ_LEVELS_H
#define FXT_DUMP_IRQ_LEVELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libfxt.h"

enum irq_kind {
	IRQ_HANDLER = 1,	/* irq_handler_entry/exit: num is the irq, or -1 */
	IRQ_LOCAL_TIMER,	/* local_timer_entry/exit */
	IRQ_VECTOR,		/* another x86 vector: num is the vector */
	IRQ_SOFTIRQ,		/* softirq_entry/exit: num is the vector */
};

struct irq_event {
	enum irq_kind kind;
	bool entry;		/* else the exit */
	bool handled;		/* exits: false only for IRQ_NONE */
	unsigned int cpu;
	int32_t num;
	struct fxt_str name;	/* entries: the handler's or vector's name */
};

/* Per CPU: the open levels, each the kind and number its begin said. */
struct irq_levels {
	struct irq_cpu *cpus;
	size_t ncpus;
	uint64_t unmatched;	/* ends without a begin, not written */
	uint64_t unknown;	/* begins Linux has no event for, not written */
};

/*
 * Is rec an interrupt begin or end that ftrace would have written? Then
 * *ev says what to write, and true. Ends are paired with their begins (an
 * end whose begin was not written, or came before the archive, is not).
 * false with *failed set: out of memory.
 */
bool irq_levels_event(struct irq_levels *l, const struct fxt_record *rec,
		      struct irq_event *ev, bool *failed);
void irq_levels_free(struct irq_levels *l);

#endif /* FXT_DUMP_IRQ_LEVELS_H */
