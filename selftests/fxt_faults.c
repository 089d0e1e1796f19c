// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_faults - the collector killed in every phase, and rmmod while the
 * device is in use.
 *
 * fxt-collect gets SIGKILL right after "tracing started", at random small
 * delays after fork (during initialization), while streaming under load,
 * while stopping (SIGINT, then SIGKILL), and while writing a big archive
 * (SIGINT, then SIGKILL a few ms later). After each kill the module must be
 * free again (refcnt 0, open works, a session runs), and the partial
 * archive must read up to its last complete record: fxt-dump --check passes
 * or reports only a truncated final record. Each case ends with a short
 * complete collector session whose archive validates.
 *
 * Then rmmod (delete_module) with the device open, and with it mapped but
 * closed: refused (EWOULDBLOCK/EBUSY), module usable, refcnt 0 after
 * munmap. The module stays loaded (run-all unloads it).
 *
 * Environment: FXT_FAULT_ITERS (random early kills, default 6),
 * FXT_FAULT_SEED (default: from the time; printed, so that a failure can be
 * replayed: the kill delays follow from it).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/fxt.h>

#include "collector.h"
#include "dump.h"
#include "kfile.h"
#include "kselftest_harness.h"

FIXTURE(f) {
	int unused;
};

FIXTURE_SETUP(f)
{
	self->unused = 0;
}

FIXTURE_TEARDOWN(f)
{
}

static char archive[PATH_MAX], clog[PATH_MAX], dlog[PATH_MAX];

static void paths(const char *name)
{
	snprintf(archive, sizeof(archive), "%s/fault-%s.fxt", env_tmpdir(), name);
	snprintf(clog, sizeof(clog), "%s/fault-%s-collect.log", env_tmpdir(), name);
	snprintf(dlog, sizeof(dlog), "%s/fault-%s-dump.log", env_tmpdir(), name);
	unlink(archive);
}

/* Load: forks children that ping-pong over a pipe and spin, until killed. */
static pid_t load_start(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		int p[2], q[2];
		char b = 0;

		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (pipe(p) || pipe(q))
			_exit(1);
		if (fork() == 0) {
			while (read(p[0], &b, 1) == 1 && write(q[1], &b, 1) == 1)
				;
			_exit(0);
		}
		if (fork() == 0) {	/* fork/exit churn */
			for (;;) {
				pid_t c = fork();

				if (c == 0)
					_exit(0);
				if (c > 0)
					waitpid(c, NULL, 0);
				usleep(1000);
			}
		}
		while (write(p[1], &b, 1) == 1 && read(q[0], &b, 1) == 1)
			;
		_exit(0);
	}
	setpgid(pid, pid);
	return pid;
}

static void load_stop(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	/* grandchildren are reparented to init and die of SIGKILL */
}

/*
 * The device right after the collector was reaped: refcnt 0, and a
 * session runs. Return: "" or what failed.
 */
static const char *device_free(void)
{
	struct fxt_config c = { .buffer_size = 64u << 10, .mode = FXT_MODE_STREAMING };
	struct fxt_start_options o = { .disposition = FXT_START_CLEAR_ENTIRE };
	struct fxt_stop_options so = { 0 };
	int fd, rc;

	rc = kfile_module_refcnt();
	if (rc != 0) {
		static char why[64];

		snprintf(why, sizeof(why), "refcnt %d after the collector died", rc);
		return why;
	}
	fd = open(FXT_DEVICE_PATH, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return "open after the kill failed";
	if (ioctl(fd, FXT_IOC_INITIALIZE, &c) || ioctl(fd, FXT_IOC_START, &o) ||
	    ioctl(fd, FXT_IOC_STOP, &so) || ioctl(fd, FXT_IOC_TERMINATE)) {
		close(fd);
		return "a session after the kill failed";
	}
	close(fd);
	return "";
}

/*
 * The partial archive: missing or empty is fine only when allow_empty;
 * otherwise fxt-dump --check passes or reports only a truncated record.
 */
static bool partial_ok(struct __test_metadata *_metadata, bool allow_empty)
{
	struct stat st;
	int status, defects, truncs;
	char other[512];

	if (stat(archive, &st) || st.st_size == 0) {
		if (!allow_empty)
			TH_LOG("%s: missing or empty", archive);
		return allow_empty;
	}
	status = dump_check(archive, dlog, 120);
	dump_defects(dlog, &defects, &truncs, other, sizeof(other));
	if (status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return true;
	if (defects == truncs && truncs <= 1 && truncs > 0)
		return true;
	/* An archive cut inside the magic record cannot be told apart. */
	if (st.st_size < 8 && allow_empty)
		return true;
	TH_LOG("%s (%lld bytes): fxt-dump --check status 0x%x, %d defects, %d truncations; first other: %s",
	       archive, (long long)st.st_size, status, defects, truncs, other);
	child_log_print("fxt-dump --check", dlog, 10);
	return false;
}

/* A short complete session: exit 0 and a valid archive. */
static bool next_session_ok(struct __test_metadata *_metadata)
{
	static const char *const args[] = { "-t", "0.3", "-b", "256K", "-q", NULL };
	char a[PATH_MAX], l[PATH_MAX], d[PATH_MAX];
	pid_t pid;
	int status;

	snprintf(a, sizeof(a), "%s/fault-next.fxt", env_tmpdir());
	snprintf(l, sizeof(l), "%s/fault-next-collect.log", env_tmpdir());
	snprintf(d, sizeof(d), "%s/fault-next-dump.log", env_tmpdir());
	pid = collector_spawn(a, l, args);
	if (pid < 0 || !child_wait(pid, 60, &status)) {
		if (pid > 0)
			child_kill(pid, &status);
		TH_LOG("next session: collector did not finish");
		return false;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		TH_LOG("next session: collector status 0x%x", status);
		child_log_print("collector", l, 10);
		return false;
	}
	status = dump_check(a, d, 120);
	if (status < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		TH_LOG("next session: fxt-dump --check status 0x%x", status);
		child_log_print("fxt-dump --check", d, 10);
		return false;
	}
	return true;
}

/* SIGKILL and reap within 20 s; else log where the collector is stuck. */
static bool kill_bounded(struct __test_metadata *_metadata, pid_t pid, int *status)
{
	char path[64];

	kill(pid, SIGKILL);
	if (child_wait(pid, 20, status))
		return true;
	TH_LOG("collector %d not reaped 20 s after SIGKILL", pid);
	snprintf(path, sizeof(path), "/proc/%d/stack", pid);
	child_log_print("kernel stack", path, 40);
	snprintf(path, sizeof(path), "/proc/%d/wchan", pid);
	child_log_print("wchan", path, 2);
	child_kill(pid, status);
	return false;
}

static pid_t collect(const char *size)
{
	const char *args[] = { "-m", "streaming", "-b", size, NULL };

	return collector_spawn(archive, clog, args);
}

/* collect(), then wait for "tracing started" (why says what failed). */
static char start_why[256];

static pid_t collect_started(const char *size)
{
	const char *extra[] = { "-b", size, NULL };

	return collector_start(archive, "streaming", extra, clog, start_why,
			       sizeof(start_why));
}

TEST_F_TIMEOUT(f, kill_at_started_line, 240)
{
	int status;
	pid_t pid;

	paths("started");
	for (int i = 0; i < 2; i++) {
		pid = collect_started("256K");
		ASSERT_LT(0, pid) TH_LOG("%s", start_why);
		ASSERT_TRUE(kill_bounded(_metadata, pid, &status));
		ASSERT_TRUE(WIFSIGNALED(status));
		EXPECT_STREQ("", device_free());
		EXPECT_TRUE(partial_ok(_metadata, false));
	}
	EXPECT_TRUE(next_session_ok(_metadata));
}

TEST_F_TIMEOUT(f, kill_during_initialization, 240)
{
	unsigned long iters = env_ulong("FXT_FAULT_ITERS", 6);
	unsigned long seed;
	int status;

	ASSERT_TRUE(env_seed("FXT_FAULT_SEED", UINT_MAX, &seed))
		TH_LOG("FXT_FAULT_SEED=%s is not a seed <= %u",
		       getenv("FXT_FAULT_SEED"), UINT_MAX);
	printf("# seed %lu (replay: FXT_FAULT_SEED=%lu FXT_FAULT_ITERS=%lu)\n",
	       seed, seed, iters);
	fflush(stdout);
	srand(seed);
	paths("init");
	for (unsigned long i = 0; i < iters; i++) {
		unsigned int us = rand() % 50001;
		pid_t pid = collect(i % 2 ? "256K" : "16M");

		ASSERT_LT(0, pid);
		usleep(us);
		ASSERT_TRUE(kill_bounded(_metadata, pid, &status));
		EXPECT_STREQ("", device_free())
			TH_LOG("killed after %u us (seed %lu, kill %lu)", us, seed, i);
		EXPECT_TRUE(partial_ok(_metadata, true))
			TH_LOG("killed after %u us (seed %lu, kill %lu)", us, seed, i);
	}
	EXPECT_TRUE(next_session_ok(_metadata));
}

TEST_F_TIMEOUT(f, kill_while_streaming, 240)
{
	int status;
	pid_t pid, load;

	paths("streaming");
	load = load_start();
	ASSERT_LT(0, load);
	for (int i = 0; i < 2; i++) {
		/* small buffers: many SAVE_BUFFER hand-shakes in flight */
		pid = collect_started("128K");
		ASSERT_LT(0, pid) TH_LOG("%s", start_why);
		usleep(700000 + 300000 * i);
		ASSERT_TRUE(kill_bounded(_metadata, pid, &status));
		EXPECT_STREQ("", device_free());
		EXPECT_TRUE(partial_ok(_metadata, false));
	}
	load_stop(load);
	EXPECT_TRUE(next_session_ok(_metadata));
}

TEST_F_TIMEOUT(f, kill_while_stopping, 240)
{
	static const unsigned int delays_us[] = { 0, 2000, 20000 };
	int status;
	pid_t pid, load;

	paths("stopping");
	load = load_start();
	ASSERT_LT(0, load);
	for (size_t i = 0; i < sizeof(delays_us) / sizeof(delays_us[0]); i++) {
		pid = collect_started("256K");
		ASSERT_LT(0, pid) TH_LOG("%s", start_why);
		usleep(300000);
		kill(pid, SIGINT);
		usleep(delays_us[i]);
		ASSERT_TRUE(kill_bounded(_metadata, pid, &status));
		printf("# SIGKILL %u us after SIGINT: %s\n", delays_us[i],
		       WIFSIGNALED(status) ? "killed" : "had exited");
		fflush(stdout);
		EXPECT_STREQ("", device_free()) TH_LOG("SIGKILL %u us after SIGINT", delays_us[i]);
		EXPECT_TRUE(partial_ok(_metadata, false)) TH_LOG("SIGKILL %u us after SIGINT", delays_us[i]);
	}
	load_stop(load);
	EXPECT_TRUE(next_session_ok(_metadata));
}

TEST_F_TIMEOUT(f, kill_while_writing, 240)
{
	static const unsigned int delays_us[] = { 0, 3000, 15000 };
	int status, hit = 0;
	pid_t pid, load;

	paths("writing");
	load = load_start();
	ASSERT_LT(0, load);
	for (size_t i = 0; i < sizeof(delays_us) / sizeof(delays_us[0]); i++) {
		struct stat st = { 0 };
		off_t head;
		double end;

		/* a big buffer: most of the archive is written after SIGINT */
		pid = collect_started("32M");
		ASSERT_LT(0, pid) TH_LOG("%s", start_why);
		stat(archive, &st);
		head = st.st_size;	/* magic, provider info: written at start */
		usleep(1500000);
		kill(pid, SIGINT);
		/* SIGKILL a few ms after the final writing began. */
		end = env_now() + 30;
		while (!stat(archive, &st) && st.st_size == head && env_now() < end &&
		       waitpid(pid, &status, WNOHANG) == 0)
			usleep(200);
		usleep(delays_us[i]);
		ASSERT_TRUE(kill_bounded(_metadata, pid, &status));
		stat(archive, &st);
		hit += WIFSIGNALED(status) && st.st_size > head;
		printf("# killed %u us after writing began: %s, archive %lld bytes (%lld at start)\n",
		       delays_us[i], WIFSIGNALED(status) ? "by SIGKILL" : "had exited",
		       (long long)st.st_size, (long long)head);
		fflush(stdout);
		EXPECT_STREQ("", device_free());
		EXPECT_TRUE(partial_ok(_metadata, false));
	}
	load_stop(load);
	EXPECT_LT(0, hit) TH_LOG("never killed while writing");
	EXPECT_TRUE(next_session_ok(_metadata));
}

static long delete_module(const char *name, unsigned int flags)
{
	return syscall(SYS_delete_module, name, flags);
}

TEST_F_TIMEOUT(f, rmmod_while_open, 240)
{
	int fd = open(FXT_DEVICE_PATH, O_RDWR | O_CLOEXEC);
	long ret;

	ASSERT_LE(0, fd);
	EXPECT_LE(1, kfile_module_refcnt());
	errno = 0;
	ret = delete_module("fxt", O_NONBLOCK);
	ASSERT_EQ(-1, ret) TH_LOG("rmmod succeeded with /dev/fxt open");
	EXPECT_TRUE(errno == EWOULDBLOCK || errno == EBUSY)
		TH_LOG("delete_module: %s", strerror(errno));
	/* Without O_NONBLOCK too (no forced unload). */
	errno = 0;
	ret = delete_module("fxt", 0);
	ASSERT_EQ(-1, ret);
	EXPECT_TRUE(errno == EWOULDBLOCK || errno == EBUSY)
		TH_LOG("delete_module: %s", strerror(errno));
	/* Still usable through the open fd. */
	{
		struct fxt_config c = { .buffer_size = 64u << 10, .mode = 2 };

		EXPECT_EQ(0, ioctl(fd, FXT_IOC_INITIALIZE, &c));
	}
	close(fd);
	EXPECT_EQ(0, kfile_module_refcnt());
}

TEST_F_TIMEOUT(f, rmmod_while_mapped, 240)
{
	struct fxt_config c = { .buffer_size = 64u << 10, .mode = FXT_MODE_CIRCULAR };
	struct fxt_start_options o = { .disposition = FXT_START_CLEAR_ENTIRE };
	struct fxt_layout l;
	struct fxt_buffer_header *h;
	int fd = open(FXT_DEVICE_PATH, O_RDWR | O_CLOEXEC);
	long ret;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, FXT_IOC_INITIALIZE, &c));
	ASSERT_EQ(0, ioctl(fd, FXT_IOC_GET_LAYOUT, &l));
	h = mmap(NULL, l.map_size, PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, h);
	ASSERT_EQ(0, ioctl(fd, FXT_IOC_START, &o));
	close(fd);	/* stops the session? no: the mapping pins the file */
	EXPECT_LE(1, kfile_module_refcnt());
	errno = 0;
	ret = delete_module("fxt", O_NONBLOCK);
	ASSERT_EQ(-1, ret) TH_LOG("rmmod succeeded with the buffers mapped");
	EXPECT_TRUE(errno == EWOULDBLOCK || errno == EBUSY)
		TH_LOG("delete_module: %s", strerror(errno));
	/* A second open is refused: the session still belongs to the file. */
	fd = open(FXT_DEVICE_PATH, O_RDWR | O_CLOEXEC);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EBUSY, errno);
	if (fd >= 0)
		close(fd);
	/* The mapping is readable, and tracing goes on into it. */
	EXPECT_EQ(FXT_BUFFER_MAGIC, h->magic);
	usleep(50000);
	EXPECT_LT(0, h->records_written + h->durable_records);
	ASSERT_EQ(0, munmap(h, l.map_size));
	/* The file is released with the mapping: refcnt 0, device free. */
	for (int i = 0; i < 100 && kfile_module_refcnt() != 0; i++)
		usleep(10000);
	EXPECT_EQ(0, kfile_module_refcnt());
	fd = open(FXT_DEVICE_PATH, O_RDWR | O_CLOEXEC);
	EXPECT_LE(0, fd) TH_LOG("open after munmap: %s", strerror(errno));
	if (fd >= 0) {
		__u32 state = 0;

		EXPECT_EQ(0, ioctl(fd, FXT_IOC_GET_STATE, &state));
		EXPECT_EQ(FXT_STATE_READY, state);
		close(fd);
	}
}

TEST_HARNESS_MAIN
