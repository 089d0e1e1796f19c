// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_flight - circular mode as a flight recorder: it never stops a CPU
 * because of names, and whatever window it keeps names every thread in it
 * (Documentation/buffers.rst, "Names in circular mode").
 *
 * Scenarios, once in main() under fxt-collect -m circular:
 *   storm   -b 256K: FXT_FLIGHT_FORKS (default 1500) fork+execs of
 *           /bin/true, each child renamed by its exec; names alone would
 *           fill the 32 KiB durable buffer ten times over. The BPF switch
 *           log (oracle/swlog.h) runs around the whole session.
 *   crowd   -b 64K: FXT_FLIGHT_THREADS (default 3000) threads exist before
 *           the start (a start snapshot would not fit in the 16 KiB
 *           durable buffer); they all wake and sleep once during the trace.
 * Then, per scenario:
 *   - fxt-collect exits 0 and no CPU is flagged durable-full, no durable
 *     record was dropped;
 *   - every CPU that kept records kept its last second before the stop
 *     (the window ends where tracing stopped, not where a buffer filled);
 *   - every thread of every kept context switch has a thread kernel object
 *     record, and its process a process record;
 *   - storm: per CPU, the kept switches are exactly those the switch log
 *     saw between the kept window's first and last switch.
 */
#include <errno.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "fm_util.h"
#include "fxtscan.h"
#include "libfxt.h"
#include "swlog.h"

#define IRQ_KOID_BASE	0x40000000ull
#define MAX_CROWD	40000

extern char **environ;

struct flight {
	bool ran, failed;
	char why[256];
	int status;			/* collector wait status */
	uint64_t t_stop;		/* CLOCK_BOOTTIME ns when it was stopped */
	struct fm_stats_row rows[FM_MAX_CPUS];
	int nrows;
	struct fs_archive a;
	bool loaded;
	char archive[PATH_MAX], log[PATH_MAX];
	/* storm: kept switches vs the switch log, per CPU */
	bool logged;
	uint64_t log_lost;
	long window[FM_MAX_CPUS];	/* switches the log has in the window */
	char match_why[FM_MAX_CPUS][96];
	unsigned long work;		/* forks made / threads made */
};

static struct flight STORM, CROWD;

static uint64_t boottime_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_BOOTTIME, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + t.tv_nsec;
}

static const char *tmpdir(void)
{
	const char *d = getenv("FXT_SELFTEST_TMP");

	return d && *d ? d : "/tmp";
}

static void paths(struct flight *f, const char *name)
{
	snprintf(f->archive, sizeof(f->archive), "%s/%s.fxt", tmpdir(), name);
	snprintf(f->log, sizeof(f->log), "%s/%s-collect.log", tmpdir(), name);
}

/* Stop the collector, read its statistics and its archive. */
static void finish(struct flight *f, pid_t pid)
{
	int err;

	f->t_stop = boottime_ns();
	if (!col_stop(pid, 120, &f->status)) {
		snprintf(f->why, sizeof(f->why), "fxt-collect hung after SIGINT");
		f->failed = true;
		return;
	}
	f->nrows = fm_parse_stats(f->log, f->rows);
	err = fs_load(f->archive, &f->a);
	if (err) {
		snprintf(f->why, sizeof(f->why), "%.200s: %s", f->archive, strerror(-err));
		f->failed = true;
		return;
	}
	f->loaded = true;
	f->ran = true;
}

static int fork_execs(unsigned long n)
{
	char *argv[] = { "true", NULL };

	for (unsigned long i = 0; i < n; i++) {
		pid_t pid;
		int err = posix_spawn(&pid, "/bin/true", NULL, NULL, argv, environ);

		if (err)
			return -err;
		waitpid(pid, NULL, 0);
	}
	return 0;
}

/* Per CPU: the log's switches from the kept first to the kept last one. */
static void match_log(struct flight *f, struct swlog *l)
{
	for (int c = 0; c < FM_MAX_CPUS && c < swlog_nr_cpus(l); c++) {
		const struct fs_switch *first = NULL, *last = NULL;
		long i, j;
		size_t n;

		f->window[c] = -1;
		for (size_t k = 0; k < f->a.nsw; k++) {
			const struct fs_switch *s = &f->a.sw[k];

			if (s->provider != (uint32_t)c)
				continue;
			if (!first || s->ts < first->ts)
				first = s;
			if (!last || s->ts >= last->ts)
				last = s;
		}
		swlog_cpu(l, c, &n);
		if (!first) {
			f->window[c] = 0;
			continue;
		}
		i = swlog_find(l, c, first->out_tid, first->in_tid, first->ts);
		j = swlog_find(l, c, last->out_tid, last->in_tid, last->ts);
		if (i < 0 || j < i) {
			snprintf(f->match_why[c], sizeof(f->match_why[c]),
				 "first at %ld, last at %ld of %zu logged", i, j, n);
			continue;
		}
		f->window[c] = j - i + 1;
	}
}

static void run_storm(void)
{
	const char *extra[] = { "-b", "256K", "-c", "sched", NULL };
	unsigned long n = col_env_ulong("FXT_FLIGHT_FORKS", 1500);
	struct swlog *l;
	pid_t pid;
	int err;

	paths(&STORM, "flight-storm");
	l = swlog_open(1u << 26);
	if (!l || swlog_start(l)) {
		snprintf(STORM.why, sizeof(STORM.why), "switch log: %s", strerror(errno));
		swlog_close(l);
		return;
	}
	pid = fm_collect_start(STORM.archive, "circular", extra, STORM.log,
			       STORM.why, sizeof(STORM.why));
	if (pid >= 0) {
		err = fork_execs(n);
		if (err) {
			snprintf(STORM.why, sizeof(STORM.why), "posix_spawn: %s",
				 strerror(-err));
			STORM.failed = true;
		}
		STORM.work = n;
		finish(&STORM, pid);
	}
	swlog_stop(l);
	STORM.logged = true;
	STORM.log_lost = swlog_lost(l) + swlog_misses(l);
	if (STORM.loaded)
		match_log(&STORM, l);
	swlog_close(l);
}

/* The crowd: threads that wait for one broadcast, then exit. */
static pthread_mutex_t crowd_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t crowd_go = PTHREAD_COND_INITIALIZER;
static bool crowd_released;

static void *crowd_main(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&crowd_lock);
	while (!crowd_released)
		pthread_cond_wait(&crowd_go, &crowd_lock);
	pthread_mutex_unlock(&crowd_lock);
	return NULL;
}

static void run_crowd(void)
{
	const char *extra[] = { "-b", "64K", "-c", "sched", NULL };
	unsigned long n = col_env_ulong("FXT_FLIGHT_THREADS", 3000);
	static pthread_t th[MAX_CROWD];
	pthread_attr_t attr;
	unsigned long made = 0;
	pid_t pid;

	paths(&CROWD, "flight-crowd");
	if (n > MAX_CROWD)
		n = MAX_CROWD;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 << 10);
	for (; made < n; made++)
		if (pthread_create(&th[made], &attr, crowd_main, NULL))
			break;
	pthread_attr_destroy(&attr);
	CROWD.work = made;
	pid = fm_collect_start(CROWD.archive, "circular", extra, CROWD.log,
			       CROWD.why, sizeof(CROWD.why));
	pthread_mutex_lock(&crowd_lock);
	crowd_released = true;
	pthread_cond_broadcast(&crowd_go);
	pthread_mutex_unlock(&crowd_lock);
	for (unsigned long i = 0; i < made; i++)
		pthread_join(th[i], NULL);
	if (pid >= 0) {
		usleep(100000);
		finish(&CROWD, pid);
	}
	if (made < n && !CROWD.why[0]) {
		snprintf(CROWD.why, sizeof(CROWD.why), "only %lu of %lu threads", made, n);
		CROWD.failed = true;
	}
}

#define NEED(f) do {							\
	if (!(f).ran && !(f).failed)					\
		SKIP(return, "scenario did not run: %s", (f).why);	\
	ASSERT_FALSE((f).failed) TH_LOG("scenario failed: %s", (f).why); \
} while (0)

TEST(scenarios_ran)
{
	EXPECT_TRUE(STORM.ran) TH_LOG("storm: %s", STORM.why);
	EXPECT_TRUE(CROWD.ran) TH_LOG("crowd: %s", CROWD.why);
}

static void check_exit(struct __test_metadata *_metadata, const struct flight *f)
{
	ASSERT_TRUE(WIFEXITED(f->status)) TH_LOG("wait status 0x%x", f->status);
	EXPECT_EQ(0, WEXITSTATUS(f->status));
}

static void check_never_full(struct __test_metadata *_metadata,
			     const struct flight *f)
{
	ASSERT_LT(0, f->nrows) TH_LOG("no statistics table in %s", f->log);
	for (int c = 0; c < FM_MAX_CPUS; c++) {
		const struct fm_stats_row *r = &f->rows[c];

		if (!r->present)
			continue;
		EXPECT_EQ(NULL, strstr(r->flags, "durable-full"))
			TH_LOG("cpu %d: flags \"%s\"", c, r->flags);
		EXPECT_EQ(0, r->d_dropped) TH_LOG("cpu %d: durable records dropped", c);
		EXPECT_EQ(0, r->dropped) TH_LOG("cpu %d: records dropped", c);
	}
}

static void check_window_end(struct __test_metadata *_metadata,
			     const struct flight *f)
{
	uint64_t last[FM_MAX_CPUS] = { 0 };

	for (size_t k = 0; k < f->a.nsw; k++) {
		const struct fs_switch *s = &f->a.sw[k];

		if (s->provider < FM_MAX_CPUS && s->ts > last[s->provider])
			last[s->provider] = s->ts;
	}
	for (int c = 0; c < FM_MAX_CPUS; c++) {
		if (!last[c])
			continue;
		EXPECT_LE(f->t_stop - 1000000000ull, last[c])
			TH_LOG("cpu %d: the kept window ends %.3f s before the stop", c,
			       (double)(f->t_stop - last[c]) / 1e9);
	}
}

static bool named(const struct fs_archive *a, uint8_t type, uint64_t koid)
{
	const struct fs_kobj *k;

	return fs_kobjs_of(a, type, koid, &k, 1) > 0 && k->name[0];
}

static void check_named(struct __test_metadata *_metadata, const struct flight *f)
{
	uint64_t threads = 0, unnamed = 0, orphans = 0;

	for (size_t k = 0; k < f->a.nsw; k++) {
		const struct fs_switch *s = &f->a.sw[k];

		for (int side = 0; side < 2; side++) {
			uint64_t tid = side ? s->in_tid : s->out_tid;
			uint64_t pid = side ? s->in_pid : s->out_pid;

			if (!tid || tid >= IRQ_KOID_BASE)
				continue;
			threads++;
			if (!named(&f->a, FXT_OBJ_THREAD, tid)) {
				if (unnamed++ < 3)
					TH_LOG("tid %llu (pid %llu) at 0x%llx: no name",
					       (unsigned long long)tid,
					       (unsigned long long)pid,
					       (unsigned long long)s->offset);
			} else if (!named(&f->a, FXT_OBJ_PROCESS, pid)) {
				if (orphans++ < 3)
					TH_LOG("pid %llu: no process name",
					       (unsigned long long)pid);
			}
		}
	}
	TH_LOG("%llu thread references in %zu kept switches, %zu name records",
	       (unsigned long long)threads, f->a.nsw, f->a.nkobjs);
	EXPECT_LT(0, threads);
	EXPECT_EQ(0, unnamed);
	EXPECT_EQ(0, orphans);
}

TEST(storm_collector_exit_0)	{ NEED(STORM); check_exit(_metadata, &STORM); }
TEST(storm_never_full)		{ NEED(STORM); check_never_full(_metadata, &STORM); }
TEST(storm_window_ends_at_stop)	{ NEED(STORM); check_window_end(_metadata, &STORM); }
TEST(storm_every_thread_named)	{ NEED(STORM); check_named(_metadata, &STORM); }
TEST(crowd_collector_exit_0)	{ NEED(CROWD); check_exit(_metadata, &CROWD); }
TEST(crowd_never_full)		{ NEED(CROWD); check_never_full(_metadata, &CROWD); }
TEST(crowd_window_ends_at_stop)	{ NEED(CROWD); check_window_end(_metadata, &CROWD); }
TEST(crowd_every_thread_named)	{ NEED(CROWD); check_named(_metadata, &CROWD); }

/* The kept window holds every switch the log saw in it, none twice. */
TEST(storm_switches_equal_log_in_window)
{
	NEED(STORM);
	ASSERT_EQ(0, STORM.log_lost);
	for (int c = 0; c < FM_MAX_CPUS; c++) {
		uint64_t kept = 0;

		for (size_t k = 0; k < STORM.a.nsw; k++)
			kept += STORM.a.sw[k].provider == (uint32_t)c;
		if (!kept)
			continue;
		EXPECT_LE(0, STORM.window[c]) TH_LOG("cpu %d: %s", c, STORM.match_why[c]);
		EXPECT_EQ(STORM.window[c], (long)kept)
			TH_LOG("cpu %d: log %ld switches in the window, archive %llu", c,
			       STORM.window[c], (unsigned long long)kept);
	}
}

int main(int argc, char **argv)
{
	double t0 = col_now();

	if (geteuid()) {
		snprintf(STORM.why, sizeof(STORM.why), "needs root");
		snprintf(CROWD.why, sizeof(CROWD.why), "needs root");
	} else {
		run_storm();
		printf("# storm: %lu fork+execs, %s, %zu switches and %zu name records kept\n",
		       STORM.work, STORM.ran ? "ran" : STORM.why, STORM.a.nsw,
		       STORM.a.nkobjs);
		run_crowd();
		printf("# crowd: %lu threads, %s, %zu switches and %zu name records kept\n",
		       CROWD.work, CROWD.ran ? "ran" : CROWD.why, CROWD.a.nsw,
		       CROWD.a.nkobjs);
	}
	printf("# scenarios took %.1f s\n", col_now() - t0);
	fflush(stdout);
	return test_harness_run(argc, argv);
}
