// SPDX-License-Identifier: GPL-2.0
/*
 * direct.c - /dev/fxt driven directly by a scenario (direct.h).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpu.h"
#include "direct.h"
#include "scenario.h"

int dev_init(struct fxt_device *d, char *why, size_t why_size, bool *failed,
	     uint32_t mode, uint64_t size, uint64_t durable, uint32_t cats)
{
	struct fxt_config cfg = { .buffer_size = size, .mode = mode,
				  .categories = cats, .durable_size = durable };
	int err;

	err = fxt_device_open(d, FXT_DEVICE_PATH, program_invocation_short_name);
	if (err) {
		snprintf(why, why_size, "open: %s", strerror(-err));
		return err;
	}
	err = fxt_device_init(d, &cfg);
	if (err) {
		snprintf(why, why_size, "initialize: %s", strerror(-err));
		*failed = true;
		close(d->fd);
		d->fd = -1;
	}
	return err;
}

struct renamer {
	pthread_t th;
	int cpu;
	int n;
	int forks;
	char tag;	/* names are "f<tag><cpu>-<i>" */
};

static void *renamer_main(void *arg)
{
	struct renamer *r = arg;
	char name[16];

	cpu_pin(0, r->cpu);
	for (int i = 0; i < r->n; i++) {
		snprintf(name, sizeof(name), "f%c%u-%u", r->tag, (r->cpu & 0xff),
			 (i & 0xffff));
		prctl(PR_SET_NAME, name);
	}
	/* A few forks: kernel object records of the children. */
	for (int i = 0; i < r->forks; i++) {
		pid_t p = fork();

		if (p == 0)
			_exit(0);
		if (p > 0)
			waitpid(p, NULL, 0);
	}
	return NULL;
}

int dev_start(struct fxt_device *d, char *why, size_t why_size, bool *failed,
	      uint32_t mode, uint64_t size, uint64_t durable, uint32_t cats)
{
	int err = dev_init(d, why, why_size, failed, mode, size, durable, cats);

	if (err)
		return err;
	err = fxt_device_start(d, FXT_START_CLEAR_ENTIRE);
	if (err) {
		snprintf(why, why_size, "start: %s", strerror(-err));
		*failed = true;
		fxt_device_close(d);
	}
	return err;
}

void rename_on_every_cpu(int n, int forks, char tag)
{
	struct renamer r[MAX_CPUS];

	for (int i = 0; i < NCPUS; i++) {
		r[i] = (struct renamer){ .cpu = CPUS[i], .n = n, .forks = forks,
					 .tag = tag };
		pthread_create(&r[i].th, NULL, renamer_main, &r[i]);
	}
	for (int i = 0; i < NCPUS; i++)
		pthread_join(r[i].th, NULL);
}

int get_stats(struct fxt_device *d, struct fxt_cpu_stats *st)
{
	for (unsigned int c = 0; c < d->layout.nr_cpus && c < MAX_CPUS; c++) {
		int err = 0;

		st[c] = (struct fxt_cpu_stats){ .cpu = c };
		if (fxt_device_cpu_possible(d, c))
			err = fxt_device_cpu_stats(d, c, &st[c]);
		if (err)
			return err;
	}
	return 0;
}

void print_stats(const char *what, const struct fxt_cpu_stats *st)
{
	for (int i = 0; i < NCPUS; i++) {
		const struct fxt_cpu_stats *s = &st[CPUS[i]];

		printf("# %s cpu%d: flags %#x written %llu dropped %llu durable %llu d.dropped %llu wraps %llu\n",
		       what, CPUS[i], s->flags,
		       (unsigned long long)s->records_written,
		       (unsigned long long)s->records_dropped,
		       (unsigned long long)s->durable_records,
		       (unsigned long long)s->durable_dropped,
		       (unsigned long long)s->wrapped_count);
	}
}

bool any_cpu_flag(const struct fxt_cpu_stats *st, uint32_t flag)
{
	bool any = false;

	for (int i = 0; i < NCPUS; i++)
		any |= !!(st[CPUS[i]].flags & flag);
	return any;
}
