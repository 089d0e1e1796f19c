// SPDX-License-Identifier: GPL-2.0
/*
 * evlog.c - user side of the wakeup and interrupt log (evlog.h).
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "cpuseq.h"
#include "evlog.h"
#include "evlog.skel.h"

struct evlog {
	struct evlog_bpf *skel;
	int nr_cpus;
	struct cpuseq *seqs;		/* nr_cpus * EVLOG_NR_CLASSES */
	uint64_t bad;			/* records with an impossible CPU/kind */
	int absent;
	struct ring_buffer *rb;
	pthread_t reader;
	bool reading;
	volatile bool stop;
	int read_err;
};

enum evlog_class evlog_class_of(uint32_t kind)
{
	switch (kind) {
	case EVLOG_WAKING:
	case EVLOG_WAKEUP_NEW:
		return EVLOG_CLASS_WAKEUP;
	case EVLOG_IRQ:
	case EVLOG_VECTOR:
		return EVLOG_CLASS_HARDIRQ;
	default:
		return EVLOG_CLASS_SOFTIRQ;
	}
}

const char *evlog_class_name(enum evlog_class cls)
{
	static const char *const names[] = { "wakeup", "hardirq", "softirq" };

	return cls < EVLOG_NR_CLASSES ? names[cls] : "?";
}

/* Leave out the vector programs whose tracepoint this kernel lacks. */
static int evlog_drop_absent(struct evlog *l)
{
	struct btf *vmlinux = btf__load_vmlinux_btf();
	struct bpf_program *prog;
	char name[128];

	if (!vmlinux)
		return -errno;
	bpf_object__for_each_program(prog, l->skel->obj) {
		const char *sec = bpf_program__section_name(prog);

		if (strncmp(sec, "tp_btf/", 7))
			continue;
		snprintf(name, sizeof(name), "btf_trace_%s", sec + 7);
		if (btf__find_by_name_kind(vmlinux, name, BTF_KIND_TYPEDEF) < 0) {
			bpf_program__set_autoload(prog, false);
			l->absent++;
		}
	}
	btf__free(vmlinux);
	return 0;
}

struct evlog *evlog_open(size_t rb_bytes)
{
	struct evlog *l = calloc(1, sizeof(*l));
	int err;

	if (!l)
		return NULL;
	l->seqs = cpuseq_alloc(EVLOG_NR_CLASSES, &l->nr_cpus);
	if (!l->seqs) {
		err = -errno;
		goto fail;
	}
	l->skel = evlog_bpf__open();
	if (!l->skel) {
		err = -errno;
		goto fail;
	}
	err = evlog_drop_absent(l);
	if (!err)
		err = bpf_map__set_max_entries(l->skel->maps.evlog_rb, rb_bytes);
	if (!err)
		err = evlog_bpf__load(l->skel);
	if (err)
		goto fail;
	return l;
fail:
	evlog_close(l);
	errno = err < 0 ? -err : EINVAL;
	return NULL;
}

static int evlog_sample(void *ctx, void *data, size_t size)
{
	struct evlog *l = ctx;
	const struct evlog_event *ev = data;
	struct evlog_entry e;

	if (size < sizeof(*ev) || ev->cpu >= (unsigned int)l->nr_cpus ||
	    ev->kind >= EVLOG_NR_KINDS) {
		l->bad++;
		return 0;
	}
	e = (struct evlog_entry){ ev->ts, ev->kind, ev->what };
	return cpuseq_push(&l->seqs[ev->cpu * EVLOG_NR_CLASSES +
				    evlog_class_of(ev->kind)], &e, sizeof(e));
}

static void *evlog_reader(void *arg)
{
	struct evlog *l = arg;
	struct timespec ts = { 0, 20 * 1000 * 1000 };

	while (!l->stop) {
		int ret = ring_buffer__consume(l->rb);

		if (ret < 0) {
			l->read_err = ret;
			break;
		}
		nanosleep(&ts, NULL);
	}
	return NULL;
}

int evlog_start(struct evlog *l)
{
	int err;

	l->rb = ring_buffer__new(bpf_map__fd(l->skel->maps.evlog_rb),
				 evlog_sample, l, NULL);
	if (!l->rb)
		return -errno;
	err = -pthread_create(&l->reader, NULL, evlog_reader, l);
	if (err)
		return err;
	l->reading = true;
	return evlog_bpf__attach(l->skel);
}

int evlog_stop(struct evlog *l)
{
	int ret;

	evlog_bpf__detach(l->skel);
	if (l->reading) {
		l->stop = true;
		pthread_join(l->reader, NULL);
		l->reading = false;
	}
	if (!l->rb)
		return -EINVAL;
	if (l->read_err)
		return l->read_err;
	ret = ring_buffer__consume(l->rb);
	return ret < 0 ? ret : 0;
}

int evlog_nr_cpus(const struct evlog *l)
{
	return l->nr_cpus;
}

const struct evlog_entry *evlog_cpu(const struct evlog *l, int cpu,
				    enum evlog_class cls, size_t *n)
{
	const struct cpuseq *s;

	if (cpu < 0 || cpu >= l->nr_cpus || cls >= EVLOG_NR_CLASSES) {
		*n = 0;
		return NULL;
	}
	s = &l->seqs[cpu * EVLOG_NR_CLASSES + cls];
	*n = s->n;
	return s->e;
}

static uint64_t evlog_counter(struct evlog *l, uint32_t key, int cpu)
{
	uint64_t *vals = calloc(l->nr_cpus, sizeof(*vals)), sum = 0;

	if (!vals)
		return 0;
	if (!bpf_map_lookup_elem(bpf_map__fd(l->skel->maps.evlog_counts), &key,
				 vals))
		for (int i = 0; i < l->nr_cpus; i++)
			if (cpu < 0 || cpu == i)
				sum += vals[i];
	free(vals);
	return sum;
}

uint64_t evlog_seen(struct evlog *l, int cpu, enum evlog_kind kind)
{
	return evlog_counter(l, EVLOG_SEEN + kind, cpu);
}

uint64_t evlog_lost(struct evlog *l)
{
	return evlog_counter(l, EVLOG_LOST, -1) + l->bad;
}

uint64_t evlog_misses(struct evlog *l)
{
	struct bpf_program *prog;
	uint64_t sum = 0;

	bpf_object__for_each_program(prog, l->skel->obj) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);

		if (!bpf_program__autoload(prog))
			continue;
		memset(&info, 0, sizeof(info));
		if (!bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len))
			sum += info.recursion_misses;
	}
	return sum;
}

int evlog_absent(const struct evlog *l)
{
	return l->absent;
}

bool evlog_same(const struct evlog_entry *x, const struct evlog_entry *y)
{
	uint32_t kx = x->kind == EVLOG_WAKEUP_NEW ? EVLOG_WAKING : x->kind;
	uint32_t ky = y->kind == EVLOG_WAKEUP_NEW ? EVLOG_WAKING : y->kind;

	return kx == ky && x->what == y->what;
}

void evlog_close(struct evlog *l)
{
	if (!l)
		return;
	if (l->reading) {
		l->stop = true;
		pthread_join(l->reader, NULL);
	}
	ring_buffer__free(l->rb);
	evlog_bpf__destroy(l->skel);
	cpuseq_free(l->seqs, l->nr_cpus * EVLOG_NR_CLASSES);
	free(l);
}
