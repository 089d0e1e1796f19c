/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpuseq.h - what a BPF ring buffer log (swlog, evlog) keeps once drained:
 * per possible CPU, k sequences of fixed-size entries, grown as they come.
 */
#ifndef FXT_SELFTESTS_CPUSEQ_H
#define FXT_SELFTESTS_CPUSEQ_H

#include <stddef.h>

struct cpuseq {
	void *e;		/* n entries of the log's entry type */
	size_t n, cap;
};

/*
 * per_cpu empty sequences for each possible CPU (*nr_cpus set): sequence
 * k of CPU c is [c * per_cpu + k]. Return: NULL with errno on failure.
 */
struct cpuseq *cpuseq_alloc(int per_cpu, int *nr_cpus);
/* Append one entry of size bytes. Return: 0 or -ENOMEM. */
int cpuseq_push(struct cpuseq *s, const void *entry, size_t size);
/* Free the nr sequences of cpuseq_alloc() and their entries (NULL: none). */
void cpuseq_free(struct cpuseq *s, int nr);

#endif /* FXT_SELFTESTS_CPUSEQ_H */
