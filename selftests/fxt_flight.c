// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_flight - circular mode as a flight recorder: it never stops a CPU
 * because of names, and whatever window it keeps names every thread in it
 * (Documentation/buffers.rst, "Names in circular mode").
 *
 * Scenarios, once in main() under fxt-collect -m circular:
 *   storm   -b 1M: FXT_FLIGHT_FORKS (default 4000) fork+execs of a
 *           program that only exits (exit0, copied to the temporary
 *           directory), each child renamed by its exec; names alone would
 *           fill the 256 KiB durable buffer three times over. The BPF
 *           switch log (oracle/swlog.h) runs around the whole session.
 *   flood   the default size: FXT_FLIGHT_FLOOD (default 30,000) fork+execs
 *           of the same, from two threads; at the old rate (a name record
 *           per fork and per exec in the durable buffer) the default
 *           buffer filled after about 4,700 per CPU. The switch log too.
 *           100,000 take 9 minutes under TCG (FXT_FLIGHT_FLOOD=100000).
 *   crowd   the default size: FXT_FLIGHT_THREADS (default 30,000) threads
 *           exist before the start; they all wake and exit during the
 *           trace. In the guest the test raises kernel.threads-max and
 *           kernel.pid_max for them (scripts/vm/run's memory allows it).
 *           Before that, with the crowd waiting, fxt-collect starts and
 *           stops at once in oneshot and in streaming mode (snapshot):
 *           the start snapshot must name every thread of the crowd, drop
 *           nothing, and spread the names over the CPUs (no CPU more than
 *           three quarters of them), instead of filling one CPU's buffers.
 *           And oneshot once more, the device driven from this process,
 *           while a SCHED_FIFO task spins on CPU 1 with RT throttling
 *           off: START returns within half the hog's 8 s (CPU 1's share
 *           is walked on CPU 0), every thread named.
 *   reuse   -b 64K: a child named fxt-reuse-1 runs on CPU 0 and exits,
 *           then a child forced onto the same pid (ns_last_pid) is named
 *           fxt-reuse-2 and runs on CPU 0 too, forked from CPU 1, whose
 *           data (the fork records) is then overwritten.
 * Then, per scenario but reuse:
 *   - fxt-collect exits 0 and no CPU is flagged durable-full, no durable
 *     record was dropped;
 *   - every CPU that kept records kept its last second before the stop
 *     (the window ends where tracing stopped, not where a buffer filled);
 *   - every thread of every kept context switch has a thread kernel object
 *     record, and its process a process record;
 *   - storm, flood: per CPU, the kept switches are exactly those the
 *     switch log saw between the kept window's first and last switch.
 * reuse: both lives of the pid are in the archive; libfxt names every
 * switch of each by that life's names only (never the other's), and
 * fxt-report gives each life a row with its own name.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kfile.h"
#include "kselftest_harness.h"
#include "collector.h"
#include "cpu.h"
#include "dump.h"
#include "env.h"
#include "scan.h"
#include "stats_table.h"
#include "workload.h"
#include "records.h"
#include "device.h"
#include "libfxt.h"
#include "oracle.h"
#include "swlog.h"
#include "unseen_runs.h"

#define MAX_CROWD	60000
#define MAX_SPAWNERS	2

extern char **environ;

struct flight {
	bool ran, failed;
	char why[256];
	int status;			/* collector wait status */
	uint64_t t_stop;		/* CLOCK_BOOTTIME ns when it was stopped */
	struct stats_row rows[STATS_MAX_CPUS];
	int nrows;
	struct records a;
	bool loaded;
	char archive[PATH_MAX], log[PATH_MAX];
	/* storm: kept switches vs the switch log, per CPU */
	bool logged;
	uint64_t log_lost;
	long window[MAX_CPUS];	/* switches the log has in the window */
	char match_why[MAX_CPUS][96];
	long log_first[MAX_CPUS];	/* the log's index of the kept first */
	/* the archive's not-running spans against the log's switches in */
	struct unseen_runs unseen;
	char unseen_why[96];
	unsigned long work;		/* forks made / threads made */
	pid_t pid, ppid;		/* the process that ran it, its parent */
};

static struct flight STORM, FLOOD, CROWD;
/*
 * The crowd again, under oneshot and streaming: the start snapshot; and
 * under oneshot while a real-time task holds CPU 1 (SNAP_RT).
 */
static struct flight SNAP_ONESHOT, SNAP_STREAMING, SNAP_RT;
static double snap_rt_start_s;		/* START, under the hog */
static bool snap_rt_hog_outlived;	/* the hog still ran once started */



static void paths(struct flight *f, const char *name)
{
	snprintf(f->archive, sizeof(f->archive), "%s/%s.fxt", env_tmpdir(), name);
	snprintf(f->log, sizeof(f->log), "%s/%s-collect.log", env_tmpdir(), name);
}

/* Stop the collector, read its statistics and its archive. */
static void finish(struct flight *f, pid_t pid)
{
	int err;

	f->t_stop = env_boottime_ns();
	if (!child_stop(pid, 120, &f->status)) {
		snprintf(f->why, sizeof(f->why), "fxt-collect hung after SIGINT");
		f->failed = true;
		return;
	}
	f->nrows = stats_table_parse(f->log, f->rows);
	err = records_read(f->archive, &f->a, f->why, sizeof(f->why));
	if (err) {
		f->failed = true;
		return;
	}
	f->loaded = true;
	f->ran = true;
}

/* exit0 in the temporary directory: exec from tmpfs, not from 9p. */
static char exit0[PATH_MAX];

static int copy_exit0(void)
{
	char buf[65536];
	ssize_t n;
	int in, out, err = 0;

	snprintf(exit0, sizeof(exit0), "%s/exit0", env_tmpdir());
	in = open(EXIT0_PATH, O_RDONLY);
	if (in < 0)
		return -errno;
	out = open(exit0, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (out < 0) {
		err = -errno;
		close(in);
		return err;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n) {
			err = -EIO;
			break;
		}
	if (n < 0)
		err = -errno;
	close(in);
	if (close(out) && !err)
		err = -errno;
	return err;
}

struct spawner {
	pthread_t th;
	unsigned long n;
	int err;
};

static void *spawn_main(void *arg)
{
	struct spawner *sp = arg;
	char *argv[] = { "exit0", NULL };

	for (unsigned long i = 0; i < sp->n; i++) {
		pid_t pid;
		int err = posix_spawn(&pid, exit0, NULL, NULL, argv, environ);

		if (err) {
			sp->err = err;
			break;
		}
		waitpid(pid, NULL, 0);
	}
	return NULL;
}

/* n fork+execs of exit0, from nthreads threads. Return: 0 or -errno. */
static int fork_execs(unsigned long n, int nthreads)
{
	struct spawner sp[MAX_SPAWNERS] = { 0 };
	int err = 0, i;

	for (i = 0; i < nthreads; i++) {
		sp[i].n = n / nthreads + (i < (int)(n % nthreads));
		if (pthread_create(&sp[i].th, NULL, spawn_main, &sp[i])) {
			sp[i].err = EAGAIN;
			break;
		}
	}
	for (int j = 0; j < i; j++) {
		pthread_join(sp[j].th, NULL);
		if (sp[j].err && !err)
			err = -sp[j].err;
	}
	if (i < nthreads && !err)
		err = -EAGAIN;
	return err;
}

/*
 * Spans this close to the window's first or last switch are not checked:
 * at the edges a switch fxt.ko stamped just outside the window may carry
 * a log time inside it (the two clocks read one switch up to milliseconds
 * apart under TCG).
 */
#define UNSEEN_EDGE_NS	20000000ull

/* Switches matched as a run: enough to tell a switch from its repeats. */
#define MATCH_RUN	8

/*
 * Per CPU: the log's switches from the kept first to the kept last one,
 * each end found as a run of MATCH_RUN switches (swlog_find_run()).
 */
static void match_log(struct flight *f, struct swlog *l)
{
	for (int c = 0; c < MAX_CPUS && c < swlog_nr_cpus(l); c++) {
		struct swlog_entry head[MATCH_RUN], tail[MATCH_RUN];
		size_t n, kept = 0, nh, nt;
		long i, j;

		f->window[c] = -1;
		/* The archive's switches of one CPU are in time order. */
		for (size_t k = 0; k < f->a.nsw; k++) {
			const struct records_switch *s = &f->a.sw[k];
			struct swlog_entry e = { s->ts, (uint32_t)s->out_tid,
						 (uint32_t)s->in_tid };

			if (s->provider != (uint32_t)c)
				continue;
			if (kept < MATCH_RUN)
				head[kept] = e;
			tail[kept % MATCH_RUN] = e;
			kept++;
		}
		swlog_cpu(l, c, &n);
		if (!kept) {
			f->window[c] = 0;
			continue;
		}
		nh = nt = kept < MATCH_RUN ? kept : MATCH_RUN;
		/* tail as a run in time order: it is a ring of the last ones */
		if (kept > MATCH_RUN) {
			struct swlog_entry ring[MATCH_RUN];

			memcpy(ring, tail, sizeof(ring));
			for (size_t k = 0; k < MATCH_RUN; k++)
				tail[k] = ring[(kept + k) % MATCH_RUN];
		}
		i = swlog_find_run(l, c, head, nh, head[0].ts);
		j = swlog_find_run(l, c, tail, nt, tail[0].ts);
		if (i >= 0 && j >= 0)
			j += (long)nt - 1;	/* the run's last: the kept last */
		if (i < 0 || j < i) {
			snprintf(f->match_why[c], sizeof(f->match_why[c]),
				 "first at %ld, last at %ld of %zu logged", i, j, n);
			continue;
		}
		f->window[c] = j - i + 1;
		f->log_first[c] = i;
	}
}

/*
 * The archive's switches on the log's clock: per CPU, the k-th kept switch
 * is the log's entry log_first + k (check_log_in_window() holds that the
 * two are the same switches). Then every span where the archive has a
 * thread not running, against every switch in of the log.
 */
static void find_unseen_runs(struct flight *f, struct swlog *l)
{
	size_t total = 0, n, kept[MAX_CPUS] = { 0 };
	uint64_t *ts = malloc((f->a.nsw + 1) * sizeof(*ts)), lo = UINT64_MAX, hi = 0;
	struct logged_run *runs = NULL;

	for (int c = 0; c < swlog_nr_cpus(l); c++) {
		swlog_cpu(l, c, &n);
		total += n;
	}
	runs = malloc((total + 1) * sizeof(*runs));
	if (!ts || !runs) {
		snprintf(f->unseen_why, sizeof(f->unseen_why), "out of memory");
		goto out;
	}
	for (size_t k = 0; k < f->a.nsw; k++) {
		const struct records_switch *s = &f->a.sw[k];
		unsigned int c = s->provider;
		const struct swlog_entry *e;

		if (c >= MAX_CPUS || (int)c >= swlog_nr_cpus(l) || f->window[c] < 0) {
			snprintf(f->unseen_why, sizeof(f->unseen_why),
				 "cpu %u: kept switches not found in the log", c);
			goto out;
		}
		e = swlog_cpu(l, (int)c, &n);
		if ((size_t)f->log_first[c] + kept[c] >= n) {
			snprintf(f->unseen_why, sizeof(f->unseen_why),
				 "cpu %u: more kept switches than the log has", c);
			goto out;
		}
		e += f->log_first[c] + kept[c]++;
		if (e->prev != (uint32_t)s->out_tid || e->next != (uint32_t)s->in_tid) {
			snprintf(f->unseen_why, sizeof(f->unseen_why),
				 "cpu %u: kept switch %zu is not the log's", c, kept[c]);
			goto out;
		}
		ts[k] = e->ts;
		lo = ts[k] < lo ? ts[k] : lo;
		hi = ts[k] > hi ? ts[k] : hi;
	}
	total = 0;
	for (int c = 0; c < swlog_nr_cpus(l); c++) {
		const struct swlog_entry *e = swlog_cpu(l, c, &n);

		for (size_t k = 0; k < n; k++)
			runs[total++] = (struct logged_run){ e[k].ts, e[k].next };
	}
	if (unseen_runs_find(f->a.sw, ts, f->a.nsw, runs, total, lo + UNSEEN_EDGE_NS,
			     hi - UNSEEN_EDGE_NS, &f->unseen))
		snprintf(f->unseen_why, sizeof(f->unseen_why), "out of memory");
out:
	free(ts);
	free(runs);
}

/* fork+execs under the switch log and fxt-collect with extra options. */
static void run_forks(struct flight *f, const char *name, const char *const *extra,
		      unsigned long n, int nthreads)
{
	struct swlog *l;
	pid_t pid;
	int err;

	paths(f, name);
	err = copy_exit0();
	if (err) {
		snprintf(f->why, sizeof(f->why), "%s: %s", EXIT0_PATH, strerror(-err));
		f->failed = true;
		return;
	}
	l = swlog_open(1u << 26);
	if (!l || swlog_start(l)) {
		snprintf(f->why, sizeof(f->why), "switch log: %s", strerror(errno));
		f->failed = true;
		swlog_close(l);
		return;
	}
	pid = collector_start(f->archive, "circular", extra, f->log,
			       f->why, sizeof(f->why));
	if (pid >= 0) {
		err = fork_execs(n, nthreads);
		if (err) {
			snprintf(f->why, sizeof(f->why), "posix_spawn: %s", strerror(-err));
			f->failed = true;
		}
		f->work = n;
		finish(f, pid);
	} else {
		f->failed = true;
	}
	swlog_stop(l);
	f->logged = true;
	f->log_lost = swlog_lost(l) + swlog_misses(l);
	if (f->loaded) {
		match_log(f, l);
		find_unseen_runs(f, l);
	}
	swlog_close(l);
}

static void run_storm(void)
{
	const char *extra[] = { "-b", "1M", "-c", "sched", NULL };

	run_forks(&STORM, "flight-storm", extra,
		  env_ulong("FXT_FLIGHT_FORKS", 4000), 1);
}

static void run_flood(void)
{
	const char *extra[] = { "-c", "sched", NULL };

	run_forks(&FLOOD, "flight-flood", extra,
		  env_ulong("FXT_FLIGHT_FLOOD", 30000), MAX_SPAWNERS);
}

/* The crowd: threads that wait for one broadcast, then exit. */
static pthread_mutex_t crowd_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t crowd_go = PTHREAD_COND_INITIALIZER;
static bool crowd_released;

static pid_t crowd_tid[MAX_CROWD];
static atomic_ulong crowd_ready;

static void *crowd_main(void *arg)
{
	crowd_tid[(uintptr_t)arg] = gettid();
	atomic_fetch_add(&crowd_ready, 1);
	pthread_mutex_lock(&crowd_lock);
	while (!crowd_released)
		pthread_cond_wait(&crowd_go, &crowd_lock);
	pthread_mutex_unlock(&crowd_lock);
	return NULL;
}

/*
 * A start with the crowd waiting, at the default size: the snapshot names
 * every thread that exists (oneshot and streaming; circular names them in
 * the rolling data as they run). The collector is stopped at once.
 */
static void run_snapshot(struct flight *f, const char *name, const char *mode)
{
	const char *extra[] = { "-c", "sched", NULL };
	pid_t pid;

	paths(f, name);
	f->work = CROWD.work;
	pid = collector_start(f->archive, mode, extra, f->log, f->why,
			      sizeof(f->why));
	if (pid < 0) {
		f->failed = true;
		return;
	}
	finish(f, pid);
}

/* A SCHED_FIFO task that spins on CPU 1 until told, RT_HOG_S at most. */
#define RT_HOG_S	8.0
static atomic_int rt_hog_state;		/* 0 not yet, 1 spinning, 2 stop */

static void *rt_hog_main(void *arg)
{
	struct sched_param sp = { .sched_priority = 50 };
	double end;

	(void)arg;
	if (cpu_pin(0, 1) || sched_setscheduler(0, SCHED_FIFO, &sp)) {
		atomic_store(&rt_hog_state, -1);
		return NULL;
	}
	end = env_now() + RT_HOG_S;
	atomic_store(&rt_hog_state, 1);
	while (atomic_load(&rt_hog_state) == 1 && env_now() < end)
		;
	atomic_store(&rt_hog_state, 3);	/* done */
	return NULL;
}

/* The per-CPU figures of a device run, as the collector's table has them. */
static void rows_of_device(struct fxt_device *d, struct flight *f)
{
	for (uint32_t cpu = 0; cpu < d->layout.nr_cpus && cpu < STATS_MAX_CPUS; cpu++) {
		struct fxt_cpu_stats st;
		struct stats_row *r = &f->rows[cpu];

		if (!fxt_device_traced_stats(d, cpu, &st))
			continue;
		r->present = true;
		r->records = st.records_written;
		r->dropped = st.records_dropped;
		r->durable = st.durable_records;
		r->d_dropped = st.durable_dropped;
		r->wraps = st.wrapped_count;
		f->nrows++;
	}
}

/*
 * The snapshot's share of CPU 1 runs in a work item bound to it, which a
 * real-time task that never yields (RT throttling off) keeps from running:
 * START must not wait for it (it walks that share itself after half a
 * second). The device is driven from this process, pinned to CPU 0, so
 * that START alone is timed: a collector forked from a process of 30,000
 * threads takes seconds to exec under TCG, more with a hog. STOP does
 * wait for the hog: unhooking waits for an RCU grace period, which a CPU
 * that never leaves a real-time task delays (its softirqs wait for
 * ksoftirqd), as it does for any other tracer or module.
 */
static void run_snapshot_rt(void)
{
	struct fxt_config cfg = { .buffer_size = 8u << 20,
				  .mode = FXT_MODE_ONESHOT,
				  .categories = FXT_CAT_SCHED };
	char runtime[32] = "";
	const char *rt = "/proc/sys/kernel/sched_rt_runtime_us";
	struct fxt_device d;
	cpu_set_t all;
	pthread_t hog;
	double t0;
	int err;

	paths(&SNAP_RT, "flight-snap-rt");
	SNAP_RT.work = CROWD.work;
	if (!getenv("FXT_IN_VM") || sched_getaffinity(0, sizeof(all), &all) ||
	    kfile_read(rt, runtime, sizeof(runtime))) {
		snprintf(SNAP_RT.why, sizeof(SNAP_RT.why),
			 "cannot turn RT throttling off (%s)", rt);
		SNAP_RT.failed = true;
		return;
	}
	err = fxt_device_open(&d, FXT_DEVICE_PATH, "fxt_flight");
	if (!err)
		err = fxt_device_init(&d, &cfg);
	if (err) {
		snprintf(SNAP_RT.why, sizeof(SNAP_RT.why), "%.200s", d.err);
		SNAP_RT.failed = true;
		fxt_device_close(&d);
		return;
	}
	atomic_store(&rt_hog_state, 0);
	if (kfile_write(rt, "-1") || cpu_pin(0, 0) ||
	    pthread_create(&hog, NULL, rt_hog_main, NULL)) {
		snprintf(SNAP_RT.why, sizeof(SNAP_RT.why), "no hog thread");
		SNAP_RT.failed = true;
		kfile_write(rt, runtime);
		fxt_device_close(&d);
		return;
	}
	while (!atomic_load(&rt_hog_state))
		usleep(1000);
	usleep(100000);		/* it holds CPU 1 */
	t0 = env_now();
	if (atomic_load(&rt_hog_state) == 1) {
		err = fxt_device_start(&d, FXT_START_CLEAR_ENTIRE);
		snap_rt_start_s = env_now() - t0;
		snap_rt_hog_outlived = atomic_load(&rt_hog_state) == 1;
	} else {
		snprintf(SNAP_RT.why, sizeof(SNAP_RT.why),
			 "the hog did not start (SCHED_FIFO on CPU 1)");
		err = -EAGAIN;
	}
	atomic_store(&rt_hog_state, 2);
	pthread_join(hog, NULL);
	kfile_write(rt, runtime);
	sched_setaffinity(0, sizeof(all), &all);
	if (!err) {
		err = fxt_device_stop(&d, FXT_STOP_WRITE_RESULTS);
		rows_of_device(&d, &SNAP_RT);
		if (!err)
			err = fxt_device_save_file(&d, SNAP_RT.archive);
		if (err)
			snprintf(SNAP_RT.why, sizeof(SNAP_RT.why), "%.200s", d.err);
	}
	fxt_device_close(&d);
	if (err || records_read(SNAP_RT.archive, &SNAP_RT.a, SNAP_RT.why,
				sizeof(SNAP_RT.why))) {
		SNAP_RT.failed = true;
		return;
	}
	SNAP_RT.loaded = true;
	SNAP_RT.ran = true;
}

static void run_crowd(void)
{
	const char *extra[] = { "-c", "sched", NULL };
	unsigned long n = env_ulong("FXT_FLIGHT_THREADS", 30000);
	static pthread_t th[MAX_CROWD];
	pthread_attr_t attr;
	unsigned long made = 0;
	struct oracle *o;
	uint64_t exits = 0;
	pid_t pid;

	paths(&CROWD, "flight-crowd");
	if (n > MAX_CROWD)
		n = MAX_CROWD;
	if (getenv("FXT_IN_VM")) {
		/* a thread: a task, two mappings (stack and guard), a pid */
		kfile_raise("/proc/sys/kernel/threads-max", n + 4096);
		kfile_raise("/proc/sys/vm/max_map_count", 2 * n + 65536);
		kfile_raise("/proc/sys/kernel/pid_max", 2 * n + 32768);
	}
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 << 10);
	for (; made < n; made++)
		if (pthread_create(&th[made], &attr, crowd_main,
				   (void *)(uintptr_t)made))
			break;
	pthread_attr_destroy(&attr);
	CROWD.work = made;
	while (atomic_load(&crowd_ready) < made)
		usleep(1000);
	run_snapshot(&SNAP_ONESHOT, "flight-snap-oneshot", "oneshot");
	run_snapshot(&SNAP_STREAMING, "flight-snap-streaming", "streaming");
	run_snapshot_rt();
	/* Each TEST runs in a child: the crowd's process is this one. */
	CROWD.pid = getpid();
	CROWD.ppid = getppid();
	pid = collector_start(CROWD.archive, "circular", extra, CROWD.log,
			       CROWD.why, sizeof(CROWD.why));
	/* Counts the crowd's final switches (every thread but main). */
	o = oracle_open(getpid(), gettid());
	if (o && oracle_start(o)) {
		oracle_close(o);
		o = NULL;
	}
	pthread_mutex_lock(&crowd_lock);
	crowd_released = true;
	pthread_cond_broadcast(&crowd_go);
	pthread_mutex_unlock(&crowd_lock);
	for (unsigned long i = 0; i < made; i++)
		pthread_join(th[i], NULL);
	if (o) {
		exits = oracle_wait_exits(o, made, 30);
		oracle_close(o);
	}
	if (pid >= 0) {
		if (exits < made)
			printf("# crowd: %llu of %lu final switches seen%s\n",
			       (unsigned long long)exits, made,
			       o ? " in 30 s" : " (no oracle)");
		finish(&CROWD, pid);
	}
	if (made < n && !CROWD.why[0]) {
		snprintf(CROWD.why, sizeof(CROWD.why), "only %lu of %lu threads", made, n);
		CROWD.failed = true;
	}
}

/* ------------------------------------------------------------------ */
/* reuse: one pid, two lives. */

#define REUSE_FIRST	"fxt-reuse-1"
#define REUSE_SECOND	"fxt-reuse-2"

static struct {
	bool ran;
	char why[256];
	char archive[PATH_MAX], log[PATH_MAX], report[PATH_MAX];
	pid_t pid;
	uint64_t t_between;	/* CLOCK_BOOTTIME ns: after the first life's last switch */
	int status;
} REUSE;

/*
 * A child that moves to CPU 0, takes name, runs and sleeps a little, and
 * exits; if it did not get the pid it was meant to (want), it exits first.
 * With go >= 0 it waits for a byte on go before anything else.
 */
static pid_t fork_life(const char *name, pid_t want, int go)
{
	pid_t pid = fork();
	char byte;

	if (pid)
		return pid;
	if (go >= 0 && read(go, &byte, 1) != 1)
		_exit(4);
	if (want && getpid() != want)
		_exit(3);
	cpu_pin(0, 0);
	prctl(PR_SET_NAME, name);
	for (int i = 0; i < 20; i++) {
		double t = env_now();

		while (env_now() - t < 0.001)
			;
		usleep(500);
	}
	_exit(0);
}

static int write_last_pid(pid_t last)
{
	FILE *f = fopen("/proc/sys/kernel/ns_last_pid", "w");

	if (!f)
		return -errno;
	fprintf(f, "%d\n", (int)last);
	return fclose(f) ? -errno : 0;
}

/*
 * The first life, run to its last switch: waitpid() returns before the
 * child's final schedule() (its parent is woken from exit_notify()), and
 * under TCG the gap was 0.3-0.5 ms, so a time read after waitpid() alone
 * can precede the first life's last switch. The oracle sees that switch;
 * its probe is attached after fxt's, so fxt's record is written by then.
 * Return: 0, or -1 with REUSE.why set.
 */
static int first_life(pid_t *child)
{
	struct oracle *o = NULL;
	int go[2], st, err = 0;
	uint64_t exits = 0;
	pid_t pid;

	if (pipe(go)) {
		snprintf(REUSE.why, sizeof(REUSE.why), "pipe: %s", strerror(errno));
		return -1;
	}
	pid = fork_life(REUSE_FIRST, 0, go[0]);
	close(go[0]);
	if (pid < 0) {
		snprintf(REUSE.why, sizeof(REUSE.why), "fork: %s", strerror(errno));
		close(go[1]);
		return -1;
	}
	o = oracle_open(pid, 0);
	if (!o || oracle_start(o))
		err = snprintf(REUSE.why, sizeof(REUSE.why), "oracle: %s", strerror(errno));
	if (write(go[1], "g", 1) != 1 && !err)
		err = snprintf(REUSE.why, sizeof(REUSE.why), "go: %s", strerror(errno));
	close(go[1]);
	if (waitpid(pid, &st, 0) != pid && !err)
		err = snprintf(REUSE.why, sizeof(REUSE.why), "waitpid: %s", strerror(errno));
	if (!err && (!WIFEXITED(st) || WEXITSTATUS(st)))
		err = snprintf(REUSE.why, sizeof(REUSE.why), "first life: status 0x%x", st);
	if (!err) {
		exits = oracle_wait_exits(o, 1, 30);
		if (exits != 1)
			err = snprintf(REUSE.why, sizeof(REUSE.why),
				       "first life: %llu final switches seen in 30 s",
				       (unsigned long long)exits);
	}
	oracle_close(o);
	*child = pid;
	return err ? -1 : 0;
}

static void run_reuse(void)
{
	/* CPU 0's lives are older than CPU 1's kept window: keep them. */
	const char *extra[] = { "-b", "64K", "-c", "sched", "--window-start", "per-cpu", NULL };
	pid_t pid, again = -1;
	int st, err = 0;

	snprintf(REUSE.archive, sizeof(REUSE.archive), "%s/flight-reuse.fxt", env_tmpdir());
	snprintf(REUSE.log, sizeof(REUSE.log), "%s/flight-reuse-collect.log", env_tmpdir());
	snprintf(REUSE.report, sizeof(REUSE.report), "%s/flight-reuse.csv", env_tmpdir());
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2 || cpu_pin(0, 1)) {
		snprintf(REUSE.why, sizeof(REUSE.why), "needs CPUs 0 and 1");
		return;
	}
	pid = collector_start(REUSE.archive, "circular", extra, REUSE.log,
			       REUSE.why, sizeof(REUSE.why));
	if (pid < 0)
		return;
	if (first_life(&REUSE.pid)) {
		child_kill(pid, NULL);
		return;
	}
	REUSE.t_between = env_boottime_ns();
	for (int tries = 0; tries < 20 && again != REUSE.pid; tries++) {
		err = write_last_pid(REUSE.pid - 1);
		if (err)
			break;
		again = fork_life(REUSE_SECOND, REUSE.pid, -1);
		if (again < 0) {
			err = -errno;
			break;
		}
		waitpid(again, &st, 0);
	}
	if (err || again != REUSE.pid) {
		snprintf(REUSE.why, sizeof(REUSE.why), "pid %d not given again: %s",
			 (int)REUSE.pid, err ? strerror(-err) : "other forks took it");
		child_kill(pid, NULL);
		return;
	}
	/* overwrite CPU 1's rolling data, where both forks were recorded */
	for (int i = 0; i < 4000; i++)
		usleep(20);
	if (!child_stop(pid, 120, &REUSE.status)) {
		snprintf(REUSE.why, sizeof(REUSE.why), "fxt-collect hung after SIGINT");
		return;
	}
	{
		char report[PATH_MAX];
		char *argv[] = { report, "--csv", "--top", "0", REUSE.archive, NULL };

		env_tool_path(report, sizeof(report), "FXT_REPORT", "userspace/fxt-report");
		if (child_run(argv, REUSE.report, 120) != 0) {
			snprintf(REUSE.why, sizeof(REUSE.why), "fxt-report failed");
			return;
		}
	}
	REUSE.ran = true;
}

#define NEED(f) do {							\
	if (!(f).ran && !(f).failed)					\
		SKIP(return, "scenario did not run: %s", (f).why);	\
	ASSERT_FALSE((f).failed) TH_LOG("scenario failed: %s", (f).why); \
} while (0)

TEST(scenarios_ran)
{
	EXPECT_TRUE(STORM.ran) TH_LOG("storm: %s", STORM.why);
	EXPECT_TRUE(FLOOD.ran) TH_LOG("flood: %s", FLOOD.why);
	EXPECT_TRUE(CROWD.ran) TH_LOG("crowd: %s", CROWD.why);
	EXPECT_TRUE(SNAP_ONESHOT.ran) TH_LOG("snapshot, oneshot: %s", SNAP_ONESHOT.why);
	EXPECT_TRUE(SNAP_STREAMING.ran) TH_LOG("snapshot, streaming: %s", SNAP_STREAMING.why);
	EXPECT_TRUE(SNAP_RT.ran) TH_LOG("snapshot, RT hog: %s", SNAP_RT.why);
	EXPECT_TRUE(REUSE.ran) TH_LOG("reuse: %s", REUSE.why);
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
	for (int c = 0; c < MAX_CPUS; c++) {
		const struct stats_row *r = &f->rows[c];

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
	uint64_t last[MAX_CPUS] = { 0 };

	for (size_t k = 0; k < f->a.nsw; k++) {
		const struct records_switch *s = &f->a.sw[k];

		if (s->provider < MAX_CPUS && s->ts > last[s->provider])
			last[s->provider] = s->ts;
	}
	for (int c = 0; c < MAX_CPUS; c++) {
		if (!last[c])
			continue;
		EXPECT_LE(f->t_stop - 1000000000ull, last[c])
			TH_LOG("cpu %d: the kept window ends %.3f s before the stop", c,
			       (double)(f->t_stop - last[c]) / 1e9);
	}
}

/* (type, koid) of every named kernel object, sorted: 30,000 threads. */
static uint64_t *named_keys;
static size_t nnamed;

static int key_cmp(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

static uint64_t named_key(uint8_t type, uint64_t koid)
{
	return (uint64_t)type << 56 | koid;
}

static void index_names(const struct records *a)
{
	free(named_keys);
	nnamed = 0;
	named_keys = malloc((a->nkobjs + 1) * sizeof(*named_keys));
	for (size_t i = 0; named_keys && i < a->nkobjs; i++)
		if (a->kobjs[i].name[0])
			named_keys[nnamed++] = named_key(a->kobjs[i].obj_type,
							 a->kobjs[i].koid);
	if (named_keys)
		qsort(named_keys, nnamed, sizeof(*named_keys), key_cmp);
}

static bool named(uint8_t type, uint64_t koid)
{
	uint64_t key = named_key(type, koid);

	return named_keys && bsearch(&key, named_keys, nnamed, sizeof(key), key_cmp);
}

static void check_named(struct __test_metadata *_metadata, const struct flight *f)
{
	uint64_t threads = 0, unnamed = 0, orphans = 0;

	index_names(&f->a);
	ASSERT_NE(NULL, named_keys);
	for (size_t k = 0; k < f->a.nsw; k++) {
		const struct records_switch *s = &f->a.sw[k];

		for (int side = 0; side < 2; side++) {
			uint64_t tid = side ? s->in_tid : s->out_tid;
			uint64_t pid = side ? s->in_pid : s->out_pid;

			if (!tid || tid >= FXT_KOID_IRQ_PROCESS)
				continue;
			threads++;
			if (!named(FXT_OBJ_THREAD, tid)) {
				if (unnamed++ < 3)
					TH_LOG("tid %llu (pid %llu) at 0x%llx: no name",
					       (unsigned long long)tid,
					       (unsigned long long)pid,
					       (unsigned long long)s->offset);
			} else if (!named(FXT_OBJ_PROCESS, pid)) {
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

/* Every switch of the reused pid, as libfxt names it. */
struct life_switch {
	uint64_t ns;
	bool second;		/* after the first life ended */
	bool final;		/* its switch out, dying or dead */
	char name[45];
};

static size_t reuse_switches(struct life_switch *out, size_t max, char *why, size_t wlen,
			     unsigned int *late_names)
{
	struct fxt_reader *r = fxt_reader_open(REUSE.archive);
	struct fxt_record *rec = malloc(sizeof(*rec));
	uint64_t tid = (uint64_t)REUSE.pid;
	size_t n = 0;

	if (!r || !rec) {
		snprintf(why, wlen, "%.200s: %s", REUSE.archive, strerror(errno));
		free(rec);
		if (r)
			fxt_reader_close(r);
		return 0;
	}
	while (fxt_reader_next(r, rec) > 0) {
		if (rec->flags & (FXT_RF_MALFORMED | FXT_RF_UNKNOWN))
			continue;
		if (rec->type == FXT_REC_KERNEL_OBJ && rec->u.kobj.koid == tid &&
		    rec->u.kobj.obj_type == FXT_OBJ_THREAD &&
		    rec->u.kobj.named_at > REUSE.t_between && rec->provider < 2)
			late_names[rec->provider]++;
		if (rec->type != FXT_REC_SCHED ||
		    (rec->subtype != FXT_SCHED_CONTEXT_SWITCH &&
		     rec->subtype != FXT_SCHED_CONTEXT_SWITCH_V2))
			continue;
		if (rec->u.sw.out.tid != tid && rec->u.sw.in.tid != tid)
			continue;
		if (n == max)
			break;
		out[n].ns = rec->ts_ns;
		out[n].second = rec->ts_ns > REUSE.t_between;
		out[n].final = rec->u.sw.out.tid == tid &&
			       (rec->u.sw.out_state == FXT_THREAD_DYING ||
				rec->u.sw.out_state == FXT_THREAD_DEAD);
		n++;
	}
	for (size_t i = 0; i < n; i++) {
		const struct fxt_kobj_info *k = fxt_reader_thread_at(r, tid, out[i].ns);

		snprintf(out[i].name, sizeof(out[i].name), "%s", k ? k->name : "");
	}
	free(rec);
	fxt_reader_close(r);
	return n;
}

#define NEED_REUSE() do {						\
	if (!REUSE.ran)							\
		SKIP(return, "reuse did not run: %s", REUSE.why);	\
} while (0)

/* Each life of the pid is named by its own names, never the other's. */
TEST(reuse_each_life_keeps_its_name)
{
	static struct life_switch sw[4096];
	unsigned int finals[2] = { 0 }, late[2] = { 0 };
	char why[256] = "";
	size_t n;

	NEED_REUSE();
	n = reuse_switches(sw, sizeof(sw) / sizeof(sw[0]), why, sizeof(why), late);
	ASSERT_LT(0, n) TH_LOG("no switch of pid %d: %s", (int)REUSE.pid, why);
	TH_LOG("pid %d: %zu switches; thread records of the second life: %u on CPU 0, "
	       "%u on CPU 1 (its fork's)", (int)REUSE.pid, n, late[0], late[1]);
	for (size_t i = 0; i < n; i++) {
		const char *other = sw[i].second ? REUSE_FIRST : REUSE_SECOND;
		const char *own = sw[i].second ? REUSE_SECOND : REUSE_FIRST;

		EXPECT_STRNE(other, sw[i].name)
			TH_LOG("%s life, switch at %llu ns: named %s", sw[i].second ?
			       "second" : "first", (unsigned long long)sw[i].ns, sw[i].name);
		if (sw[i].final) {
			finals[sw[i].second]++;
			EXPECT_STREQ(own, sw[i].name);
			if (!sw[i].second)
				TH_LOG("the first life's last switch: %.3f ms before "
				       "the time that divides the lives",
				       (double)(REUSE.t_between - sw[i].ns) / 1e6);
		}
	}
	EXPECT_EQ(1, finals[0]) TH_LOG("final switches of the first life");
	EXPECT_EQ(1, finals[1]) TH_LOG("final switches of the second life");
}

/* fxt-report: a row per life, each with its own name. */
TEST(reuse_report_row_per_life)
{
	char line[512], prefix[32];
	bool first = false, second = false;
	int rows = 0;
	FILE *f;

	NEED_REUSE();
	f = fopen(REUSE.report, "r");
	ASSERT_NE(NULL, f) TH_LOG("%s: %s", REUSE.report, strerror(errno));
	snprintf(prefix, sizeof(prefix), "threads,%d,", (int)REUSE.pid);
	while (fgets(line, sizeof(line), f)) {
		char *comm;

		if (strncmp(line, prefix, strlen(prefix)))
			continue;
		rows++;
		comm = strchr(line + strlen(prefix), ',');	/* after the pid column */
		if (!comm)
			continue;
		comm++;
		first |= !strncmp(comm, REUSE_FIRST ",", strlen(REUSE_FIRST) + 1);
		second |= !strncmp(comm, REUSE_SECOND ",", strlen(REUSE_SECOND) + 1);
	}
	fclose(f);
	EXPECT_EQ(2, rows) TH_LOG("rows of tid %d", (int)REUSE.pid);
	EXPECT_TRUE(first) TH_LOG("no row named " REUSE_FIRST);
	EXPECT_TRUE(second) TH_LOG("no row named " REUSE_SECOND);
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/*
 * Every thread of the crowd has a named thread record, nothing was
 * dropped, and with two CPUs or more no CPU carries more than three
 * quarters of the crowd's names: the snapshot is spread over the CPUs.
 */
static void check_snapshot(struct __test_metadata *_metadata,
			   const struct flight *f, bool spread)
{
	static pid_t sorted[MAX_CROWD];
	static bool named[MAX_CROWD];
	uint64_t per_cpu[MAX_CPUS] = { 0 }, total = 0, most = 0;
	unsigned long n = f->work, unnamed = 0;
	int cpus = 0;

	memcpy(sorted, crowd_tid, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_pid);
	memset(named, 0, sizeof(named));
	for (size_t i = 0; i < f->a.nkobjs; i++) {
		const struct records_kobj *k = &f->a.kobjs[i];
		pid_t tid = (pid_t)k->koid;
		pid_t *at;

		if (k->obj_type != FXT_OBJ_THREAD || !k->name[0])
			continue;
		at = bsearch(&tid, sorted, n, sizeof(*sorted), cmp_pid);
		if (!at)
			continue;
		named[at - sorted] = true;
		if (k->provider < MAX_CPUS) {
			per_cpu[k->provider]++;
			total++;
		}
	}
	for (unsigned long i = 0; i < n; i++)
		unnamed += !named[i];
	for (int c = 0; c < MAX_CPUS; c++) {
		cpus += per_cpu[c] > 0 || f->rows[c].present;
		if (per_cpu[c] > most)
			most = per_cpu[c];
	}
	printf("# %s: %lu threads, %lu unnamed; %llu thread records, %llu on the busiest CPU\n",
	       f->archive, n, unnamed, (unsigned long long)total,
	       (unsigned long long)most);
	fflush(stdout);
	EXPECT_EQ(0, unnamed);
	ASSERT_LT(0, f->nrows) TH_LOG("no statistics table in %s", f->log);
	for (int c = 0; c < MAX_CPUS; c++) {
		const struct stats_row *r = &f->rows[c];

		if (!r->present)
			continue;
		EXPECT_EQ(0, r->d_dropped) TH_LOG("cpu %d: durable records dropped", c);
		EXPECT_EQ(0, r->dropped) TH_LOG("cpu %d: records dropped", c);
	}
	if (spread && cpus >= 2)
		EXPECT_GE(total * 3, most * 4)
			TH_LOG("one CPU carries %llu of %llu names",
			       (unsigned long long)most,
			       (unsigned long long)total);
}

TEST(snap_oneshot_exit_0)	{ NEED(SNAP_ONESHOT); check_exit(_metadata, &SNAP_ONESHOT); }
TEST(snap_oneshot_named)	{ NEED(SNAP_ONESHOT); check_snapshot(_metadata, &SNAP_ONESHOT, true); }
TEST(snap_streaming_exit_0)	{ NEED(SNAP_STREAMING); check_exit(_metadata, &SNAP_STREAMING); }
TEST(snap_streaming_named)	{ NEED(SNAP_STREAMING); check_snapshot(_metadata, &SNAP_STREAMING, true); }
/* CPU 1's share is walked on CPU 0: names all there, not spread. */
TEST(snap_rt_named)		{ NEED(SNAP_RT); check_snapshot(_metadata, &SNAP_RT, false); }

/* START did not wait for the CPU the hog held. */
TEST(snap_rt_start_not_held)
{
	NEED(SNAP_RT);
	printf("# a oneshot START with a SCHED_FIFO hog on CPU 1 took %.3f s, the hog %s\n",
	       snap_rt_start_s,
	       snap_rt_hog_outlived ? "still spinning" : "already gone");
	fflush(stdout);
	EXPECT_TRUE(snap_rt_hog_outlived);
	EXPECT_GT(RT_HOG_S / 2, snap_rt_start_s);
}

TEST(storm_collector_exit_0)	{ NEED(STORM); check_exit(_metadata, &STORM); }
TEST(storm_never_full)		{ NEED(STORM); check_never_full(_metadata, &STORM); }
TEST(storm_window_ends_at_stop)	{ NEED(STORM); check_window_end(_metadata, &STORM); }
TEST(storm_every_thread_named)	{ NEED(STORM); check_named(_metadata, &STORM); }
TEST(flood_collector_exit_0)	{ NEED(FLOOD); check_exit(_metadata, &FLOOD); }
TEST(flood_never_full)		{ NEED(FLOOD); check_never_full(_metadata, &FLOOD); }
TEST(flood_window_ends_at_stop)	{ NEED(FLOOD); check_window_end(_metadata, &FLOOD); }
TEST(flood_every_thread_named)	{ NEED(FLOOD); check_named(_metadata, &FLOOD); }
TEST(crowd_collector_exit_0)	{ NEED(CROWD); check_exit(_metadata, &CROWD); }
TEST(crowd_never_full)		{ NEED(CROWD); check_never_full(_metadata, &CROWD); }
TEST(crowd_window_ends_at_stop)	{ NEED(CROWD); check_window_end(_metadata, &CROWD); }
TEST(crowd_every_thread_named)	{ NEED(CROWD); check_named(_metadata, &CROWD); }

/*
 * This process exec'd long before the crowd's window: the window has its
 * name and parent from the kernel, and its command line from the trailer.
 */
TEST(crowd_process_has_cmdline)
{
	const struct records_kobj *k;
	char want[ENV_CMDLINE_MAX + 1];

	NEED(CROWD);
	ASSERT_LT(0, env_proc_cmdline(CROWD.pid, want, sizeof(want)));
	k = records_cmdline_of(&CROWD.a, (uint64_t)CROWD.pid, true);
	ASSERT_NE(NULL, k) TH_LOG("no trailer record of %d with a cmdline", CROWD.pid);
	EXPECT_STREQ(want, k->cmdline);
	EXPECT_TRUE(k->has_parent);
	EXPECT_EQ((uint64_t)CROWD.ppid, k->parent);
}

/* The kept window holds every switch the log saw in it, none twice. */
static void check_log_in_window(struct __test_metadata *_metadata,
				const struct flight *f)
{
	ASSERT_EQ(0, f->log_lost);
	for (int c = 0; c < MAX_CPUS; c++) {
		uint64_t kept = 0;

		for (size_t k = 0; k < f->a.nsw; k++)
			kept += f->a.sw[k].provider == (uint32_t)c;
		if (!kept)
			continue;
		EXPECT_LE(0, f->window[c]) TH_LOG("cpu %d: %s", c, f->match_why[c]);
		EXPECT_EQ(f->window[c], (long)kept)
			TH_LOG("cpu %d: log %ld switches in the window, archive %llu", c,
			       f->window[c], (unsigned long long)kept);
	}
}

TEST(storm_switches_equal_log_in_window)
{
	NEED(STORM);
	check_log_in_window(_metadata, &STORM);
}

TEST(flood_switches_equal_log_in_window)
{
	NEED(FLOOD);
	check_log_in_window(_metadata, &FLOOD);
}

/*
 * No wait or sleep the window shows hides a run: each CPU's records begin
 * where every CPU's do (Documentation/buffers.rst, "Window edges").
 */
static void check_no_unseen_run(struct __test_metadata *_metadata,
				const struct flight *f)
{
	const struct unseen_runs *u = &f->unseen;

	ASSERT_EQ(0, f->log_lost);
	ASSERT_STREQ("", f->unseen_why);
	printf("# %zu spans where a thread did not run, checked against the switch log\n",
	       u->gaps);
	fflush(stdout);
	EXPECT_LT(0, u->gaps);
	EXPECT_EQ(0, u->unseen)
		TH_LOG("%zu spans hide a run; the longest: tid %llu not running from %llu to %llu ns (%.3f ms), the log has it switched in at %llu",
		       u->unseen, (unsigned long long)u->tid, (unsigned long long)u->from,
		       (unsigned long long)u->to, (double)(u->to - u->from) / 1e6,
		       (unsigned long long)u->ran_at);
}

TEST(storm_no_unseen_run)	{ NEED(STORM); check_no_unseen_run(_metadata, &STORM); }
TEST(flood_no_unseen_run)	{ NEED(FLOOD); check_no_unseen_run(_metadata, &FLOOD); }

static void print_scenario(const char *name, const struct flight *f, const char *what)
{
	printf("# %s: %lu %s, %s, %zu switches and %zu name records kept\n",
	       name, f->work, what, f->ran ? "ran" : f->why, f->a.nsw, f->a.nkobjs);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	double t0 = env_now(), t;

	if (geteuid()) {
		snprintf(STORM.why, sizeof(STORM.why), "needs root");
		snprintf(FLOOD.why, sizeof(FLOOD.why), "needs root");
		snprintf(CROWD.why, sizeof(CROWD.why), "needs root");
		snprintf(SNAP_ONESHOT.why, sizeof(SNAP_ONESHOT.why), "needs root");
		snprintf(SNAP_STREAMING.why, sizeof(SNAP_STREAMING.why), "needs root");
		snprintf(SNAP_RT.why, sizeof(SNAP_RT.why), "needs root");
		snprintf(REUSE.why, sizeof(REUSE.why), "needs root");
	} else {
		t = env_now();
		run_storm();
		print_scenario("storm", &STORM, "fork+execs");
		printf("# storm took %.1f s\n", env_now() - t);
		t = env_now();
		run_flood();
		print_scenario("flood", &FLOOD, "fork+execs");
		printf("# flood took %.1f s\n", env_now() - t);
		t = env_now();
		run_crowd();
		print_scenario("crowd", &CROWD, "threads");
		printf("# crowd took %.1f s\n", env_now() - t);
		t = env_now();
		run_reuse();
		printf("# reuse: pid %d, %s (%.1f s)\n", (int)REUSE.pid,
		       REUSE.ran ? "ran" : REUSE.why, env_now() - t);
	}
	printf("# scenarios took %.1f s\n", env_now() - t0);
	fflush(stdout);
	return test_harness_run(argc, argv);
}
