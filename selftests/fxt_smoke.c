// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_smoke - the /dev/fxt ABI (include/uapi/linux/fxt.h) without a collector:
 * open, session states, categories, layout and mapping, the STARTED and
 * STOPPED packets, statistics, and the error paths.
 *
 * Runs as root in the VM with fxt.ko loaded (selftests/run-all).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/capability.h>
#include <linux/fxt.h>

#include "kselftest_harness.h"
#include "kfile.h"

/*
 * Expected errnos of the error paths, all in this one table: it mirrors the
 * "Errors" table of Documentation/abi.rst, row for row where a row can be
 * provoked without a collector (out of memory: more than half of what the
 * guest has available, 1 GiB per possible CPU).
 */
enum err_case {
	ERR_OPEN_NO_CAP,
	ERR_SECOND_OPEN,
	ERR_INIT_TWICE,
	ERR_INIT_BAD_MODE,
	ERR_INIT_BAD_CATEGORY,
	ERR_INIT_RESERVED,
	ERR_INIT_SIZE_SMALL,
	ERR_INIT_SIZE_UNALIGNED,
	ERR_INIT_BAD_DURABLE,
	ERR_INIT_NO_MEMORY,
	ERR_START_BEFORE_INIT,
	ERR_START_TWICE,
	ERR_START_BAD_DISPOSITION,
	ERR_START_RESERVED,
	ERR_STOP_BEFORE_INIT,
	ERR_STOP_NOT_STARTED,
	ERR_STOP_BAD_FLAG,
	ERR_TERMINATE_READY,
	ERR_TERMINATE_MAPPED,
	ERR_LAYOUT_BEFORE_INIT,
	ERR_STATS_BEFORE_INIT,
	ERR_STATS_BAD_CPU,
	ERR_UNKNOWN_IOCTL,
	ERR_MMAP_BEFORE_INIT,
	ERR_MMAP_WRITE,
	ERR_MMAP_PRIVATE_WRITE,
	ERR_MPROTECT_WRITE,
	ERR_MMAP_TOO_BIG,
	ERR_SHORT_READ,
	ERR_NONBLOCK_READ_EMPTY,
	ERR_WRITE_ODD_LENGTH,
	ERR_WRITE_UNSOLICITED,
	ERR_WRITE_NOT_STREAMING,
	NR_ERR_CASES
};

static const struct {
	const char *what;
	int err;
} expected[NR_ERR_CASES] = {
	[ERR_OPEN_NO_CAP]	    = { "open without CAP_PERFMON/CAP_SYS_ADMIN",	EPERM },
	[ERR_SECOND_OPEN]	    = { "open while already open",			EBUSY },
	[ERR_INIT_TWICE]	    = { "INITIALIZE in INITIALIZED",			EBUSY },
	[ERR_INIT_BAD_MODE]	    = { "INITIALIZE with mode 0",			EINVAL },
	[ERR_INIT_BAD_CATEGORY]	    = { "INITIALIZE with an unknown category bit",	EINVAL },
	[ERR_INIT_RESERVED]	    = { "INITIALIZE with reserved[0] != 0",		EINVAL },
	[ERR_INIT_SIZE_SMALL]	    = { "INITIALIZE below FXT_BUFFER_SIZE_MIN",		EINVAL },
	[ERR_INIT_SIZE_UNALIGNED]   = { "INITIALIZE with a size not page-aligned",	EINVAL },
	[ERR_INIT_BAD_DURABLE]	    = { "INITIALIZE with durable_size > buffer_size",	EINVAL },
	[ERR_INIT_NO_MEMORY]	    = { "INITIALIZE beyond half the available memory",	ENOMEM },
	[ERR_START_BEFORE_INIT]	    = { "START in READY",				EBADFD },
	[ERR_START_TWICE]	    = { "START in STARTED",				EALREADY },
	[ERR_START_BAD_DISPOSITION] = { "START with disposition 0",			EINVAL },
	[ERR_START_RESERVED]	    = { "START with reserved[0] != 0",			EINVAL },
	[ERR_STOP_BEFORE_INIT]	    = { "STOP in READY",				EBADFD },
	[ERR_STOP_NOT_STARTED]	    = { "STOP in INITIALIZED",				EALREADY },
	[ERR_STOP_BAD_FLAG]	    = { "STOP with an unknown flag",			EINVAL },
	[ERR_TERMINATE_READY]	    = { "TERMINATE in READY",				EBADFD },
	[ERR_TERMINATE_MAPPED]	    = { "TERMINATE with the buffers mapped",		EBUSY },
	[ERR_LAYOUT_BEFORE_INIT]    = { "GET_LAYOUT in READY",				EBADFD },
	[ERR_STATS_BEFORE_INIT]	    = { "GET_STATS in READY",				EBADFD },
	[ERR_STATS_BAD_CPU]	    = { "GET_STATS for cpu >= nr_cpus",			EINVAL },
	[ERR_UNKNOWN_IOCTL]	    = { "unknown ioctl",				ENOTTY },
	[ERR_MMAP_BEFORE_INIT]	    = { "mmap in READY",				EBADFD },
	[ERR_MMAP_WRITE]	    = { "mmap with PROT_WRITE",				EPERM },
	[ERR_MMAP_PRIVATE_WRITE]    = { "mmap with PROT_WRITE, MAP_PRIVATE",		EPERM },
	[ERR_MPROTECT_WRITE]	    = { "mprotect of the mapping to PROT_WRITE",	EACCES },
	[ERR_MMAP_TOO_BIG]	    = { "mmap beyond map_size",				EINVAL },
	[ERR_SHORT_READ]	    = { "read() of less than one packet",		EINVAL },
	[ERR_NONBLOCK_READ_EMPTY]   = { "O_NONBLOCK read() with no packet",		EAGAIN },
	[ERR_WRITE_ODD_LENGTH]	    = { "write() of 8 bytes",				EINVAL },
	[ERR_WRITE_UNSOLICITED]	    = { "BUFFER_SAVED answering no SAVE_BUFFER",	EINVAL },
	[ERR_WRITE_NOT_STREAMING]   = { "write() in circular mode",			EBADFD },
};

#define BUF_SIZE	(1u << 20)	/* per CPU: small, so INITIALIZE is quick */
#define PACKET_WAIT_MS	5000

static int fxt_open(void)
{
	return open(FXT_DEVICE_PATH, O_RDWR | O_CLOEXEC);
}

static int get_state(int fd)
{
	__u32 state = 0;

	if (ioctl(fd, FXT_IOC_GET_STATE, &state))
		return -errno;
	return (int)state;
}

static int fxt_init(int fd, __u32 mode, __u64 size)
{
	struct fxt_config cfg = {
		.buffer_size = size, .mode = mode, .categories = FXT_CAT_ALL,
	};

	return ioctl(fd, FXT_IOC_INITIALIZE, &cfg) ? -errno : 0;
}

static int fxt_start_disp(int fd, __u32 disposition)
{
	struct fxt_start_options opt = { .disposition = disposition };

	return ioctl(fd, FXT_IOC_START, &opt) ? -errno : 0;
}

static int fxt_start(int fd)
{
	return fxt_start_disp(fd, FXT_START_CLEAR_ENTIRE);
}

static int fxt_stop(int fd, __u32 flags)
{
	struct fxt_stop_options opt = { .flags = flags };

	return ioctl(fd, FXT_IOC_STOP, &opt) ? -errno : 0;
}

static int get_layout(int fd, struct fxt_layout *l)
{
	memset(l, 0, sizeof(*l));
	return ioctl(fd, FXT_IOC_GET_LAYOUT, l) ? -errno : 0;
}

/* One packet, waiting at most PACKET_WAIT_MS. Return: 0 or -errno. */
static int read_packet(int fd, struct fxt_packet *p)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	ssize_t n;
	int ret;

	ret = poll(&pfd, 1, PACKET_WAIT_MS);
	if (ret < 0)
		return -errno;
	if (ret == 0)
		return -ETIMEDOUT;
	n = read(fd, p, sizeof(*p));
	if (n < 0)
		return -errno;
	return n == sizeof(*p) ? 0 : -EPROTO;
}

/*
 * Read packets until one with the given request, answering SAVE_BUFFER with
 * BUFFER_SAVED as a collector would (streaming mode may ask). Return: 0 or
 * -errno of the read that failed.
 */
/*
 * Read packets up to one of request, answering the SAVE_BUFFERs on the
 * way; answered (256 CPUs, or NULL) notes per CPU the rolls answered.
 */
static int wait_packet_noting(int fd, __u16 request, struct fxt_packet *p,
			      __u32 *answered)
{
	for (int i = 0; i < 1000; i++) {
		int ret = read_packet(fd, p);

		if (ret)
			return ret;
		if (p->request == request)
			return 0;
		if (p->request == FXT_PKT_SAVE_BUFFER) {
			struct fxt_packet ack = *p;

			ack.request = FXT_PKT_BUFFER_SAVED;
			if (write(fd, &ack, sizeof(ack)) != sizeof(ack))
				return -errno;
			if (answered && p->cpu < 256)
				answered[p->cpu] = p->data32 + 1;
		}
	}
	return -ELOOP;
}

static int wait_packet(int fd, __u16 request, struct fxt_packet *p)
{
	return wait_packet_noting(fd, request, p, NULL);
}

static bool cpu_possible(const struct fxt_layout *l, unsigned int cpu)
{
	return cpu < 256 && (l->possible_cpus[cpu / 64] >> (cpu % 64)) & 1;
}

static long page_size(void)
{
	return sysconf(_SC_PAGESIZE);
}

TEST(open_as_root)
{
	int fd;

	if (geteuid() != 0)
		SKIP(return, "not root");
	fd = fxt_open();
	ASSERT_LE(0, fd) TH_LOG("open %s: %s (is fxt.ko loaded?)",
				FXT_DEVICE_PATH, strerror(errno));
	close(fd);
}

FIXTURE(fxt) {
	int fd;
	void *map;
	size_t map_size;
};

FIXTURE_SETUP(fxt)
{
	self->map = NULL;
	self->fd = fxt_open();
	ASSERT_LE(0, self->fd) TH_LOG("open %s: %s", FXT_DEVICE_PATH,
				      strerror(errno));
}

FIXTURE_TEARDOWN(fxt)
{
	if (self->map)
		munmap(self->map, self->map_size);
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(fxt, state_ready_initially)
{
	ASSERT_EQ(FXT_STATE_READY, get_state(self->fd));
}

TEST_F(fxt, categories)
{
	static const struct { const char *name; __u32 bit; } want[] = {
		{ "sched", FXT_CAT_SCHED }, { "wakeup", FXT_CAT_WAKEUP },
		{ "irq", FXT_CAT_IRQ }, { "softirq", FXT_CAT_SOFTIRQ },
	};
	struct fxt_categories cats;
	__u32 seen = 0;

	memset(&cats, 0xff, sizeof(cats));
	ASSERT_EQ(0, ioctl(self->fd, FXT_IOC_GET_CATEGORIES, &cats))
		TH_LOG("GET_CATEGORIES: %s", strerror(errno));
	ASSERT_LE(4, cats.count);
	ASSERT_GE(FXT_MAX_CATEGORIES, cats.count);
	for (__u32 i = 0; i < cats.count; i++) {
		const struct fxt_category *c = &cats.cat[i];

		ASSERT_NE(NULL, memchr(c->name, '\0', sizeof(c->name)))
			TH_LOG("category %u: name not NUL-terminated", i);
		ASSERT_EQ(1, __builtin_popcount(c->bit))
			TH_LOG("category %s: bit 0x%x", c->name, c->bit);
		ASSERT_EQ(0, seen & c->bit)
			TH_LOG("category %s: bit 0x%x listed twice", c->name, c->bit);
		seen |= c->bit;
		TH_LOG("category %s = 0x%x", c->name, c->bit);
	}
	for (size_t w = 0; w < sizeof(want) / sizeof(want[0]); w++) {
		bool found = false;

		for (__u32 i = 0; i < cats.count; i++) {
			if (!strcmp(cats.cat[i].name, want[w].name)) {
				EXPECT_EQ(want[w].bit, cats.cat[i].bit);
				found = true;
			}
		}
		EXPECT_TRUE(found) TH_LOG("category %s missing", want[w].name);
	}
}

TEST_F(fxt, initialize_streaming)
{
	ASSERT_EQ(0, fxt_init(self->fd, FXT_MODE_STREAMING, BUF_SIZE));
	ASSERT_EQ(FXT_STATE_INITIALIZED, get_state(self->fd));
}

TEST_F(fxt, layout)
{
	struct fxt_layout l;
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	ASSERT_EQ(0, fxt_init(self->fd, FXT_MODE_STREAMING, BUF_SIZE));
	ASSERT_EQ(0, get_layout(self->fd, &l));
	TH_LOG("abi %u, nr_cpus %u, cpu_stride %llu, map_size %llu, mode %u, categories 0x%x, possible 0x%llx",
	       l.abi_version, l.nr_cpus, (unsigned long long)l.cpu_stride,
	       (unsigned long long)l.map_size, l.mode, l.categories,
	       (unsigned long long)l.possible_cpus[0]);
	EXPECT_EQ(FXT_ABI_VERSION, l.abi_version);
	ASSERT_LE(online, l.nr_cpus);
	ASSERT_LT(0, l.cpu_stride);
	EXPECT_EQ(0, l.cpu_stride % page_size());
	EXPECT_LE(BUF_SIZE, l.cpu_stride);
	ASSERT_EQ((__u64)l.nr_cpus * l.cpu_stride, l.map_size);
	EXPECT_EQ(FXT_MODE_STREAMING, l.mode);
	EXPECT_EQ(FXT_CAT_ALL, l.categories);
	for (unsigned int c = 0; c < 256; c++) {
		if (c < (unsigned int)online) {
			EXPECT_TRUE(cpu_possible(&l, c))
				TH_LOG("online cpu %u has no region", c);
		}
		if (c >= l.nr_cpus) {
			EXPECT_FALSE(cpu_possible(&l, c))
				TH_LOG("cpu %u >= nr_cpus marked possible", c);
		}
	}
}

/*
 * FXT_IOC_GET_CPUS: every CPU's bit, however many CPUs (a guest booted
 * with possible_cpus=300 has nr_cpus 300), the first 256 equal to the
 * layout's possible_cpus, set for every present CPU and no other; and its
 * errors.
 */
TEST_F(fxt, get_cpus)
{
	static __u64 bits[1024 / 64];
	struct fxt_cpu_set set = { .nr_bits = 1024, .bits = (uintptr_t)bits };
	char present[256];
	struct fxt_layout l;
	unsigned int c, lo, hi;
	int n, len;
	char *p;

	EXPECT_EQ(-1, ioctl(self->fd, FXT_IOC_GET_CPUS, &set));
	EXPECT_EQ(EBADFD, errno) TH_LOG("GET_CPUS before INITIALIZE");
	ASSERT_EQ(0, fxt_init(self->fd, FXT_MODE_STREAMING, BUF_SIZE));
	ASSERT_EQ(0, get_layout(self->fd, &l));
	ASSERT_GE(1024u, l.nr_cpus);
	memset(bits, 0xff, sizeof(bits));
	ASSERT_EQ(0, ioctl(self->fd, FXT_IOC_GET_CPUS, &set))
		TH_LOG("GET_CPUS: %s", strerror(errno));
	for (c = 0; c < 256 && c < l.nr_cpus; c++)
		EXPECT_EQ(cpu_possible(&l, c), bits[c / 64] >> (c % 64) & 1)
			TH_LOG("cpu %u", c);
	/* The present CPUs have a region, the others none. */
	ASSERT_EQ(0, kfile_read("/sys/devices/system/cpu/present", present,
				sizeof(present)));
	n = 0;
	for (p = present; sscanf(p, "%u%n", &lo, &len) == 1; p++) {
		p += len;
		hi = lo;
		if (*p == '-' && sscanf(p + 1, "%u%n", &hi, &len) == 1)
			p += 1 + len;
		for (c = lo; c <= hi; c++, n++)
			EXPECT_TRUE(bits[c / 64] >> (c % 64) & 1) TH_LOG("cpu %u", c);
		if (*p != ',')
			break;
	}
	for (c = 0, len = 0; c < l.nr_cpus; c++)
		len += bits[c / 64] >> (c % 64) & 1;
	EXPECT_EQ(n, len) TH_LOG("CPUs with a region (%u CPUs)", l.nr_cpus);
	TH_LOG("nr_cpus %u, %d present, %d with a region", l.nr_cpus, n, len);
	set.nr_bits = l.nr_cpus - 1;
	EXPECT_EQ(-1, ioctl(self->fd, FXT_IOC_GET_CPUS, &set));
	EXPECT_EQ(EINVAL, errno) TH_LOG("fewer bits than CPUs");
	set.nr_bits = l.nr_cpus;
	set.reserved = 1;
	EXPECT_EQ(-1, ioctl(self->fd, FXT_IOC_GET_CPUS, &set));
	EXPECT_EQ(EINVAL, errno) TH_LOG("reserved field");
	set.reserved = 0;
	set.bits = 8;
	EXPECT_EQ(-1, ioctl(self->fd, FXT_IOC_GET_CPUS, &set));
	EXPECT_EQ(EFAULT, errno) TH_LOG("bad address");
}

/* Map the whole layout read-only; fills self->map. */
static int map_all(struct __test_metadata *_metadata,
		   FIXTURE_DATA(fxt) *self, struct fxt_layout *l)
{
	ASSERT_EQ(0, fxt_init(self->fd, FXT_MODE_STREAMING, BUF_SIZE));
	ASSERT_EQ(0, get_layout(self->fd, l));
	self->map_size = l->map_size;
	self->map = mmap(NULL, l->map_size, PROT_READ, MAP_SHARED, self->fd, 0);
	if (self->map == MAP_FAILED) {
		self->map = NULL;
		TH_LOG("mmap(PROT_READ, %llu bytes): %s",
		       (unsigned long long)l->map_size, strerror(errno));
		return -1;
	}
	return 0;
}

TEST_F(fxt, mmap_read_only)
{
	struct fxt_layout l;

	ASSERT_EQ(0, map_all(_metadata, self, &l));
	for (unsigned int c = 0; c < l.nr_cpus; c++) {
		const struct fxt_buffer_header *h;

		if (!cpu_possible(&l, c))
			continue;
		h = (const void *)((const char *)self->map + c * l.cpu_stride);
		ASSERT_EQ(FXT_BUFFER_MAGIC, h->magic) TH_LOG("cpu %u", c);
		EXPECT_EQ(FXT_ABI_VERSION, h->version) TH_LOG("cpu %u", c);
		ASSERT_EQ(c, h->cpu);
		EXPECT_EQ(FXT_MODE_STREAMING, h->mode) TH_LOG("cpu %u", c);
		/* "bytes per CPU, header page included" */
		EXPECT_EQ(BUF_SIZE, h->region_size) TH_LOG("cpu %u", c);
		ASSERT_GE(l.cpu_stride, h->region_size) TH_LOG("cpu %u", c);
		EXPECT_LE(page_size(), h->durable_offset) TH_LOG("cpu %u", c);
		EXPECT_GE(h->region_size, h->durable_offset + h->durable_size)
			TH_LOG("cpu %u", c);
		EXPECT_LT(0, h->rolling_size) TH_LOG("cpu %u", c);
		for (int b = 0; b < 2; b++) {
			/* Streaming has both rolling buffers. */
			EXPECT_LE(page_size(), h->rolling_offset[b])
				TH_LOG("cpu %u buffer %d", c, b);
			EXPECT_GE(h->region_size,
				  h->rolling_offset[b] + h->rolling_size)
				TH_LOG("cpu %u buffer %d", c, b);
		}
	}
}

TEST_F(fxt, start_sends_started_packet)
{
	struct fxt_packet p;

	ASSERT_EQ(0, fxt_init(self->fd, FXT_MODE_STREAMING, BUF_SIZE));
	ASSERT_EQ(0, fxt_start(self->fd));
	ASSERT_EQ(FXT_STATE_STARTED, get_state(self->fd));
	memset(&p, 0xff, sizeof(p));
	ASSERT_EQ(0, read_packet(self->fd, &p));
	EXPECT_EQ(FXT_PKT_STARTED, p.request);
	EXPECT_EQ(0, p.cpu);
	EXPECT_EQ(FXT_FIFO_PROTOCOL_VERSION, p.data32);
}

TEST_F(fxt, stop_sends_stopped_packet)
{
	struct fxt_packet p;
	int state;

	ASSERT_EQ(0, fxt_init(self->fd, FXT_MODE_STREAMING, BUF_SIZE));
	ASSERT_EQ(0, fxt_start(self->fd));
	ASSERT_EQ(0, wait_packet(self->fd, FXT_PKT_STARTED, &p));
	usleep(10000);
	ASSERT_EQ(0, fxt_stop(self->fd, FXT_STOP_WRITE_RESULTS));
	/* STOPPING is never observable: the stop is over when STOP returns. */
	state = get_state(self->fd);
	ASSERT_EQ(FXT_STATE_STOPPED, state)
		TH_LOG("state %d right after STOP", state);
	ASSERT_EQ(0, wait_packet(self->fd, FXT_PKT_STOPPED, &p));
	EXPECT_EQ(1, p.data32) TH_LOG("STOPPED data32: 1 when results are to be written");
	ASSERT_EQ(FXT_STATE_STOPPED, get_state(self->fd));
}

TEST_F(fxt, stats_count_records)
{
	struct fxt_layout l;
	struct fxt_cpu_stats st;
	const struct fxt_buffer_header *h;
	struct fxt_packet p;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(set), &set));
	ASSERT_EQ(0, map_all(_metadata, self, &l));
	ASSERT_EQ(0, fxt_start(self->fd));
	ASSERT_EQ(0, wait_packet(self->fd, FXT_PKT_STARTED, &p));
	/* Sleeps switch to idle and back: sched and wakeup records on CPU 0. */
	for (int i = 0; i < 20; i++) {
		usleep(1000);
		sched_yield();
	}
	memset(&st, 0xff, sizeof(st));
	st.cpu = 0;
	ASSERT_EQ(0, ioctl(self->fd, FXT_IOC_GET_STATS, &st))
		TH_LOG("GET_STATS: %s", strerror(errno));
	TH_LOG("cpu 0: written %llu, dropped %llu, wrapped %llu, durable %llu, rolling %llu, flags 0x%x",
	       (unsigned long long)st.records_written,
	       (unsigned long long)st.records_dropped,
	       (unsigned long long)st.wrapped_count,
	       (unsigned long long)st.durable_bytes,
	       (unsigned long long)st.rolling_bytes, st.flags);
	EXPECT_EQ(0, st.cpu);
	EXPECT_LT(0, st.records_written);
	EXPECT_EQ(0, st.records_dropped);
	EXPECT_LT(0, st.rolling_bytes);
	h = self->map;
	EXPECT_LT(0, __atomic_load_n(&h->records_written, __ATOMIC_ACQUIRE))
		TH_LOG("mapped header of cpu 0 shows no records");
	for (unsigned int c = 0; c < l.nr_cpus; c++) {
		if (!cpu_possible(&l, c))
			continue;
		st.cpu = c;
		EXPECT_EQ(0, ioctl(self->fd, FXT_IOC_GET_STATS, &st))
			TH_LOG("GET_STATS cpu %u: %s", c, strerror(errno));
	}
	ASSERT_EQ(0, fxt_stop(self->fd, 0));
}

TEST_F(fxt, terminate_to_ready)
{
	struct fxt_packet p;

	ASSERT_EQ(0, fxt_init(self->fd, FXT_MODE_STREAMING, BUF_SIZE));
	ASSERT_EQ(0, fxt_start(self->fd));
	ASSERT_EQ(0, wait_packet(self->fd, FXT_PKT_STARTED, &p));
	ASSERT_EQ(0, fxt_stop(self->fd, FXT_STOP_WRITE_RESULTS));
	ASSERT_EQ(0, wait_packet(self->fd, FXT_PKT_STOPPED, &p));
	ASSERT_EQ(0, ioctl(self->fd, FXT_IOC_TERMINATE))
		TH_LOG("TERMINATE: %s", strerror(errno));
	ASSERT_EQ(FXT_STATE_READY, get_state(self->fd));
}

TEST_F(fxt, terminate_from_initialized)
{
	ASSERT_EQ(0, fxt_init(self->fd, FXT_MODE_STREAMING, BUF_SIZE));
	ASSERT_EQ(0, ioctl(self->fd, FXT_IOC_TERMINATE))
		TH_LOG("TERMINATE: %s", strerror(errno));
	ASSERT_EQ(FXT_STATE_READY, get_state(self->fd));
	/* A new session on the same fd. */
	ASSERT_EQ(0, fxt_init(self->fd, FXT_MODE_CIRCULAR, BUF_SIZE));
	ASSERT_EQ(FXT_STATE_INITIALIZED, get_state(self->fd));
}

TEST_F(fxt, start_again_after_stop)
{
	struct fxt_packet p;

	ASSERT_EQ(0, fxt_init(self->fd, FXT_MODE_STREAMING, BUF_SIZE));
	ASSERT_EQ(0, fxt_start(self->fd));
	ASSERT_EQ(0, wait_packet(self->fd, FXT_PKT_STARTED, &p));
	ASSERT_EQ(0, fxt_stop(self->fd, FXT_STOP_WRITE_RESULTS));
	ASSERT_EQ(0, wait_packet(self->fd, FXT_PKT_STOPPED, &p));
	ASSERT_EQ(0, fxt_start(self->fd));
	ASSERT_EQ(FXT_STATE_STARTED, get_state(self->fd));
	EXPECT_EQ(0, wait_packet(self->fd, FXT_PKT_STARTED, &p));
	ASSERT_EQ(0, fxt_stop(self->fd, 0));
}

/* CPU 0's rolling records since the last clear. */
static __u64 cpu0_written(int fd)
{
	struct fxt_cpu_stats st = { .cpu = 0 };

	return ioctl(fd, FXT_IOC_GET_STATS, &st) ? ~0ull : st.records_written;
}

/* Sleeps switch to idle and back: records on CPU 0 (the caller's CPU). */
static void cpu0_activity(void)
{
	for (int i = 0; i < 20; i++)
		usleep(1000);
}

/* START, STOP (flags), each answered by its packet. */
static int run_once(int fd, __u32 disposition, __u32 stop_flags, bool busy)
{
	struct fxt_packet p;

	if (fxt_start_disp(fd, disposition) ||
	    wait_packet(fd, FXT_PKT_STARTED, &p))
		return -1;
	if (busy)
		cpu0_activity();
	if (fxt_stop(fd, stop_flags) || wait_packet(fd, FXT_PKT_STOPPED, &p))
		return -1;
	return 0;
}

/*
 * RETAIN keeps the rolling data of the last run, unless that run's stop
 * asked for the results to be written: then the start clears everything
 * (CLEAR_ENTIRE), so that saved data is not saved twice (abi.rst).
 */
TEST_F(fxt, retain_after_written_results_clears)
{
	__u64 kept, before, after;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(set), &set));
	ASSERT_EQ(0, fxt_init(self->fd, FXT_MODE_STREAMING, BUF_SIZE));
	ASSERT_EQ(0, run_once(self->fd, FXT_START_CLEAR_ENTIRE, 0, true));
	before = cpu0_written(self->fd);
	ASSERT_LT(0, before);
	/* A plain stop: RETAIN keeps the records. */
	ASSERT_EQ(0, run_once(self->fd, FXT_START_RETAIN, 0, true));
	kept = cpu0_written(self->fd);
	EXPECT_LT(before, kept) TH_LOG("RETAIN after a plain stop cleared");
	/* A stop that wrote the results: RETAIN clears. */
	ASSERT_EQ(0, run_once(self->fd, FXT_START_RETAIN,
			      FXT_STOP_WRITE_RESULTS, true));
	before = cpu0_written(self->fd);
	ASSERT_LT(kept, before);
	ASSERT_EQ(0, run_once(self->fd, FXT_START_RETAIN, 0, false));
	after = cpu0_written(self->fd);
	EXPECT_GT(before, after)
		TH_LOG("RETAIN after STOP(WRITE_RESULTS) kept %llu of %llu records",
		       (unsigned long long)after, (unsigned long long)before);
}

/*
 * A read() that faults loses no packet: the packets not copied out are read
 * next time, whole or after the ones that were copied.
 */
TEST_F(fxt, read_fault_keeps_packets)
{
	long ps = page_size();
	struct fxt_packet p;
	char *ro, *buf;

	ASSERT_EQ(0, fxt_init(self->fd, FXT_MODE_ONESHOT, BUF_SIZE));
	ASSERT_EQ(0, fxt_start(self->fd));
	ASSERT_EQ(0, fxt_stop(self->fd, 0));
	/* STARTED and STOPPED wait; user memory the kernel cannot write: */
	ro = mmap(NULL, ps, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, ro);
	/* ... and a buffer of two packets whose second one is read-only. */
	buf = mmap(NULL, 2 * ps, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, buf);
	ASSERT_EQ(0, mprotect(buf + ps, ps, PROT_READ));

	errno = 0;
	EXPECT_EQ(-1, read(self->fd, ro, sizeof(p)));
	EXPECT_EQ(EFAULT, errno);
	/* The first packet fits, the second faults: one packet returned. */
	EXPECT_EQ((ssize_t)sizeof(p),
		  read(self->fd, buf + ps - sizeof(p), 2 * sizeof(p)));
	memcpy(&p, buf + ps - sizeof(p), sizeof(p));
	EXPECT_EQ(FXT_PKT_STARTED, p.request)
		TH_LOG("the faulting read() lost the STARTED packet");
	memset(&p, 0, sizeof(p));
	ASSERT_EQ(0, read_packet(self->fd, &p))
		TH_LOG("the STOPPED packet was lost by the partial read()");
	EXPECT_EQ(FXT_PKT_STOPPED, p.request);
	munmap(buf, 2 * ps);
	munmap(ro, ps);
}

/* Every packet waiting now, without blocking. Return: how many, or -errno. */
static int drain_packets(int fd, struct fxt_packet *p, int max)
{
	int fl = fcntl(fd, F_GETFL), n = 0;

	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK))
		return -errno;
	while (n < max) {
		ssize_t r = read(fd, &p[n], sizeof(p[n]));

		if (r < 0) {
			if (errno != EAGAIN)
				n = -errno;
			break;
		}
		if (r != sizeof(p[n])) {
			n = -EPROTO;
			break;
		}
		n++;
	}
	fcntl(fd, F_SETFL, fl);
	return n;
}

/*
 * Streaming: switch on CPU 0 until some CPU rolled over (its SAVE_BUFFER is
 * then on its way; a stop waits for it). Return: 0 or -errno.
 */
/*
 * Switch on CPU 0 until some CPU rolled more often than answered (256
 * CPUs, or NULL: none) says was answered: a SAVE_BUFFER is outstanding.
 */
static int provoke_roll(int fd, const struct fxt_layout *l,
			const __u32 *answered)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return -errno;
	for (int i = 0; i < 100000; i++) {
		usleep(20);
		if (i % 50)
			continue;
		for (unsigned int c = 0; c < l->nr_cpus; c++) {
			struct fxt_cpu_stats st = { .cpu = c };

			if (!cpu_possible(l, c))
				continue;
			if (ioctl(fd, FXT_IOC_GET_STATS, &st))
				return -errno;
			if (st.wrapped_count > (answered ? answered[c] : 0))
				return 0;
		}
	}
	return -ETIMEDOUT;
}

/*
 * A BUFFER_SAVED is accepted only for a SAVE_BUFFER that read() delivered:
 * guessing the request's values (all of them are tried) is not enough, or
 * a collector could ack requests it never saw and let them pile up.
 */
TEST_F(fxt, ack_of_unread_save_buffer_refused)
{
	struct fxt_packet p[64], ack;
	struct fxt_layout l;
	int n, accepted = 0, saves = 0;
	__u32 answered[256] = { 0 };

	ASSERT_EQ(0, fxt_init(self->fd, FXT_MODE_STREAMING,
			      FXT_BUFFER_SIZE_MIN));
	ASSERT_EQ(0, get_layout(self->fd, &l));
	ASSERT_EQ(0, fxt_start(self->fd));
	/*
	 * A buffer may roll while the start still hooks, so SAVE_BUFFERs may
	 * come before STARTED (abi.rst): those are answered, as a collector
	 * would; the ones this test leaves unread come after. A roll that
	 * was answered does not count: the stop rolls nothing (it ends the
	 * recording first), so an unread request must be there before it.
	 */
	ASSERT_EQ(0, wait_packet_noting(self->fd, FXT_PKT_STARTED, &p[0],
					answered));
	ASSERT_EQ(0, provoke_roll(self->fd, &l, answered));
	ASSERT_EQ(0, fxt_stop(self->fd, 0));
	/* Stopped: every request's durable end is at most the final one. */
	for (unsigned int c = 0; c < l.nr_cpus; c++) {
		struct fxt_cpu_stats st = { .cpu = c };

		if (!cpu_possible(&l, c))
			continue;
		ASSERT_EQ(0, ioctl(self->fd, FXT_IOC_GET_STATS, &st));
		if (!st.wrapped_count)
			continue;
		for (__u64 d = 0; d <= st.durable_bytes; d += 8) {
			ack = (struct fxt_packet){
				.request = FXT_PKT_BUFFER_SAVED, .cpu = c,
				.data32 = st.wrapped_count - 1, .data64 = d,
			};
			if (write(self->fd, &ack, sizeof(ack)) == sizeof(ack)) {
				accepted++;
				TH_LOG("cpu %u: BUFFER_SAVED {%u, %llu} accepted before its SAVE_BUFFER was read",
				       c, ack.data32, (unsigned long long)d);
			} else {
				ASSERT_EQ(EINVAL, errno);
			}
		}
	}
	EXPECT_EQ(0, accepted);
	/* Once read, the very same answer is accepted. */
	n = drain_packets(self->fd, p, 64);
	ASSERT_LE(2, n);
	for (int i = 0; i < n - 1; i++) {
		ASSERT_EQ(FXT_PKT_SAVE_BUFFER, p[i].request) TH_LOG("packet %d", i);
		ack = p[i];
		ack.request = FXT_PKT_BUFFER_SAVED;
		EXPECT_EQ((ssize_t)sizeof(ack), write(self->fd, &ack, sizeof(ack)))
			TH_LOG("cpu %u: BUFFER_SAVED after the read: %s",
			       ack.cpu, strerror(errno));
		saves++;
	}
	EXPECT_EQ(FXT_PKT_STOPPED, p[n - 1].request);
	EXPECT_LE(1, saves);
}

#define RETAIN_CYCLES	50

/* RETAIN_CYCLES start(RETAIN)/stop pairs; returns how many succeeded. */
static int retain_cycles(int fd)
{
	int i;

	for (i = 0; i < RETAIN_CYCLES; i++) {
		if (fxt_start_disp(fd, FXT_START_RETAIN) ||
		    fxt_stop(fd, 0)) {
			fprintf(stderr, "# cycle %d: %s\n", i, strerror(errno));
			break;
		}
	}
	return i;
}

/*
 * Start/stop with RETAIN, many times, and nobody reading packets: a start
 * drops the control packets of the runs before, so the FIFO cannot fill
 * (a full FIFO warned, and would lose a later SAVE_BUFFER). What waits at
 * the end is the last run's STARTED and STOPPED.
 */
TEST_F(fxt, retain_cycles_unread)
{
	struct fxt_packet p[64];
	int n;

	ASSERT_EQ(0, fxt_init(self->fd, FXT_MODE_ONESHOT, BUF_SIZE));
	ASSERT_EQ(0, fxt_start(self->fd));
	ASSERT_EQ(0, fxt_stop(self->fd, 0));
	ASSERT_EQ(RETAIN_CYCLES, retain_cycles(self->fd));
	n = drain_packets(self->fd, p, 64);
	for (int i = 0; i < n; i++)
		TH_LOG("packet %d: request %u data32 %u", i, p[i].request,
		       p[i].data32);
	ASSERT_EQ(2, n);
	EXPECT_EQ(FXT_PKT_STARTED, p[0].request);
	EXPECT_EQ(FXT_FIFO_PROTOCOL_VERSION, p[0].data32);
	EXPECT_EQ(FXT_PKT_STOPPED, p[1].request);
	EXPECT_EQ(0, p[1].data32);
}

/*
 * The same in streaming mode with a SAVE_BUFFER waiting: the stale control
 * packets go, the requests stay (each one, and in order), and each is
 * still answered once read.
 */
TEST_F(fxt, retain_cycles_keep_save_buffer)
{
	struct fxt_packet p[64], ack;
	struct fxt_layout l;
	int n, started = 0, stopped = 0;
	unsigned int seen[256] = { 0 };

	ASSERT_EQ(0, fxt_init(self->fd, FXT_MODE_STREAMING,
			      FXT_BUFFER_SIZE_MIN));
	ASSERT_EQ(0, get_layout(self->fd, &l));
	ASSERT_EQ(0, fxt_start(self->fd));
	ASSERT_EQ(0, provoke_roll(self->fd, &l, NULL));
	ASSERT_EQ(0, fxt_stop(self->fd, 0));
	ASSERT_EQ(RETAIN_CYCLES, retain_cycles(self->fd));
	n = drain_packets(self->fd, p, 64);
	for (int i = 0; i < n; i++)
		TH_LOG("packet %d: request %u cpu %u data32 %u data64 %llu", i,
		       p[i].request, p[i].cpu, p[i].data32,
		       (unsigned long long)p[i].data64);
	ASSERT_LE(3, n);
	/* The request from before the cycles comes first. */
	EXPECT_EQ(FXT_PKT_SAVE_BUFFER, p[0].request);
	EXPECT_EQ(FXT_PKT_STOPPED, p[n - 1].request);
	for (int i = 0; i < n; i++) {
		switch (p[i].request) {
		case FXT_PKT_STARTED:
			started++;
			break;
		case FXT_PKT_STOPPED:
			stopped++;
			EXPECT_EQ(1, started) TH_LOG("STOPPED before STARTED");
			break;
		case FXT_PKT_SAVE_BUFFER:
			ASSERT_GT(256, p[i].cpu);
			EXPECT_EQ(0, seen[p[i].cpu]++)
				TH_LOG("two SAVE_BUFFERs for cpu %u", p[i].cpu);
			ack = p[i];
			ack.request = FXT_PKT_BUFFER_SAVED;
			EXPECT_EQ((ssize_t)sizeof(ack),
				  write(self->fd, &ack, sizeof(ack)))
				TH_LOG("cpu %u: BUFFER_SAVED: %s", ack.cpu,
				       strerror(errno));
			break;
		default:
			EXPECT_TRUE(false) TH_LOG("packet %d: request %u", i,
						  p[i].request);
		}
	}
	EXPECT_EQ(1, started);
	EXPECT_EQ(1, stopped);
}

/* Closing the device ends the session, even while tracing. */
TEST(close_while_started_then_reopen)
{
	int fd = fxt_open();

	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	ASSERT_EQ(0, fxt_init(fd, FXT_MODE_STREAMING, BUF_SIZE));
	ASSERT_EQ(0, fxt_start(fd));
	usleep(10000);
	ASSERT_EQ(0, close(fd));
	fd = fxt_open();
	ASSERT_LE(0, fd) TH_LOG("reopen after close: %s", strerror(errno));
	EXPECT_EQ(FXT_STATE_READY, get_state(fd));
	close(fd);
}

/* A mapping keeps its pages (and the module) after the fd is closed. */
TEST(mapping_outlives_close)
{
	struct fxt_layout l;
	const struct fxt_buffer_header *h;
	void *map;
	int fd = fxt_open();

	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	ASSERT_EQ(0, fxt_init(fd, FXT_MODE_STREAMING, BUF_SIZE));
	ASSERT_EQ(0, get_layout(fd, &l));
	map = mmap(NULL, l.map_size, PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, map) TH_LOG("mmap: %s", strerror(errno));
	ASSERT_EQ(0, fxt_start(fd));
	usleep(10000);
	ASSERT_EQ(0, close(fd));
	h = map;
	EXPECT_EQ(FXT_BUFFER_MAGIC, h->magic);
	EXPECT_EQ(0, h->cpu);
	ASSERT_EQ(0, munmap(map, l.map_size));
	fd = fxt_open();
	ASSERT_LE(0, fd) TH_LOG("reopen after munmap: %s", strerror(errno));
	close(fd);
}

FIXTURE(errpath) {
	int fd;
	void *map;
	size_t map_size;
};

FIXTURE_VARIANT(errpath) {
	enum err_case c;
};

#define ERRPATH(name, row) \
	FIXTURE_VARIANT_ADD(errpath, name) { .c = row }

ERRPATH(open_no_cap, ERR_OPEN_NO_CAP);
ERRPATH(second_open, ERR_SECOND_OPEN);
ERRPATH(init_twice, ERR_INIT_TWICE);
ERRPATH(init_bad_mode, ERR_INIT_BAD_MODE);
ERRPATH(init_bad_category, ERR_INIT_BAD_CATEGORY);
ERRPATH(init_reserved, ERR_INIT_RESERVED);
ERRPATH(init_size_small, ERR_INIT_SIZE_SMALL);
ERRPATH(init_size_unaligned, ERR_INIT_SIZE_UNALIGNED);
ERRPATH(init_bad_durable, ERR_INIT_BAD_DURABLE);
ERRPATH(init_no_memory, ERR_INIT_NO_MEMORY);
ERRPATH(start_before_init, ERR_START_BEFORE_INIT);
ERRPATH(start_twice, ERR_START_TWICE);
ERRPATH(start_bad_disposition, ERR_START_BAD_DISPOSITION);
ERRPATH(start_reserved, ERR_START_RESERVED);
ERRPATH(stop_before_init, ERR_STOP_BEFORE_INIT);
ERRPATH(stop_not_started, ERR_STOP_NOT_STARTED);
ERRPATH(stop_bad_flag, ERR_STOP_BAD_FLAG);
ERRPATH(terminate_ready, ERR_TERMINATE_READY);
ERRPATH(terminate_mapped, ERR_TERMINATE_MAPPED);
ERRPATH(layout_before_init, ERR_LAYOUT_BEFORE_INIT);
ERRPATH(stats_before_init, ERR_STATS_BEFORE_INIT);
ERRPATH(stats_bad_cpu, ERR_STATS_BAD_CPU);
ERRPATH(unknown_ioctl, ERR_UNKNOWN_IOCTL);
ERRPATH(mmap_before_init, ERR_MMAP_BEFORE_INIT);
ERRPATH(mmap_write, ERR_MMAP_WRITE);
ERRPATH(mmap_private_write, ERR_MMAP_PRIVATE_WRITE);
ERRPATH(mprotect_write, ERR_MPROTECT_WRITE);
ERRPATH(mmap_too_big, ERR_MMAP_TOO_BIG);
ERRPATH(short_read, ERR_SHORT_READ);
ERRPATH(nonblock_read_empty, ERR_NONBLOCK_READ_EMPTY);
ERRPATH(write_odd_length, ERR_WRITE_ODD_LENGTH);
ERRPATH(write_unsolicited, ERR_WRITE_UNSOLICITED);
ERRPATH(write_not_streaming, ERR_WRITE_NOT_STREAMING);

FIXTURE_SETUP(errpath)
{
	self->map = NULL;
	self->fd = fxt_open();
	ASSERT_LE(0, self->fd) TH_LOG("open %s: %s", FXT_DEVICE_PATH,
				      strerror(errno));
}

FIXTURE_TEARDOWN(errpath)
{
	if (self->map)
		munmap(self->map, self->map_size);
	if (self->fd >= 0)
		close(self->fd);
}

/* Drop the two capabilities that let a process open /dev/fxt. */
static int drop_trace_caps(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];
	static const int caps[] = { CAP_SYS_ADMIN, CAP_PERFMON };

	if (syscall(SYS_capget, &h, d))
		return -errno;
	for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		d[caps[i] / 32].effective &= ~(1u << (caps[i] % 32));
		d[caps[i] / 32].permitted &= ~(1u << (caps[i] % 32));
	}
	return syscall(SYS_capset, &h, d) ? -errno : 0;
}

/* mmap()/mprotect()/read()/write() result as 0 or -errno. */
#define SYS_RET(expr)	((expr) < 0 ? -errno : 0)

/* Initialize (streaming) and map everything read-only. */
static int init_and_map(FIXTURE_DATA(errpath) *self, struct fxt_layout *l)
{
	int ret = fxt_init(self->fd, FXT_MODE_STREAMING, BUF_SIZE);

	if (!ret)
		ret = get_layout(self->fd, l);
	if (ret)
		return ret;
	self->map_size = l->map_size;
	self->map = mmap(NULL, l->map_size, PROT_READ, MAP_SHARED, self->fd, 0);
	if (self->map == MAP_FAILED) {
		self->map = NULL;
		return -errno;
	}
	return 0;
}

/* MemAvailable of /proc/meminfo in bytes, 0 if unknown. */
static uint64_t mem_available(void)
{
	unsigned long long kb = 0;
	char line[256];
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return kb * 1024;
}

TEST_F(errpath, fails)
{
	int fd = self->fd, ret = 0;
	struct fxt_config cfg = {
		.buffer_size = BUF_SIZE, .mode = FXT_MODE_STREAMING,
	};
	struct fxt_start_options opt = { .disposition = FXT_START_CLEAR_ENTIRE };
	struct fxt_cpu_stats st = { .cpu = 0 };
	struct fxt_packet pkt = { .request = FXT_PKT_BUFFER_SAVED };
	struct fxt_layout l;
	void *p;

	switch (variant->c) {
	case ERR_OPEN_NO_CAP:
		close(self->fd);
		self->fd = -1;
		ASSERT_EQ(0, drop_trace_caps());
		ret = fxt_open();
		if (ret >= 0)
			close(ret);
		ret = ret < 0 ? -errno : 0;
		break;
	case ERR_SECOND_OPEN:
		ret = fxt_open();
		if (ret >= 0)
			close(ret);
		ret = ret < 0 ? -errno : 0;
		break;
	case ERR_INIT_TWICE:
		ASSERT_EQ(0, fxt_init(fd, FXT_MODE_STREAMING, BUF_SIZE));
		ret = fxt_init(fd, FXT_MODE_STREAMING, BUF_SIZE);
		break;
	case ERR_INIT_BAD_MODE:
		ret = fxt_init(fd, 0, BUF_SIZE);
		break;
	case ERR_INIT_BAD_CATEGORY:
		cfg.categories = 1u << 31;
		ret = ioctl(fd, FXT_IOC_INITIALIZE, &cfg) ? -errno : 0;
		break;
	case ERR_INIT_RESERVED:
		cfg.reserved[0] = 1;
		ret = ioctl(fd, FXT_IOC_INITIALIZE, &cfg) ? -errno : 0;
		break;
	case ERR_INIT_SIZE_SMALL:
		ret = fxt_init(fd, FXT_MODE_STREAMING,
			       FXT_BUFFER_SIZE_MIN - page_size());
		break;
	case ERR_INIT_SIZE_UNALIGNED:
		ret = fxt_init(fd, FXT_MODE_STREAMING, BUF_SIZE + 512);
		break;
	case ERR_INIT_BAD_DURABLE:
		cfg.durable_size = 2 * BUF_SIZE;
		ret = ioctl(fd, FXT_IOC_INITIALIZE, &cfg) ? -errno : 0;
		break;
	case ERR_INIT_NO_MEMORY: {
		uint64_t avail = mem_available();
		long ncpus = sysconf(_SC_NPROCESSORS_CONF);

		/* the guest (scripts/vm/run) has too little for this to fit */
		ASSERT_LT(avail / 2, (uint64_t)FXT_BUFFER_SIZE_MAX * ncpus)
			TH_LOG("MemAvailable %llu bytes, %ld CPUs",
			       (unsigned long long)avail, ncpus);
		ret = fxt_init(fd, FXT_MODE_STREAMING, FXT_BUFFER_SIZE_MAX);
		break;
	}
	case ERR_START_BEFORE_INIT:
		ret = fxt_start(fd);
		break;
	case ERR_START_TWICE:
		ASSERT_EQ(0, fxt_init(fd, FXT_MODE_STREAMING, BUF_SIZE));
		ASSERT_EQ(0, fxt_start(fd));
		ret = fxt_start(fd);
		break;
	case ERR_START_BAD_DISPOSITION:
		ASSERT_EQ(0, fxt_init(fd, FXT_MODE_STREAMING, BUF_SIZE));
		opt.disposition = 0;
		ret = ioctl(fd, FXT_IOC_START, &opt) ? -errno : 0;
		break;
	case ERR_START_RESERVED:
		ASSERT_EQ(0, fxt_init(fd, FXT_MODE_STREAMING, BUF_SIZE));
		opt.reserved[0] = 1;
		ret = ioctl(fd, FXT_IOC_START, &opt) ? -errno : 0;
		break;
	case ERR_STOP_BEFORE_INIT:
		ret = fxt_stop(fd, 0);
		break;
	case ERR_STOP_NOT_STARTED:
		ASSERT_EQ(0, fxt_init(fd, FXT_MODE_STREAMING, BUF_SIZE));
		ret = fxt_stop(fd, 0);
		break;
	case ERR_STOP_BAD_FLAG:
		ASSERT_EQ(0, fxt_init(fd, FXT_MODE_STREAMING, BUF_SIZE));
		ASSERT_EQ(0, fxt_start(fd));
		ret = fxt_stop(fd, 1u << 31);
		break;
	case ERR_TERMINATE_READY:
		ret = ioctl(fd, FXT_IOC_TERMINATE) ? -errno : 0;
		break;
	case ERR_TERMINATE_MAPPED:
		ASSERT_EQ(0, init_and_map(self, &l));
		ret = ioctl(fd, FXT_IOC_TERMINATE) ? -errno : 0;
		break;
	case ERR_LAYOUT_BEFORE_INIT:
		ret = get_layout(fd, &l);
		break;
	case ERR_STATS_BEFORE_INIT:
		ret = ioctl(fd, FXT_IOC_GET_STATS, &st) ? -errno : 0;
		break;
	case ERR_STATS_BAD_CPU:
		ASSERT_EQ(0, fxt_init(fd, FXT_MODE_STREAMING, BUF_SIZE));
		ASSERT_EQ(0, get_layout(fd, &l));
		st.cpu = l.nr_cpus;
		ret = ioctl(fd, FXT_IOC_GET_STATS, &st) ? -errno : 0;
		break;
	case ERR_UNKNOWN_IOCTL:
		ret = ioctl(fd, _IO(FXT_IOC_MAGIC, 99)) ? -errno : 0;
		break;
	case ERR_MMAP_BEFORE_INIT:
		p = mmap(NULL, page_size(), PROT_READ, MAP_SHARED, fd, 0);
		ret = p == MAP_FAILED ? -errno : 0;
		if (p != MAP_FAILED)
			munmap(p, page_size());
		break;
	case ERR_MMAP_WRITE:
	case ERR_MMAP_PRIVATE_WRITE:
		ASSERT_EQ(0, fxt_init(fd, FXT_MODE_STREAMING, BUF_SIZE));
		ASSERT_EQ(0, get_layout(fd, &l));
		p = mmap(NULL, l.map_size, PROT_READ | PROT_WRITE,
			 variant->c == ERR_MMAP_WRITE ? MAP_SHARED : MAP_PRIVATE,
			 fd, 0);
		ret = p == MAP_FAILED ? -errno : 0;
		if (p != MAP_FAILED)
			munmap(p, l.map_size);
		break;
	case ERR_MPROTECT_WRITE:
		ASSERT_EQ(0, init_and_map(self, &l));
		ret = SYS_RET(mprotect(self->map, l.map_size,
				       PROT_READ | PROT_WRITE));
		break;
	case ERR_MMAP_TOO_BIG:
		ASSERT_EQ(0, fxt_init(fd, FXT_MODE_STREAMING, BUF_SIZE));
		ASSERT_EQ(0, get_layout(fd, &l));
		p = mmap(NULL, l.map_size + page_size(), PROT_READ, MAP_SHARED,
			 fd, 0);
		ret = p == MAP_FAILED ? -errno : 0;
		if (p != MAP_FAILED)
			munmap(p, l.map_size + page_size());
		break;
	case ERR_SHORT_READ:
		ASSERT_EQ(0, fxt_init(fd, FXT_MODE_STREAMING, BUF_SIZE));
		ASSERT_EQ(0, fxt_start(fd));
		/* The STARTED packet waits: only the size is wrong. */
		ret = SYS_RET(read(fd, &pkt, sizeof(pkt) / 2));
		break;
	case ERR_NONBLOCK_READ_EMPTY:
		ASSERT_EQ(0, fxt_init(fd, FXT_MODE_STREAMING, BUF_SIZE));
		ASSERT_EQ(0, fcntl(fd, F_SETFL, O_NONBLOCK));
		ret = SYS_RET(read(fd, &pkt, sizeof(pkt)));
		break;
	case ERR_WRITE_ODD_LENGTH:
		ASSERT_EQ(0, fxt_init(fd, FXT_MODE_STREAMING, BUF_SIZE));
		ASSERT_EQ(0, fxt_start(fd));
		ret = SYS_RET(write(fd, &pkt, sizeof(pkt) / 2));
		break;
	case ERR_WRITE_UNSOLICITED:
		ASSERT_EQ(0, fxt_init(fd, FXT_MODE_STREAMING, BUF_SIZE));
		ASSERT_EQ(0, fxt_start(fd));
		ret = SYS_RET(write(fd, &pkt, sizeof(pkt)));
		break;
	case ERR_WRITE_NOT_STREAMING:
		ASSERT_EQ(0, fxt_init(fd, FXT_MODE_CIRCULAR, BUF_SIZE));
		ASSERT_EQ(0, fxt_start(fd));
		ret = SYS_RET(write(fd, &pkt, sizeof(pkt)));
		break;
	case NR_ERR_CASES:
		break;
	}
	ASSERT_NE(0, ret) TH_LOG("%s succeeded; Documentation/abi.rst: %s",
				 expected[variant->c].what,
				 strerrorname_np(expected[variant->c].err));
	EXPECT_EQ(expected[variant->c].err, -ret)
		TH_LOG("%s: got %s, Documentation/abi.rst: %s",
		       expected[variant->c].what, strerrorname_np(-ret),
		       strerrorname_np(expected[variant->c].err));
}

TEST_HARNESS_MAIN
