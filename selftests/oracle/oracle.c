// SPDX-License-Identifier: GPL-2.0
/*
 * oracle.c - user side of the counting oracle (oracle.h has the contract).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "oracle.h"
#include "oracle.bpf.h"
#include "oracle.skel.h"

struct oracle {
	struct oracle_bpf *skel;
	int nr_cpus;		/* possible CPUs: per-CPU map value count */
	uint64_t *vals;		/* nr_cpus values of one counter */
};

/* libbpf talks on stderr; keep its lines TAP diagnostics. */
static int oracle_libbpf_print(enum libbpf_print_level level, const char *fmt,
			       va_list ap)
{
	char buf[512];

	if (level == LIBBPF_DEBUG)
		return 0;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	buf[strcspn(buf, "\n")] = '\0';
	return fprintf(stderr, "# libbpf: %s\n", buf);
}

struct oracle *oracle_open(pid_t tgid, pid_t exclude_tid)
{
	struct oracle *o;
	int err;

	libbpf_set_print(oracle_libbpf_print);
	o = calloc(1, sizeof(*o));
	if (!o)
		return NULL;
	o->nr_cpus = libbpf_num_possible_cpus();
	if (o->nr_cpus <= 0) {
		err = o->nr_cpus ? o->nr_cpus : -EINVAL;
		goto fail;
	}
	o->vals = calloc(o->nr_cpus, sizeof(*o->vals));
	if (!o->vals) {
		err = -ENOMEM;
		goto fail;
	}
	o->skel = oracle_bpf__open();
	if (!o->skel) {
		err = -errno;
		goto fail;
	}
	o->skel->rodata->targ_tgid = tgid;
	o->skel->rodata->targ_exclude = exclude_tid;
	err = oracle_bpf__load(o->skel);
	if (err)
		goto fail;
	return o;
fail:
	oracle_close(o);
	errno = err < 0 ? -err : EINVAL;
	return NULL;
}

int oracle_start(struct oracle *o)
{
	return oracle_bpf__attach(o->skel);
}

int oracle_stop(struct oracle *o)
{
	/* Destroys the links: the programs are unhooked from the tracepoints. */
	oracle_bpf__detach(o->skel);
	return 0;
}

static uint64_t oracle_read(struct oracle *o, enum oracle_counter key, int cpu)
{
	uint32_t k = key;
	uint64_t sum = 0;
	int i;

	if (cpu < -1 || cpu >= o->nr_cpus)
		return 0;
	if (bpf_map_lookup_elem(bpf_map__fd(o->skel->maps.counts), &k, o->vals))
		return 0;
	if (cpu >= 0)
		return o->vals[cpu];
	for (i = 0; i < o->nr_cpus; i++)
		sum += o->vals[i];
	return sum;
}

uint64_t oracle_switches(struct oracle *o, int cpu)
{
	return oracle_read(o, ORACLE_SWITCH, cpu);
}

uint64_t oracle_wakeups(struct oracle *o, int cpu)
{
	return oracle_read(o, ORACLE_WAKEUP, cpu);
}

uint64_t oracle_all_switches(struct oracle *o, int cpu)
{
	return oracle_read(o, ORACLE_ALL_SWITCH, cpu);
}

uint64_t oracle_exits(struct oracle *o, int cpu)
{
	return oracle_read(o, ORACLE_EXIT, cpu);
}

uint64_t oracle_wait_exits(struct oracle *o, uint64_t n, double timeout)
{
	struct timespec t0, t;
	uint64_t seen;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while ((seen = oracle_exits(o, -1)) < n) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec + (t.tv_nsec - t0.tv_nsec) / 1e9 > timeout)
			break;
		usleep(1000);
	}
	return seen;
}

uint64_t oracle_switch_digest(struct oracle *o, int cpu)
{
	return cpu < 0 ? 0 : oracle_read(o, ORACLE_SWITCH_DIGEST, cpu);
}

uint64_t oracle_misses(struct oracle *o)
{
	struct bpf_program *prog;
	uint64_t sum = 0;

	bpf_object__for_each_program(prog, o->skel->obj) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);

		memset(&info, 0, sizeof(info));
		if (!bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len))
			sum += info.recursion_misses;
	}
	return sum;
}

int oracle_nr_cpus(struct oracle *o)
{
	return o->nr_cpus;
}

void oracle_close(struct oracle *o)
{
	if (!o)
		return;
	oracle_bpf__destroy(o->skel);
	free(o->vals);
	free(o);
}
