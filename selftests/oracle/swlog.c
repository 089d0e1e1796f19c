// SPDX-License-Identifier: GPL-2.0
/*
 * swlog.c - user side of the context switch log (swlog.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "cpuseq.h"
#include "swlog.h"
#include "swlog.bpf.h"
#include "swlog.skel.h"

struct swlog {
	struct swlog_bpf *skel;
	int nr_cpus;
	struct cpuseq *cpus;
	uint64_t bad;		/* records with an impossible CPU */
};

struct swlog *swlog_open(size_t rb_bytes)
{
	struct swlog *l = calloc(1, sizeof(*l));
	int err;

	if (!l)
		return NULL;
	l->cpus = cpuseq_alloc(1, &l->nr_cpus);
	if (!l->cpus) {
		err = -errno;
		goto fail;
	}
	l->skel = swlog_bpf__open();
	if (!l->skel) {
		err = -errno;
		goto fail;
	}
	err = bpf_map__set_max_entries(l->skel->maps.swlog_rb, rb_bytes);
	if (!err)
		err = swlog_bpf__load(l->skel);
	if (err)
		goto fail;
	return l;
fail:
	swlog_close(l);
	errno = err < 0 ? -err : EINVAL;
	return NULL;
}

int swlog_start(struct swlog *l)
{
	return swlog_bpf__attach(l->skel);
}

static int swlog_sample(void *ctx, void *data, size_t size)
{
	struct swlog *l = ctx;
	const struct swlog_event *ev = data;
	struct swlog_entry e;

	if (size < sizeof(*ev) || ev->cpu >= (unsigned int)l->nr_cpus) {
		l->bad++;
		return 0;
	}
	e = (struct swlog_entry){ ev->ts, ev->prev, ev->next };
	return cpuseq_push(&l->cpus[ev->cpu], &e, sizeof(e));
}

int swlog_stop(struct swlog *l)
{
	struct ring_buffer *rb;
	int ret;

	swlog_bpf__detach(l->skel);
	rb = ring_buffer__new(bpf_map__fd(l->skel->maps.swlog_rb), swlog_sample,
			      l, NULL);
	if (!rb)
		return -errno;
	ret = ring_buffer__consume(rb);
	ring_buffer__free(rb);
	return ret < 0 ? ret : 0;
}

int swlog_nr_cpus(const struct swlog *l)
{
	return l->nr_cpus;
}

const struct swlog_entry *swlog_cpu(const struct swlog *l, int cpu, size_t *n)
{
	if (cpu < 0 || cpu >= l->nr_cpus) {
		*n = 0;
		return NULL;
	}
	*n = l->cpus[cpu].n;
	return l->cpus[cpu].e;
}

static uint64_t swlog_counter(struct swlog *l, uint32_t key)
{
	uint64_t *vals = calloc(l->nr_cpus, sizeof(*vals)), sum = 0;

	if (!vals)
		return 0;
	if (!bpf_map_lookup_elem(bpf_map__fd(l->skel->maps.swlog_counts), &key,
				 vals))
		for (int i = 0; i < l->nr_cpus; i++)
			sum += vals[i];
	free(vals);
	return sum;
}

uint64_t swlog_lost(struct swlog *l)
{
	return swlog_counter(l, SWLOG_LOST) + l->bad;
}

uint64_t swlog_misses(struct swlog *l)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(bpf_program__fd(l->skel->progs.swlog_switch),
				   &info, &len))
		return 0;
	return info.recursion_misses;
}

long swlog_find_run(const struct swlog *l, int cpu,
		    const struct swlog_entry *run, size_t n, uint64_t ts)
{
	const struct swlog_entry *e;
	uint64_t best_d = UINT64_MAX;
	long best = -1;
	size_t len, k;

	e = swlog_cpu(l, cpu, &len);
	for (size_t i = 0; n && i + n <= len; i++) {
		uint64_t d;

		for (k = 0; k < n; k++)
			if (e[i + k].prev != run[k].prev || e[i + k].next != run[k].next)
				break;
		if (k < n)
			continue;
		d = e[i].ts > ts ? e[i].ts - ts : ts - e[i].ts;
		if (d < best_d) {
			best_d = d;
			best = (long)i;
		}
	}
	return best;
}

long swlog_find(const struct swlog *l, int cpu, uint32_t prev, uint32_t next,
		uint64_t ts)
{
	struct swlog_entry one = { ts, prev, next };

	return swlog_find_run(l, cpu, &one, 1, ts);
}

void swlog_close(struct swlog *l)
{
	if (!l)
		return;
	swlog_bpf__destroy(l->skel);
	cpuseq_free(l->cpus, l->nr_cpus);
	free(l);
}
