// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_window_names - circular mode names the process of every thread a
 * kept window refers to, whatever was overwritten before it
 * (Documentation/buffers.rst, "Names in circular mode").
 *
 *  renamed_thread_has_its_process
 *	A thread that is not its process's leader renames itself (prctl).
 *	The rename probe wrote the thread's new name into the rolling buffer
 *	generation being written and marked the thread named there, but
 *	not its process: the thread's next record in that generation found
 *	the thread in the name cache and named nothing more. Once the
 *	thread's older records and every record of its leader were
 *	overwritten, the kept window had switches of a process with no
 *	process record. Here the leader exits at once (pthread_exit()); the
 *	thread spins on CPU 1 as a SCHED_FIFO task, RT throttling off, so
 *	that nothing switches it out while interrupt records roll CPU 1's
 *	4 KiB rolling buffers over; CPU 0 rolls meanwhile with this
 *	process's short sleeps. Then the thread renames itself and the
 *	process exits, and the trace stops. Every process of every kept
 *	switch must have a process record, and the renamed thread's final
 *	switch must be kept.
 *
 * Needs the VM (FXT_IN_VM): it turns RT throttling off for about a second.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/fxt.h>
#include <fxt/format.h>

#include "cpu.h"
#include "device.h"
#include "env.h"
#include "kfile.h"
#include "kselftest_harness.h"
#include "records.h"

/* 64 KiB region: a header page, 52 KiB durable, two rolling of 4 KiB. */
#define SMALL_SIZE	(64u << 10)
#define SMALL_DURABLE	(SMALL_SIZE - 4096 - 2 * 4096u)
/* Rolls of each CPU's buffers before the rename: two overwrite a buffer. */
#define ROLLS		3
#define RENAMED		"fxt-wn-renamed"
#define RT_RUNTIME	"/proc/sys/kernel/sched_rt_runtime_us"

/* Shared between this process and the child's spinning thread. */
struct shared {
	atomic_int spinning;		/* the thread runs on CPU 1 */
	atomic_int go;			/* rename and exit now */
	atomic_int tid;
};

static struct shared *sh;

static void *spinner(void *arg)
{
	struct sched_param sp = { .sched_priority = 1 };

	(void)arg;
	if (pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp))
		_exit(2);
	atomic_store(&sh->tid, gettid());
	atomic_store(&sh->spinning, 1);
	while (!atomic_load(&sh->go))
		;
	prctl(PR_SET_NAME, RENAMED);
	_exit(0);		/* the whole process */
}

/* The child: a leader that leaves at once, and its thread on CPU 1. */
static void child_main(void)
{
	pthread_attr_t attr;
	cpu_set_t one;
	pthread_t t;

	CPU_ZERO(&one);
	CPU_SET(1, &one);
	if (pthread_attr_init(&attr) ||
	    pthread_attr_setaffinity_np(&attr, sizeof(one), &one) ||
	    pthread_create(&t, &attr, spinner, NULL))
		_exit(3);
	pthread_exit(NULL);
}

/* Wait until every traced CPU in cpus rolled n times more than at base. */
static int wait_rolls(struct fxt_device *d, const uint64_t *base, int ncpus,
		      unsigned int n, double timeout_s)
{
	double t0 = env_now();

	while (env_now() - t0 < timeout_s) {
		int done = 0;

		for (int cpu = 0; cpu < ncpus; cpu++) {
			struct fxt_cpu_stats st;

			if (fxt_device_traced_stats(d, cpu, &st) &&
			    st.wrapped_count >= base[cpu] + n)
				done++;
		}
		if (done == ncpus)
			return 0;
		usleep(200);	/* CPU 0's switches roll it too */
	}
	return -ETIMEDOUT;
}

FIXTURE(wn) {
	int unused;
};

FIXTURE_SETUP(wn) {}
FIXTURE_TEARDOWN(wn) {}

TEST_F_TIMEOUT(wn, renamed_thread_has_its_process, 300)
{
	struct fxt_config cfg = { .buffer_size = SMALL_SIZE,
				  .durable_size = SMALL_DURABLE,
				  .mode = FXT_MODE_CIRCULAR,
				  .categories = FXT_CAT_SCHED | FXT_CAT_IRQ |
						FXT_CAT_SOFTIRQ };
	char runtime[32] = "", archive[PATH_MAX], why[256] = "";
	uint64_t base[2] = { 0, 0 }, final_switches = 0, orphans = 0;
	bool renamed_named = false;
	struct fxt_device d;
	struct records a;
	pid_t child, tid;
	int st, err;

	if (!getenv("FXT_IN_VM"))
		SKIP(return, "turns RT throttling off: in the VM only");
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs CPUs 0 and 1");
	ASSERT_EQ(0, kfile_read(RT_RUNTIME, runtime, sizeof(runtime)));
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, sh);
	memset(sh, 0, sizeof(*sh));
	ASSERT_EQ(0, cpu_pin(0, 0));
	snprintf(archive, sizeof(archive), "%s/window-names.fxt", env_tmpdir());

	memset(&d, 0, sizeof(d));
	d.fd = -1;
	err = fxt_device_open(&d, FXT_DEVICE_PATH, "fxt_window_names");
	if (!err)
		err = fxt_device_init(&d, &cfg);
	ASSERT_EQ(0, err) TH_LOG("%s", d.err);
	d.per_cpu_window_start = true;	/* keep every CPU's whole window */
	ASSERT_EQ(0, fxt_device_start(&d, FXT_START_CLEAR_ENTIRE))
		TH_LOG("start: %s", d.err);

	ASSERT_EQ(0, kfile_write(RT_RUNTIME, "-1"));
	child = fork();
	ASSERT_LE(0, child);
	if (!child)
		child_main();
	for (int i = 0; i < 10000 && !atomic_load(&sh->spinning); i++)
		usleep(1000);
	if (!atomic_load(&sh->spinning)) {
		kill(child, SIGKILL);
		snprintf(why, sizeof(why), "the thread never ran on CPU 1");
	}
	tid = atomic_load(&sh->tid);
	/* The leader has left; from here both CPUs roll its records away. */
	usleep(50000);
	for (int cpu = 0; cpu < 2 && !why[0]; cpu++) {
		struct fxt_cpu_stats cs;

		if (fxt_device_traced_stats(&d, cpu, &cs))
			base[cpu] = cs.wrapped_count;
	}
	if (!why[0] && wait_rolls(&d, base, 2, ROLLS, 60))
		snprintf(why, sizeof(why), "CPUs 0 and 1 did not roll %d times in 60 s",
			 ROLLS);
	atomic_store(&sh->go, 1);
	if (why[0])
		kill(child, SIGKILL);
	waitpid(child, &st, 0);
	/*
	 * Stop at once: CPU 1's interrupts roll its 4 KiB buffers over in
	 * some 100 ms, and the final switch must still be in the window (a
	 * debug kernel once took longer with the RT runtime written first).
	 */
	err = fxt_device_stop(&d, FXT_STOP_WRITE_RESULTS);
	kfile_write(RT_RUNTIME, runtime);
	ASSERT_EQ(0, err);
	ASSERT_EQ(0, fxt_device_save_file(&d, archive)) TH_LOG("%s", d.err);
	fxt_device_close(&d);
	ASSERT_EQ(0, why[0]) TH_LOG("%s", why);
	ASSERT_TRUE(WIFEXITED(st) && !WEXITSTATUS(st)) TH_LOG("child status 0x%x", st);

	ASSERT_EQ(0, records_read(archive, &a, why, sizeof(why))) TH_LOG("%s", why);
	for (size_t i = 0; i < a.nkobjs; i++)
		if (a.kobjs[i].obj_type == FXT_OBJ_THREAD &&
		    a.kobjs[i].koid == (uint64_t)tid &&
		    !strcmp(a.kobjs[i].name, RENAMED))
			renamed_named = true;
	for (size_t k = 0; k < a.nsw; k++) {
		const struct records_switch *s = &a.sw[k];

		final_switches += s->out_tid == (uint64_t)tid && s->cpu == 1;
		for (int side = 0; side < 2; side++) {
			uint64_t t = side ? s->in_tid : s->out_tid;
			uint64_t pid = side ? s->in_pid : s->out_pid;

			if (!t || t >= FXT_KOID_IRQ_PROCESS)
				continue;
			if (!records_kobjs_of(&a, FXT_OBJ_PROCESS, pid, NULL, 0) &&
			    orphans++ < 3)
				TH_LOG("CPU %u at %llu: tid %llu of pid %llu, no process record",
				       s->cpu, (unsigned long long)s->ts,
				       (unsigned long long)t, (unsigned long long)pid);
		}
	}
	TH_LOG("%zu kept switches, %zu name records; the thread (tid %d) switched out on CPU 1 %llu times",
	       a.nsw, a.nkobjs, (int)tid, (unsigned long long)final_switches);
	EXPECT_TRUE(renamed_named) TH_LOG("no thread record named " RENAMED);
	EXPECT_LT(0, final_switches) TH_LOG("the thread's final switch was not kept");
	EXPECT_EQ(0, orphans);
	records_free(&a);
	unlink(archive);
}

TEST_HARNESS_MAIN
