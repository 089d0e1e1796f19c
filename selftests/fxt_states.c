// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_states - each Linux state a thread leaves its CPU in is in the
 * archive: D (with the function it blocked in), I, S, T and R+.
 *
 * FXT's context switch says "blocked" for every sleep; fxt writes a sleep
 * event (category "sched", named by the state's letter) just before the
 * switch of a thread going into D, I, P or t, and a switch into D names
 * the function it blocked in (records.rst, "Sleep states"). Scenario,
 * under fxt-collect -m streaming, each state produced for real:
 *
 * - D in msleep(): a thread writes "msleep 40" to the test module
 *   selftests/kmod/fxt_sleep_test.ko ten times;
 * - D on a mutex: one thread holds the module's mutex for 500 ms while
 *   another takes it in fxt_sleep_test_take();
 * - D in real I/O: a thread reads its own binary over the guest's 9p root,
 *   with the page cache dropped before each read;
 * - I: the kernel's idle kthreads (kworkers, RCU) do it on their own;
 * - S: nanosleep() and poll() with a timeout;
 * - T: a child process stopped by SIGSTOP while it spins;
 * - t: another one stopped by ptrace's PTRACE_ATTACH;
 * - R+: two threads spinning on one CPU preempt each other.
 *
 * /proc/PID/wchan, read while the msleep and mutex threads sleep, is the
 * kernel's own name for where they are: the archive must say the same.
 * ftrace's sched_switch, recorded in the same run by an instance of its
 * own, is the reference for the states: per thread of the scenario, as
 * many switches out in each state (R, S, D, T, t, ...) as in the archive.
 * Its text is kept beside the archive (states-ftrace.txt), where
 * selftests/perfetto-check compares each thread's D and S time, the
 * parents and the names in Perfetto.
 */
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "child.h"
#include "collector.h"
#include "cpu.h"
#include "env.h"
#include "kfile.h"
#include "kmod.h"
#include "need_archive.h"
#include "records.h"
#include "libfxt.h"

#define NAME		"states"
#define MODNAME		"fxt_sleep_test"
#define PROC_FILE	"/proc/fxt_sleep_test"
#define NR_MSLEEPS	10
#define NR_NAPS		10
#define NR_IO_READS	100

static struct {
	bool ran, loaded;
	char why[512];
	struct collector coll;
	struct records a;
	pid_t t_msleep, t_holder, t_taker, t_io, t_nano, t_poll, t_spin[2];
	pid_t stopped;			/* the SIGSTOPped child */
	pid_t traced;			/* the child stopped under ptrace */
	char wchan_msleep[128], wchan_taker[128];
	int io_reads;
	bool ftrace_on;			/* the ftrace instance recorded too */
	char ftrace_why[256];
	char *ftrace;			/* its text, NUL-terminated */
	int report_status, json_status;	/* fxt-report --csv, fxt-dump --json */
	char report_csv[PATH_MAX + 8], json[PATH_MAX + 8];
} R;

static pid_t gettid_(void)
{
	return (pid_t)syscall(SYS_gettid);
}

static void msleep_(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static int module_cmd(const char *cmd)
{
	int fd = open(PROC_FILE, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, cmd, strlen(cmd)) != (ssize_t)strlen(cmd))
		ret = -errno;
	close(fd);
	return ret;
}

static void *msleeper(void *arg)
{
	(void)arg;
	R.t_msleep = gettid_();
	for (int i = 0; i < NR_MSLEEPS; i++)
		module_cmd("msleep 40");
	return NULL;
}

static void *holder(void *arg)
{
	(void)arg;
	R.t_holder = gettid_();
	module_cmd("hold 500");
	return NULL;
}

static void *taker(void *arg)
{
	(void)arg;
	R.t_taker = gettid_();
	module_cmd("take");
	return NULL;
}

/* Reads that must go to the host: the page cache is dropped before each. */
static void *reader(void *arg)
{
	char buf[65536];
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);

	(void)arg;
	R.t_io = gettid_();
	if (fd < 0)
		return NULL;
	for (int i = 0; i < NR_IO_READS; i++) {
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		R.io_reads += pread(fd, buf, sizeof(buf), 0) > 0;
	}
	close(fd);
	return NULL;
}

static void *napper(void *arg)
{
	(void)arg;
	R.t_nano = gettid_();
	for (int i = 0; i < NR_NAPS; i++)
		msleep_(5);
	return NULL;
}

static void *poller(void *arg)
{
	(void)arg;
	R.t_poll = gettid_();
	for (int i = 0; i < NR_NAPS; i++)
		poll(NULL, 0, 5);
	return NULL;
}

static void *spinner(void *arg)
{
	int i = (int)(intptr_t)arg;
	double end;

	R.t_spin[i] = gettid_();
	cpu_pin(0, 0);
	end = env_now() + 0.3;
	while (env_now() < end)
		;
	return NULL;
}

/* Read /proc/PID/wchan until it names a function (up to a second). */
static void wchan_of(pid_t tid, char *buf, size_t size)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/wchan", (int)tid);
	for (int i = 0; i < 100; i++) {
		if (tid > 0 && !kfile_read(path, buf, size) && buf[0] &&
		    strcmp(buf, "0"))
			return;
		msleep_(10);
	}
	buf[0] = '\0';
}


/*
 * ftrace, in the same run: a tracefs instance of its own records
 * sched_switch, sched_waking and sched_process_fork with the boot clock
 * while fxt does, started before fxt and stopped after it, so every
 * switch of the scenario's threads is in both. Its text is kept next to
 * the archive as NAME-ftrace.txt: selftests/perfetto-check loads both
 * into Perfetto's trace processor and compares each thread's D and S
 * time and run time, the processes' parents, the threads' names, the
 * interrupts per CPU and handler, and each CPU's idle residency.
 */
#define FTRACE_DIR	"/sys/kernel/tracing/instances/fxt_states"
static const char *const ftrace_events[] = {
	"sched/sched_switch", "sched/sched_waking", "sched/sched_process_fork",
};
/*
 * Interrupts, for the count per CPU and handler: hard handlers, softirqs
 * and the x86 vectors fxt.ko records (the whole irq_vectors group). A
 * kernel without one records the rest.
 */
static const char *const ftrace_irq_events[] = {
	"irq/irq_handler_entry", "irq/softirq_entry", "irq_vectors",
};

/*
 * Power: each CPU's idle states (and frequency, where cpufreq changes it),
 * for the residency per CPU and state; fxt records them with -c all.
 */
static const char *const ftrace_power_events[] = {
	"power/cpu_idle", "power/cpu_frequency",
};
static const char *const collect_args[] = { "-c", "all", NULL };

static int ftrace_enable(const char *value)
{
	char path[PATH_MAX];
	int err = 0;

	for (size_t i = 0; i < sizeof(ftrace_events) / sizeof(ftrace_events[0]); i++) {
		snprintf(path, sizeof(path), FTRACE_DIR "/events/%s/enable", ftrace_events[i]);
		err |= kfile_write(path, value);
	}
	for (size_t i = 0; i < sizeof(ftrace_irq_events) / sizeof(ftrace_irq_events[0]); i++) {
		snprintf(path, sizeof(path), FTRACE_DIR "/events/%s/enable", ftrace_irq_events[i]);
		(void)kfile_write(path, value);
	}
	for (size_t i = 0; i < sizeof(ftrace_power_events) / sizeof(ftrace_power_events[0]); i++) {
		snprintf(path, sizeof(path), FTRACE_DIR "/events/%s/enable", ftrace_power_events[i]);
		(void)kfile_write(path, value);
	}
	return err;
}

static int ftrace_start(void)
{
	if (mkdir(FTRACE_DIR, 0700) && errno != EEXIST)
		return -errno;
	if (kfile_write(FTRACE_DIR "/trace_clock", "boot") ||
	    kfile_write(FTRACE_DIR "/buffer_size_kb", "16384") ||
	    ftrace_enable("1") ||
	    kfile_write(FTRACE_DIR "/tracing_on", "1"))
		return -EIO;
	return 0;
}

/* The text next to the archive: NAME.fxt -> NAME-ftrace.txt. */
static void ftrace_keep(const char *text)
{
	char path[PATH_MAX];
	size_t n = strlen(R.coll.archive);
	FILE *f;

	if (n < 4 || strcmp(R.coll.archive + n - 4, ".fxt"))
		return;
	snprintf(path, sizeof(path), "%.*s-ftrace.txt", (int)(n - 4), R.coll.archive);
	f = fopen(path, "w");
	if (!f)
		return;
	fputs(text, f);
	fclose(f);
}

static void ftrace_stop(void)
{
	FILE *f;
	size_t cap = 1 << 20, n = 0, got;

	kfile_write(FTRACE_DIR "/tracing_on", "0");
	f = fopen(FTRACE_DIR "/trace", "r");
	R.ftrace = malloc(cap);
	while (f && R.ftrace && (got = fread(R.ftrace + n, 1, cap - n - 1, f)) > 0) {
		n += got;
		if (cap - n < 4096) {
			char *more = realloc(R.ftrace, cap * 2);

			if (!more)
				break;
			R.ftrace = more;
			cap *= 2;
		}
	}
	if (R.ftrace) {
		R.ftrace[n] = '\0';
		ftrace_keep(R.ftrace);
	}
	if (f)
		fclose(f);
	ftrace_enable("0");
	rmdir(FTRACE_DIR);
}

static void scenario(void)
{
	pthread_t th[8];
	int n = 0;
	pid_t child;

	pthread_create(&th[n++], NULL, msleeper, NULL);
	msleep_(100);
	wchan_of(R.t_msleep, R.wchan_msleep, sizeof(R.wchan_msleep));

	pthread_create(&th[n++], NULL, holder, NULL);
	msleep_(100);
	pthread_create(&th[n++], NULL, taker, NULL);
	msleep_(100);
	wchan_of(R.t_taker, R.wchan_taker, sizeof(R.wchan_taker));

	pthread_create(&th[n++], NULL, reader, NULL);
	pthread_create(&th[n++], NULL, napper, NULL);
	pthread_create(&th[n++], NULL, poller, NULL);
	pthread_create(&th[n++], NULL, spinner, (void *)0);
	pthread_create(&th[n++], NULL, spinner, (void *)1);

	child = fork();
	if (child == 0) {
		for (;;)
			;
	}
	if (child > 0) {
		R.stopped = child;
		msleep_(50);
		kill(child, SIGSTOP);
		msleep_(50);
		kill(child, SIGCONT);
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	child = fork();
	if (child == 0) {
		for (;;)
			;
	}
	if (child > 0) {
		R.traced = child;
		msleep_(50);
		if (!ptrace(PTRACE_ATTACH, child, NULL, NULL)) {
			waitpid(child, NULL, __WALL);
			msleep_(50);
			ptrace(PTRACE_DETACH, child, NULL, NULL);
		}
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
}

/* fxt's readers on the archive: fxt-report --csv and fxt-dump --json. */
static void tools_run(void)
{
	char report[PATH_MAX], dump[PATH_MAX];
	char *rargv[] = { report, "--csv", R.coll.archive, NULL };
	char *dargv[] = { dump, "--json", R.coll.archive, NULL };

	env_tool_path(report, sizeof(report), "FXT_REPORT", "userspace/fxt-report");
	env_tool_path(dump, sizeof(dump), "FXT_DUMP", "userspace/fxt-dump");
	snprintf(R.report_csv, sizeof(R.report_csv), "%s.csv", R.coll.archive);
	snprintf(R.json, sizeof(R.json), "%s.json", R.coll.archive);
	R.report_status = child_run(rargv, R.report_csv, 120);
	R.json_status = child_run(dargv, R.json, 120);
}

/*
 * fxt-report --csv's threads row of tid: s_ns, d_ns, d_max_ns (columns
 * 17-19). Return: whether the row was found.
 */
static bool report_thread(pid_t tid, uint64_t *s_ns, uint64_t *d_ns,
			  uint64_t *d_max)
{
	char line[1024], head[32];
	FILE *f = fopen(R.report_csv, "r");
	bool found = false;

	snprintf(head, sizeof(head), "threads,%d,", (int)tid);
	while (f && !found && fgets(line, sizeof(line), f)) {
		char *field = line;

		if (strncmp(line, head, strlen(head)))
			continue;
		for (int i = 0; i < 16 && field; i++) {
			field = strchr(field, ',');
			field = field ? field + 1 : NULL;
		}
		found = field && sscanf(field, "%" SCNu64 ",%" SCNu64 ",%" SCNu64,
					s_ns, d_ns, d_max) == 3;
	}
	if (f)
		fclose(f);
	return found;
}

/* fxt-report --csv's "blocked" row of fn: its count, 0 if none. */
static long report_blocked(const char *fn)
{
	char line[1024], head[160];
	FILE *f = fopen(R.report_csv, "r");
	long count = 0;

	snprintf(head, sizeof(head), "blocked,%s,", fn);
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, head, strlen(head)))
			count = atol(line + strlen(head));
	if (f)
		fclose(f);
	return count;
}

/* fxt-dump --json's sched slices of tid that end in state (on CPU tracks). */
static long json_slices_ending(pid_t tid, const char *state)
{
	char line[2048], who[48], end[48];
	FILE *f = fopen(R.json, "r");
	long n = 0;

	snprintf(who, sizeof(who), "\"args\":{\"tid\":%d,", (int)tid);
	snprintf(end, sizeof(end), "\"end_state\":\"%s\"", state);
	while (f && fgets(line, sizeof(line), f))
		n += strstr(line, who) && strstr(line, end);
	if (f)
		fclose(f);
	return n;
}

static void run(void)
{
	char path[PATH_MAX], buf[64];
	int ret;

	if (geteuid()) {
		snprintf(R.why, sizeof(R.why), "needs root");
		return;
	}
	if (kmod_path(MODNAME, path, sizeof(path), R.why, sizeof(R.why)) ||
	    kmod_load(path, NULL, R.why, sizeof(R.why)))
		return;
	ret = ftrace_start();
	R.ftrace_on = !ret;
	if (ret)
		snprintf(R.ftrace_why, sizeof(R.ftrace_why),
			 "no ftrace instance at " FTRACE_DIR ": %s", strerror(-ret));
	if (collector_start_named_with(&R.coll, NAME, collect_args, R.why, sizeof(R.why))) {
		kmod_unload(MODNAME, buf, sizeof(buf));
		if (R.ftrace_on)
			ftrace_stop();
		return;
	}
	scenario();
	R.ran = true;
	ret = collector_stop(&R.coll, R.why, sizeof(R.why));
	if (R.ftrace_on)
		ftrace_stop();
	kmod_unload(MODNAME, buf, sizeof(buf));
	if (ret || records_read(R.coll.archive, &R.a, R.why, sizeof(R.why)))
		return;
	R.loaded = true;
	tools_run();
}

static bool is_sleep_event(const struct records_event *e)
{
	return e->event_type == FXT_EVENT_INSTANT &&
	       !strcmp(e->category, FXT_CAT_NAME_SCHED) &&
	       strlen(e->name) == 1 && strchr(FXT_SLEEP_STATES, e->name[0]);
}

/* Sleep events of tid (any when tid is 0) named state ("" for any). */
static long sleeps(pid_t tid, const char *state)
{
	long n = 0;

	for (size_t i = 0; i < R.a.nev; i++) {
		const struct records_event *e = &R.a.ev[i];

		n += is_sleep_event(e) && (!tid || e->tid == (uint64_t)tid) &&
		     (!*state || !strcmp(e->name, state));
	}
	return n;
}

/* D events of tid whose blocked_in is fn, and those that say otherwise. */
static void blocked_in(pid_t tid, const char *fn, long *same, long *other)
{
	*same = *other = 0;
	for (size_t i = 0; i < R.a.nev; i++) {
		const struct records_event *e = &R.a.ev[i];

		if (!is_sleep_event(e) || e->tid != (uint64_t)tid ||
		    strcmp(e->name, "D"))
			continue;
		if (e->nargs == 1 && e->arg_type == FXT_ARG_STRING &&
		    !strcmp(e->arg_name, FXT_ARG_NAME_BLOCKED_IN) &&
		    !strcmp(e->arg_str, fn))
			(*same)++;
		else {
			(*other)++;
			printf("# tid %d: D in \"%s\" (%u args), not \"%s\"\n",
			       (int)tid, e->arg_str, e->nargs, fn);
		}
	}
}

/* The switch that follows event e in its CPU's data, or NULL. */
static const struct records_switch *switch_after(const struct records_event *e)
{
	const struct records_switch *next = NULL;

	for (size_t j = 0; j < R.a.nsw; j++) {
		const struct records_switch *s = &R.a.sw[j];

		if (s->provider == e->provider && s->offset > e->offset &&
		    (!next || s->offset < next->offset))
			next = s;
	}
	return next;
}

/* The sleep event just before switch s, or NULL. */
static const struct records_event *event_before(const struct records_switch *s)
{
	for (size_t i = 0; i < R.a.nev; i++) {
		const struct records_event *e = &R.a.ev[i];

		if (is_sleep_event(e) && switch_after(e) == s)
			return e;
	}
	return NULL;
}

/*
 * Switches out of tid with the FXT outgoing state; plain: only those
 * with no sleep event before them (S, T, R).
 */
static long switches_out(pid_t tid, unsigned int state, bool plain)
{
	long n = 0;

	for (size_t i = 0; i < R.a.nsw; i++)
		n += R.a.sw[i].out_tid == (uint64_t)tid &&
		     R.a.sw[i].out_state == state &&
		     (!plain || !event_before(&R.a.sw[i]));
	return n;
}

SCENARIO_AND_ARCHIVE_CASES()

TEST(d_in_msleep_named_as_wchan)
{
	long same, other;

	NEED_ARCHIVE();
	printf("# msleep thread's wchan: \"%s\"\n", R.wchan_msleep);
	fflush(stdout);
	EXPECT_STREQ("msleep", R.wchan_msleep);
	blocked_in(R.t_msleep, R.wchan_msleep, &same, &other);
	fflush(stdout);
	/* Other D sleeps of the thread (its start, a page fault) may add. */
	EXPECT_LE(NR_MSLEEPS, same);
	EXPECT_EQ(same + other, sleeps(R.t_msleep, "D"));
}

/*
 * Where a mutex sleeps is the kernel's call: the taker's function on most
 * kernels, rt_mutex_schedule() on PREEMPT_RT. The archive says what
 * /proc/PID/wchan says.
 */
TEST(d_on_mutex_named_as_wchan)
{
	long same, other;

	NEED_ARCHIVE();
	printf("# taker's wchan: \"%s\"\n", R.wchan_taker);
	fflush(stdout);
	ASSERT_NE(0, R.wchan_taker[0]);
	blocked_in(R.t_taker, R.wchan_taker, &same, &other);
	fflush(stdout);
	EXPECT_LE(1, same);
	/* The holder slept in msleep() with the mutex held. */
	blocked_in(R.t_holder, "msleep", &same, &other);
	EXPECT_LE(1, same);
}

TEST(d_in_real_io)
{
	long d = 0, named = 0;

	NEED_ARCHIVE();
	ASSERT_EQ(NR_IO_READS, R.io_reads);
	for (size_t i = 0; i < R.a.nev; i++) {
		const struct records_event *e = &R.a.ev[i];

		if (!is_sleep_event(e) || e->tid != (uint64_t)R.t_io ||
		    strcmp(e->name, "D"))
			continue;
		d++;
		named += e->nargs == 1 && e->arg_str[0];
		if (d <= 3)
			printf("# reader: D in \"%s\"\n", e->arg_str);
	}
	fflush(stdout);
	EXPECT_LE(1, d);
	EXPECT_EQ(d, named);
}

TEST(i_for_idle_kthreads_only)
{
	NEED_ARCHIVE();
	EXPECT_LE(1, sleeps(0, "I"));
	EXPECT_EQ(0, sleeps(R.t_nano, "I") + sleeps(R.t_poll, "I") +
		     sleeps(R.t_io, "I") + sleeps(R.t_msleep, "I"));
}

/*
 * A nap is S: no sleep event. (On PREEMPT_RT a thread may also block on a
 * sleeping spinlock anywhere in the kernel, which is D: those have one.)
 * A nap whose timer has expired by the time it would sleep does not
 * switch out at all (seen on 6.12-rt: 9 of 10 polls, in ftrace too), so
 * at least half; states_equal_ftrace checks them one for one.
 */
TEST(s_has_no_sleep_event)
{
	NEED_ARCHIVE();
	EXPECT_LE(NR_NAPS / 2, switches_out(R.t_nano, FXT_THREAD_BLOCKED, true));
	EXPECT_LE(NR_NAPS / 2, switches_out(R.t_poll, FXT_THREAD_BLOCKED, true));
}

TEST(t_is_suspended_without_event)
{
	NEED_ARCHIVE();
	ASSERT_LT(0, R.stopped);
	EXPECT_LE(1, switches_out(R.stopped, FXT_THREAD_SUSPENDED, true));
	EXPECT_EQ(0, sleeps(R.stopped, "t"));
}

/* Stopped under ptrace: t, suspended. */
TEST(t_traced_has_event)
{
	NEED_ARCHIVE();
	ASSERT_LT(0, R.traced);
	EXPECT_LE(1, sleeps(R.traced, "t"));
	EXPECT_LE(1, switches_out(R.traced, FXT_THREAD_SUSPENDED, false));
}

/* Preempted: runnable, and no switch left runnable has a sleep event. */
TEST(preempted_is_runnable_without_event)
{
	long evented = 0;

	NEED_ARCHIVE();
	EXPECT_LE(1, switches_out(R.t_spin[0], FXT_THREAD_NEW, true) +
		     switches_out(R.t_spin[1], FXT_THREAD_NEW, true));
	for (size_t i = 0; i < R.a.nsw; i++)
		evented += R.a.sw[i].out_state == FXT_THREAD_NEW &&
			   event_before(&R.a.sw[i]);
	EXPECT_EQ(0, evented);
}

/*
 * Each sleep event is followed, in its CPU's data, by the switch out of
 * its thread, blocked (D, I, P) or suspended (t).
 */
TEST(sleep_event_precedes_its_switch)
{
	long events = 0, paired = 0;

	NEED_ARCHIVE();
	for (size_t i = 0; i < R.a.nev; i++) {
		const struct records_event *e = &R.a.ev[i];
		const struct records_switch *next;

		if (!is_sleep_event(e))
			continue;
		events++;
		next = switch_after(e);
		if (next && next->out_tid == e->tid && next->ts >= e->ts &&
		    next->out_state == (e->name[0] == 't' ?
					FXT_THREAD_SUSPENDED : FXT_THREAD_BLOCKED))
			paired++;
		else if (events - paired <= 3)
			printf("# %s event of tid %llu at offset %llu: next switch out %llu\n",
			       e->name, (unsigned long long)e->tid,
			       (unsigned long long)e->offset,
			       next ? (unsigned long long)next->out_tid : 0ULL);
	}
	printf("# sleep events: %ld\n", events);
	fflush(stdout);
	EXPECT_LT(0, events);
	EXPECT_EQ(events, paired);
}


/* The letter fxt's archive gives switch s: its sleep event's, or its state's. */
static char fxt_letter(const struct records_switch *s)
{
	const struct records_event *e = event_before(s);

	if (e)
		return e->name[0];
	switch (s->out_state) {
	case FXT_THREAD_NEW:
		return 'R';
	case FXT_THREAD_SUSPENDED:
		return 'T';
	case FXT_THREAD_BLOCKED:
		return 'S';
	case FXT_THREAD_DYING:
		return 'Z';
	case FXT_THREAD_DEAD:
		return 'X';
	}
	return '?';
}

#define LETTERS	"RSDTtXZPI"

/* Per letter, the switches out of tid in ftrace's text (R+ is R). */
static void ftrace_letters(pid_t tid, long *count)
{
	char needle[48];
	const char *p = R.ftrace;

	memset(count, 0, sizeof(long) * strlen(LETTERS));
	snprintf(needle, sizeof(needle), " prev_pid=%d ", (int)tid);
	while ((p = strstr(p, needle))) {
		const char *st = strstr(p, " prev_state=");
		const char *l;

		p += strlen(needle);
		if (!st || strchr(p, '\n') < st)
			continue;
		st += strlen(" prev_state=");
		l = strchr(LETTERS, *st);
		if (l && *st)
			count[l - LETTERS]++;
	}
}

static void fxt_letters(pid_t tid, long *count)
{
	memset(count, 0, sizeof(long) * strlen(LETTERS));
	for (size_t i = 0; i < R.a.nsw; i++) {
		const char *l;

		if (R.a.sw[i].out_tid != (uint64_t)tid)
			continue;
		l = strchr(LETTERS, fxt_letter(&R.a.sw[i]));
		if (l && *l)
			count[l - LETTERS]++;
	}
}

/*
 * Against ftrace, same run: every thread of the scenario left its CPU in
 * the same states, as many times, in both (all their switches are inside
 * both recordings).
 */
TEST(states_equal_ftrace)
{
	pid_t tids[] = { R.t_msleep, R.t_holder, R.t_taker, R.t_io, R.t_nano,
			 R.t_poll, R.t_spin[0], R.t_spin[1], R.stopped,
			 R.traced };
	long f[16], x[16], total = 0;

	NEED_ARCHIVE();
	if (!R.ftrace_on || !R.ftrace)
		SKIP(return, "%s", R.ftrace_why[0] ? R.ftrace_why : "no ftrace text");
	for (size_t i = 0; i < sizeof(tids) / sizeof(tids[0]); i++) {
		char line[256];
		int at = 0;

		ftrace_letters(tids[i], f);
		fxt_letters(tids[i], x);
		for (size_t k = 0; k < strlen(LETTERS); k++) {
			total += f[k];
			if (f[k] || x[k])
				at += snprintf(line + at, sizeof(line) - at,
					       " %c %ld/%ld", LETTERS[k], x[k], f[k]);
		}
		printf("# tid %d (fxt/ftrace):%s\n", (int)tids[i], line);
		for (size_t k = 0; k < strlen(LETTERS); k++) {
			EXPECT_EQ(f[k], x[k])
				TH_LOG("tid %d: %c switches: fxt %ld, ftrace %ld",
				       (int)tids[i], LETTERS[k], x[k], f[k]);
		}
	}
	fflush(stdout);
	ASSERT_LT(0, total);
}

/* fxt-report: D time and the function, S time, as the threads slept. */
TEST(report_d_and_s_time)
{
	uint64_t s_ns, d_ns, d_max;

	NEED_ARCHIVE();
	ASSERT_EQ(0, R.report_status) TH_LOG("fxt-report --csv failed: %s", R.report_csv);
	ASSERT_TRUE(report_thread(R.t_msleep, &s_ns, &d_ns, &d_max));
	printf("# msleep thread: S %" PRIu64 " ns, D %" PRIu64 " ns, longest D %" PRIu64 " ns\n",
	       s_ns, d_ns, d_max);
	/* ten msleep(40)s: at least 40 ms each, in D */
	EXPECT_LE(NR_MSLEEPS * 40000000ull, d_ns);
	EXPECT_LE(40000000ull, d_max);
	EXPECT_LT(s_ns, d_ns);
	ASSERT_TRUE(report_thread(R.t_nano, &s_ns, &d_ns, &d_max));
	printf("# napper: S %" PRIu64 " ns, D %" PRIu64 " ns\n", s_ns, d_ns);
	fflush(stdout);
	EXPECT_LE(NR_NAPS * 5000000ull, s_ns);
	EXPECT_LE(NR_MSLEEPS, report_blocked("msleep"));
	EXPECT_LE(1, report_blocked(R.wchan_taker));
}

/* fxt-dump --json: a thread's slices end in D exactly at its D sleeps. */
TEST(json_says_d)
{
	NEED_ARCHIVE();
	ASSERT_EQ(0, R.json_status) TH_LOG("fxt-dump --json failed: %s", R.json);
	/* one slice ending in D per D sleep event, no more, no less */
	EXPECT_LE(NR_MSLEEPS, json_slices_ending(R.t_msleep, "D"));
	EXPECT_EQ(sleeps(R.t_msleep, "D"), json_slices_ending(R.t_msleep, "D"));
	EXPECT_EQ(sleeps(R.t_nano, "D"), json_slices_ending(R.t_nano, "D"));
	EXPECT_LE(NR_NAPS, json_slices_ending(R.t_nano, "S"));
}

int main(int argc, char **argv)
{
	run();
	if (R.loaded)
		printf("# %s: %zu events, %zu switches; D %ld, I %ld, P %ld, t %ld\n",
		       R.coll.archive, R.a.nev, R.a.nsw, sleeps(0, "D"),
		       sleeps(0, "I"), sleeps(0, "P"), sleeps(0, "t"));
	else
		printf("# scenario: %s\n", R.why);
	fflush(stdout);
	return test_harness_run(argc, argv);
}
