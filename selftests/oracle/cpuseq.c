// SPDX-License-Identifier: GPL-2.0
/*
 * cpuseq.c - per-CPU sequences of a drained ring buffer log (cpuseq.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>

#include "cpuseq.h"

struct cpuseq *cpuseq_alloc(int per_cpu, int *nr_cpus)
{
	struct cpuseq *s;

	*nr_cpus = libbpf_num_possible_cpus();
	if (*nr_cpus <= 0) {
		errno = EINVAL;
		return NULL;
	}
	s = calloc((size_t)*nr_cpus * per_cpu, sizeof(*s));
	if (!s)
		errno = ENOMEM;
	return s;
}

int cpuseq_push(struct cpuseq *s, const void *entry, size_t size)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 65536;
		void *e = realloc(s->e, cap * size);

		if (!e)
			return -ENOMEM;
		s->e = e;
		s->cap = cap;
	}
	memcpy((char *)s->e + s->n++ * size, entry, size);
	return 0;
}

void cpuseq_free(struct cpuseq *s, int nr)
{
	if (!s)
		return;
	for (int i = 0; i < nr; i++)
		free(s[i].e);
	free(s);
}
