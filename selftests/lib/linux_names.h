/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linux_names.h - the kernel's own names for its interrupt sources, as the
 * tests expect to find them in archives: Linux's softirq_to_name[] and the
 * x86 vectors that bypass irq_handler_entry. The tests' copy, kept apart
 * from the module's so that a wrong name in the module fails a test.
 */
#ifndef FXT_SELFTESTS_LINUX_NAMES_H
#define FXT_SELFTESTS_LINUX_NAMES_H

#include <stddef.h>
#include <stdint.h>

/* Indexed by softirq vector. */
extern const char *const linux_softirq_names[];
extern const size_t linux_nr_softirqs;

extern const char *const linux_x86_vector_names[];
extern const size_t linux_nr_x86_vectors;

/* The vector a softirq's name says; -1 for no such name. */
int linux_softirq_vector(const char *name);
/* Whether name is one of the x86 vectors'. */
int linux_is_x86_vector(const char *name);

#endif
