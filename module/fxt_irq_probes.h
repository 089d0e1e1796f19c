/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fxt_irq_probes.h - the interrupt probes (fxt_irq_probes.c), for the
 * table of hooks in fxt_probes.c, which checks each against the
 * tracepoint it hooks (FXT_HOOK()).
 */
#ifndef _FXT_IRQ_PROBES_H
#define _FXT_IRQ_PROBES_H

struct irqaction;

void fxt_probe_irq_entry(void *data, int irq, struct irqaction *action);
void fxt_probe_irq_exit(void *data, int irq, struct irqaction *action,
			int ret);
void fxt_probe_softirq_entry(void *data, unsigned int vec);
void fxt_probe_softirq_exit(void *data, unsigned int vec);
/* x86 irq_vectors: data is the string index of the vector's name */
void fxt_probe_vector_entry(void *data, int vector);
void fxt_probe_vector_exit(void *data, int vector);

#endif /* _FXT_IRQ_PROBES_H */
