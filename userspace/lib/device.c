// SPDX-License-Identifier: MIT
/*
 * device.c - /dev/fxt's control and mapping, for fxt-collect and the
 * selftests (ioctls, mmap, statistics).
 *
 * One vmalloc_user() area holds a region per CPU, mapped read-only with
 * one mmap() (Documentation/buffers.rst):
 *
 *    mapping offset 0            cpu_stride             2*cpu_stride
 *    +-------------------------+-----------------------+----
 *    |  CPU 0 region           |  CPU 1 region         | ...
 *    +-------------------------+-----------------------+----
 *
 *    one CPU's region:
 *
 *    0          PAGE_SIZE        +durable_size    +rolling_size   +rolling_size
 *    +----------+----------------+----------------+---------------+--------+
 *    | header   | durable buffer | rolling buf 0  | rolling buf 1 | (pad)  |
 *    | (struct  | strings, thread| events, context switches,     |        |
 *    | fxt_     | records, names | wakeups                       |        |
 *    | buffer_  | never over-    | circular: the older one is    |        |
 *    | header)  | written        | overwritten; oneshot: 0 and 1 |        |
 *    |          |                | are one buffer                |        |
 *    +----------+----------------+-------------------------------+--------+
 *
 * This file opens, sets up, maps, starts and stops the device and reads
 * its statistics; lib/drain.c saves what the writers put in the regions.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "device_cpu.h"

/*
 * ENOTTY from a known ioctl: the module is of another ABI version, whose
 * ioctl numbers differ (version 1 used the magic 'F').
 */
#define ABI_MISMATCH_HINT \
	" (fxt.ko and fxt-collect are of different ABI versions: build and install them together)"


uint64_t fxt_monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t fxt_boottime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int fxt_device_fail(struct fxt_device *d, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->err, sizeof(d->err), fmt, ap);
	va_end(ap);
	return err;
}

void fxt_device_warn(struct fxt_device *d, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: warning: ", d->prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int fxt_device_open(struct fxt_device *d, const char *path, const char *prog)
{
	int err;

	memset(d, 0, sizeof(*d));
	d->prog = prog;
	d->fd = open(path, O_RDWR | O_CLOEXEC);
	if (d->fd >= 0)
		return 0;
	err = -errno;
	switch (errno) {
	case ENOENT:
	case ENODEV:
	case ENXIO:
		return fail(d, err, "%s: no such device; is the module loaded? (sudo insmod module/fxt.ko)",
			    path);
	case EACCES:
	case EPERM:
		return fail(d, err, "%s: permission denied; tracing needs root or CAP_PERFMON",
			    path);
	case EBUSY:
		return fail(d, err, "%s: busy; another fxt session is running", path);
	default:
		return fail(d, err, "%s: %s", path, strerror(errno));
	}
}

/* Category names are the module's own (FXT_IOC_GET_CATEGORIES). */
static int category_bit(struct fxt_device *d, const struct fxt_categories *cats,
			const char *tok, uint32_t *bit)
{
	uint32_t i, n = cats->count < FXT_MAX_CATEGORIES ? cats->count :
			FXT_MAX_CATEGORIES;
	bool all = !strcmp(tok, "all");
	size_t len;

	*bit = 0;
	for (i = 0; i < n; i++)
		if (all || !strncmp(tok, cats->cat[i].name, sizeof(cats->cat[i].name)))
			*bit |= cats->cat[i].bit;
	if (*bit || all)
		return 0;
	len = (size_t)snprintf(d->err, sizeof(d->err), "unknown category '%s'; known:",
			       tok);
	for (i = 0; i < n && len < sizeof(d->err); i++)
		len += (size_t)snprintf(d->err + len, sizeof(d->err) - len, " %.*s",
					(int)sizeof(cats->cat[i].name),
					cats->cat[i].name);
	return -EINVAL;
}

int fxt_device_categories(struct fxt_device *d, const char *list, uint32_t *bits)
{
	struct fxt_categories cats;
	char *copy, *tok, *save = NULL;
	uint32_t bit;
	int err = 0;

	*bits = 0;
	if (ioctl(d->fd, FXT_IOC_GET_CATEGORIES, &cats))
		return fail(d, -errno, "cannot list categories: %s%s", strerror(errno),
			    errno == ENOTTY ? ABI_MISMATCH_HINT : "");
	copy = strdup(list);
	if (!copy)
		return fail(d, -ENOMEM, "out of memory");
	for (tok = strtok_r(copy, ",", &save); tok && !err;
	     tok = strtok_r(NULL, ",", &save)) {
		err = category_bit(d, &cats, tok, &bit);
		*bits |= bit;
	}
	free(copy);
	if (!err && !*bits)
		err = fail(d, -EINVAL, "no categories selected");
	return err;
}

/* The CPUs with a region, however many CPUs there are (FXT_IOC_GET_CPUS). */
static int read_traced_cpus(struct fxt_device *d)
{
	struct fxt_cpu_set set = { .nr_bits = d->layout.nr_cpus };
	size_t words = (d->layout.nr_cpus + 63) / 64;

	free(d->traced);
	d->traced = calloc(words ? words : 1, sizeof(*d->traced));
	if (!d->traced)
		return fail(d, -ENOMEM, "out of memory");
	set.bits = (uintptr_t)d->traced;
	if (ioctl(d->fd, FXT_IOC_GET_CPUS, &set))
		return fail(d, -errno, "the CPUs with buffers: %s", strerror(errno));
	return 0;
}

int fxt_device_init(struct fxt_device *d, const struct fxt_config *cfg)
{
	if (ioctl(d->fd, FXT_IOC_INITIALIZE, cfg))
		return fail(d, -errno, "initialize (buffer %" PRIu64 " bytes per CPU): %s%s",
			    (uint64_t)cfg->buffer_size, strerror(errno),
			    errno == EINVAL ? " (size: 64K..1G, a multiple of the page size)" :
			    errno == ENOMEM ? " (the module takes at most half the memory available"
					      " for all present CPUs' buffers: a smaller -b)" :
			    errno == ENOTTY ? ABI_MISMATCH_HINT : "");
	if (ioctl(d->fd, FXT_IOC_GET_LAYOUT, &d->layout))
		return fail(d, -errno, "layout: %s", strerror(errno));
	if (d->layout.abi_version != FXT_ABI_VERSION)
		return fail(d, -EPROTO, "the module speaks ABI version %u, %s %u%s",
			    d->layout.abi_version, d->prog, FXT_ABI_VERSION,
			    ABI_MISMATCH_HINT);
	return read_traced_cpus(d);
}

int fxt_device_map(struct fxt_device *d)
{
	const uint8_t *map;

	map = mmap(NULL, d->layout.map_size, PROT_READ, MAP_SHARED, d->fd, 0);
	if (map == MAP_FAILED)
		return fail(d, -errno, "mapping %" PRIu64 " bytes of buffers: %s",
			    (uint64_t)d->layout.map_size, strerror(errno));
	d->map = map;
	d->cpus = calloc(d->layout.nr_cpus, sizeof(*d->cpus));
	if (!d->cpus)
		return fail(d, -ENOMEM, "out of memory");
	return 0;
}

int fxt_device_set_triggers(struct fxt_device *d, const struct fxt_trigger_set *set)
{
	if (ioctl(d->fd, FXT_IOC_SET_TRIGGERS, set))
		return fail(d, -errno, "setting %u latency triggers: %s%s", set->count,
			    strerror(errno),
			    errno == EINVAL ? " (circular mode only; each trigger's categories"
					      " must be traced)" :
			    errno == ENOTTY ? ABI_MISMATCH_HINT : "");
	return 0;
}

int fxt_device_start(struct fxt_device *d, uint32_t disposition)
{
	struct fxt_start_options o = { .disposition = disposition };
	uint64_t now = fxt_boottime_ns();
	uint32_t cpu;

	if (ioctl(d->fd, FXT_IOC_START, &o))
		return fail(d, -errno, "start: %s", strerror(errno));
	d->triggered = (struct fxt_device_trigger){ 0 };
	if (!d->start_ns || disposition == FXT_START_CLEAR_ENTIRE || d->results_stop)
		d->start_ns = now;
	d->stop_ns = 0;
	d->ended_ns = 0;
	/*
	 * Emptied buffers (CLEAR_ENTIRE, forced after a stop that wrote
	 * results): what was saved of them is history.
	 */
	for (cpu = 0; d->cpus && (disposition == FXT_START_CLEAR_ENTIRE || d->results_stop) &&
		      cpu < d->layout.nr_cpus; cpu++) {
		d->cpus[cpu].durable_saved = 0;
		d->cpus[cpu].dropped_reported = 0;
		d->cpus[cpu].dropped_at_ack = 0;
		d->cpus[cpu].last_ts = 0;
		d->cpus[cpu].lost_reported = 0;
		d->cpus[cpu].gap_records = 0;
	}
	return 0;
}

int fxt_device_stop(struct fxt_device *d, uint32_t flags)
{
	struct fxt_stop_options o = { .flags = flags };

	if (ioctl(d->fd, FXT_IOC_STOP, &o))
		return fail(d, -errno, "stop: %s", strerror(errno));
	/* Every probe is unhooked: nothing is written or lost after this. */
	d->stop_ns = fxt_boottime_ns();
	d->results_stop = flags & FXT_STOP_WRITE_RESULTS;
	return 0;
}

int fxt_device_close(struct fxt_device *d)
{
	int err = 0;

	if (d->fd < 0)
		return -EBADF;
	if (d->map)
		munmap((void *)d->map, d->layout.map_size);
	d->map = NULL;
	free(d->cpus);
	d->cpus = NULL;
	free(d->traced);
	d->traced = NULL;
	if (ioctl(d->fd, FXT_IOC_TERMINATE))
		err = fail(d, -errno, "terminate: %s", strerror(errno));
	close(d->fd);
	d->fd = -1;
	return err;
}

bool fxt_device_cpu_possible(const struct fxt_device *d, uint32_t cpu)
{
	if (!d->traced || cpu >= d->layout.nr_cpus)
		return false;
	return d->traced[cpu / 64] >> (cpu % 64) & 1;
}

int fxt_device_cpu_stats(struct fxt_device *d, uint32_t cpu,
			 struct fxt_cpu_stats *st)
{
	*st = (struct fxt_cpu_stats){ .cpu = cpu };
	if (ioctl(d->fd, FXT_IOC_GET_STATS, st))
		return fail(d, -errno, "stats of cpu %u: %s", cpu, strerror(errno));
	return 0;
}

bool fxt_device_traced_stats(struct fxt_device *d, uint32_t cpu,
			     struct fxt_cpu_stats *st)
{
	return fxt_device_cpu_possible(d, cpu) &&
	       !fxt_device_cpu_stats(d, cpu, st) &&
	       !(st->flags & FXT_CPU_NOT_TRACED);
}

void fxt_device_totals(const struct fxt_device *d, struct fxt_device_totals *t)
{
	uint32_t cpu;

	*t = (struct fxt_device_totals){ 0 };
	for (cpu = 0; cpu < d->layout.nr_cpus; cpu++) {
		const volatile struct fxt_buffer_header *h = d->cpus[cpu].hdr;

		if (!d->cpus[cpu].present)
			continue;
		t->events += h->records_written;
		t->written += h->records_written + h->durable_records;
		t->dropped += h->records_dropped + h->durable_dropped;
	}
}

void fxt_device_warn_untraced(struct fxt_device *d)
{
	uint32_t cpu, cpus = 0, first = 0;
	uint64_t lost = 0;

	for (cpu = 0; cpu < d->layout.nr_cpus; cpu++) {
		struct fxt_cpu_stats st = { .cpu = cpu };

		if (fxt_device_cpu_possible(d, cpu) ||
		    ioctl(d->fd, FXT_IOC_GET_STATS, &st) ||
		    !(st.flags & FXT_CPU_NOT_TRACED) || !st.records_dropped)
			continue;	/* traced, not possible, or nothing lost */
		if (!cpus++)
			first = cpu;
		lost += st.records_dropped;
	}
	if (lost)
		warn(d, "%u CPUs (CPU %u first) were added after tracing was set up and were not traced: %" PRIu64 " events lost; start again to trace them",
		     cpus, first, lost);
}
