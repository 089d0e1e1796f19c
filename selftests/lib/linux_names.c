// SPDX-License-Identifier: GPL-2.0
/*
 * linux_names.c - the kernel's names for softirqs and x86 vectors
 * (linux_names.h).
 */
#include <string.h>

#include "linux_names.h"

/* kernel/softirq.c, softirq_to_name[]. */
const char *const linux_softirq_names[] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET",
	"SCHED", "HRTIMER", "RCU",
};
const size_t linux_nr_softirqs =
	sizeof(linux_softirq_names) / sizeof(linux_softirq_names[0]);

/* arch/x86/include/asm/trace/irq_vectors.h, the events' names. */
const char *const linux_x86_vector_names[] = {
	"local_timer", "reschedule", "call_function", "call_function_single",
	"irq_work", "x86_platform_ipi", "spurious_apic", "error_apic",
	"thermal_apic", "threshold_apic", "deferred_error_apic",
};
const size_t linux_nr_x86_vectors =
	sizeof(linux_x86_vector_names) / sizeof(linux_x86_vector_names[0]);

int linux_softirq_vector(const char *name)
{
	for (size_t v = 0; v < linux_nr_softirqs; v++)
		if (!strcmp(name, linux_softirq_names[v]))
			return (int)v;
	return -1;
}

int linux_is_x86_vector(const char *name)
{
	for (size_t i = 0; i < linux_nr_x86_vectors; i++)
		if (!strcmp(name, linux_x86_vector_names[i]))
			return 1;
	return 0;
}
