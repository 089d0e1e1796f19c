// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_misuse - the /dev/fxt ABI misused beyond fxt_smoke's errno table:
 * zero, tiny, unaligned, huge and overflowing sizes, unknown modes,
 * categories, dispositions and flags; every refused call must return its
 * documented errno (Documentation/abi.rst) and leave the session state as
 * it was (GET_STATE before and after), and a failed INITIALIZE must leave
 * nothing half-initialised. Then the mapping: writable, beyond the buffers,
 * at an offset past them, before INITIALIZE; TERMINATE while mapped. And
 * no ioctl holds the session lock while it touches user memory: fxt_mmap()
 * takes that lock under mmap_lock, so a fault there could deadlock.
 *
 * Runs as root in the VM with fxt.ko loaded (selftests/run-all).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/fxt.h>
#include <linux/userfaultfd.h>

#include "kselftest_harness.h"

#define GOOD_SIZE	(256u << 10)
/* The first category bit the module does not know (FXT_CAT_ALL's are 0..n) */
#define CAT_UNKNOWN	(FXT_CAT_ALL + 1u)
_Static_assert(!(CAT_UNKNOWN & FXT_CAT_ALL) && !(CAT_UNKNOWN & (CAT_UNKNOWN - 1)),
	       "FXT_CAT_ALL is the bits below one bit");

static int get_state(int fd)
{
	__u32 state = 0;

	if (ioctl(fd, FXT_IOC_GET_STATE, &state))
		return -errno;
	return (int)state;
}

/* ioctl; return 0 or -errno. */
static int xioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? -errno : 0;
}

static int init_cfg(int fd, __u64 size, __u32 mode, __u32 cats, __u64 durable)
{
	struct fxt_config cfg = {
		.buffer_size = size, .mode = mode, .categories = cats,
		.durable_size = durable,
	};

	return xioctl(fd, FXT_IOC_INITIALIZE, &cfg);
}

static int start_opt(int fd, __u32 disp, __u32 cats)
{
	struct fxt_start_options o = { .disposition = disp,
				       .additional_categories = cats };

	return xioctl(fd, FXT_IOC_START, &o);
}

static int stop_opt(int fd, __u32 flags)
{
	struct fxt_stop_options o = { .flags = flags };

	return xioctl(fd, FXT_IOC_STOP, &o);
}

FIXTURE(dev) {
	int fd;
	void *map;
	size_t map_size;
};

FIXTURE_SETUP(dev)
{
	self->map = NULL;
	self->fd = open(FXT_DEVICE_PATH, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd) TH_LOG("open: %s", strerror(errno));
}

FIXTURE_TEARDOWN(dev)
{
	if (self->map)
		munmap(self->map, self->map_size);
	if (self->fd >= 0)
		close(self->fd);
}

/* One refused call: its errno and an unchanged state. */
#define EXPECT_REFUSED(err, call, what) do {				\
	int __before = get_state(self->fd);				\
	int __ret = (call);						\
	EXPECT_EQ(-(err), __ret) TH_LOG("%s: got %s, want %s", what,	\
		__ret ? strerror(-__ret) : "success", strerror(err));	\
	EXPECT_EQ(__before, get_state(self->fd))			\
		TH_LOG("%s changed the state", what);			\
} while (0)

TEST_F(dev, init_bad_sizes)
{
	static const struct { __u64 size; const char *what; } bad[] = {
		{ 0, "buffer_size 0" },
		{ 1, "buffer_size 1" },
		{ 4096, "buffer_size one page" },
		{ 4097, "buffer_size 4097" },
		{ (64u << 10) - 4096, "buffer_size 60K" },
		{ (64u << 10) + 1, "buffer_size 64K+1" },
		{ (64u << 10) + 8, "buffer_size 64K+8" },
		{ (1024ull << 20) + 4096, "buffer_size 1G+4K" },
		{ 2048ull << 20, "buffer_size 2G" },
		{ 1ull << 32, "buffer_size 4G" },
		{ (1ull << 32) + (64u << 10), "buffer_size 4G+64K (u32 wrap)" },
		{ 1ull << 63, "buffer_size 2^63" },
		{ (1ull << 63) + (64u << 10), "buffer_size 2^63+64K" },
		{ ~0ull, "buffer_size ~0" },
		{ ~0ull - 4095, "buffer_size ~0 page-aligned" },
		{ -(__u64)(64u << 10), "buffer_size -64K" },
	};

	ASSERT_EQ(FXT_STATE_READY, get_state(self->fd));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		EXPECT_REFUSED(EINVAL, init_cfg(self->fd, bad[i].size,
			FXT_MODE_STREAMING, 0, 0), bad[i].what);
	/* Nothing half-initialised: the queries still say READY. */
	{
		struct fxt_layout l;

		EXPECT_EQ(-EBADFD, xioctl(self->fd, FXT_IOC_GET_LAYOUT, &l));
		EXPECT_EQ(MAP_FAILED, mmap(NULL, 4096, PROT_READ, MAP_SHARED,
					   self->fd, 0));
		EXPECT_EQ(EBADFD, errno);
	}
	ASSERT_EQ(0, init_cfg(self->fd, GOOD_SIZE, FXT_MODE_STREAMING, 0, 0));
	ASSERT_EQ(FXT_STATE_INITIALIZED, get_state(self->fd));
}

TEST_F(dev, init_bad_durable)
{
	static const struct { __u64 durable; const char *what; } bad[] = {
		{ GOOD_SIZE + 4096, "durable > buffer_size" },
		{ GOOD_SIZE, "durable == buffer_size" },
		{ GOOD_SIZE - 4096, "durable == buffer minus header" },
		{ 12345, "durable odd" },
		{ 16385, "durable 16K+1" },
		{ 16388, "durable 16K+4 (not 8-aligned)" },
		{ 8, "durable 8" },
		{ 1, "durable 1" },
		{ 1ull << 63, "durable 2^63" },
		{ ~0ull, "durable ~0" },
		{ ~0ull - 7, "durable ~0-7 (8-aligned, wraps)" },
		{ -(__u64)(2 * 4096), "durable -8K" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		EXPECT_REFUSED(EINVAL, init_cfg(self->fd, GOOD_SIZE,
			FXT_MODE_STREAMING, 0, bad[i].durable), bad[i].what);
		if (get_state(self->fd) != FXT_STATE_INITIALIZED)
			continue;
		/*
		 * Accepted: show the layout it produced (never START it: a
		 * durable buffer larger than the region lets the probes write
		 * past the vmalloc area), then back to READY.
		 */
		struct fxt_layout l;

		if (!xioctl(self->fd, FXT_IOC_GET_LAYOUT, &l)) {
			struct fxt_buffer_header *h = mmap(NULL, 4096, PROT_READ,
						MAP_SHARED, self->fd, 0);

			if (h != MAP_FAILED) {
				TH_LOG("accepted %s: region %llu, durable_offset %llu, durable_size %#llx, rolling_offset %#llx/%#llx, rolling_size %llu",
				       bad[i].what,
				       (unsigned long long)h->region_size,
				       (unsigned long long)h->durable_offset,
				       (unsigned long long)h->durable_size,
				       (unsigned long long)h->rolling_offset[0],
				       (unsigned long long)h->rolling_offset[1],
				       (unsigned long long)h->rolling_size);
				munmap(h, 4096);
			}
		}
		ASSERT_EQ(0, xioctl(self->fd, FXT_IOC_TERMINATE, NULL));
	}
	ASSERT_EQ(0, init_cfg(self->fd, GOOD_SIZE, FXT_MODE_STREAMING, 0,
			      32u << 10));
	{
		struct fxt_layout l;

		ASSERT_EQ(0, xioctl(self->fd, FXT_IOC_GET_LAYOUT, &l));
		EXPECT_EQ(GOOD_SIZE, l.cpu_stride);
		EXPECT_EQ(FXT_MODE_STREAMING, l.mode);
		EXPECT_EQ(FXT_CAT_DEFAULT, l.categories);	/* 0: the default */
	}
}

TEST_F(dev, init_bad_mode_and_categories)
{
	static const __u32 modes[] = { 0, 4, 5, 0x80000003u, ~0u };
	static const __u32 cats[] = { CAT_UNKNOWN, 1u << 15, 1u << 31,
				      FXT_CAT_ALL | CAT_UNKNOWN, ~0u };
	static const __u64 reserved_bits[] = { 1, 1ull << 63 };

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		EXPECT_REFUSED(EINVAL, init_cfg(self->fd, GOOD_SIZE, modes[i], 0, 0),
			       "unknown mode");
	for (size_t i = 0; i < sizeof(cats) / sizeof(cats[0]); i++)
		EXPECT_REFUSED(EINVAL, init_cfg(self->fd, GOOD_SIZE,
			FXT_MODE_CIRCULAR, cats[i], 0), "unknown category");
	for (int r = 0; r < 4; r++) {
		for (size_t i = 0; i < 2; i++) {
			struct fxt_config cfg = { .buffer_size = GOOD_SIZE,
						  .mode = FXT_MODE_ONESHOT };

			cfg.reserved[r] = reserved_bits[i];
			EXPECT_REFUSED(EINVAL, xioctl(self->fd, FXT_IOC_INITIALIZE, &cfg),
				       "reserved field set");
		}
	}
	/* Every refused call left READY; a valid one still works. */
	ASSERT_EQ(0, init_cfg(self->fd, GOOD_SIZE, FXT_MODE_ONESHOT,
			      FXT_CAT_SCHED, 0));
	{
		struct fxt_layout l;

		ASSERT_EQ(0, xioctl(self->fd, FXT_IOC_GET_LAYOUT, &l));
		EXPECT_EQ(FXT_MODE_ONESHOT, l.mode);
		EXPECT_EQ(FXT_CAT_SCHED, l.categories);
	}
	/* And in INITIALIZED, even a bad INITIALIZE says EBUSY, not EINVAL. */
	EXPECT_REFUSED(EBUSY, init_cfg(self->fd, 0, 0, ~0u, ~0ull),
		       "bad INITIALIZE in INITIALIZED");
}

TEST_F(dev, start_bad_options)
{
	static const __u32 disps[] = { 0, 4, 0x80000001u, ~0u };
	static const __u32 cats[] = { CAT_UNKNOWN, 1u << 31, ~0u };

	ASSERT_EQ(0, init_cfg(self->fd, GOOD_SIZE, FXT_MODE_CIRCULAR,
			      FXT_CAT_SCHED, 0));
	for (size_t i = 0; i < sizeof(disps) / sizeof(disps[0]); i++)
		EXPECT_REFUSED(EINVAL, start_opt(self->fd, disps[i], 0),
			       "unknown disposition");
	for (size_t i = 0; i < sizeof(cats) / sizeof(cats[0]); i++)
		EXPECT_REFUSED(EINVAL, start_opt(self->fd, FXT_START_CLEAR_ENTIRE,
						 cats[i]), "unknown additional category");
	for (int r = 0; r < 2; r++) {
		struct fxt_start_options o = { .disposition = FXT_START_RETAIN };

		o.reserved[r] = 1ull << 40;
		EXPECT_REFUSED(EINVAL, xioctl(self->fd, FXT_IOC_START, &o),
			       "start reserved field");
	}
	ASSERT_EQ(FXT_STATE_INITIALIZED, get_state(self->fd));
	/* A failed start did not half-start: STOP says not started. */
	EXPECT_EQ(-EALREADY, stop_opt(self->fd, 0));
	ASSERT_EQ(0, start_opt(self->fd, FXT_START_CLEAR_ENTIRE, FXT_CAT_WAKEUP));
	EXPECT_EQ(FXT_STATE_STARTED, get_state(self->fd));

	/* Unknown stop flags and reserved bits while STARTED. */
	{
		static const __u32 flags[] = { 2, 1u << 31, ~0u, FXT_STOP_WRITE_RESULTS | 4 };

		for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
			EXPECT_REFUSED(EINVAL, stop_opt(self->fd, flags[i]),
				       "unknown stop flag");
		struct fxt_stop_options o = { .reserved = 1 };

		EXPECT_REFUSED(EINVAL, xioctl(self->fd, FXT_IOC_STOP, &o),
			       "stop reserved field");
	}
	/* Bad start options in STARTED: EALREADY or EINVAL, never a change. */
	{
		int before = get_state(self->fd);
		int ret = start_opt(self->fd, 0, 0);

		EXPECT_TRUE(ret == -EINVAL || ret == -EALREADY)
			TH_LOG("START(disposition 0) in STARTED: %s", strerror(-ret));
		EXPECT_EQ(before, get_state(self->fd));
	}
	ASSERT_EQ(0, stop_opt(self->fd, 0));
	EXPECT_EQ(FXT_STATE_STOPPED, get_state(self->fd));
	/* Bad restart options in STOPPED. */
	EXPECT_REFUSED(EINVAL, start_opt(self->fd, 4, 0), "disposition 4 in STOPPED");
	EXPECT_REFUSED(EINVAL, start_opt(self->fd, FXT_START_RETAIN, 1u << 20),
		       "unknown category in STOPPED");
	EXPECT_REFUSED(EALREADY, stop_opt(self->fd, 0), "stop in STOPPED");
	ASSERT_EQ(0, start_opt(self->fd, FXT_START_RETAIN, 0));
	ASSERT_EQ(0, stop_opt(self->fd, FXT_STOP_WRITE_RESULTS));
	ASSERT_EQ(0, xioctl(self->fd, FXT_IOC_TERMINATE, NULL));
	EXPECT_EQ(FXT_STATE_READY, get_state(self->fd));
}

TEST_F(dev, stats_bad_cpus)
{
	__u32 cpus[] = { 0 /* nr_cpus */, 256, 4096, 0x7fffffffu, 0x80000000u,
			 ~0u };
	struct fxt_layout l;

	ASSERT_EQ(0, init_cfg(self->fd, GOOD_SIZE, FXT_MODE_CIRCULAR, 0, 0));
	ASSERT_EQ(0, xioctl(self->fd, FXT_IOC_GET_LAYOUT, &l));
	cpus[0] = l.nr_cpus;	/* the first index past the array */
	for (size_t i = 0; i < sizeof(cpus) / sizeof(cpus[0]); i++) {
		struct fxt_cpu_stats st = { .cpu = cpus[i] };

		EXPECT_REFUSED(EINVAL, xioctl(self->fd, FXT_IOC_GET_STATS, &st),
			       "GET_STATS of an impossible cpu");
	}
	/* The last CPU slot is still answered. */
	{
		struct fxt_cpu_stats st = { .cpu = l.nr_cpus - 1 };

		EXPECT_EQ(0, xioctl(self->fd, FXT_IOC_GET_STATS, &st));
		EXPECT_EQ(l.nr_cpus - 1, st.cpu);
	}
}

/* BUFFER_SAVED naming a CPU past the array: refused, nothing consumed. */
TEST_F(dev, buffer_saved_bad_cpus)
{
	__u16 cpus[] = { 0 /* nr_cpus */, 256, 4096, 0x7fff, 0x8000, 0xffff };
	struct fxt_layout l;

	ASSERT_EQ(0, init_cfg(self->fd, GOOD_SIZE, FXT_MODE_STREAMING, 0, 0));
	ASSERT_EQ(0, xioctl(self->fd, FXT_IOC_GET_LAYOUT, &l));
	ASSERT_EQ(0, start_opt(self->fd, FXT_START_CLEAR_ENTIRE, 0));
	cpus[0] = l.nr_cpus;
	for (size_t i = 0; i < sizeof(cpus) / sizeof(cpus[0]); i++) {
		struct fxt_packet p = {
			.request = FXT_PKT_BUFFER_SAVED, .cpu = cpus[i],
		};

		EXPECT_REFUSED(EINVAL, write(self->fd, &p, sizeof(p)) < 0 ?
				       -errno : 0,
			       "BUFFER_SAVED of an impossible cpu");
	}
	ASSERT_EQ(0, stop_opt(self->fd, 0));
}

/* Unknown ioctl numbers: other magics, other numbers, wrong sizes. */
TEST_F(dev, unknown_ioctls)
{
	char buf[1024] = { 0 };	/* room for any of them, were one accepted */
	static const unsigned long cmds[] = {
		_IO(FXT_IOC_MAGIC, 0), _IO(FXT_IOC_MAGIC, 9),
		_IO(FXT_IOC_MAGIC, 255), _IO('G', 1),
		_IOW(FXT_IOC_MAGIC, 1, __u32),	/* INITIALIZE with another size */
		_IOR(FXT_IOC_MAGIC, 5, __u64),	/* GET_STATE with another size */
		_IOWR(FXT_IOC_MAGIC, 6, struct fxt_layout), /* other direction */
		_IOW(FXT_IOC_MAGIC, 2, char[200]),
		/* ABI version 1's numbers, under the old magic 'F' */
		_IOW('F', 1, struct fxt_config), _IOW('F', 2, struct fxt_start_options),
		_IO('F', 4), _IOR('F', 5, __u32), _IOR('F', 6, struct fxt_layout),
		_IOWR('F', 7, struct fxt_cpu_stats),
		_IOR('F', 8, struct fxt_categories),
	};

	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		EXPECT_REFUSED(ENOTTY, xioctl(self->fd, cmds[i], buf),
			       "unknown ioctl");
	EXPECT_EQ(FXT_STATE_READY, get_state(self->fd));
}

/* Bad user pointers: EFAULT, and nothing changes. */
TEST_F(dev, bad_pointers)
{
	EXPECT_REFUSED(EFAULT, xioctl(self->fd, FXT_IOC_INITIALIZE, (void *)8),
		       "INITIALIZE from NULL+8");
	EXPECT_REFUSED(EFAULT, xioctl(self->fd, FXT_IOC_GET_STATE, (void *)-4096L),
		       "GET_STATE to a kernel address");
	ASSERT_EQ(0, init_cfg(self->fd, GOOD_SIZE, FXT_MODE_STREAMING, 0, 0));
	EXPECT_REFUSED(EFAULT, xioctl(self->fd, FXT_IOC_START, NULL),
		       "START from NULL");
	EXPECT_REFUSED(EFAULT, xioctl(self->fd, FXT_IOC_GET_LAYOUT,
				      (void *)0xffff888000000000ul),
		       "GET_LAYOUT to a kernel address");
	EXPECT_REFUSED(EFAULT, xioctl(self->fd, FXT_IOC_GET_STATS, (void *)16),
		       "GET_STATS to NULL+16");
	{
		long n = syscall(SYS_write, self->fd, 16L, 16L);

		EXPECT_EQ(-1, n);
		EXPECT_EQ(EFAULT, errno);
	}
}

static void *map_ro(int fd, size_t len, off_t off, int prot, int flags)
{
	return mmap(NULL, len, prot, flags, fd, off);
}

TEST_F(dev, mmap_misuse)
{
	struct fxt_layout l;
	long page = sysconf(_SC_PAGESIZE);
	void *p;

	errno = 0;
	p = map_ro(self->fd, page, 0, PROT_READ, MAP_SHARED);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EBADFD, errno) TH_LOG("mmap before INITIALIZE");

	ASSERT_EQ(0, init_cfg(self->fd, GOOD_SIZE, FXT_MODE_STREAMING, 0, 0));
	ASSERT_EQ(0, xioctl(self->fd, FXT_IOC_GET_LAYOUT, &l));

	static const struct { int prot, flags; const char *what; } wr[] = {
		{ PROT_READ | PROT_WRITE, MAP_SHARED, "shared rw" },
		{ PROT_WRITE, MAP_SHARED, "shared w" },
		{ PROT_READ | PROT_WRITE, MAP_PRIVATE, "private rw" },
		{ PROT_READ | PROT_WRITE | PROT_EXEC, MAP_SHARED, "rwx" },
	};
	for (size_t i = 0; i < sizeof(wr) / sizeof(wr[0]); i++) {
		errno = 0;
		p = map_ro(self->fd, l.map_size, 0, wr[i].prot, wr[i].flags);
		EXPECT_EQ(MAP_FAILED, p) TH_LOG("writable mapping %s", wr[i].what);
		EXPECT_EQ(EPERM, errno) TH_LOG("writable mapping %s", wr[i].what);
		if (p != MAP_FAILED)
			munmap(p, l.map_size);
	}

	static const struct { size_t len; off_t off; const char *what; } out[] = {
		{ 0, 0, "length map_size + page" },	/* filled below */
		{ 0, 0, "offset map_size" },
		{ 0, 0, "last page + 1" },
		{ 0, 0, "offset 2^40" },
		{ 0, 0, "length 2 * map_size" },
	};
	size_t lens[5] = { l.map_size + page, page, 2 * page, page, 2 * l.map_size };
	off_t offs[5] = { 0, (off_t)l.map_size, (off_t)l.map_size - page,
			  (off_t)1 << 40, 0 };

	for (int i = 0; i < 5; i++) {
		errno = 0;
		p = map_ro(self->fd, lens[i], offs[i], PROT_READ, MAP_SHARED);
		EXPECT_EQ(MAP_FAILED, p) TH_LOG("mapping beyond: %s", out[i].what);
		EXPECT_EQ(EINVAL, errno) TH_LOG("mapping beyond: %s", out[i].what);
		if (p != MAP_FAILED)
			munmap(p, lens[i]);
	}
	EXPECT_EQ(FXT_STATE_INITIALIZED, get_state(self->fd));

	/* A page-aligned window inside is fine, read-only, CPU 0's header. */
	p = map_ro(self->fd, page, 0, PROT_READ, MAP_SHARED);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(FXT_BUFFER_MAGIC, ((struct fxt_buffer_header *)p)->magic);
	errno = 0;
	EXPECT_EQ(-1, mprotect(p, page, PROT_READ | PROT_WRITE));
	EXPECT_EQ(EACCES, errno);
	munmap(p, page);

	/* Private read-only mapping, then mprotect to writable. */
	p = map_ro(self->fd, l.map_size, 0, PROT_READ, MAP_PRIVATE);
	if (p != MAP_FAILED) {
		errno = 0;
		EXPECT_EQ(-1, mprotect(p, page, PROT_READ | PROT_WRITE));
		EXPECT_EQ(EACCES, errno);
		munmap(p, l.map_size);
	}
	EXPECT_EQ(0, xioctl(self->fd, FXT_IOC_TERMINATE, NULL));
}

TEST_F(dev, terminate_while_mapped)
{
	struct fxt_layout l;
	struct fxt_buffer_header *h;
	long page = sysconf(_SC_PAGESIZE);

	ASSERT_EQ(0, init_cfg(self->fd, GOOD_SIZE, FXT_MODE_CIRCULAR, 0, 0));
	ASSERT_EQ(0, xioctl(self->fd, FXT_IOC_GET_LAYOUT, &l));
	self->map_size = l.map_size;
	self->map = mmap(NULL, l.map_size, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, self->map);
	ASSERT_EQ(0, start_opt(self->fd, FXT_START_CLEAR_ENTIRE, 0));
	usleep(20000);

	/* In STARTED: EBUSY, and still tracing. */
	EXPECT_REFUSED(EBUSY, xioctl(self->fd, FXT_IOC_TERMINATE, NULL),
		       "TERMINATE while mapped (STARTED)");
	EXPECT_EQ(FXT_STATE_STARTED, get_state(self->fd));
	ASSERT_EQ(0, stop_opt(self->fd, 0));
	EXPECT_REFUSED(EBUSY, xioctl(self->fd, FXT_IOC_TERMINATE, NULL),
		       "TERMINATE while mapped (STOPPED)");

	/* The mapping stays readable: every possible CPU's header. */
	for (unsigned int c = 0; c < l.nr_cpus && c < 256; c++) {
		if (!((l.possible_cpus[c / 64] >> (c % 64)) & 1))
			continue;
		h = (void *)((char *)self->map + (size_t)c * l.cpu_stride);
		EXPECT_EQ(FXT_BUFFER_MAGIC, h->magic);
		EXPECT_EQ(c, h->cpu);
		/* Touch the last page of the region too. */
		volatile const char *last = (char *)h + l.cpu_stride - page;
		(void)*last;
	}
	/* Partial munmap keeps it mapped: still EBUSY. */
	ASSERT_EQ(0, munmap(self->map, page));
	EXPECT_REFUSED(EBUSY, xioctl(self->fd, FXT_IOC_TERMINATE, NULL),
		       "TERMINATE with part of the mapping left");
	ASSERT_EQ(0, munmap((char *)self->map + page, l.map_size - page));
	self->map = NULL;
	EXPECT_EQ(0, xioctl(self->fd, FXT_IOC_TERMINATE, NULL));
	EXPECT_EQ(FXT_STATE_READY, get_state(self->fd));
	/* And the session can be set up again. */
	EXPECT_EQ(0, init_cfg(self->fd, GOOD_SIZE, FXT_MODE_STREAMING, 0, 0));
}

/* A mapping split in two by mprotect/munmap in the middle counts twice. */
TEST_F(dev, split_mapping_then_terminate)
{
	struct fxt_layout l;
	long page = sysconf(_SC_PAGESIZE);
	char *p;

	ASSERT_EQ(0, init_cfg(self->fd, GOOD_SIZE, FXT_MODE_CIRCULAR, 0, 0));
	ASSERT_EQ(0, xioctl(self->fd, FXT_IOC_GET_LAYOUT, &l));
	p = mmap(NULL, l.map_size, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	/* Punch a hole: two VMAs. */
	ASSERT_EQ(0, munmap(p + 4 * page, page));
	EXPECT_REFUSED(EBUSY, xioctl(self->fd, FXT_IOC_TERMINATE, NULL),
		       "TERMINATE with a split mapping");
	ASSERT_EQ(0, munmap(p, 4 * page));
	EXPECT_REFUSED(EBUSY, xioctl(self->fd, FXT_IOC_TERMINATE, NULL),
		       "TERMINATE with the second half mapped");
	ASSERT_EQ(0, munmap(p + 5 * page, l.map_size - 5 * page));
	EXPECT_EQ(0, xioctl(self->fd, FXT_IOC_TERMINATE, NULL));
}

struct cpus_call {
	int fd;
	struct fxt_cpu_set set;
	int ret;
};

static void *get_cpus_thread(void *arg)
{
	struct cpus_call *c = arg;

	c->ret = xioctl(c->fd, FXT_IOC_GET_CPUS, &c->set);
	return NULL;
}

/*
 * GET_CPUS writes its bitmap into a page that is not there yet, and a
 * userfaultfd holds the fault. While it is held, another process maps the
 * device: fxt_mmap() takes the session lock, so that mmap() must return
 * (it is given 20 s, for a slow guest). It did not when GET_CPUS wrote the
 * bitmap under the lock (lockdep on the debug kernel: "possible circular
 * locking dependency", s->lock then mmap_lock); in one process that is a
 * deadlock (mmap_lock held for the mmap, the fault's handler waiting for
 * it).
 */
TEST_F_TIMEOUT(dev, get_cpus_fault_does_not_hold_the_lock, 120)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	struct cpus_call call = { .fd = self->fd };
	static char src[4096] __attribute__((aligned(4096)));
	struct uffdio_copy copy;
	struct uffd_msg msg;
	struct pollfd pfd;
	struct fxt_layout l;
	int uffd, p[2], mapped = -1;
	pthread_t t;
	pid_t child;
	char *page;

	uffd = syscall(SYS_userfaultfd, O_CLOEXEC);
	if (uffd < 0)
		SKIP(return, "no userfaultfd: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(uffd, UFFDIO_API, &api));
	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, page);
	reg.range.start = (uintptr_t)page;
	reg.range.len = 4096;
	ASSERT_EQ(0, ioctl(uffd, UFFDIO_REGISTER, &reg));
	ASSERT_EQ(0, init_cfg(self->fd, GOOD_SIZE, FXT_MODE_STREAMING, 0, 0));
	ASSERT_EQ(0, xioctl(self->fd, FXT_IOC_GET_LAYOUT, &l));

	call.set.nr_bits = 4096 * 8;
	call.set.bits = (uintptr_t)page;
	ASSERT_EQ(0, pthread_create(&t, NULL, get_cpus_thread, &call));
	/* The ioctl is in its fault. */
	pfd.fd = uffd;
	pfd.events = POLLIN;
	ASSERT_EQ(1, poll(&pfd, 1, 30000)) TH_LOG("GET_CPUS never faulted");
	ASSERT_EQ((ssize_t)sizeof(msg), read(uffd, &msg, sizeof(msg)));
	ASSERT_EQ(UFFD_EVENT_PAGEFAULT, msg.event);

	ASSERT_EQ(0, pipe(p));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		void *m = mmap(NULL, l.map_size, PROT_READ, MAP_SHARED,
			       self->fd, 0);
		char ok = m != MAP_FAILED;

		_exit(write(p[1], &ok, 1) == 1 ? 0 : 1);
	}
	close(p[1]);
	pfd.fd = p[0];
	if (poll(&pfd, 1, 20000) == 1) {
		char ok = 0;

		mapped = read(p[0], &ok, 1) == 1 && ok;
	}
	/* Let the ioctl finish, whatever happened. */
	copy.dst = (uintptr_t)page;
	copy.src = (uintptr_t)src;
	copy.len = 4096;
	copy.mode = 0;
	EXPECT_EQ(0, ioctl(uffd, UFFDIO_COPY, &copy));
	pthread_join(t, NULL);
	waitpid(child, NULL, 0);
	close(p[0]);
	EXPECT_EQ(1, mapped) TH_LOG("%s", mapped < 0 ?
		"mmap() waited 20 s for GET_CPUS's page fault: the ioctl holds the session lock while it writes to user memory" :
		"mmap() failed in the child");
	EXPECT_EQ(0, call.ret) TH_LOG("GET_CPUS: %s", strerror(-call.ret));
	EXPECT_EQ(1, page[0] & 1) TH_LOG("CPU 0 not in the set");
	munmap(page, 4096);
	close(uffd);
}

TEST_HARNESS_MAIN
