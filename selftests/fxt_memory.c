// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_memory - INITIALIZE under real-machine memory conditions.
 *
 *  cgroup_limit_gives_enomem_not_oom_kill
 *	A collector in a memory cgroup whose memory.max is below its
 *	request gets ENOMEM. The buffers are charged to its cgroup; they
 *	used to be allocated without __GFP_RETRY_MAYFAIL, so the charge
 *	that failed woke the cgroup's OOM killer, which killed the
 *	collector itself (memory.events: oom_kill) instead of refusing.
 *
 *  sigkill_ends_initialize_promptly
 *	A SIGKILL during a large INITIALIZE ends it within a fraction of
 *	the time the whole allocation takes: the page loop used to run to
 *	the end (gigabytes: seconds, minutes on a slow machine).
 *
 *  cpu_offline_during_initialize_completes
 *	Taking a CPU offline while a large INITIALIZE allocates completes
 *	before the INITIALIZE does: it used to hold cpus_read_lock() over
 *	the whole page loop, blocking CPU hotplug for as long.
 *
 * The large request is a quarter of MemAvailable over all CPUs, at most
 * 512 MiB per CPU (the module refuses more than half of it).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/fxt.h>

#include "env.h"
#include "kfile.h"
#include "kselftest_harness.h"

#define CG_ROOT		"/sys/fs/cgroup"
#define CG_LIMIT	(16ull << 20)
#define CG_REQUEST	(64ull << 20)	/* per CPU */

/* The value of KEY in a "key value" file (memory.events), or -1. */
static long long read_key(const char *path, const char *key)
{
	char line[256], k[64];
	long long v, found = -1;
	FILE *f = fopen(path, "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %lld", k, &v) == 2 && !strcmp(k, key))
			found = v;
	fclose(f);
	return found;
}

/* INITIALIZE oneshot with @size per CPU: 0 or an errno. */
static int initialize(int fd, uint64_t size)
{
	struct fxt_config cfg = { .buffer_size = size,
				  .mode = FXT_MODE_ONESHOT };

	return ioctl(fd, FXT_IOC_INITIALIZE, &cfg) ? errno : 0;
}

/* The large request: a quarter of what is available, over every CPU. */
static uint64_t large_size(void)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	long avail = kfile_meminfo_kb("MemAvailable");
	uint64_t size;

	if (avail <= 0 || ncpu <= 0)
		return 64ull << 20;
	size = (uint64_t)avail * 1024 / 4 / (uint64_t)ncpu;
	if (size > (512ull << 20))
		size = 512ull << 20;
	return size & ~((1ull << 20) - 1);
}

/*
 * A child that INITIALIZEs @size, after a byte on @ready (-1: none), then
 * TERMINATEs; it writes the two ioctls' times (s) to @times (-1: none).
 * Exit status: INITIALIZE's errno.
 */
static pid_t initializer(uint64_t size, int ready, int times)
{
	pid_t pid = fork();

	if (pid == 0) {
		int fd = open(FXT_DEVICE_PATH, O_RDWR | O_CLOEXEC), err;
		double t[2], t0;

		if (fd < 0)
			_exit(100);
		if (ready >= 0 && write(ready, "r", 1) != 1)
			_exit(101);
		t0 = env_now();
		err = initialize(fd, size);
		t[0] = env_now() - t0;
		t0 = env_now();
		if (!err && ioctl(fd, FXT_IOC_TERMINATE))
			err = errno;
		t[1] = env_now() - t0;
		if (times >= 0 && write(times, t, sizeof(t)) != sizeof(t))
			_exit(102);
		close(fd);
		_exit(err);
	}
	return pid;
}

/*
 * How long a whole INITIALIZE of @size takes here, and the TERMINATE that
 * frees it, in s: 0, or -1 when it failed.
 */
static int one_initialize(uint64_t size, double *init, double *term)
{
	int pipefd[2], st;
	double t[2];
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC))
		return -1;
	pid = initializer(size, -1, pipefd[1]);
	close(pipefd[1]);
	if (read(pipefd[0], t, sizeof(t)) != sizeof(t))
		t[0] = -1;
	close(pipefd[0]);
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st) || t[0] < 0)
		return -1;
	*init = t[0];
	*term = t[1];
	return 0;
}

/*
 * one_initialize(), the second of two: the first touches guest memory the
 * host has not given the guest yet, and takes three times as long under
 * TCG (8.4 s against 2.6 s for 2 x 354 MiB).
 */
static int full_initialize(uint64_t size, double *init, double *term)
{
	return one_initialize(size, init, term) ||
	       one_initialize(size, init, term) ? -1 : 0;
}

FIXTURE(m) {
	char cg[PATH_MAX];
	bool made_cg;
};

FIXTURE_SETUP(m)
{
	self->made_cg = false;
	snprintf(self->cg, sizeof(self->cg), CG_ROOT "/fxt-memory-%d",
		 getpid());
}

FIXTURE_TEARDOWN(m)
{
	if (self->made_cg)
		rmdir(self->cg);
}

TEST_F_TIMEOUT(m, cgroup_limit_gives_enomem_not_oom_kill, 120)
{
	char path[PATH_MAX + 32], num[32];
	int pipefd[2], st, err = -1;
	long long oom_kill, oom;
	pid_t pid;

	/* The guest's init mounts no cgroup2: mount it where it belongs. */
	if (access(CG_ROOT "/cgroup.controllers", F_OK))
		ASSERT_EQ(0, mount("cgroup2", CG_ROOT, "cgroup2", 0, NULL))
			TH_LOG("mount cgroup2: %s", strerror(errno));
	ASSERT_EQ(0, kfile_write(CG_ROOT "/cgroup.subtree_control", "+memory"))
		TH_LOG("enable the memory controller");
	ASSERT_EQ(0, mkdir(self->cg, 0755)) TH_LOG("%s: %s", self->cg,
						     strerror(errno));
	self->made_cg = true;
	snprintf(path, sizeof(path), "%s/memory.max", self->cg);
	snprintf(num, sizeof(num), "%llu", CG_LIMIT);
	ASSERT_EQ(0, kfile_write(path, num));
	snprintf(path, sizeof(path), "%s/memory.swap.max", self->cg);
	kfile_write(path, "0");	/* the guest has no swap; absent without it */

	ASSERT_EQ(0, pipe2(pipefd, O_CLOEXEC));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		char self_pid[32];
		int fd;

		snprintf(path, sizeof(path), "%s/cgroup.procs", self->cg);
		snprintf(self_pid, sizeof(self_pid), "%d", getpid());
		if (kfile_write(path, self_pid))
			_exit(100);
		fd = open(FXT_DEVICE_PATH, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			_exit(101);
		err = initialize(fd, CG_REQUEST);
		if (write(pipefd[1], &err, sizeof(err)) != sizeof(err))
			_exit(102);
		close(fd);
		_exit(0);
	}
	close(pipefd[1]);
	if (read(pipefd[0], &err, sizeof(err)) != sizeof(err))
		err = -1;
	close(pipefd[0]);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	snprintf(path, sizeof(path), "%s/memory.events", self->cg);
	oom_kill = read_key(path, "oom_kill");
	oom = read_key(path, "oom");
	printf("# %llu MiB per CPU under memory.max %llu MiB: %s; memory.events oom %lld, oom_kill %lld\n",
	       CG_REQUEST >> 20, CG_LIMIT >> 20,
	       err > 0 ? strerror(err) : err ? "no answer" : "allocated",
	       oom, oom_kill);
	fflush(stdout);
	EXPECT_TRUE(WIFEXITED(st))
		TH_LOG("the collector died of signal %d",
		       WIFSIGNALED(st) ? WTERMSIG(st) : 0);
	EXPECT_EQ(0, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	EXPECT_EQ(ENOMEM, err);
	EXPECT_EQ(0, oom_kill);
}

/*
 * Killed a quarter of the way in, the child is gone once it has freed
 * what it had: about a quarter of a TERMINATE. Running to the end first
 * would take three quarters of the INITIALIZE and a whole TERMINATE.
 */
TEST_F_TIMEOUT(m, sigkill_ends_initialize_promptly, 300)
{
	uint64_t size = large_size();
	double init, term, t_kill, gone, bound;
	int pipefd[2], st;
	char c;
	pid_t pid;

	ASSERT_EQ(0, full_initialize(size, &init, &term))
		TH_LOG("INITIALIZE of %llu MiB per CPU failed",
		       (unsigned long long)(size >> 20));
	ASSERT_EQ(0, pipe2(pipefd, O_CLOEXEC));
	pid = initializer(size, pipefd[1], -1);
	ASSERT_LE(0, pid);
	close(pipefd[1]);
	ASSERT_EQ(1, read(pipefd[0], &c, 1));
	close(pipefd[0]);
	usleep((useconds_t)(init / 4 * 1e6));
	t_kill = env_now();
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	gone = env_now() - t_kill;
	bound = init / 4 + term / 2 + 0.2;
	printf("# %llu MiB per CPU: INITIALIZE %.3f s, TERMINATE %.3f s; killed a quarter in, gone %.3f s later (bound %.3f s)\n",
	       (unsigned long long)(size >> 20), init, term, gone, bound);
	fflush(stdout);
	EXPECT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
	/* The bound only tells the two apart when the INITIALIZE is long. */
	EXPECT_LT(0.5, init) TH_LOG("INITIALIZE too quick to tell");
	EXPECT_GT(bound, gone);
}

struct init_thread {
	uint64_t size;
	int err;
	atomic_bool started;
	double done;		/* env_now() when INITIALIZE returned */
};

static void *init_thread_main(void *arg)
{
	struct init_thread *t = arg;
	int fd = open(FXT_DEVICE_PATH, O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		t->err = errno;
		atomic_store(&t->started, true);
		return NULL;
	}
	atomic_store(&t->started, true);
	t->err = initialize(fd, t->size);
	t->done = env_now();
	close(fd);		/* the release TERMINATEs */
	return NULL;
}

TEST_F_TIMEOUT(m, cpu_offline_during_initialize_completes, 300)
{
	const char *online = "/sys/devices/system/cpu/cpu1/online";
	struct init_thread t = { .size = large_size() };
	double full, term, off_done;
	pthread_t th;
	int err;

	ASSERT_EQ(0, access(online, W_OK)) TH_LOG("%s: %s", online,
						   strerror(errno));
	ASSERT_EQ(0, full_initialize(t.size, &full, &term));
	ASSERT_EQ(0, pthread_create(&th, NULL, init_thread_main, &t));
	while (!atomic_load(&t.started))
		usleep(1000);
	usleep((useconds_t)(full / 4 * 1e6));
	err = kfile_write(online, "0");
	off_done = env_now();
	pthread_join(th, NULL);
	EXPECT_EQ(0, kfile_write(online, "1"));
	printf("# %llu MiB per CPU: INITIALIZE takes %.3f s; CPU 1 offline %.3f s before it returned\n",
	       (unsigned long long)(t.size >> 20), full, t.done - off_done);
	fflush(stdout);
	ASSERT_EQ(0, err) TH_LOG("offline: %s", strerror(-err));
	EXPECT_EQ(0, t.err) TH_LOG("INITIALIZE: %s", strerror(t.err));
	EXPECT_LT(off_done, t.done)
		TH_LOG("the CPU went offline only after INITIALIZE returned");
}

TEST_HARNESS_MAIN
