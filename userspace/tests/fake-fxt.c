// SPDX-License-Identifier: MIT
/*
 * fake-fxt.so - an LD_PRELOAD stand-in for /dev/fxt, so that the host
 * tests run fxt-collect's session logic (latency trigger windows) without
 * the module: open() of FAKE_FXT_PATH gives a pipe whose read end is the
 * "device" (packets arrive on it as from the module), ioctl() and mmap()
 * on it answer as the module would for two CPUs in circular mode.
 *
 * Each START writes one durable string record per CPU (so that every
 * window's archive must hold it: the buffers were emptied) and posts
 * STARTED; with FAKE_FXT_FIRE=N, the first N starts each post a TRIGGERED
 * packet 100 ms later (CPU 1, trigger 0, this process's pid as the tid,
 * latency 23456789 ns). GET_STATS gives trigger_missed 3 on CPU 1.
 * With FAKE_FXT_WRAP=1 (circular mode), each START also leaves instant
 * events in the rolling buffers as a wrapped window would: CPU 0 wrapped
 * once, its older buffer from 1000 ns, its current one from 1200 ns; CPU 1
 * never wrapped, from 500 ns (write_window()).
 * With FAKE_FXT_STREAM=1 (streaming mode), CPU 0 runs ahead of the
 * collector as a busy CPU does (stream_start(), stream_ack()): at START it
 * has filled both rolling buffers and dropped 2 records; the collector's
 * acknowledgement of buffer 0 (write()) rolls into buffer 0, fills it and
 * drops 3 more before write() returns; that of buffer 1 rolls into buffer
 * 1, which gets one record, saved at the stop. The 2 are lost between the first buffer 1's
 * records and the second buffer 0's, the 3 after those.
 * Everything else goes to the C library.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/fxt.h>
#include <fxt/format.h>

#define FAKE_FXT_PATH	"/fake/fxt"
#define NCPUS		2
#define STRIDE		(1u << 20)
#define DURABLE_OFF	4096u
#define DURABLE_SIZE	65536u
#define ROLLING_SIZE	262144u

static int rfd = -1, wfd = -1;
static unsigned char *map;
static unsigned int mode, starts, acks;

static void post(unsigned int req, unsigned int cpu, unsigned int d32, uint64_t d64)
{
	struct fxt_packet p = { .request = (__u16)req, .cpu = (__u16)cpu,
				.data32 = d32, .data64 = d64 };

	if (write(wfd, &p, sizeof(p)) != sizeof(p))
		abort();
}

static void *fire(void *arg)
{
	struct timespec t = { 0, 100 * 1000000L };

	(void)arg;
	nanosleep(&t, NULL);
	post(FXT_PKT_TRIGGERED, 1, (unsigned int)getpid() << 8, 23456789);
	return NULL;
}

int open(const char *path, int flags, ...)
{
	static int (*real)(const char *, int, ...);
	int fds[2], m;
	va_list ap;

	if (!strcmp(path, FAKE_FXT_PATH)) {
		if (pipe2(fds, O_CLOEXEC))
			return -1;
		rfd = fds[0];
		wfd = fds[1];
		return rfd;
	}
	if (!real)
		real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
	va_start(ap, flags);
	m = va_arg(ap, int);
	va_end(ap);
	return real(path, flags, m);
}

/* One string record, "irq" at index 1, in each CPU's durable buffer. */
static void write_durable(void)
{
	uint64_t w[2] = { fxt_string_header(1, 3), 0 };
	unsigned int c;

	memcpy(&w[1], "irq", 3);
	for (c = 0; map && c < NCPUS; c++) {
		struct fxt_buffer_header *h = (void *)(map + (size_t)c * STRIDE);

		memcpy(map + (size_t)c * STRIDE + DURABLE_OFF, w, sizeof(w));
		h->durable_reserved = h->durable_committed = sizeof(w);
	}
}

/* Instant events (thread inline, category and name "irq") at ts[0..n-1]. */
static void write_events(unsigned int cpu, unsigned int b, const uint64_t *ts,
			 unsigned int n)
{
	struct fxt_buffer_header *h = (void *)(map + (size_t)cpu * STRIDE);
	uint64_t *w = (uint64_t *)(map + (size_t)cpu * STRIDE + h->rolling_offset[b]);
	unsigned int i;

	for (i = 0; i < n; i++, w += 4) {
		w[0] = fxt_event_header(4, FXT_EVENT_INSTANT, 0, 0, 1, 1);
		w[1] = ts[i];
		w[2] = 1;
		w[3] = 1;
	}
	h->rolling_data_end[b] = h->rolling_committed[b] = n * 32;
}

static void write_window(void)
{
	static const uint64_t older[] = { 1000, 1100 }, current[] = { 1200, 1300 },
		cpu1[] = { 500, 1050, 1250 };
	struct fxt_buffer_header *h0 = (void *)map, *h1 = (void *)(map + STRIDE);

	write_events(0, 0, older, 2);
	write_events(0, 1, current, 2);
	h0->rolling_current = 1ull << FXT_ROLLING_OFFSET_BITS | 2 * 32;
	write_events(1, 0, cpu1, 3);
	h1->rolling_current = 3 * 32;
}

/*
 * A roll into buffer @b of CPU 0, as fxt_rolling_switch() does it: the
 * other buffer's end, the drop count so far, then the reserve word.
 */
static void stream_roll(unsigned int b, uint32_t wrapped)
{
	struct fxt_buffer_header *h = (void *)map;

	h->rolling_data_end[b ^ 1] = h->rolling_current & FXT_ROLLING_OFFSET_MASK;
	h->rolling_committed[b] = h->rolling_data_end[b] = 0;
	h->rolling_lost_before[b] = h->records_dropped;
	h->rolling_current = (uint64_t)wrapped << FXT_ROLLING_OFFSET_BITS;
}

/* CPU 0 writes @n instant events at @ts into its current buffer. */
static void stream_write(const uint64_t *ts, unsigned int n)
{
	struct fxt_buffer_header *h = (void *)map;
	unsigned int b = (h->rolling_current >> FXT_ROLLING_OFFSET_BITS) & 1;
	uint64_t end = (h->rolling_current & FXT_ROLLING_OFFSET_MASK) + n * 32;

	write_events(0, b, ts, n);
	h->rolling_data_end[b] = 0;	/* still the current buffer */
	h->rolling_current = (h->rolling_current & ~FXT_ROLLING_OFFSET_MASK) | end;
	h->records_written += n;
}

static void stream_start(void)
{
	static const uint64_t b0[] = { 1000, 1100 }, b1[] = { 1200, 1300 };
	struct fxt_buffer_header *h = (void *)map;

	stream_write(b0, 2);
	stream_roll(1, 1);
	stream_write(b1, 2);
	h->records_dropped = 2;		/* buffer 1 full, 0 not saved yet */
	post(FXT_PKT_SAVE_BUFFER, 0, 0, h->durable_reserved);
}

static void stream_ack(void)
{
	static const uint64_t again0[] = { 1500, 1600 }, again1[] = { 1800 };
	struct fxt_buffer_header *h = (void *)map;

	if (++acks == 1) {
		stream_roll(0, 2);
		stream_write(again0, 2);
		post(FXT_PKT_SAVE_BUFFER, 0, 1, h->durable_reserved);
		h->records_dropped += 3;	/* before the collector reads it */
	} else if (acks == 2) {
		stream_roll(1, 3);
		stream_write(again1, 1);
		post(FXT_PKT_SAVE_BUFFER, 0, 2, h->durable_reserved);
	}
}

ssize_t write(int fd, const void *buf, size_t len)
{
	static ssize_t (*real)(int, const void *, size_t);

	if (rfd >= 0 && fd == rfd && len == sizeof(struct fxt_packet)) {
		if (map && mode == FXT_MODE_STREAMING && getenv("FAKE_FXT_STREAM"))
			stream_ack();
		return (ssize_t)len;
	}
	if (!real)
		real = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	return real(fd, buf, len);
}

static int fake_ioctl(unsigned long req, void *arg)
{
	static const char *const names[] = { "sched", "wakeup", "irq", "softirq" };
	unsigned int i;

	switch (req) {
	case FXT_IOC_GET_CATEGORIES: {
		struct fxt_categories *c = arg;

		memset(c, 0, sizeof(*c));
		c->count = 4;
		for (i = 0; i < 4; i++) {
			c->cat[i].bit = 1u << i;
			strcpy(c->cat[i].name, names[i]);
		}
		return 0;
	}
	case FXT_IOC_INITIALIZE:
		mode = ((struct fxt_config *)arg)->mode;
		return 0;
	case FXT_IOC_GET_LAYOUT: {
		struct fxt_layout *l = arg;

		memset(l, 0, sizeof(*l));
		l->abi_version = FXT_ABI_VERSION;
		l->nr_cpus = NCPUS;
		l->cpu_stride = STRIDE;
		l->map_size = (uint64_t)NCPUS * STRIDE;
		l->mode = mode;
		return 0;
	}
	case FXT_IOC_GET_CPUS:
		*(uint64_t *)(uintptr_t)((struct fxt_cpu_set *)arg)->bits = (1u << NCPUS) - 1;
		return 0;
	case FXT_IOC_SET_TRIGGERS:
		return mode == FXT_MODE_CIRCULAR ? 0 : -1;
	case FXT_IOC_START: {
		const char *n = getenv("FAKE_FXT_FIRE");
		pthread_t t;

		write_durable();
		if (map && mode == FXT_MODE_CIRCULAR && getenv("FAKE_FXT_WRAP"))
			write_window();
		post(FXT_PKT_STARTED, 0, FXT_FIFO_PROTOCOL_VERSION, 0);
		if (map && mode == FXT_MODE_STREAMING && getenv("FAKE_FXT_STREAM"))
			stream_start();
		if (n && ++starts <= (unsigned int)atoi(n) &&
		    !pthread_create(&t, NULL, fire, NULL))
			pthread_detach(t);
		return 0;
	}
	case FXT_IOC_STOP:
		post(FXT_PKT_STOPPED, 0, 0, 0);
		return 0;
	case FXT_IOC_GET_STATS: {
		struct fxt_cpu_stats *st = arg;
		unsigned int cpu = st->cpu;

		memset(st, 0, sizeof(*st));
		st->cpu = cpu;
		st->trigger_missed = cpu == 1 ? 3 : 0;
		return 0;
	}
	default:
		return 0;	/* TERMINATE */
	}
}

int ioctl(int fd, unsigned long req, ...)
{
	static int (*real)(int, unsigned long, ...);
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (rfd >= 0 && fd == rfd)
		return fake_ioctl(req, arg);
	if (!real)
		real = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	return real(fd, req, arg);
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	static void *(*real)(void *, size_t, int, int, int, off_t);
	unsigned int c;

	if (!real)
		real = (void *(*)(void *, size_t, int, int, int, off_t))dlsym(RTLD_NEXT, "mmap");
	if (rfd < 0 || fd != rfd)
		return real(addr, len, prot, flags, fd, off);
	map = real(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		return map;
	for (c = 0; c < NCPUS; c++) {
		struct fxt_buffer_header *h = (void *)(map + (size_t)c * STRIDE);

		h->magic = FXT_BUFFER_MAGIC;
		h->version = FXT_ABI_VERSION;
		h->cpu = c;
		h->mode = mode;
		h->region_size = STRIDE;
		h->durable_offset = DURABLE_OFF;
		h->durable_size = DURABLE_SIZE;
		h->rolling_offset[0] = DURABLE_OFF + DURABLE_SIZE;
		h->rolling_offset[1] = DURABLE_OFF + DURABLE_SIZE + ROLLING_SIZE;
		h->rolling_size = ROLLING_SIZE;
	}
	return map;
}
