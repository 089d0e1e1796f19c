// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_sched_fields - what a context switch record says about its threads
 * (Documentation/records.rst, "Context switch (subtype 0)"):
 *   - idle is thread koid 0 in process 0 with priority 0, the rule by which
 *     Perfetto recognises idle; no other thread has priority 0; the
 *     outgoing state is never 1 (running); fxt-report gives idle no row in
 *     its thread table;
 *   - priorities: FXT priority = 140 - task->prio, so nice 0 -> 20,
 *     nice 10 -> 10, SCHED_FIFO 10 (prio 89) -> 51, SCHED_FIFO 99 -> 140,
 *     SCHED_DEADLINE (prio -1) -> 141 (higher while priority inheritance
 *     boosts the thread, never lower);
 *   - outgoing states: a thread blocked in usleep() is 3 (blocked), an
 *     exited thread's last switch is 4 (dying) or 5 (dead), a child
 *     stopped by SIGSTOP leaves suspended (2);
 *   - priority inheritance: a nice 0 thread holding a PTHREAD_PRIO_INHERIT
 *     mutex that a SCHED_FIFO 10 thread waits for is written with 51 while
 *     it holds it, and with 20 again after unlocking.
 *   - wakeups (records.rst, "Thread wakeup"): the waker is a thread or the
 *     CPU's interrupt pseudo-thread, never koid 0: the idle task wakes
 *     threads outside interrupts, e.g. the stopper thread of a CPU coming
 *     online, which the workload provokes by taking the last CPU offline
 *     and back online once.
 *
 * Workload, once in main() under fxt-collect -m streaming: one thread per
 * policy sets its own priority, notes CLOCK_BOOTTIME (the module's clock),
 * then sleeps and wakes a few dozen times and exits. Only switches after
 * that time are compared (before it the thread still had nice 0).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "collector.h"
#include "cpu.h"
#include "need_archive.h"
#include "records.h"
#include "oracle.h"
#include "libfxt.h"

#define NAME		"sched-fields"
#define NR_SLEEPS	30

/* sched_setattr()'s argument (linux/sched/types.h clashes with glibc's). */
struct fxt_sched_attr {
	uint32_t size, sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime, sched_deadline, sched_period;
};

enum { T_NICE0, T_NICE10, T_FIFO10, T_FIFO99, T_DEADLINE, NR_T };

static const struct {
	const char *what;
	int policy;		/* SCHED_OTHER: nice below, else rt priority */
	int value;
	unsigned int fxt_prio;	/* expected, from records.rst */
} spec[NR_T] = {
	[T_NICE0]  = { "nice 0",        SCHED_OTHER, 0,  140 - 120 },
	[T_NICE10] = { "nice 10",       SCHED_OTHER, 10, 140 - 130 },
	[T_FIFO10] = { "SCHED_FIFO 10", SCHED_FIFO,  10, 140 - (99 - 10) },
	[T_FIFO99] = { "SCHED_FIFO 99", SCHED_FIFO,  99, 140 - (99 - 99) },
	/* runtime 1 ms every 10 ms: ample for usleep(300) loops */
	[T_DEADLINE] = { "SCHED_DEADLINE", SCHED_DEADLINE, 0, 141 },
};

struct worker {
	int idx;
	pid_t tid;
	int err;		/* errno of the priority change */
	uint64_t t_set;		/* CLOCK_BOOTTIME ns after the change */
};

/* The priority-inheritance pair: a nice 0 holder, a SCHED_FIFO 10 waiter. */
#define PI_SLEEPS	20
static struct {
	pthread_mutex_t mutex;
	sem_t locked;
	pid_t holder_tid;
	int err;		/* errno of a failed step, 0 if all went well */
	uint64_t t_blocking;	/* the waiter is about to block on the mutex */
	uint64_t t_unlocked;	/* the holder has unlocked it */
	uint64_t t_done;	/* the holder's sleeps after unlocking are over */
} PI;

static struct {
	bool ran, loaded;
	char why[512];
	struct collector coll;
	struct records a;
	struct worker w[NR_T];
	int report_status;
	char report_csv[PATH_MAX + 16];
	int hotplug_cpu;	/* the CPU taken offline and online, -1: none */
	char hotplug_why[160];
	pid_t stopped;		/* a child stopped by SIGSTOP, 0: none */
	char stopped_why[160];
	uint64_t joined;	/* threads of this process that exited */
	uint64_t final_switches;	/* the oracle's TASK_DEAD switches */
} R;

/* pid's voluntary_ctxt_switches, -1 if unreadable. */
static long nvcsw(pid_t pid)
{
	char path[64], line[128];
	long n = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "voluntary_ctxt_switches: %ld", &n) == 1)
			break;
	fclose(f);
	return n;
}

/*
 * Wait (5 s at most) until pid made at least n voluntary switches; return
 * the count then (less than n on a timeout). The count goes up in
 * __schedule() after the outgoing state was taken, just before the
 * sched_switch tracepoint, with the run queue locked: a signal sent
 * afterwards changes nothing the switch record says.
 */
static long wait_nvcsw(pid_t pid, long n)
{
	double end = env_now() + 5;
	long v;

	while ((v = nvcsw(pid)) < n && env_now() < end)
		usleep(1000);
	return v;
}

/* A child that waits in pause(), is stopped by SIGSTOP, then killed. */
static void stop_a_child(void)
{
	int status;
	long n;
	pid_t pid = fork();

	if (pid < 0) {
		snprintf(R.stopped_why, sizeof(R.stopped_why), "fork: %s", strerror(errno));
		return;
	}
	if (pid == 0) {
		for (;;)
			pause();
	}
	/*
	 * Its first voluntary switch is into pause(); the next, after SIGSTOP,
	 * is the one out as stopped. waitpid() returns before that one (the
	 * parent is told first), and a SIGKILL sent before it makes the child
	 * leave running instead: wait for the switch, not for some time.
	 */
	n = wait_nvcsw(pid, 1);
	if (n < 1)
		snprintf(R.stopped_why, sizeof(R.stopped_why), "it never blocked in pause()");
	else if (kill(pid, SIGSTOP) || waitpid(pid, &status, WUNTRACED) != pid ||
		 !WIFSTOPPED(status))
		snprintf(R.stopped_why, sizeof(R.stopped_why), "SIGSTOP did not stop it");
	else if (wait_nvcsw(pid, n + 1) < n + 1)
		snprintf(R.stopped_why, sizeof(R.stopped_why), "it never switched out stopped");
	else
		R.stopped = pid;
	kill(pid, SIGKILL);
	kill(pid, SIGCONT);
	waitpid(pid, &status, 0);
}


static void *worker_main(void *arg)
{
	struct worker *w = arg;
	int ret;

	w->tid = gettid();
	if (spec[w->idx].policy == SCHED_OTHER) {
		ret = setpriority(PRIO_PROCESS, w->tid, spec[w->idx].value);
	} else if (spec[w->idx].policy == SCHED_DEADLINE) {
		struct fxt_sched_attr a = {
			.size = sizeof(a), .sched_policy = SCHED_DEADLINE,
			.sched_runtime = 1000000, .sched_deadline = 10000000,
			.sched_period = 10000000,
		};

		ret = syscall(SYS_sched_setattr, 0, &a, 0);
	} else {
		struct sched_param sp = { .sched_priority = spec[w->idx].value };

		ret = sched_setscheduler(0, spec[w->idx].policy, &sp);
	}
	if (ret) {
		w->err = errno;
		return NULL;
	}
	w->t_set = env_boottime_ns();
	for (int i = 0; i < NR_SLEEPS; i++)
		usleep(300);
	return NULL;
}

static void *pi_holder_main(void *arg)
{
	(void)arg;
	PI.holder_tid = gettid();
	PI.err = pthread_mutex_lock(&PI.mutex);
	sem_post(&PI.locked);
	if (PI.err)
		return NULL;
	for (int i = 0; i < PI_SLEEPS; i++)	/* boosted once the waiter blocks */
		usleep(500);
	pthread_mutex_unlock(&PI.mutex);
	PI.t_unlocked = env_boottime_ns();
	for (int i = 0; i < PI_SLEEPS; i++)	/* back at nice 0 */
		usleep(500);
	PI.t_done = env_boottime_ns();
	return NULL;
}

static void *pi_waiter_main(void *arg)
{
	struct sched_param sp = { .sched_priority = 10 };

	(void)arg;
	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		PI.err = errno;
	sem_wait(&PI.locked);
	if (PI.err)
		return NULL;
	PI.t_blocking = env_boottime_ns();
	PI.err = pthread_mutex_lock(&PI.mutex);
	if (!PI.err)
		pthread_mutex_unlock(&PI.mutex);
	return NULL;
}

/* Runs the pair to the end; returns an error message or NULL. */
static const char *run_pi_pair(void)
{
	pthread_mutexattr_t attr;
	pthread_t holder, waiter;

	if (pthread_mutexattr_init(&attr) ||
	    pthread_mutexattr_setprotocol(&attr, PTHREAD_PRIO_INHERIT) ||
	    pthread_mutex_init(&PI.mutex, &attr) || sem_init(&PI.locked, 0, 0))
		return "cannot make a PTHREAD_PRIO_INHERIT mutex";
	pthread_mutexattr_destroy(&attr);
	if (pthread_create(&holder, NULL, pi_holder_main, NULL))
		return "pthread_create";
	if (pthread_create(&waiter, NULL, pi_waiter_main, NULL)) {
		sem_post(&PI.locked);
		pthread_join(holder, NULL);
		R.joined++;
		return "pthread_create";
	}
	pthread_join(waiter, NULL);
	pthread_join(holder, NULL);
	R.joined += 2;
	return NULL;
}

/*
 * Take the last CPU offline and back online: coming online, its idle task
 * unparks the CPU's stopper thread, a wakeup outside interrupt context.
 */
static void cpu_cycle(void)
{
	int cpu = (int)sysconf(_SC_NPROCESSORS_CONF) - 1;
	int ret;

	R.hotplug_cpu = -1;
	if (cpu < 1) {
		snprintf(R.hotplug_why, sizeof(R.hotplug_why), "one CPU");
		return;
	}
	ret = cpu_set_online(cpu, false);
	if (ret) {
		snprintf(R.hotplug_why, sizeof(R.hotplug_why),
			 "cpu%d offline: %s", cpu, strerror(-ret));
		return;
	}
	usleep(20000);
	for (int tries = 0; tries < 5; tries++) {
		ret = cpu_set_online(cpu, true);
		if (!ret)
			break;
		usleep(100000);
	}
	if (ret) {
		snprintf(R.hotplug_why, sizeof(R.hotplug_why),
			 "cpu%d online: %s", cpu, strerror(-ret));
		return;
	}
	R.hotplug_cpu = cpu;
	usleep(20000);
}

static void run(void)
{
	const char *pi_why;
	pthread_t th[NR_T];
	char tool[PATH_MAX];
	char *argv[] = { tool, "--csv", R.coll.archive, NULL };
	struct oracle *o;
	int ret;

	if (geteuid()) {
		snprintf(R.why, sizeof(R.why), "needs root");
		return;
	}
	/* Counts the final switches of this process's threads (not main's). */
	o = oracle_open(getpid(), gettid());
	if (!o || oracle_start(o)) {
		snprintf(R.why, sizeof(R.why), "oracle: %s", strerror(errno));
		oracle_close(o);
		return;
	}
	if (collector_start_named(&R.coll, NAME, R.why, sizeof(R.why))) {
		oracle_close(o);
		return;
	}
	for (int i = 0; i < NR_T; i++) {
		R.w[i].idx = i;
		ret = pthread_create(&th[i], NULL, worker_main, &R.w[i]);
		if (ret) {
			snprintf(R.why, sizeof(R.why), "pthread_create: %s",
				 strerror(ret));
			collector_stop(&R.coll, R.why + strlen(R.why), 1);
			oracle_close(o);
			return;
		}
	}
	for (int i = 0; i < NR_T; i++)
		pthread_join(th[i], NULL);
	R.joined += NR_T;
	pi_why = run_pi_pair();
	if (pi_why && !PI.err)
		PI.err = EAGAIN;
	if (pi_why)
		snprintf(R.why, sizeof(R.why), "%s", pi_why);
	stop_a_child();
	cpu_cycle();
	/*
	 * The threads' final switches: pthread_join() returns, and their
	 * /proc entries go, before their last schedule(); the oracle sees it.
	 */
	R.final_switches = oracle_wait_exits(o, R.joined, 10);
	oracle_close(o);
	R.ran = true;
	if (collector_stop(&R.coll, R.why, sizeof(R.why)))
		return;
	ret = records_read(R.coll.archive, &R.a, R.why, sizeof(R.why));
	if (ret)
		return;
	R.loaded = true;
	snprintf(R.report_csv, sizeof(R.report_csv), "%s.csv", R.coll.archive);
	env_tool_path(tool, sizeof(tool), "FXT_REPORT", "userspace/fxt-report");
	R.report_status = access(tool, X_OK) ? -2 : child_run(argv, R.report_csv, 120);
}

TEST(scenario_ran)
{
	ASSERT_TRUE(R.ran && R.loaded) TH_LOG("%s", R.why);
	for (int t = 0; t < NR_T; t++) {
		EXPECT_EQ(0, R.w[t].err)
			TH_LOG("%s: %s", spec[t].what, strerror(R.w[t].err));
	}
}

TEST(archive_read_cleanly)
{
	NEED_ARCHIVE();
	EXPECT_STREQ("", R.a.error);
	EXPECT_EQ(0, R.a.diags);
	EXPECT_EQ(0, R.a.malformed);
	EXPECT_EQ(0, R.a.buffer_full);
	ASSERT_LT(0, R.a.nsw);
}

TEST(switch_cpu_is_provider)
{
	uint64_t bad = 0;

	NEED_ARCHIVE();
	for (size_t i = 0; i < R.a.nsw; i++)
		bad += R.a.sw[i].cpu != R.a.sw[i].provider;
	ASSERT_EQ(0, bad);
}

/* The trace has idle at all (else the idle checks prove nothing). */
TEST(idle_switches_present)
{
	uint64_t n = 0;

	NEED_ARCHIVE();
	for (size_t i = 0; i < R.a.nsw; i++)
		n += (R.a.sw[i].out_defined && R.a.sw[i].out_tid == 0) +
		     (R.a.sw[i].in_defined && R.a.sw[i].in_tid == 0);
	ASSERT_LT(0, n);
}

/* Thread koid 0 always comes with process koid 0 and priority 0. */
TEST(idle_is_process_0_priority_0)
{
	uint64_t bad = 0;

	NEED_ARCHIVE();
	for (size_t i = 0; i < R.a.nsw; i++) {
		const struct records_switch *s = &R.a.sw[i];

		for (int side = 0; side < 2; side++) {
			uint64_t tid = side ? s->in_tid : s->out_tid;
			uint64_t pid = side ? s->in_pid : s->out_pid;
			unsigned int prio = side ? s->in_prio : s->out_prio;

			if (!(side ? s->in_defined : s->out_defined) || tid)
				continue;
			if ((pid || prio) && bad++ < 5)
				TH_LOG("switch at 0x%llx: %s idle with pid %llu prio %u",
				       (unsigned long long)s->offset,
				       side ? "incoming" : "outgoing",
				       (unsigned long long)pid, prio);
		}
	}
	ASSERT_EQ(0, bad);
}

/* Priority 0 is idle's alone: Perfetto would drop such a thread's rows. */
TEST(no_priority_0_but_idle)
{
	uint64_t bad = 0;

	NEED_ARCHIVE();
	for (size_t i = 0; i < R.a.nsw; i++) {
		const struct records_switch *s = &R.a.sw[i];

		if (((s->out_tid && !s->out_prio) || (s->in_tid && !s->in_prio)) &&
		    bad++ < 5)
			TH_LOG("switch at 0x%llx: %llu (prio %u) -> %llu (prio %u)",
			       (unsigned long long)s->offset,
			       (unsigned long long)s->out_tid, s->out_prio,
			       (unsigned long long)s->in_tid, s->in_prio);
	}
	ASSERT_EQ(0, bad);
}

/* Outgoing state: never 1 (running), always one records.rst lists. */
TEST(outgoing_state_valid)
{
	uint64_t bad = 0;

	NEED_ARCHIVE();
	for (size_t i = 0; i < R.a.nsw; i++) {
		unsigned int st = R.a.sw[i].out_state;

		if ((st == FXT_THREAD_RUNNING || st > FXT_THREAD_DEAD) && bad++ < 5)
			TH_LOG("switch at 0x%llx: outgoing state %u",
			       (unsigned long long)R.a.sw[i].offset, st);
	}
	ASSERT_EQ(0, bad);
}

/*
 * Priorities of the workers after their change (records.rst formula).
 * task->prio is the effective priority, so a worker holding a lock that a
 * more important thread waits for is boosted by priority inheritance for
 * a while (on PREEMPT_RT every spinlock_t is an rt_mutex, and the FIFO
 * workers share glibc's and the kernel's locks with the others). A boost
 * only ever raises the priority, so: no switch below the expected value,
 * and most switches exactly at it.
 */
TEST(priorities_follow_policy)
{
	NEED_ARCHIVE();
	for (int t = 0; t < NR_T; t++) {
		const struct worker *w = &R.w[t];
		const unsigned int want = spec[t].fxt_prio;
		uint64_t n = 0, exact = 0, boosted = 0, below = 0;

		if (w->err)
			continue;
		for (size_t i = 0; i < R.a.nsw; i++) {
			const struct records_switch *s = &R.a.sw[i];

			if (s->ts < w->t_set)
				continue;
			for (int side = 0; side < 2; side++) {
				uint64_t tid = side ? s->in_tid : s->out_tid;
				unsigned int prio = side ? s->in_prio : s->out_prio;

				if (tid != (uint64_t)w->tid)
					continue;
				n++;
				if (prio == want) {
					exact++;
					continue;
				}
				if (prio > want)
					boosted++;
				else
					below++;
				if (boosted + below <= 3)
					TH_LOG("%s (tid %d): %s prio %u at 0x%llx%s",
					       spec[t].what, w->tid,
					       side ? "incoming" : "outgoing", prio,
					       (unsigned long long)s->offset,
					       prio > want ? " (boosted)" : "");
			}
		}
		EXPECT_LE(NR_SLEEPS, n)
			TH_LOG("%s (tid %d): only %llu switches after the change",
			       spec[t].what, w->tid, (unsigned long long)n);
		EXPECT_EQ(0, below) TH_LOG("%s: below FXT priority %u",
					   spec[t].what, want);
		EXPECT_LT(n / 2, exact)
			TH_LOG("%s: %llu of %llu switches at FXT priority %u, %llu boosted",
			       spec[t].what, (unsigned long long)exact,
			       (unsigned long long)n, want,
			       (unsigned long long)boosted);
	}
}

/* A thread going to sleep in usleep() leaves blocked (3). */
TEST(sleeping_thread_leaves_blocked)
{
	NEED_ARCHIVE();
	for (int t = 0; t < NR_T; t++) {
		uint64_t blocked = 0;

		for (size_t i = 0; i < R.a.nsw; i++)
			blocked += R.a.sw[i].out_tid == (uint64_t)R.w[t].tid &&
				   R.a.sw[i].out_state == FXT_THREAD_BLOCKED;
		EXPECT_LE(NR_SLEEPS / 2, blocked)
			TH_LOG("%s (tid %d): %llu blocked switches out", spec[t].what,
			       R.w[t].tid, (unsigned long long)blocked);
	}
}

/* A task stopped by SIGSTOP leaves suspended (2, Perfetto's T). */
TEST(stopped_child_leaves_suspended)
{
	uint64_t suspended = 0;

	NEED_ARCHIVE();
	ASSERT_NE(0, R.stopped) TH_LOG("%s", R.stopped_why);
	for (size_t i = 0; i < R.a.nsw; i++)
		suspended += R.a.sw[i].out_tid == (uint64_t)R.stopped &&
			     R.a.sw[i].out_state == FXT_THREAD_SUSPENDED;
	EXPECT_EQ(1, suspended)
		TH_LOG("child %d: %llu switches out as suspended", R.stopped,
		       (unsigned long long)suspended);
}

/* Every thread's final switch happened before the collector stopped. */
TEST(final_switches_before_stop)
{
	NEED_ARCHIVE();
	EXPECT_EQ(R.joined, R.final_switches)
		TH_LOG("%llu threads exited, the oracle saw %llu final switches in 10 s",
		       (unsigned long long)R.joined,
		       (unsigned long long)R.final_switches);
}

/* The last switch out of an exited thread is dying (4) or dead (5). */
TEST(exited_thread_leaves_dying_or_dead)
{
	NEED_ARCHIVE();
	for (int t = 0; t < NR_T; t++) {
		int last = -1;

		/* providers are per CPU: the last switch is the latest one */
		for (size_t i = 0; i < R.a.nsw; i++)
			if (R.a.sw[i].out_tid == (uint64_t)R.w[t].tid &&
			    (last < 0 || R.a.sw[i].ts > R.a.sw[last].ts))
				last = (int)i;
		ASSERT_LE(0, last) TH_LOG("%s: never switched out", spec[t].what);
		EXPECT_TRUE(R.a.sw[last].out_state == FXT_THREAD_DYING ||
			    R.a.sw[last].out_state == FXT_THREAD_DEAD)
			TH_LOG("%s (tid %d): last outgoing state %u", spec[t].what,
			       R.w[t].tid, R.a.sw[last].out_state);
		for (size_t i = 0; i < R.a.nsw; i++) {
			EXPECT_FALSE(R.a.sw[i].in_tid == (uint64_t)R.w[t].tid &&
				     R.a.sw[i].ts > R.a.sw[last].ts)
				TH_LOG("%s: switched in after its final switch",
				       spec[t].what);
		}
	}
}

/*
 * fxt-report --csv: idle (koid 0) gets no row in the thread table; its
 * time is the CPUs' idle_ns instead.
 */
TEST(fxt_report_idle_not_a_thread)
{
	char line[1024];
	uint64_t rows = 0, idle_rows = 0, worker_rows = 0, idle_ns = 0;
	int tid_col = -1, idle_col = -1;
	FILE *f;

	NEED_ARCHIVE();
	if (R.report_status == -2)
		SKIP(return, "no userspace/fxt-report");
	if (R.report_status)
		child_log_print("fxt-report --csv", R.report_csv, 10);
	ASSERT_EQ(0, R.report_status);
	f = fopen(R.report_csv, "r");
	ASSERT_NE(NULL, f);
	while (fgets(line, sizeof(line), f)) {
		char *save = NULL, *tok;
		char table[32] = "";
		long long tid = -1, idle = -1;
		bool header = !strncmp(line, "table,", 6);

		line[strcspn(line, "\n")] = '\0';
		tok = strtok_r(line, ",", &save);
		for (int col = 0; tok; col++, tok = strtok_r(NULL, ",", &save)) {
			if (col == 0) {
				snprintf(table, sizeof(table), "%s", tok);
				continue;
			}
			if (header) {
				if (!strcmp(tok, "tid"))
					tid_col = col;
				if (!strcmp(tok, "idle_ns"))
					idle_col = col;
				continue;
			}
			if (col == tid_col && !strcmp(table, "threads"))
				tid = atoll(tok);
			if (col == idle_col && !strcmp(table, "cpus"))
				idle = atoll(tok);
		}
		if (header)
			continue;
		if (!strcmp(table, "threads")) {
			rows++;
			idle_rows += tid == 0;
			for (int t = 0; t < NR_T; t++)
				worker_rows += tid == R.w[t].tid;
		} else if (!strcmp(table, "cpus") && idle > 0) {
			idle_ns += idle;
		}
	}
	fclose(f);
	ASSERT_LE(0, tid_col) TH_LOG("no tid column in the threads table");
	EXPECT_LT(0, rows);
	EXPECT_EQ(NR_T, worker_rows) TH_LOG("the workers' rows (parsing check)");
	EXPECT_EQ(0, idle_rows) TH_LOG("a thread row with tid 0");
	EXPECT_LT(0, idle_ns) TH_LOG("no CPU idle time at all");
}

/*
 * While the FIFO 10 waiter is blocked on the PI mutex, the nice 0 holder's
 * switches carry 51; before the waiter blocks and after the unlock, 20.
 * Between t_blocking and the waiter's actual block the holder may still
 * be unboosted, so that window allows either value.
 */
TEST(priority_inheritance_boost_is_recorded)
{
	const unsigned int nice0 = spec[T_NICE0].fxt_prio;
	const unsigned int fifo10 = spec[T_FIFO10].fxt_prio;
	uint64_t boosted = 0, after = 0, bad = 0;

	NEED_ARCHIVE();
	ASSERT_EQ(0, PI.err) TH_LOG("PI pair: %s", strerror(PI.err));
	for (size_t i = 0; i < R.a.nsw; i++) {
		const struct records_switch *s = &R.a.sw[i];

		for (int side = 0; side < 2; side++) {
			uint64_t tid = side ? s->in_tid : s->out_tid;
			unsigned int prio = side ? s->in_prio : s->out_prio;
			bool ok;

			if (tid != (uint64_t)PI.holder_tid)
				continue;
			if (s->ts > PI.t_unlocked && s->ts <= PI.t_done) {
				after++;
				ok = prio == nice0;
			} else if (s->ts > PI.t_blocking && s->ts <= PI.t_unlocked) {
				boosted += prio == fifo10;
				ok = prio == nice0 || prio == fifo10;
			} else {
				continue;
			}
			if (!ok && bad++ < 5)
				TH_LOG("holder (tid %d): %s prio %u at 0x%llx",
				       PI.holder_tid, side ? "incoming" : "outgoing",
				       prio, (unsigned long long)s->offset);
		}
	}
	EXPECT_EQ(0, bad);
	EXPECT_LE(PI_SLEEPS / 2, boosted)
		TH_LOG("holder switches at the waiter's priority %u while it held the mutex",
		       fifo10);
	EXPECT_LE(PI_SLEEPS / 2, after)
		TH_LOG("holder switches after the unlock");
}

/*
 * A wakeup carries the woken thread's FXT priority as "weight", except at
 * nice 0 (FXT_WAKEUP_WEIGHT_DEFAULT, 20): that one goes unsaid and the
 * record is 5 words, not 6 (records.rst, "Thread wakeup"). A wakeup that
 * changes no state says so with FXT_WEIGHT_NO_STATE_CHANGE whatever the
 * priority. A wakeup written by the CPU that completed it carries one
 * word more, its "waking_cpu" (records.rst). So every worker's wakeups
 * after its change carry its weight (or more, while boosted), the nice 0
 * worker's none, and no wakeup at all writes the default out.
 */
TEST(wakeup_weight_follows_policy)
{
	const int32_t unchanged = (int32_t)FXT_WEIGHT_NO_STATE_CHANGE;
	uint64_t explicit_default = 0, bad_size = 0;

	NEED_ARCHIVE();
	ASSERT_LT(0, R.a.nwk) TH_LOG("no wakeups at all");
	for (size_t i = 0; i < R.a.nwk; i++) {
		const struct records_wakeup *w = &R.a.wk[i];

		if (w->has_weight && w->weight == FXT_WAKEUP_WEIGHT_DEFAULT &&
		    explicit_default++ < 3)
			TH_LOG("wakeup at 0x%llx: weight %d written out",
			       (unsigned long long)w->offset, w->weight);
		if (w->words != 5 + w->has_weight + w->has_waking_cpu && bad_size++ < 3)
			TH_LOG("wakeup at 0x%llx: %u words, %s weight, %s waking_cpu",
			       (unsigned long long)w->offset, w->words,
			       w->has_weight ? "with" : "without",
			       w->has_waking_cpu ? "with" : "without");
	}
	EXPECT_EQ(0, explicit_default);
	EXPECT_EQ(0, bad_size);
	for (int t = 0; t < NR_T; t++) {
		const struct worker *wk = &R.w[t];
		const unsigned int want = spec[t].fxt_prio;
		uint64_t n = 0, exact = 0, wrong = 0;

		if (wk->err)
			continue;
		for (size_t i = 0; i < R.a.nwk; i++) {
			const struct records_wakeup *w = &R.a.wk[i];
			int32_t weight;

			if (w->ts < wk->t_set || w->tid != (uint64_t)wk->tid)
				continue;
			weight = w->has_weight ? w->weight : FXT_WAKEUP_WEIGHT_DEFAULT;
			if (weight == unchanged)
				continue;
			n++;
			if (weight == (int32_t)want && w->has_weight == (want != FXT_WAKEUP_WEIGHT_DEFAULT))
				exact++;
			else if (weight < (int32_t)want && wrong++ < 3)
				TH_LOG("%s (tid %d): wakeup at 0x%llx with weight %d%s",
				       spec[t].what, wk->tid,
				       (unsigned long long)w->offset, weight,
				       w->has_weight ? "" : " (none written)");
		}
		EXPECT_LE(NR_SLEEPS / 2, n)
			TH_LOG("%s (tid %d): only %llu wakeups after the change",
			       spec[t].what, wk->tid, (unsigned long long)n);
		EXPECT_EQ(0, wrong) TH_LOG("%s: below FXT priority %u", spec[t].what, want);
		EXPECT_LT(n / 2, exact)
			TH_LOG("%s: %llu of %llu wakeups with weight %u",
			       spec[t].what, (unsigned long long)exact,
			       (unsigned long long)n, want);
	}
}

/*
 * No wakeup names koid 0 (the idle task) as its waker: a wakeup from idle
 * outside interrupts is the CPU's, written as its interrupt pseudo-thread.
 */
TEST(no_wakeup_by_koid_0)
{
	uint64_t zero = 0, no_waker = 0;

	NEED_ARCHIVE();
	ASSERT_LT(0, R.a.nwk) TH_LOG("no wakeups at all");
	for (size_t i = 0; i < R.a.nwk; i++) {
		const struct records_wakeup *w = &R.a.wk[i];

		if (!w->has_waker) {
			no_waker++;
			continue;
		}
		if (w->waker == 0 && zero++ < 5)
			TH_LOG("wakeup at 0x%llx (cpu %u): thread %llu woken by koid 0",
			       (unsigned long long)w->offset, w->provider,
			       (unsigned long long)w->tid);
	}
	if (R.hotplug_cpu < 0)
		TH_LOG("no CPU went offline and online: %s", R.hotplug_why);
	EXPECT_EQ(0, no_waker) TH_LOG("wakeups without a koid \"waker\"");
	ASSERT_EQ(0, zero);
}

int main(int argc, char **argv)
{
	run();
	if (R.loaded)
		printf("# %s: %zu switches, %zu wakeups; workers %d %d %d %d; cpu %d cycled%s%s\n",
		       R.coll.archive, R.a.nsw, R.a.nwk, R.w[0].tid, R.w[1].tid,
		       R.w[2].tid, R.w[3].tid, R.hotplug_cpu,
		       R.hotplug_cpu < 0 ? ": " : "", R.hotplug_cpu < 0 ? R.hotplug_why : "");
	else
		printf("# scenario: %s\n", R.why);
	fflush(stdout);
	return test_harness_run(argc, argv);
}
