// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_names - every thread of the archive has a name, and names follow
 * renames and exec (Documentation/records.rst, "Threads, processes and
 * names").
 *
 * Workload, run once in main() under fxt-collect -m streaming
 * (lib/collector.h; the archive read by lib/records.h):
 *   - NR_RENAMED threads, created mid-trace, run a while under the name
 *     they inherit ("fxt_names"), then each renames itself with
 *     prctl(PR_SET_NAME, "fxt-renamed-N") and runs a while more;
 *   - one thread renames itself NR_SELF times ("fxt-self-0" ...), running
 *     between renames;
 *   - NR_CROSS threads are each created by the main thread pinned to one
 *     CPU and rename themselves ("fxt-cross-N") pinned to another, half of
 *     them from CPU 1 to CPU 0 and half the other way: the fork record and
 *     the rename record sit in different CPUs' durable data, and whichever
 *     CPU is saved last puts the older name last in the CPUs' data;
 *   - a child is forked and execs /bin/sleep 0.05;
 *   - where the kernel has KFENCE, with its sampling turned up, children
 *     exec /bin/true by a path of PATH_MAX - 1 bytes: exec hands task_rename
 *     the basename at the very end of that buffer, so reading more than the
 *     name shows as a KFENCE report in the kernel log;
 *   - an io_uring read of a pipe with IOSQE_ASYNC makes the kernel create
 *     an io-wq worker thread (create_io_thread(): no sched_process_fork),
 *     which blocks on the pipe until written to;
 *   - at the end the main thread (the process leader) renames itself
 *     "fxt-names-lead": a process record must follow;
 *   - NR_SNAP threads named "fxt-snap-N" before the start sleep through
 *     the trace: the start snapshot alone names them.
 * Then each test case checks one property of the archive, in particular
 * that the last kernel object record of every koid, the one Perfetto
 * applies, carries its final name (fxt-collect's trailer).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <linux/io_uring.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "collector.h"
#include "cpu.h"
#include "env.h"
#include "kfile.h"
#include "kmsg.h"
#include "need_archive.h"
#include "records.h"
#include "libfxt.h"

#define NAME		"names"
#define NR_RENAMED	3
#define NR_SELF		5
#define NR_CROSS	4
#define ORIG_COMM	"fxt_names"
#define LEADER_COMM	"fxt-names-lead"
#define EXEC_PATH	"/bin/sleep"
#define EXEC_COMM	"sleep"
#define LONG_EXEC_DIR	"/bin/"
#define LONG_EXEC_COMM	"true"
#define NR_LONG_EXEC	200
#define KFENCE_INTERVAL	"/sys/module/kfence/parameters/sample_interval"
/* Threads asleep through the trace: only the start snapshot names them. */
#define NR_SNAP		300

static struct {
	bool ran;			/* workload ran inside the trace */
	bool loaded;			/* archive read */
	char why[512];
	struct collector coll;
	struct records a;
	int dump_status;
	char dump_log[PATH_MAX + 16];
	pid_t pid;			/* this process */
	pid_t ppid;			/* and its parent */
	pid_t renamed[NR_RENAMED];
	pid_t self_renamer;
	pid_t cross[NR_CROSS];
	int cross_fork_cpu[NR_CROSS], cross_rename_cpu[NR_CROSS];
	int cross_err;			/* errno of an affinity change */
	pid_t exec_child;
	int exec_status;
	char orig_comm[16];		/* the comm the threads inherited */
	bool kfence_on;			/* long-path execs ran under KFENCE */
	char kfence_why[160];		/* why not */
	int long_exec_failures;
	int kfence_reports;		/* KFENCE reports in the kernel log */
	char kfence_first[256];
	pid_t io_worker;		/* the io-wq worker, 0: none found */
	char io_why[160];		/* why none */
	pid_t snap[NR_SNAP];		/* asleep from before the start */
	int nr_snap;			/* how many of them started */
} R;

static atomic_int go_rename;

/* Run a little: sleep-wake a few times so the thread is switched in and out. */
static void run_a_bit(void)
{
	for (int i = 0; i < 5; i++)
		usleep(500);
}

static void *renamed_main(void *arg)
{
	int n = (int)(long)arg;
	char name[16];

	R.renamed[n] = gettid();
	run_a_bit();
	while (!atomic_load(&go_rename))
		usleep(200);
	snprintf(name, sizeof(name), "fxt-renamed-%d", n);
	prctl(PR_SET_NAME, name);
	run_a_bit();
	return NULL;
}

static void *self_renamer_main(void *arg)
{
	char name[16];

	(void)arg;
	R.self_renamer = gettid();
	run_a_bit();
	for (int i = 0; i < NR_SELF; i++) {
		snprintf(name, sizeof(name), "fxt-self-%d", i);
		prctl(PR_SET_NAME, name);
		run_a_bit();
	}
	return NULL;
}

/* "/bin/./././.../true": PATH_MAX - 1 bytes, the longest path exec takes. */
static void long_exec_path(char *p, size_t size)
{
	size_t n = strlen(LONG_EXEC_DIR), want = size - 1;

	memcpy(p, LONG_EXEC_DIR, n);
	while (n + 2 + strlen(LONG_EXEC_COMM) <= want) {
		memcpy(p + n, "./", 2);
		n += 2;
	}
	if (n + strlen(LONG_EXEC_COMM) < want)
		p[n++] = '/';
	strcpy(p + n, LONG_EXEC_COMM);
}

/*
 * Exec by a path that fills the kernel's PATH_MAX buffer (a names_cache
 * object, a whole page under KFENCE), with KFENCE sampling every
 * millisecond: exec passes task_rename the basename in the last bytes of
 * that page, and a copy of TASK_COMM_LEN bytes from there reads the guard
 * page after it, which KFENCE reports.
 */
static void long_path_execs(void)
{
	static char path[PATH_MAX];
	char old[32] = "0";
	int fd, kmsg, n;

	fd = open(KFENCE_INTERVAL, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(R.kfence_why, sizeof(R.kfence_why),
			 "no KFENCE in this kernel (%s: %s)", KFENCE_INTERVAL,
			 strerror(errno));
		return;
	}
	n = read(fd, old, sizeof(old) - 1);
	close(fd);
	old[n > 0 ? n : 1] = '\0';
	long_exec_path(path, sizeof(path));
	if (access(path, X_OK)) {
		snprintf(R.kfence_why, sizeof(R.kfence_why), "%.40s...: %s",
			 path, strerror(errno));
		return;
	}
	kmsg = kmsg_open_end();
	if (kmsg < 0) {
		snprintf(R.kfence_why, sizeof(R.kfence_why), "/dev/kmsg: %s",
			 strerror(-kmsg));
		return;
	}
	n = kfile_write(KFENCE_INTERVAL, "1");
	if (n) {
		snprintf(R.kfence_why, sizeof(R.kfence_why),
			 "cannot turn KFENCE sampling on: %s", strerror(-n));
		close(kmsg);
		return;
	}
	R.kfence_on = true;
	for (int i = 0; i < NR_LONG_EXEC; i++) {
		int status = 0;
		pid_t pid = fork();

		if (pid == 0) {
			execl(path, LONG_EXEC_COMM, (char *)NULL);
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, &status, 0) != pid ||
		    !WIFEXITED(status) || WEXITSTATUS(status))
			R.long_exec_failures++;
	}
	kfile_write(KFENCE_INTERVAL, old);
	/* KFENCE lines the kernel logged meanwhile. */
	R.kfence_reports = kmsg_count(kmsg, "BUG: KFENCE", R.kfence_first,
				      sizeof(R.kfence_first));
	close(kmsg);
}

/* Renames itself on its rename CPU; it was forked on its fork CPU. */
static void *cross_main(void *arg)
{
	int n = (int)(long)arg, err;
	char name[16];

	R.cross[n] = gettid();
	err = -cpu_pin(0, R.cross_rename_cpu[n]);
	if (err)
		R.cross_err = err;
	run_a_bit();
	snprintf(name, sizeof(name), "fxt-cross-%d", n);
	prctl(PR_SET_NAME, name);
	run_a_bit();
	return NULL;
}

/*
 * Fork (on the main thread's CPU) and rename (on the new thread's) on two
 * different CPUs, in both directions.
 */
static int cross_cpu_renames(void)
{
	pthread_t th[NR_CROSS];
	cpu_set_t old;
	int err = 0, n = 0;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		R.cross_err = ENODEV;
		return 0;
	}
	if (sched_getaffinity(0, sizeof(old), &old))
		return -errno;
	for (; n < NR_CROSS; n++) {
		R.cross_fork_cpu[n] = n % 2 ? 0 : 1;
		R.cross_rename_cpu[n] = n % 2 ? 1 : 0;
		err = -cpu_pin(0, R.cross_fork_cpu[n]);
		if (err) {
			R.cross_err = err;
			break;
		}
		err = pthread_create(&th[n], NULL, cross_main, (void *)(long)n);
		if (err)
			break;
	}
	sched_setaffinity(0, sizeof(old), &old);
	while (n--)
		pthread_join(th[n], NULL);
	return err == R.cross_err ? 0 : -err;
}

/* A thread of this process whose comm starts with prefix, or 0. */
static pid_t find_thread(const char *prefix)
{
	char path[300], comm[32];
	struct dirent *d;
	pid_t found = 0;
	DIR *dir = opendir("/proc/self/task");

	if (!dir)
		return 0;
	while (!found && (d = readdir(dir))) {
		FILE *f;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", d->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strncmp(comm, prefix, strlen(prefix)))
			found = atoi(d->d_name);
		fclose(f);
	}
	closedir(dir);
	return found;
}

/*
 * io_uring by its system calls (no liburing in the guest): one read of a
 * pipe, forced to an io-wq worker by IOSQE_ASYNC. The worker blocks in the
 * read until the pipe is written, so it can be found by its comm meanwhile.
 */
static void io_worker_read(void)
{
	struct io_uring_params p = { 0 };
	struct io_uring_sqe *sqes;
	unsigned int *sq_tail, *sq_array;
	size_t sq_len, cq_len, sqe_len;
	void *sq = MAP_FAILED, *cq = MAP_FAILED;
	int ring, pfd[2] = { -1, -1 };
	char byte;

	ring = syscall(__NR_io_uring_setup, 4, &p);
	if (ring < 0) {
		snprintf(R.io_why, sizeof(R.io_why), "io_uring_setup: %s", strerror(errno));
		return;
	}
	sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	sqe_len = p.sq_entries * sizeof(struct io_uring_sqe);
	sq = mmap(NULL, sq_len, PROT_READ | PROT_WRITE, MAP_SHARED, ring, IORING_OFF_SQ_RING);
	cq = mmap(NULL, cq_len, PROT_READ | PROT_WRITE, MAP_SHARED, ring, IORING_OFF_CQ_RING);
	sqes = mmap(NULL, sqe_len, PROT_READ | PROT_WRITE, MAP_SHARED, ring, IORING_OFF_SQES);
	if (sq == MAP_FAILED || cq == MAP_FAILED || sqes == MAP_FAILED || pipe(pfd)) {
		snprintf(R.io_why, sizeof(R.io_why), "io_uring mmap or pipe: %s", strerror(errno));
		goto out;
	}
	memset(&sqes[0], 0, sizeof(sqes[0]));
	sqes[0].opcode = IORING_OP_READ;
	sqes[0].flags = IOSQE_ASYNC;
	sqes[0].fd = pfd[0];
	sqes[0].addr = (unsigned long)&byte;
	sqes[0].len = 1;
	sq_tail = (unsigned int *)((char *)sq + p.sq_off.tail);
	sq_array = (unsigned int *)((char *)sq + p.sq_off.array);
	sq_array[*sq_tail & (p.sq_entries - 1)] = 0;
	__atomic_store_n(sq_tail, *sq_tail + 1, __ATOMIC_RELEASE);
	if (syscall(__NR_io_uring_enter, ring, 1, 0, 0, NULL, 0) != 1) {
		snprintf(R.io_why, sizeof(R.io_why), "io_uring_enter: %s", strerror(errno));
		goto out;
	}
	/* The worker renames itself once it runs: wait for that, 2 s at most. */
	for (int i = 0; i < 200 && !R.io_worker; i++) {
		R.io_worker = find_thread("iou-wrk-");
		if (!R.io_worker)
			usleep(10000);
	}
	if (!R.io_worker)
		snprintf(R.io_why, sizeof(R.io_why), "no iou-wrk-* thread appeared in 2 s");
	if (write(pfd[1], "x", 1) != 1 ||
	    syscall(__NR_io_uring_enter, ring, 0, 1, IORING_ENTER_GETEVENTS, NULL, 0) < 0)
		snprintf(R.io_why, sizeof(R.io_why), "pipe write or completion: %s",
			 strerror(errno));
out:
	if (sq != MAP_FAILED)
		munmap(sq, sq_len);
	if (cq != MAP_FAILED)
		munmap(cq, cq_len);
	if (sqes != MAP_FAILED)
		munmap(sqes, sqe_len);
	if (pfd[0] >= 0) {
		close(pfd[0]);
		close(pfd[1]);
	}
	close(ring);
}

static int workload(void)
{
	pthread_t th[NR_RENAMED], self;
	int err;

	for (int i = 0; i < NR_RENAMED; i++) {
		err = pthread_create(&th[i], NULL, renamed_main, (void *)(long)i);
		if (err)
			return -err;
	}
	err = pthread_create(&self, NULL, self_renamer_main, NULL);
	if (err)
		return -err;
	usleep(5000);		/* they run under the inherited name */
	atomic_store(&go_rename, 1);

	fflush(NULL);
	R.exec_child = fork();
	if (R.exec_child < 0)
		return -errno;
	if (R.exec_child == 0) {
		execl(EXEC_PATH, EXEC_COMM, "0.05", (char *)NULL);
		_exit(127);
	}
	for (int i = 0; i < NR_RENAMED; i++)
		pthread_join(th[i], NULL);
	pthread_join(self, NULL);
	waitpid(R.exec_child, &R.exec_status, 0);
	err = cross_cpu_renames();
	if (err)
		return err;
	long_path_execs();
	io_worker_read();

	prctl(PR_SET_NAME, LEADER_COMM);
	usleep(2000);
	return 0;
}

static int snap_pipe[2] = { -1, -1 };
static atomic_int snap_ready;

/* Named before the start, then asleep until the trace is over. */
static void *snap_thread(void *arg)
{
	int n = (int)(long)arg;
	char name[16], c;

	snprintf(name, sizeof(name), "fxt-snap-%d", n);
	prctl(PR_SET_NAME, name);
	R.snap[n] = syscall(SYS_gettid);
	atomic_fetch_add(&snap_ready, 1);
	while (read(snap_pipe[0], &c, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

/*
 * NR_SNAP threads (more than one batch of the module's snapshot walk)
 * that exist at the start and sleep through the trace. Return: how many
 * started; their threads in *threads.
 */
static int snap_start(pthread_t *threads)
{
	int n;

	if (pipe(snap_pipe))
		return 0;
	for (n = 0; n < NR_SNAP; n++)
		if (pthread_create(&threads[n], NULL, snap_thread, (void *)(long)n))
			break;
	while (atomic_load(&snap_ready) < n)
		usleep(1000);
	return n;
}

static void snap_stop(pthread_t *threads, int n)
{
	close(snap_pipe[1]);		/* every read returns 0 */
	for (int i = 0; i < n; i++)
		pthread_join(threads[i], NULL);
	close(snap_pipe[0]);
}

static void run(void)
{
	static pthread_t snap_threads[NR_SNAP];
	char tool[PATH_MAX];
	char *argv[] = { tool, "--check", R.coll.archive, NULL };
	int ret;

	R.pid = getpid();
	R.ppid = getppid();
	prctl(PR_SET_NAME, ORIG_COMM);
	prctl(PR_GET_NAME, R.orig_comm);
	if (geteuid()) {
		snprintf(R.why, sizeof(R.why), "needs root");
		return;
	}
	R.nr_snap = snap_start(snap_threads);
	if (collector_start_named(&R.coll, NAME, R.why, sizeof(R.why))) {
		snap_stop(snap_threads, R.nr_snap);
		return;
	}
	ret = workload();
	if (ret) {
		snprintf(R.why, sizeof(R.why), "workload: %s", strerror(-ret));
		collector_stop(&R.coll, R.why + strlen(R.why), 1);
		snap_stop(snap_threads, R.nr_snap);
		return;
	}
	R.ran = true;
	ret = collector_stop(&R.coll, R.why, sizeof(R.why));
	snap_stop(snap_threads, R.nr_snap);
	if (ret)
		return;
	ret = records_read(R.coll.archive, &R.a, R.why, sizeof(R.why));
	if (ret)
		return;
	R.loaded = true;
	snprintf(R.dump_log, sizeof(R.dump_log), "%s.check", R.coll.archive);
	env_tool_path(tool, sizeof(tool), "FXT_DUMP", "userspace/fxt-dump");
	R.dump_status = child_run(argv, R.dump_log, 120);
}

TEST(scenario_ran)
{
	ASSERT_TRUE(R.ran && R.loaded) TH_LOG("%s", R.why);
	ASSERT_TRUE(WIFEXITED(R.exec_status) && !WEXITSTATUS(R.exec_status))
		TH_LOG(EXEC_PATH " child: wait status 0x%x", R.exec_status);
}

TEST(archive_read_cleanly)
{
	NEED_ARCHIVE();
	EXPECT_STREQ("", R.a.error);
	EXPECT_EQ(0, R.a.diags) TH_LOG("libfxt diagnostics (printed above)");
	EXPECT_EQ(0, R.a.malformed);
	EXPECT_EQ(0, R.a.buffer_full)
		TH_LOG("records were dropped: names may be missing for that reason");
	ASSERT_LT(0, R.a.nsw) TH_LOG("no context switches at all");
}

TEST(fxt_dump_check)
{
	NEED_ARCHIVE();
	if (R.dump_status)
		child_log_print("fxt-dump --check", R.dump_log, 20);
	ASSERT_EQ(0, R.dump_status);
}

/* Whether koid has a thread record with a name and a koid "process" arg. */
static const char *thread_problem(uint64_t koid, uint64_t *process)
{
	static char buf[128];
	bool any = false, named = false, has_proc = false;

	for (size_t i = 0; i < R.a.nkobjs; i++) {
		const struct records_kobj *k = &R.a.kobjs[i];

		if (k->obj_type != FXT_OBJ_THREAD || k->koid != koid)
			continue;
		any = true;
		if (!k->name[0])
			continue;
		named = true;
		if (k->has_process && k->process_arg_type == FXT_ARG_KOID) {
			has_proc = true;
			*process = k->process;
		} else if (k->has_process) {
			snprintf(buf, sizeof(buf),
				 "\"process\" argument of type %u, not koid (8)",
				 k->process_arg_type);
			return buf;
		}
	}
	if (!any)
		return "no thread kernel object record";
	if (!named)
		return "thread kernel object records without a name";
	if (!has_proc)
		return "no \"process\" koid argument";
	return NULL;
}

static bool process_named(uint64_t koid)
{
	for (size_t i = 0; i < R.a.nkobjs; i++)
		if (R.a.kobjs[i].obj_type == FXT_OBJ_PROCESS &&
		    R.a.kobjs[i].koid == koid && R.a.kobjs[i].name[0])
			return true;
	return false;
}

/*
 * (a) Every thread koid of every context switch (but idle, koid 0) has a
 * named thread kernel object with a "process" koid argument, whose process
 * has a named process kernel object.
 */
TEST(switch_threads_have_names)
{
	uint64_t checked = 0, bad = 0, undefined = 0;

	NEED_ARCHIVE();
	for (size_t i = 0; i < R.a.nsw; i++) {
		const struct records_switch *s = &R.a.sw[i];

		for (int side = 0; side < 2; side++) {
			bool def = side ? s->in_defined : s->out_defined;
			uint64_t tid = side ? s->in_tid : s->out_tid;
			uint64_t proc = 0;
			const char *why;

			if (!def) {
				undefined++;
				continue;
			}
			if (tid == 0)
				continue;
			checked++;
			why = thread_problem(tid, &proc);
			if (!why && !process_named(proc))
				why = "its process has no named process record";
			if (why && bad++ < 10)
				TH_LOG("switch at 0x%llx (cpu %u): thread %llu: %s",
				       (unsigned long long)s->offset, s->cpu,
				       (unsigned long long)tid, why);
		}
	}
	TH_LOG("%llu thread refs checked", (unsigned long long)checked);
	EXPECT_EQ(0, undefined) TH_LOG("thread refs not resolvable");
	EXPECT_LT(0, checked);
	ASSERT_EQ(0, bad);
}

/* The pid of a switch's thread ref is the process its kernel object names. */
TEST(switch_pid_is_kobj_process)
{
	uint64_t bad = 0;

	NEED_ARCHIVE();
	for (size_t i = 0; i < R.a.nsw; i++) {
		const struct records_switch *s = &R.a.sw[i];

		for (int side = 0; side < 2; side++) {
			uint64_t tid = side ? s->in_tid : s->out_tid;
			uint64_t pid = side ? s->in_pid : s->out_pid;
			uint64_t proc = 0;
			bool match = false;

			if (!(side ? s->in_defined : s->out_defined) || !tid)
				continue;
			/* any of the thread's records may name the process */
			for (size_t j = 0; j < R.a.nkobjs; j++) {
				const struct records_kobj *o = &R.a.kobjs[j];

				if (o->obj_type == FXT_OBJ_THREAD && o->koid == tid &&
				    o->has_process) {
					proc = o->process;
					match |= o->process == pid;
				}
			}
			if (!match && bad++ < 10)
				TH_LOG("switch at 0x%llx: thread %llu pid %llu, kernel object says process %llu",
				       (unsigned long long)s->offset,
				       (unsigned long long)tid,
				       (unsigned long long)pid,
				       (unsigned long long)proc);
		}
	}
	ASSERT_EQ(0, bad);
}

/* Our own threads appear in context switches (the workload ran traced). */
TEST(workload_threads_switched)
{
	NEED_ARCHIVE();
	for (int n = 0; n <= NR_RENAMED + 1; n++) {
		pid_t tid = n < NR_RENAMED ? R.renamed[n] :
			    n == NR_RENAMED ? R.self_renamer : R.exec_child;
		uint64_t seen = 0;

		for (size_t i = 0; i < R.a.nsw; i++)
			seen += (R.a.sw[i].in_defined && R.a.sw[i].in_tid == (uint64_t)tid);
		EXPECT_LT(0, seen) TH_LOG("thread %d never switched in", tid);
	}
}

static void log_names(uint64_t koid)
{
	for (size_t i = 0; i < R.a.nkobjs; i++) {
		const struct records_kobj *k = &R.a.kobjs[i];

		if (k->koid == koid)
			printf("#   koid %llu: %s \"%s\" (provider %u, offset 0x%llx)\n",
			       (unsigned long long)koid,
			       k->obj_type == FXT_OBJ_PROCESS ? "process" : "thread",
			       k->name, k->provider,
			       (unsigned long long)k->offset);
	}
}

/* (b) prctl(PR_SET_NAME) writes a thread record with the new name. */
/*
 * The start snapshot names every task that exists: the sleepers, which
 * neither fork nor rename during the trace, are named by it alone. There
 * are more of them than the module walks per RCU read-side section.
 */
TEST(snapshot_names_sleeping_threads)
{
	int missing = 0;

	NEED_ARCHIVE();
	ASSERT_EQ(NR_SNAP, R.nr_snap);
	for (int n = 0; n < R.nr_snap; n++) {
		char name[16];

		snprintf(name, sizeof(name), "fxt-snap-%d", n);
		if (!records_has_kobj_named(&R.a, FXT_OBJ_THREAD, R.snap[n], name) &&
		    missing++ < 5) {
			TH_LOG("thread %d: no thread record \"%s\"", R.snap[n], name);
			log_names(R.snap[n]);
		}
	}
	EXPECT_EQ(0, missing);
}

TEST(renamed_threads_have_new_name)
{
	NEED_ARCHIVE();
	for (int n = 0; n < NR_RENAMED; n++) {
		char name[16];
		bool ok;

		snprintf(name, sizeof(name), "fxt-renamed-%d", n);
		ok = records_has_kobj_named(&R.a, FXT_OBJ_THREAD, R.renamed[n], name);
		EXPECT_TRUE(ok) {
			TH_LOG("thread %d: no thread record \"%s\"", R.renamed[n], name);
			log_names(R.renamed[n]);
		}
	}
}

/*
 * Fork and rename records carry "named_at" (uint64, CLOCK_BOOTTIME ns): every
 * record of the threads created during the trace does, and the self-renamer's
 * names are stamped in the order it took them (records.rst).
 */
TEST(name_records_carry_named_at)
{
	uint64_t bad = 0, self_at[NR_SELF] = { 0 };

	NEED_ARCHIVE();
	for (size_t i = 0; i < R.a.nkobjs; i++) {
		const struct records_kobj *k = &R.a.kobjs[i];
		bool ours = k->koid == (uint64_t)R.self_renamer ||
			    k->koid == (uint64_t)R.exec_child;
		int rank;

		for (int n = 0; n < NR_RENAMED; n++)
			ours |= k->koid == (uint64_t)R.renamed[n];
		if (!ours)
			continue;
		if ((!k->has_named_at || k->named_at_type != FXT_ARG_UINT64 ||
		     !k->named_at) && bad++ < 5)
			TH_LOG("record at 0x%llx (koid %llu \"%s\"): no uint64 \"named_at\"",
			       (unsigned long long)k->offset,
			       (unsigned long long)k->koid, k->name);
		if (k->koid != (uint64_t)R.self_renamer ||
		    k->obj_type != FXT_OBJ_THREAD || strncmp(k->name, "fxt-self-", 9))
			continue;
		rank = atoi(k->name + 9);
		if (rank >= 0 && rank < NR_SELF)
			self_at[rank] = k->named_at;
	}
	EXPECT_EQ(0, bad);
	/* the self-renamer's names are stamped in the order it took them */
	for (int i = 1; i < NR_SELF; i++) {
		EXPECT_LT(self_at[i - 1], self_at[i])
			TH_LOG("fxt-self-%d stamped %llu, fxt-self-%d %llu", i - 1,
			       (unsigned long long)self_at[i - 1], i,
			       (unsigned long long)self_at[i]);
	}
}

/* The renamed record still points at the right process. */
TEST(renamed_threads_keep_process)
{
	NEED_ARCHIVE();
	for (int n = 0; n < NR_RENAMED; n++) {
		for (size_t i = 0; i < R.a.nkobjs; i++) {
			const struct records_kobj *k = &R.a.kobjs[i];

			if (k->obj_type != FXT_OBJ_THREAD ||
			    k->koid != (uint64_t)R.renamed[n])
				continue;
			EXPECT_TRUE(k->has_process && k->process_arg_type == FXT_ARG_KOID);
			EXPECT_EQ((uint64_t)R.pid, k->process)
				TH_LOG("thread %d record \"%s\"", R.renamed[n], k->name);
		}
	}
}

/* (c) The name before the rename (the fork record's) is recorded too. */
TEST(renamed_threads_have_old_name)
{
	NEED_ARCHIVE();
	for (int n = 0; n < NR_RENAMED; n++) {
		bool ok = records_has_kobj_named(&R.a, FXT_OBJ_THREAD, R.renamed[n],
					    R.orig_comm);
		EXPECT_TRUE(ok) {
			TH_LOG("thread %d: no thread record \"%s\" from before the rename",
			       R.renamed[n], R.orig_comm);
			log_names(R.renamed[n]);
		}
	}
}

/* A thread renaming itself NR_SELF times: every name is recorded. */
TEST(self_renamer_every_name)
{
	NEED_ARCHIVE();
	EXPECT_TRUE(records_has_kobj_named(&R.a, FXT_OBJ_THREAD, R.self_renamer,
				      R.orig_comm));
	for (int i = 0; i < NR_SELF; i++) {
		char name[16];

		snprintf(name, sizeof(name), "fxt-self-%d", i);
		EXPECT_TRUE(records_has_kobj_named(&R.a, FXT_OBJ_THREAD,
					      R.self_renamer, name))
			TH_LOG("thread %d: no record \"%s\"", R.self_renamer, name);
	}
	if (_metadata->passed == 0)
		log_names(R.self_renamer);
}

/*
 * Within one provider (one CPU's durable buffer, append-only) the records
 * of the self-renamer appear in the order of the changes: fork name first,
 * then fxt-self-0, -1, ...
 */
TEST(self_renamer_order_per_cpu)
{
	NEED_ARCHIVE();
	for (int p = 0; p <= R.a.max_provider; p++) {
		int last = -2;

		for (size_t i = 0; i < R.a.nkobjs; i++) {
			const struct records_kobj *k = &R.a.kobjs[i];
			int rank = -2;

			if (k->provider != (uint32_t)p || k->obj_type != FXT_OBJ_THREAD ||
			    k->koid != (uint64_t)R.self_renamer)
				continue;
			if (!strcmp(k->name, R.orig_comm))
				rank = -1;
			else if (!strncmp(k->name, "fxt-self-", 9))
				rank = atoi(k->name + 9);
			EXPECT_NE(-2, rank) TH_LOG("unexpected name \"%s\"", k->name);
			EXPECT_LE(last, rank)
				TH_LOG("cpu %d: \"%s\" at 0x%llx after a later name",
				       p, k->name, (unsigned long long)k->offset);
			if (rank > last)
				last = rank;
		}
	}
}

/* (b) The exec'd child: process and thread named after the new image. */
TEST(exec_child_named_after_image)
{
	const struct records_kobj *k[32];
	size_t n;
	bool thread_ok = false;

	NEED_ARCHIVE();
	EXPECT_TRUE(records_has_kobj_named(&R.a, FXT_OBJ_PROCESS, R.exec_child, EXEC_COMM))
		TH_LOG("no process record \"" EXEC_COMM "\" for %d", R.exec_child);
	n = records_kobjs_of(&R.a, FXT_OBJ_THREAD, R.exec_child, k, 32);
	for (size_t i = 0; i < n && i < 32; i++)
		if (!strcmp(k[i]->name, EXEC_COMM) && k[i]->has_process &&
		    k[i]->process_arg_type == FXT_ARG_KOID &&
		    k[i]->process == (uint64_t)R.exec_child)
			thread_ok = true;
	EXPECT_TRUE(thread_ok)
		TH_LOG("no thread record \"" EXEC_COMM "\" in process %d", R.exec_child);
	if (!thread_ok || _metadata->passed == 0)
		log_names(R.exec_child);
}

/*
 * (b) The exec'd child's life: every process record of it (fork and exec)
 * names its parent, this process, and the exec's carries the command line
 * read from its new stack (records.rst, "Names").
 */
TEST(exec_child_parent_and_cmdline)
{
	const struct records_kobj *k[32];
	unsigned int parents = 0, wrong = 0, cmdlines = 0;
	size_t n;

	NEED_ARCHIVE();
	n = records_kobjs_of(&R.a, FXT_OBJ_PROCESS, R.exec_child, k, 32);
	for (size_t i = 0; i < n && i < 32; i++) {
		if (k[i]->provider == FXT_NAMES_PROVIDER_ID && !k[i]->has_parent)
			continue;	/* fxt-collect's trailer may restate without */
		if (!k[i]->has_parent || k[i]->parent != (uint64_t)R.pid) {
			wrong++;
			TH_LOG("process record %s of %d: parent %s%llu, not %d",
			       k[i]->name, R.exec_child, k[i]->has_parent ? "" : "none ",
			       (unsigned long long)k[i]->parent, R.pid);
		} else {
			parents++;
		}
		if (k[i]->has_cmdline) {
			cmdlines++;
			EXPECT_STREQ(EXEC_COMM " 0.05", k[i]->cmdline);
			EXPECT_STREQ(EXEC_COMM, k[i]->name);
		}
	}
	EXPECT_EQ(0, wrong);
	EXPECT_LE(2, parents) TH_LOG("the fork's and the exec's records");
	EXPECT_LE(1, cmdlines) TH_LOG("no process record of %d has a cmdline", R.exec_child);
}

/*
 * This process exec'd before the recording: fxt.ko wrote no command line
 * for it, and fxt-collect's trailer gives it the one /proc shows; so it
 * does for init. The exec child has its own, from its exec: the trailer
 * adds none.
 */
TEST(trailer_cmdline_of_process_started_before)
{
	const struct records_kobj *k;
	char want[ENV_CMDLINE_MAX + 1];

	NEED_ARCHIVE();
	ASSERT_LT(0, env_proc_cmdline(R.pid, want, sizeof(want)));
	EXPECT_EQ(NULL, records_cmdline_of(&R.a, R.pid, false));
	k = records_cmdline_of(&R.a, R.pid, true);
	ASSERT_NE(NULL, k) TH_LOG("no trailer record of %d with a cmdline", R.pid);
	EXPECT_STREQ(want, k->cmdline);
	EXPECT_TRUE(k->has_parent);
	EXPECT_EQ((uint64_t)R.ppid, k->parent);
	ASSERT_LT(0, env_proc_cmdline(1, want, sizeof(want)));
	k = records_cmdline_of(&R.a, 1, true);
	ASSERT_NE(NULL, k) TH_LOG("init has no cmdline in the trailer");
	EXPECT_STREQ(want, k->cmdline);
	EXPECT_EQ(NULL, records_cmdline_of(&R.a, R.exec_child, true));
}

/* Every process record fxt.ko writes names its parent (init's is 0). */
TEST(process_records_have_parent)
{
	unsigned int with = 0, without = 0;

	NEED_ARCHIVE();
	for (size_t i = 0; i < R.a.nkobjs; i++) {
		const struct records_kobj *k = &R.a.kobjs[i];

		if (k->obj_type != FXT_OBJ_PROCESS || k->provider == FXT_NAMES_PROVIDER_ID ||
		    k->koid == FXT_KOID_IRQ_PROCESS)
			continue;
		if (k->has_parent)
			with++;
		else if (without++ < 5)
			TH_LOG("process %llu \"%s\" has no parent",
			       (unsigned long long)k->koid, k->name);
		if (k->koid == 1)
			EXPECT_EQ(0, k->parent);
		if (k->koid == (uint64_t)R.pid)
			EXPECT_EQ((uint64_t)R.ppid, k->parent);
	}
	EXPECT_EQ(0, without);
	EXPECT_LT(10, with);
}

/*
 * How many records of obj_type for koid carry name (the trailer's not);
 * with_cmdline: only those with a "cmdline" argument.
 */
static unsigned int count_named(uint8_t obj_type, uint64_t koid, const char *name,
				bool with_cmdline)
{
	unsigned int n = 0;

	for (size_t i = 0; i < R.a.nkobjs; i++) {
		const struct records_kobj *k = &R.a.kobjs[i];

		n += k->obj_type == obj_type && k->koid == koid &&
		     k->provider != FXT_NAMES_PROVIDER_ID &&
		     !strcmp(k->name, name) && (!with_cmdline || k->has_cmdline);
	}
	return n;
}

/*
 * Exec names the new image once: the rename inside exec writes the process
 * and thread records, and only sched_process_exec writes the process's
 * again, with its command line (records.rst).
 */
TEST(exec_names_written_once)
{
	NEED_ARCHIVE();
	EXPECT_EQ(1, count_named(FXT_OBJ_THREAD, R.exec_child, EXEC_COMM, false));
	EXPECT_EQ(2, count_named(FXT_OBJ_PROCESS, R.exec_child, EXEC_COMM, false));
	EXPECT_EQ(1, count_named(FXT_OBJ_PROCESS, R.exec_child, EXEC_COMM, true));
	if (_metadata->passed == 0)
		log_names(R.exec_child);
}

/* The child before exec: the fork record carries the parent's comm. */
TEST(exec_child_has_fork_name)
{
	NEED_ARCHIVE();
	EXPECT_TRUE(records_has_kobj_named(&R.a, FXT_OBJ_THREAD, R.exec_child, R.orig_comm))
		log_names(R.exec_child);
	EXPECT_TRUE(records_has_kobj_named(&R.a, FXT_OBJ_PROCESS, R.exec_child, R.orig_comm));
}

/* The leader renaming itself renames the process (records.rst). */
TEST(leader_rename_renames_process)
{
	NEED_ARCHIVE();
	EXPECT_TRUE(records_has_kobj_named(&R.a, FXT_OBJ_THREAD, R.pid, LEADER_COMM));
	EXPECT_TRUE(records_has_kobj_named(&R.a, FXT_OBJ_PROCESS, R.pid, LEADER_COMM));
	if (!records_has_kobj_named(&R.a, FXT_OBJ_PROCESS, R.pid, LEADER_COMM))
		log_names(R.pid);
}

/*
 * The name task_rename passes is copied up to its NUL only (records.rst):
 * no KFENCE report while children exec by a PATH_MAX - 1 byte path.
 */
TEST(rename_copies_only_the_name)
{
	NEED_ARCHIVE();
	if (!R.kfence_on)
		SKIP(return, "%s", R.kfence_why);
	EXPECT_EQ(0, R.long_exec_failures)
		TH_LOG("execs of " LONG_EXEC_DIR "./.../" LONG_EXEC_COMM " failed");
	ASSERT_EQ(0, R.kfence_reports) TH_LOG("first: %s", R.kfence_first);
}

/* The last record of (obj_type, koid) in archive order, or NULL. */
static const struct records_kobj *last_record(uint8_t obj_type, uint64_t koid)
{
	const struct records_kobj *last = NULL;

	for (size_t i = 0; i < R.a.nkobjs; i++)
		if (R.a.kobjs[i].obj_type == obj_type && R.a.kobjs[i].koid == koid)
			last = &R.a.kobjs[i];
	return last;
}

static void expect_last_named(struct __test_metadata *_metadata,
			      uint8_t obj_type, uint64_t koid, const char *want,
			      uint64_t *bad)
{
	const struct records_kobj *k = last_record(obj_type, koid);

	if (k && !strcmp(k->name, want))
		return;
	(*bad)++;
	TH_LOG("%s %llu: last record %s%s%s, final name \"%s\"",
	       obj_type == FXT_OBJ_PROCESS ? "process" : "thread",
	       (unsigned long long)koid, k ? "\"" : "missing",
	       k ? k->name : "", k ? "\"" : "", want);
	log_names(koid);
}

/*
 * (d) Perfetto names a koid after the last kernel object record it reads.
 * For every process and thread the workload named, the last record of its
 * koid in the archive (fxt-collect's trailer included) carries its final
 * name, also for the threads forked on one CPU and renamed on another,
 * whose records sit in two CPUs' data saved in the collector's order.
 */
TEST(last_record_is_final_name)
{
	uint64_t bad = 0;
	char name[16];

	NEED_ARCHIVE();
	for (int n = 0; n < NR_RENAMED; n++) {
		snprintf(name, sizeof(name), "fxt-renamed-%d", n);
		expect_last_named(_metadata, FXT_OBJ_THREAD, R.renamed[n], name, &bad);
	}
	snprintf(name, sizeof(name), "fxt-self-%d", NR_SELF - 1);
	expect_last_named(_metadata, FXT_OBJ_THREAD, R.self_renamer, name, &bad);
	for (int n = 0; n < NR_CROSS && R.cross[n]; n++) {
		snprintf(name, sizeof(name), "fxt-cross-%d", n);
		expect_last_named(_metadata, FXT_OBJ_THREAD, R.cross[n], name, &bad);
	}
	expect_last_named(_metadata, FXT_OBJ_THREAD, R.exec_child, EXEC_COMM, &bad);
	expect_last_named(_metadata, FXT_OBJ_PROCESS, R.exec_child, EXEC_COMM, &bad);
	expect_last_named(_metadata, FXT_OBJ_THREAD, R.pid, LEADER_COMM, &bad);
	expect_last_named(_metadata, FXT_OBJ_PROCESS, R.pid, LEADER_COMM, &bad);
	ASSERT_EQ(0, bad);
}

/*
 * The cross-CPU threads really were forked on one CPU and renamed on the
 * other: their fork record (the inherited name) and their rename record
 * are in different CPUs' data, as the workload meant.
 */
TEST(cross_cpu_renames_on_two_cpus)
{
	NEED_ARCHIVE();
	if (R.cross_err)
		SKIP(return, "cannot pin to two CPUs: %s", strerror(R.cross_err));
	for (int n = 0; n < NR_CROSS; n++) {
		int fork_prov = -1, rename_prov = -1;
		char name[16];

		snprintf(name, sizeof(name), "fxt-cross-%d", n);
		for (size_t i = 0; i < R.a.nkobjs; i++) {
			const struct records_kobj *k = &R.a.kobjs[i];

			if (k->obj_type != FXT_OBJ_THREAD ||
			    k->koid != (uint64_t)R.cross[n] ||
			    k->provider == FXT_NAMES_PROVIDER_ID)
				continue;
			if (!strcmp(k->name, R.orig_comm))
				fork_prov = (int)k->provider;
			else if (!strcmp(k->name, name))
				rename_prov = (int)k->provider;
		}
		EXPECT_EQ(R.cross_fork_cpu[n], fork_prov) TH_LOG("%s", name);
		EXPECT_EQ(R.cross_rename_cpu[n], rename_prov) TH_LOG("%s", name);
	}
}

/* Kernel object records of type process never carry a "process" arg. */
/*
 * The io-wq worker was made by create_io_thread(), which fires no
 * sched_process_fork: a name record must still precede its first switch
 * in (named_at no later than it), not only its own rename once running.
 */
TEST(io_worker_named_before_it_runs)
{
	uint64_t first = 0, named = UINT64_MAX;

	NEED_ARCHIVE();
	ASSERT_NE(0, R.io_worker) TH_LOG("%s", R.io_why);
	for (size_t i = 0; i < R.a.nsw; i++) {
		if (R.a.sw[i].in_tid == (uint64_t)R.io_worker &&
		    (!first || R.a.sw[i].ts < first))
			first = R.a.sw[i].ts;
	}
	ASSERT_NE(0, first) TH_LOG("io worker %d never switched in", R.io_worker);
	for (size_t i = 0; i < R.a.nkobjs; i++) {
		const struct records_kobj *k = &R.a.kobjs[i];

		if (k->obj_type == FXT_OBJ_THREAD && k->koid == (uint64_t)R.io_worker &&
		    k->has_named_at && k->named_at < named)
			named = k->named_at;
	}
	log_names(R.io_worker);
	EXPECT_LE(named, first)
		TH_LOG("io worker %d first ran at %llu, first named at %llu",
		       R.io_worker, (unsigned long long)first,
		       (unsigned long long)named);
	EXPECT_EQ(NULL, thread_problem(R.io_worker, &(uint64_t){ 0 }));
}

TEST(kobj_records_well_typed)
{
	uint64_t bad = 0;

	NEED_ARCHIVE();
	for (size_t i = 0; i < R.a.nkobjs; i++) {
		const struct records_kobj *k = &R.a.kobjs[i];
		bool ok = k->name[0] &&
			  (k->obj_type == FXT_OBJ_PROCESS ? !k->has_process :
			   k->obj_type == FXT_OBJ_THREAD &&
			   k->has_process && k->process_arg_type == FXT_ARG_KOID);

		if (!ok && bad++ < 10)
			TH_LOG("kernel object at 0x%llx: type %u koid %llu name \"%s\"",
			       (unsigned long long)k->offset, k->obj_type,
			       (unsigned long long)k->koid, k->name);
	}
	ASSERT_EQ(0, bad);
}

int main(int argc, char **argv)
{
	run();
	if (R.loaded)
		printf("# %s: %zu kernel objects, %zu switches, %zu events; threads renamed %d %d %d, self %d, exec child %d\n",
		       R.coll.archive, R.a.nkobjs, R.a.nsw, R.a.nev, R.renamed[0],
		       R.renamed[1], R.renamed[2], R.self_renamer, R.exec_child);
	else
		printf("# scenario: %s\n", R.why);
	if (R.kfence_on)
		printf("# %d long-path execs under KFENCE: %d failed, %d KFENCE reports\n",
		       NR_LONG_EXEC, R.long_exec_failures, R.kfence_reports);
	fflush(stdout);
	return test_harness_run(argc, argv);
}
