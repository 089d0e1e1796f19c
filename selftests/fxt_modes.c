// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_modes - the buffering modes end to end, and the buffer edge cases:
 *
 *  mode_*       oneshot, circular and streaming through fxt-collect: exit 0,
 *               fxt-dump --check passes, context switches from every CPU;
 *  circular_*   a 128K buffer wraps >= 10 times and every kept reference
 *               still resolves;
 *  slow_*       streaming with a collector SIGSTOPped mid-ping-pong: records
 *               are dropped, and per CPU written + dropped equals the
 *               switches the BPF switch log (oracle/swlog.h) saw between the
 *               archive's first and last switch on that CPU; the fxt/dropped
 *               counters and "buffer full" events match the statistics;
 *  durable_*    circular, /dev/fxt driven directly with a 4 KiB durable
 *               buffer: durable full stops recording on that CPU;
 *  retain_*     start / stop / start: RETAIN keeps the first window,
 *               CLEAR_ENTIRE loses it (buffers read through the mapping);
 *               a thread renamed while stopped has that name as its newest
 *               after the restart (*_rename_while_stopped);
 *  clear_nondurable_*  CLEAR_NONDURABLE loses the first window's rolling
 *               data but keeps its durable records; after durable records
 *               spilled into the rolling buffer (oneshot, 4 KiB durable),
 *               every reference in the second window still resolves;
 *  oneshot_full_*  fxt-collect -m oneshot -b 64K under 20x what it holds:
 *               drops counted, ROLLING_FULL and "buffer full" on the CPUs
 *               that dropped, kept + dropped covers the switch log;
 *  start_additional_categories_*  a sched-only session started with
 *               irq+softirq added records interrupts; without, none;
 *  nesting_*    all categories under timer and IPI load: interrupt
 *               begin/end events nest per CPU;
 *  hook_*       short traces started and stopped while every CPU spends
 *               most of its time in NET_RX softirqs (UDP over loopback):
 *               while exit probes are hooked before their entries (and
 *               unhooked after them), the end of an interrupt whose begin
 *               was not seen must not close the softirq it interrupted.
 *
 * Every scenario runs once in main(), before the harness forks the cases;
 * each case checks one property of those runs. scenarios_ran fails when
 * any scenario could not start (its cases then skip) or broke (a failed
 * ioctl, a hung collector: its cases then fail too). Knob: FXT_MODES_N (round
 * trips of the switch-heavy ping-pongs, default 20000).
 */
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/fxt.h>

#include "kselftest_harness.h"
#include "collector.h"
#include "cpu.h"
#include "device.h"
#include "dump.h"
#include "scan.h"
#include "stats_table.h"
#include "workload.h"
#include "records.h"
#include "libfxt.h"
#include "oracle.h"
#include "swlog.h"


static int CPUS[MAX_CPUS], NCPUS;
/* Why no scenario ran at all (main()), else empty. */
static char NOT_RUN_WHY[128];

/* A scenario's reason for not running, never empty. */
static const char *why_not(const char *why)
{
	if (why[0])
		return why;
	return NOT_RUN_WHY[0] ? NOT_RUN_WHY : "no reason recorded";
}

/* One fxt-collect run: what every collector scenario keeps. */
struct crun {
	bool ran;			/* collector started and was stopped */
	bool failed;			/* it started, then broke (see why) */
	char why[256];
	int status;			/* collector wait status */
	int dump_status;		/* fxt-dump --check wait status */
	bool scanned;
	struct scan scan;
	int nrows;
	struct stats_row rows[STATS_MAX_CPUS];
	char archive[PATH_MAX], log[PATH_MAX], dump_log[PATH_MAX];
};

static void crun_paths(struct crun *r, const char *name)
{
	snprintf(r->archive, sizeof(r->archive), "%s/%s.fxt", env_tmpdir(), name);
	snprintf(r->log, sizeof(r->log), "%s/%s-collect.log", env_tmpdir(), name);
	snprintf(r->dump_log, sizeof(r->dump_log), "%s/%s-dump.log", env_tmpdir(),
		 name);
}

/* SIGINT the collector. */
static void crun_stop(struct crun *r, pid_t pid)
{
	if (!child_stop(pid, 120, &r->status)) {
		snprintf(r->why, sizeof(r->why), "fxt-collect hung after SIGINT");
		r->failed = true;
		return;
	}
	r->ran = true;
}

/* After crun_stop(): stats, fxt-dump --check and the scan. */
static void crun_check(struct crun *r, const uint64_t *tids, int ntids)
{
	if (!r->ran)
		return;
	r->nrows = stats_table_parse(r->log, r->rows);
	r->dump_status = dump_check(r->archive, r->dump_log, 120);
	r->scanned = !scan_archive(r->archive, tids, ntids, &r->scan);
	if (!WIFEXITED(r->status) || WEXITSTATUS(r->status))
		child_log_print("fxt-collect output", r->log, 20);
}

/* SIGINT the collector, then stats, fxt-dump --check and the scan. */
static void crun_finish(struct crun *r, pid_t pid, const uint64_t *tids,
			int ntids)
{
	crun_stop(r, pid);
	crun_check(r, tids, ntids);
}

static void crun_print(const char *name, const struct crun *r)
{
	printf("# %s: %s%s status 0x%x, dump 0x%x, %llu records\n", name,
	       r->ran ? "ran" : "did not run: ", r->ran ? "," : r->why,
	       r->status, r->dump_status,
	       (unsigned long long)r->scan.records);
	for (int c = 0; c < MAX_CPUS; c++) {
		const struct stats_row *s = &r->rows[c];
		const struct scan_prov *p = &r->scan.prov[c];

		if (!s->present && !p->seen)
			continue;
		printf("#   cpu%d: records %llu dropped %llu durable %llu d.dropped %llu wraps %llu %s| archive: switches %llu, watched %llu, undefined refs %llu, buffer full %llu, dropped counter %s%llu, irq begin %llu end %llu mismatch %llu orphans %llu+%llu\n",
		       c, (unsigned long long)s->records,
		       (unsigned long long)s->dropped,
		       (unsigned long long)s->durable,
		       (unsigned long long)s->d_dropped,
		       (unsigned long long)s->wraps, s->flags,
		       (unsigned long long)p->switches,
		       (unsigned long long)p->tid_switches,
		       (unsigned long long)p->undefined_refs,
		       (unsigned long long)p->buffer_full,
		       p->have_dropped ? "" : "none ",
		       (unsigned long long)p->dropped_last,
		       (unsigned long long)p->irq_begin,
		       (unsigned long long)p->irq_end,
		       (unsigned long long)p->nest_mismatch,
		       (unsigned long long)p->orphan_start,
		       (unsigned long long)p->orphan_late);
	}
}

/* ------------------------------------------------------------------ */
/* 1. Each mode end to end.                                            */

static const char *const MODES[3] = { "oneshot", "circular", "streaming" };
static struct crun MODE_RUN[3];

static void run_mode(int m)
{
	struct crun *r = &MODE_RUN[m];
	const char *extra[] = { "-b", "2M", NULL };
	char name[32];
	pid_t pid;

	snprintf(name, sizeof(name), "modes-%s", MODES[m]);
	crun_paths(r, name);
	pid = collector_start(r->archive, MODES[m], extra, r->log, r->why,
			       sizeof(r->why));
	if (pid < 0)
		return;
	/* Sleepers pinned to every CPU, and a ping-pong across CPUs. */
	workload_sleepers(2 * NCPUS, 100, 200000, CPUS, NCPUS);
	workload_pingpong(1000, CPUS[0], CPUS[NCPUS - 1], NULL);
	crun_finish(r, pid, NULL, 0);
	crun_print(name, r);
}

/*
 * A scenario that could not start (no /dev/fxt, no BPF switch log, a
 * collector that did not start) skips the cases that need it, and
 * scenarios_ran fails. One that started and then broke (a failed ioctl, a
 * hung collector, an unreadable archive) fails them. The skip comes first:
 * nothing may be checked before a SKIP() (lib/kselftest_harness.h).
 */
#define NEED(r) do {							\
	if (!(r).ran && !(r).failed)					\
		SKIP(return, "scenario did not run: %s", why_not((r).why)); \
	ASSERT_FALSE((r).failed) TH_LOG("scenario failed: %s", (r).why); \
} while (0)

#define EXPECT_EXIT0(status, what) do {					\
	ASSERT_TRUE(WIFEXITED(status)) TH_LOG("%s: wait status 0x%x", what, status); \
	ASSERT_EQ(0, WEXITSTATUS(status)) TH_LOG("%s exit status", what); \
} while (0)

static void check_mode_exit(struct __test_metadata *_metadata, int m)
{
	NEED(MODE_RUN[m]);
	EXPECT_EXIT0(MODE_RUN[m].status, "fxt-collect");
}

static void check_mode_dump(struct __test_metadata *_metadata, int m)
{
	NEED(MODE_RUN[m]);
	if (MODE_RUN[m].dump_status)
		child_log_print("fxt-dump --check", MODE_RUN[m].dump_log, 20);
	EXPECT_EXIT0(MODE_RUN[m].dump_status, "fxt-dump --check");
}

static void check_mode_cpus(struct __test_metadata *_metadata, int m)
{
	NEED(MODE_RUN[m]);
	ASSERT_TRUE(MODE_RUN[m].scanned);
	for (int i = 0; i < NCPUS; i++) {
		EXPECT_LT(0, MODE_RUN[m].scan.prov[CPUS[i]].switches)
			TH_LOG("%s: no context switch from cpu %d", MODES[m],
			       CPUS[i]);
	}
}

/*
 * Every scenario of main() ran to its end. The cases that need one that
 * could not start skip (NEED()): this case turns that into a failure, as
 * scenario_ran does in the other end-to-end binaries.
 */
static void expect_ran(struct __test_metadata *_metadata, const char *name,
		       bool ran, bool failed, const char *why)
{
	EXPECT_TRUE(ran && !failed)
		TH_LOG("%s %s: %s", name, failed ? "failed" : "did not run",
		       why_not(why));
}

/* Defined below with the scenarios. */
static struct crun CIRC, SLOW, NEST;
static void scenarios_ran_devs(struct __test_metadata *_metadata);
static void scenarios_ran_hook(struct __test_metadata *_metadata);

TEST(scenarios_ran)
{
	if (NOT_RUN_WHY[0])
		TH_LOG("%s", NOT_RUN_WHY);
	for (int m = 0; m < 3; m++)
		expect_ran(_metadata, MODES[m], MODE_RUN[m].ran,
			   MODE_RUN[m].failed, MODE_RUN[m].why);
	expect_ran(_metadata, "circular 128K", CIRC.ran, CIRC.failed, CIRC.why);
	expect_ran(_metadata, "slow collector", SLOW.ran, SLOW.failed, SLOW.why);
	scenarios_ran_devs(_metadata);
	expect_ran(_metadata, "nesting", NEST.ran, NEST.failed, NEST.why);
	scenarios_ran_hook(_metadata);
}

TEST(mode_oneshot_collector_exit_0)	{ check_mode_exit(_metadata, 0); }
TEST(mode_oneshot_dump_check)		{ check_mode_dump(_metadata, 0); }
TEST(mode_oneshot_switches_every_cpu)	{ check_mode_cpus(_metadata, 0); }
TEST(mode_circular_collector_exit_0)	{ check_mode_exit(_metadata, 1); }
TEST(mode_circular_dump_check)		{ check_mode_dump(_metadata, 1); }
TEST(mode_circular_switches_every_cpu)	{ check_mode_cpus(_metadata, 1); }
TEST(mode_streaming_collector_exit_0)	{ check_mode_exit(_metadata, 2); }
TEST(mode_streaming_dump_check)		{ check_mode_dump(_metadata, 2); }
TEST(mode_streaming_switches_every_cpu)	{ check_mode_cpus(_metadata, 2); }

/* ------------------------------------------------------------------ */
/* 2. Circular with a small buffer: wraps, refs still resolve.         */

static unsigned long ROUNDS;

static void run_circular(void)
{
	const char *extra[] = { "-b", "128K", NULL };
	pid_t pid;

	crun_paths(&CIRC, "modes-circ-wrap");
	pid = collector_start(CIRC.archive, "circular", extra, CIRC.log,
			       CIRC.why, sizeof(CIRC.why));
	if (pid < 0)
		return;
	/* Unpinned: both threads often share a CPU, which then wraps a lot. */
	workload_pingpong(ROUNDS, -1, -1, NULL);
	crun_finish(&CIRC, pid, NULL, 0);
	crun_print("circular 128K", &CIRC);
}

TEST(circular_collector_exit_0)
{
	NEED(CIRC);
	EXPECT_EXIT0(CIRC.status, "fxt-collect");
}

TEST(circular_wraps_10_times)
{
	uint64_t max = 0;

	NEED(CIRC);
	ASSERT_LT(0, CIRC.nrows) TH_LOG("no statistics table in %s", CIRC.log);
	for (int c = 0; c < MAX_CPUS; c++)
		if (CIRC.rows[c].wraps > max)
			max = CIRC.rows[c].wraps;
	ASSERT_LE(10, max) TH_LOG("most wraps on one CPU: %llu",
				  (unsigned long long)max);
}

TEST(circular_dump_check)
{
	NEED(CIRC);
	if (CIRC.dump_status)
		child_log_print("fxt-dump --check", CIRC.dump_log, 20);
	EXPECT_EXIT0(CIRC.dump_status, "fxt-dump --check");
}

TEST(circular_refs_resolve)
{
	uint64_t undef = 0;

	NEED(CIRC);
	ASSERT_TRUE(CIRC.scanned);
	ASSERT_FALSE(CIRC.scan.read_error);
	for (int c = 0; c < MAX_CPUS; c++)
		undef += CIRC.scan.prov[c].undefined_refs;
	EXPECT_EQ(0, undef) TH_LOG("thread refs with no thread record");
	EXPECT_EQ(0, CIRC.scan.thread_undefined);
	EXPECT_EQ(0, CIRC.scan.string_undefined);
	EXPECT_EQ(0, CIRC.scan.undefined_strs);
	EXPECT_EQ(0, CIRC.scan.diags) TH_LOG("libfxt diagnostics");
}

/* ------------------------------------------------------------------ */
/* 3. Streaming with a slow collector: exact accounting.               */

static bool SLOW_LOGGED;
static uint64_t SLOW_LOST, SLOW_MISSES;
/* Per CPU: switches in the log between the archive's first and last. */
static uint64_t SLOW_WINDOW[MAX_CPUS];
static bool SLOW_MATCHED[MAX_CPUS];
static char SLOW_MATCH_WHY[MAX_CPUS][96];
/* The loss records (fxt/lost) against the log: what they say was lost. */
static uint64_t SLOW_GAP_RECORDS[MAX_CPUS];
static unsigned int SLOW_GAPS;
static char SLOW_GAP_WHY[MAX_CPUS][160];

/*
 * Each of CPU c's loss records spans exactly the switches the log has
 * between the archive's switch before it and its switch after it, and
 * counts them: its times are those two switches', its count the log's.
 */
static void slow_check_gaps(const struct swlog *l, int c, const struct scan_prov *p)
{
	char *why = SLOW_GAP_WHY[c];
	size_t sz = sizeof(SLOW_GAP_WHY[c]);

	if (p->gaps > SCAN_GAPS)
		snprintf(why, sz, "%u loss records, more than the %u checked",
			 p->gaps, SCAN_GAPS);
	for (unsigned int k = 0; k < p->gaps && k < SCAN_GAPS; k++) {
		const struct scan_gap *g = &p->gap[k];
		long i, j;

		SLOW_GAPS++;
		SLOW_GAP_RECORDS[c] += g->records;
		if (!g->have_before || !g->have_after) {
			snprintf(why, sz, "gap %u at %llu: no switch %s it", k,
				 (unsigned long long)g->from,
				 g->have_before ? "after" : "before");
			continue;
		}
		if (g->before.ts != g->from || g->after.ts != g->to) {
			snprintf(why, sz, "gap %u [%llu, %llu]: its switches are at %llu and %llu",
				 k, (unsigned long long)g->from,
				 (unsigned long long)g->to,
				 (unsigned long long)g->before.ts,
				 (unsigned long long)g->after.ts);
			continue;
		}
		i = swlog_find(l, c, g->before.out, g->before.in, g->before.ts);
		j = swlog_find(l, c, g->after.out, g->after.in, g->after.ts);
		printf("# slow cpu%d: gap %u, %.3f ms: %llu records lost, the log has %ld switches in it\n",
		       c, k, (double)(g->to - g->from) / 1e6,
		       (unsigned long long)g->records, i >= 0 && j > i ? j - i - 1 : -1);
		if (i < 0 || j <= i)
			snprintf(why, sz, "gap %u: its switches are not in the log (%ld, %ld)",
				 k, i, j);
		else if ((uint64_t)(j - i - 1) != g->records)
			snprintf(why, sz, "gap %u: %llu records lost, the log has %ld switches in it",
				 k, (unsigned long long)g->records, j - i - 1);
	}
}

static void run_slow(void)
{
	const char *extra[] = { "-b", "64K", "-c", "sched", NULL };
	struct swlog *l;
	struct workload_bg *bg;
	pid_t pid;
	int err;

	crun_paths(&SLOW, "modes-slow");
	l = swlog_open(1u << 26);
	if (!l) {
		snprintf(SLOW.why, sizeof(SLOW.why), "swlog_open: %s",
			 strerror(errno));
		return;
	}
	/* The log's window contains the collector's whole session. */
	err = swlog_start(l);
	if (err) {
		snprintf(SLOW.why, sizeof(SLOW.why), "swlog_start: %s",
			 strerror(-err));
		goto out;
	}
	pid = collector_start(SLOW.archive, "streaming", extra, SLOW.log,
			       SLOW.why, sizeof(SLOW.why));
	if (pid < 0)
		goto out;
	/* The ping-pong runs from before the SIGSTOP until after the SIGCONT. */
	bg = workload_pingpong_bg(ULONG_MAX, -1, -1);
	usleep(100000);
	kill(pid, SIGSTOP);
	/*
	 * Stopped for at least 0.6 s and 6000 round trips (12,000 switches,
	 * twice what the rolling buffers of two CPUs at 64K hold), so that
	 * records are dropped however slow the kernel (a debug one is ten
	 * times slower); at most 60 s.
	 */
	{
		unsigned long r0 = bg ? workload_bg_rounds(bg) : 0;

		usleep(600000);
		for (int i = 0; bg && i < 600 && workload_bg_rounds(bg) - r0 < 6000; i++)
			usleep(100000);
	}
	kill(pid, SIGCONT);
	usleep(100000);
	workload_bg_stop(bg);
	err = workload_bg_join(bg, NULL);
	if (err)
		printf("# slow: ping-pong: %s\n", strerror(-err));
	usleep(200000);		/* let it catch up */
	crun_finish(&SLOW, pid, NULL, 0);
	swlog_stop(l);
	SLOW_LOGGED = true;
	SLOW_LOST = swlog_lost(l);
	SLOW_MISSES = swlog_misses(l);
	for (int c = 0; c < MAX_CPUS && c < swlog_nr_cpus(l); c++) {
		const struct scan_prov *p = &SLOW.scan.prov[c];
		long i, j;
		size_t n;

		swlog_cpu(l, c, &n);
		slow_check_gaps(l, c, p);
		if (!p->switches) {
			SLOW_MATCHED[c] = true;
			continue;
		}
		i = swlog_find(l, c, p->first.out, p->first.in, p->first.ts);
		j = swlog_find(l, c, p->last.out, p->last.in, p->last.ts);
		if (i < 0 || j < 0 || j < i) {
			snprintf(SLOW_MATCH_WHY[c], sizeof(SLOW_MATCH_WHY[c]),
				 "first %ld, last %ld of %zu logged", i, j, n);
			continue;
		}
		SLOW_MATCHED[c] = true;
		SLOW_WINDOW[c] = j - i + 1;
		printf("# slow cpu%d: log %zu switches, window [%ld, %ld] = %llu\n",
		       c, n, i, j, (unsigned long long)SLOW_WINDOW[c]);
	}
	crun_print("streaming, slow collector", &SLOW);
	printf("# swlog: lost %llu, missed runs %llu\n",
	       (unsigned long long)SLOW_LOST, (unsigned long long)SLOW_MISSES);
out:
	swlog_close(l);
}

TEST(slow_collector_exit_0)
{
	NEED(SLOW);
	EXPECT_EXIT0(SLOW.status, "fxt-collect");
}

TEST(slow_records_dropped)
{
	uint64_t d = 0;

	NEED(SLOW);
	ASSERT_LT(0, SLOW.nrows) TH_LOG("no statistics table in %s", SLOW.log);
	for (int c = 0; c < MAX_CPUS; c++)
		d += SLOW.rows[c].dropped;
	ASSERT_LT(0, d) TH_LOG("nothing dropped: the slow collector tested nothing");
}

TEST(slow_switch_log_complete)
{
	NEED(SLOW);
	ASSERT_TRUE(SLOW_LOGGED);
	EXPECT_EQ(0, SLOW_LOST) TH_LOG("switch log ring buffer overflowed");
	EXPECT_EQ(0, SLOW_MISSES) TH_LOG("switch log program runs skipped");
}

TEST(slow_written_plus_dropped_equals_switches)
{
	NEED(SLOW);
	ASSERT_TRUE(SLOW_LOGGED);
	ASSERT_TRUE(SLOW.scanned);
	ASSERT_LT(0, SLOW.nrows);
	for (int c = 0; c < MAX_CPUS; c++) {
		const struct stats_row *s = &SLOW.rows[c];

		if (!s->present)
			continue;
		EXPECT_TRUE(SLOW_MATCHED[c])
			TH_LOG("cpu %d: archive's first/last switch not in the log: %s",
			       c, SLOW_MATCH_WHY[c]);
		if (!SLOW_MATCHED[c])
			continue;
		EXPECT_EQ(SLOW_WINDOW[c], s->records + s->dropped)
			TH_LOG("cpu %d: log %llu switches, fxt written %llu + dropped %llu",
			       c, (unsigned long long)SLOW_WINDOW[c],
			       (unsigned long long)s->records,
			       (unsigned long long)s->dropped);
	}
}

/* Every record lost is in a gap, and every gap is exact (slow_check_gaps()). */
/*
 * Every switch of CPU c follows the one before it (its outgoing thread is
 * that one's incoming thread), or a loss record lies between them: no
 * switch is lost where no loss record says so.
 */
static void expect_no_break(struct __test_metadata *_metadata, const char *what,
			    int c, const struct scan_prov *p)
{
	EXPECT_EQ(0, p->unexplained_breaks)
		TH_LOG("%s cpu %d: the switch at %llu (out %llu) does not follow the one at %llu (in %llu), and no loss record is between them",
		       what, c, (unsigned long long)p->break_after.ts,
		       (unsigned long long)p->break_after.out,
		       (unsigned long long)p->break_before.ts,
		       (unsigned long long)p->break_before.in);
}

TEST(slow_gaps_exact)
{
	NEED(SLOW);
	ASSERT_TRUE(SLOW_LOGGED);
	ASSERT_TRUE(SLOW.scanned);
	ASSERT_LT(0, SLOW.nrows);
	ASSERT_LT(0, SLOW_GAPS) TH_LOG("no loss record in the archive");
	for (int c = 0; c < MAX_CPUS; c++) {
		const struct stats_row *s = &SLOW.rows[c];

		if (!s->present)
			continue;
		EXPECT_STREQ("", SLOW_GAP_WHY[c]) TH_LOG("cpu %d", c);
		EXPECT_EQ(s->dropped, SLOW_GAP_RECORDS[c]) TH_LOG("cpu %d", c);
		EXPECT_EQ(0, SLOW.scan.prov[c].gap_wrong_cpu) TH_LOG("cpu %d", c);
		expect_no_break(_metadata, "slow", c, &SLOW.scan.prov[c]);
	}
}

TEST(slow_dropped_counter_matches_stats)
{
	NEED(SLOW);
	ASSERT_TRUE(SLOW.scanned);
	ASSERT_LT(0, SLOW.nrows);
	for (int c = 0; c < MAX_CPUS; c++) {
		const struct stats_row *s = &SLOW.rows[c];
		const struct scan_prov *p = &SLOW.scan.prov[c];
		uint64_t want = s->dropped + s->d_dropped;

		if (!s->present)
			continue;
		if (!want) {
			EXPECT_FALSE(p->have_dropped)
				TH_LOG("cpu %d: fxt/dropped counter without drops", c);
			continue;
		}
		EXPECT_TRUE(p->have_dropped)
			TH_LOG("cpu %d dropped %llu: no fxt/dropped counter", c,
			       (unsigned long long)want);
		EXPECT_EQ(want, p->dropped_last) TH_LOG("cpu %d", c);
	}
}

TEST(slow_buffer_full_event_per_dropping_cpu)
{
	NEED(SLOW);
	ASSERT_TRUE(SLOW.scanned);
	ASSERT_LT(0, SLOW.nrows);
	for (int c = 0; c < MAX_CPUS; c++) {
		const struct stats_row *s = &SLOW.rows[c];

		if (!s->present)
			continue;
		if (s->dropped + s->d_dropped) {
			EXPECT_LT(0, SLOW.scan.prov[c].buffer_full)
				TH_LOG("cpu %d dropped, no \"buffer full\" event", c);
		} else {
			EXPECT_EQ(0, SLOW.scan.prov[c].buffer_full)
				TH_LOG("cpu %d: \"buffer full\" without drops", c);
		}
	}
}

TEST(slow_dump_check)
{
	NEED(SLOW);
	if (SLOW.dump_status)
		child_log_print("fxt-dump --check", SLOW.dump_log, 20);
	EXPECT_EXIT0(SLOW.dump_status, "fxt-dump --check");
}

/* ------------------------------------------------------------------ */
/* Driving /dev/fxt directly, with the collector's read side           */
/* (userspace/lib/device.c): its final save writes the archives here.  */

/* *opened: open() worked, so a later error is the module's. */
static int dev_init(struct fxt_device *d, bool *opened, uint32_t mode,
		    uint64_t size, uint64_t durable, uint32_t cats)
{
	struct fxt_config cfg = { .buffer_size = size, .mode = mode,
				  .categories = cats, .durable_size = durable };
	int err;

	*opened = false;
	err = fxt_device_open(d, FXT_DEVICE_PATH, "fxt_modes");
	if (err)
		return err;
	*opened = true;
	err = fxt_device_init(d, &cfg);
	if (err) {
		close(d->fd);
		d->fd = -1;
	}
	return err;
}

/* ------------------------------------------------------------------ */
/* 4. Circular, durable buffer full: the CPU stops recording.          */

static struct {
	bool ran, failed;
	char why[256];
	struct fxt_cpu_stats s1[MAX_CPUS], s2[MAX_CPUS];
	/* after a CLEAR_NONDURABLE restart, and after more switches */
	struct fxt_cpu_stats s3[MAX_CPUS], s4[MAX_CPUS];
	int stop_err, term_err, save_err, restart_err;
	bool scanned;
	struct scan scan;
} DUR;

struct renamer {
	pthread_t th;
	int cpu;
	int n;
	int forks;
	char tag;	/* names are "f<tag><cpu>-<i>" */
};

static void *renamer_main(void *arg)
{
	struct renamer *r = arg;
	char name[16];

	cpu_pin(0, r->cpu);
	for (int i = 0; i < r->n; i++) {
		snprintf(name, sizeof(name), "f%c%u-%u", r->tag, (r->cpu & 0xff),
			 (i & 0xffff));
		prctl(PR_SET_NAME, name);
	}
	/* A few forks: kernel object records of the children. */
	for (int i = 0; i < r->forks; i++) {
		pid_t p = fork();

		if (p == 0)
			_exit(0);
		if (p > 0)
			waitpid(p, NULL, 0);
	}
	return NULL;
}

static int get_stats(struct fxt_device *d, struct fxt_cpu_stats *st)
{
	for (unsigned int c = 0; c < d->layout.nr_cpus && c < MAX_CPUS; c++) {
		int err = 0;

		st[c] = (struct fxt_cpu_stats){ .cpu = c };
		if (fxt_device_cpu_possible(d, c))
			err = fxt_device_cpu_stats(d, c, &st[c]);
		if (err)
			return err;
	}
	return 0;
}

static void print_stats(const char *what, const struct fxt_cpu_stats *st)
{
	for (int i = 0; i < NCPUS; i++) {
		const struct fxt_cpu_stats *s = &st[CPUS[i]];

		printf("# %s cpu%d: flags %#x written %llu dropped %llu durable %llu d.dropped %llu wraps %llu\n",
		       what, CPUS[i], s->flags,
		       (unsigned long long)s->records_written,
		       (unsigned long long)s->records_dropped,
		       (unsigned long long)s->durable_records,
		       (unsigned long long)s->durable_dropped,
		       (unsigned long long)s->wrapped_count);
	}
}

static void run_durable_full(void)
{
	struct renamer r[MAX_CPUS];
	char path[PATH_MAX];
	struct fxt_device d;
	bool opened;
	int err;

	err = dev_init(&d, &opened, FXT_MODE_CIRCULAR, 64 << 10, 4096, 0);
	if (err) {
		snprintf(DUR.why, sizeof(DUR.why), "%s: %s",
			 opened ? "initialize" : "open", strerror(-err));
		DUR.failed = opened;
		return;
	}
	err = fxt_device_start(&d, FXT_START_CLEAR_ENTIRE);
	if (err) {
		snprintf(DUR.why, sizeof(DUR.why), "start: %s", strerror(-err));
		DUR.failed = true;
		fxt_device_close(&d);
		return;
	}
	for (int i = 0; i < NCPUS; i++) {
		/*
		 * Circular mode names threads in the rolling data: what fills
		 * the durable buffer is thread records, one per thread index
		 * (24 bytes: 250 children are more than 4 KiB).
		 */
		r[i] = (struct renamer){ .cpu = CPUS[i], .n = 500, .forks = 250,
					 .tag = 'r' };
		pthread_create(&r[i].th, NULL, renamer_main, &r[i]);
	}
	for (int i = 0; i < NCPUS; i++)
		pthread_join(r[i].th, NULL);
	err = get_stats(&d, DUR.s1);
	/* More switches on every CPU, after the durable buffer filled. */
	for (int i = 0; !err && i < NCPUS; i++)
		workload_pingpong(300, CPUS[i], CPUS[i], NULL);
	workload_sleepers(2 * NCPUS, 50, 200000, CPUS, NCPUS);
	if (!err)
		err = get_stats(&d, DUR.s2);
	if (err) {
		snprintf(DUR.why, sizeof(DUR.why), "stats: %s", strerror(-err));
		DUR.failed = true;
		fxt_device_close(&d);
		return;
	}
	/* Restarted keeping the durable data: the full CPUs stay stopped. */
	DUR.restart_err = fxt_device_stop(&d, 0);
	if (!DUR.restart_err)
		DUR.restart_err = fxt_device_start(&d, FXT_START_CLEAR_NONDURABLE);
	if (!DUR.restart_err)
		DUR.restart_err = get_stats(&d, DUR.s3);
	for (int i = 0; !DUR.restart_err && i < NCPUS; i++)
		workload_pingpong(300, CPUS[i], CPUS[i], NULL);
	if (!DUR.restart_err)
		DUR.restart_err = get_stats(&d, DUR.s4);
	DUR.stop_err = fxt_device_stop(&d, FXT_STOP_WRITE_RESULTS);
	snprintf(path, sizeof(path), "%s/modes-durable-full.fxt", env_tmpdir());
	DUR.save_err = fxt_device_save_file(&d, path);
	DUR.term_err = fxt_device_close(&d);
	DUR.scanned = !DUR.save_err && !scan_archive(path, NULL, 0, &DUR.scan);
	DUR.ran = true;
	print_stats("durable-full, after renames", DUR.s1);
	print_stats("durable-full, later", DUR.s2);
	print_stats("durable-full, restarted (CLEAR_NONDURABLE)", DUR.s3);
	print_stats("durable-full, restarted, later", DUR.s4);
}

TEST(durable_full_flag_set)
{
	bool any = false;

	NEED(DUR);
	for (int i = 0; i < NCPUS; i++)
		any |= !!(DUR.s1[CPUS[i]].flags & FXT_CPU_DURABLE_FULL);
	ASSERT_TRUE(any) TH_LOG("no CPU reports FXT_CPU_DURABLE_FULL");
}

TEST(durable_full_durable_dropped)
{
	bool any = false;

	NEED(DUR);
	for (int i = 0; i < NCPUS; i++) {
		const struct fxt_cpu_stats *s = &DUR.s1[CPUS[i]];

		if (!(s->flags & FXT_CPU_DURABLE_FULL))
			continue;
		any = true;
		EXPECT_LT(0, s->durable_dropped) TH_LOG("cpu %d", CPUS[i]);
	}
	ASSERT_TRUE(any);
}

TEST(durable_full_stops_recording)
{
	bool any = false;

	NEED(DUR);
	for (int i = 0; i < NCPUS; i++) {
		const struct fxt_cpu_stats *a = &DUR.s1[CPUS[i]];
		const struct fxt_cpu_stats *b = &DUR.s2[CPUS[i]];

		if (!(a->flags & FXT_CPU_DURABLE_FULL))
			continue;
		any = true;
		EXPECT_TRUE(b->flags & FXT_CPU_DURABLE_FULL) TH_LOG("cpu %d", CPUS[i]);
		EXPECT_LT(a->records_dropped, b->records_dropped)
			TH_LOG("cpu %d: rolling drops did not grow", CPUS[i]);
		EXPECT_EQ(a->records_written, b->records_written)
			TH_LOG("cpu %d: still writing after durable full", CPUS[i]);
		EXPECT_EQ(a->durable_records, b->durable_records)
			TH_LOG("cpu %d: durable records written after full", CPUS[i]);
	}
	ASSERT_TRUE(any);
}

/*
 * A CLEAR_NONDURABLE start keeps the durable buffer, still full: the CPU
 * stays stopped (Documentation/buffers.rst); only CLEAR_ENTIRE revives it.
 */
TEST(durable_full_stays_stopped_after_clear_nondurable)
{
	bool any = false;

	NEED(DUR);
	ASSERT_EQ(0, DUR.restart_err) TH_LOG("%s", strerror(-DUR.restart_err));
	for (int i = 0; i < NCPUS; i++) {
		const struct fxt_cpu_stats *a = &DUR.s3[CPUS[i]];
		const struct fxt_cpu_stats *b = &DUR.s4[CPUS[i]];

		if (!(DUR.s2[CPUS[i]].flags & FXT_CPU_DURABLE_FULL))
			continue;
		any = true;
		EXPECT_TRUE(a->flags & FXT_CPU_DURABLE_FULL) TH_LOG("cpu %d", CPUS[i]);
		EXPECT_EQ(a->records_written, b->records_written)
			TH_LOG("cpu %d: writing again after CLEAR_NONDURABLE", CPUS[i]);
		EXPECT_EQ(DUR.s2[CPUS[i]].durable_records, b->durable_records)
			TH_LOG("cpu %d: durable records written", CPUS[i]);
	}
	ASSERT_TRUE(any);
}

/* What was kept before the CPU stopped still resolves (nothing refers to a lost record). */
TEST(durable_full_kept_data_resolves)
{
	uint64_t undef = 0, sw = 0;

	NEED(DUR);
	ASSERT_EQ(0, DUR.save_err);
	ASSERT_TRUE(DUR.scanned);
	for (int c = 0; c < MAX_CPUS; c++) {
		undef += DUR.scan.prov[c].undefined_refs;
		sw += DUR.scan.prov[c].switches;
	}
	EXPECT_EQ(0, undef);
	EXPECT_EQ(0, DUR.scan.thread_undefined);
	EXPECT_EQ(0, DUR.scan.string_undefined);
	EXPECT_EQ(0, DUR.scan.undefined_strs);
	EXPECT_EQ(0, DUR.scan.diags);
	EXPECT_FALSE(DUR.scan.read_error);
	printf("# durable-full archive: %llu records, %llu switches\n",
	       (unsigned long long)DUR.scan.records, (unsigned long long)sw);
}

TEST(durable_full_stop_and_terminate)
{
	NEED(DUR);
	EXPECT_EQ(0, DUR.stop_err);
	EXPECT_EQ(0, DUR.term_err);
}

/*
 * Streaming, durable buffer full: durable records spill into the rolling
 * buffer (buffers.rst), none is dropped, every one reaches the data.
 */
#define SPILL_RENAMES	500

static struct {
	bool ran, failed;
	char why[256];
	struct fxt_cpu_stats st[MAX_CPUS];
	struct scan scan;
} SPILL;

static void run_spill(void)
{
	struct renamer r[MAX_CPUS];
	char path[PATH_MAX];
	struct fxt_device d;
	bool opened;
	int err;

	snprintf(path, sizeof(path), "%s/modes-spill.fxt", env_tmpdir());
	/* 1M: no roll (no SAVE_BUFFER to answer) for this little data. */
	err = dev_init(&d, &opened, FXT_MODE_STREAMING, 1 << 20, 4096, FXT_CAT_SCHED);
	if (err) {
		snprintf(SPILL.why, sizeof(SPILL.why), "%s: %s",
			 opened ? "initialize" : "open", strerror(-err));
		SPILL.failed = opened;
		return;
	}
	err = fxt_device_start(&d, FXT_START_CLEAR_ENTIRE);
	for (int i = 0; !err && i < NCPUS; i++) {
		r[i] = (struct renamer){ .cpu = CPUS[i], .n = SPILL_RENAMES,
					 .tag = 's' };
		pthread_create(&r[i].th, NULL, renamer_main, &r[i]);
	}
	for (int i = 0; !err && i < NCPUS; i++)
		pthread_join(r[i].th, NULL);
	if (!err)
		err = fxt_device_stop(&d, FXT_STOP_WRITE_RESULTS);
	if (!err)
		err = get_stats(&d, SPILL.st);
	if (!err)
		err = fxt_device_save_file(&d, path);
	fxt_device_close(&d);
	scan_kobj_prefix = "fs";
	if (!err)
		err = scan_archive(path, NULL, 0, &SPILL.scan);
	scan_kobj_prefix = NULL;
	if (err) {
		snprintf(SPILL.why, sizeof(SPILL.why), "%s", strerror(-err));
		SPILL.failed = true;
		return;
	}
	SPILL.ran = true;
	print_stats("streaming spill", SPILL.st);
	printf("# streaming spill: %llu renamed-thread records in the data\n",
	       (unsigned long long)SPILL.scan.kobj_prefixed);
}

TEST(spill_durable_full_reported)
{
	bool any = false;

	NEED(SPILL);
	for (int i = 0; i < NCPUS; i++)
		any |= !!(SPILL.st[CPUS[i]].flags & FXT_CPU_DURABLE_FULL);
	ASSERT_TRUE(any) TH_LOG("4 KiB durable buffer never full: tested nothing");
}

TEST(spill_nothing_dropped)
{
	NEED(SPILL);
	for (int i = 0; i < NCPUS; i++) {
		EXPECT_EQ(0, SPILL.st[CPUS[i]].durable_dropped) TH_LOG("cpu %d", CPUS[i]);
		EXPECT_EQ(0, SPILL.st[CPUS[i]].records_dropped) TH_LOG("cpu %d", CPUS[i]);
	}
}

TEST(spill_every_rename_saved)
{
	NEED(SPILL);
	EXPECT_EQ((uint64_t)NCPUS * SPILL_RENAMES, SPILL.scan.kobj_prefixed);
	EXPECT_EQ(0, SPILL.scan.diags);
	EXPECT_FALSE(SPILL.scan.read_error);
}

/* ------------------------------------------------------------------ */
/* 5. Start / stop / start: RETAIN keeps the first window.             */

struct two_windows {
	bool ran, failed;
	char why[256];
	pid_t a[2], b[2];
	struct scan sa, sb;	/* scan watching A's, B's tids */
	uint64_t log_a, log_b;	/* switches of A's, B's threads in the switch log */
	uint64_t log_lost;
	/* A thread renamed in the first window, then while stopped. */
	pid_t renamer;
	atomic_int rn_step, rn_done;
	char newest[64];	/* its name by the readers' rule */
	unsigned int rn_records;
};

#define RN_NAME(n)	"fxt-rn-" #n

/* Renames itself at each step the test asks for, acknowledging each. */
static void *stop_renamer_main(void *arg)
{
	static const char *const names[] = { RN_NAME(0), RN_NAME(1), RN_NAME(2) };
	struct two_windows *t = arg;

	t->renamer = gettid();
	for (int step = 0; step < 3; step++) {
		while (atomic_load(&t->rn_step) < step)
			usleep(1000);
		prctl(PR_SET_NAME, names[step]);
		atomic_store(&t->rn_done, step + 1);
	}
	while (atomic_load(&t->rn_step) < 3)
		usleep(1000);
	return NULL;
}

static void renamer_step(struct two_windows *t, int step)
{
	atomic_store(&t->rn_step, step);
	while (step < 3 && atomic_load(&t->rn_done) < step + 1)
		usleep(1000);
}

/*
 * The renamer's name as fxt's readers pick it (records.rst): the record
 * with the latest "named_at"; one without never replaces one with.
 */
static void renamer_newest(struct two_windows *t, const char *path)
{
	struct records a;
	bool stamped = false;
	uint64_t at = 0;

	snprintf(t->newest, sizeof(t->newest), "(none)");
	if (records_load(path, &a))
		return;
	for (size_t i = 0; i < a.nkobjs; i++) {
		const struct records_kobj *k = &a.kobjs[i];

		if (k->obj_type != FXT_OBJ_THREAD || k->koid != (uint64_t)t->renamer)
			continue;
		t->rn_records++;
		if (k->has_named_at ? (!stamped || k->named_at >= at) : !stamped) {
			snprintf(t->newest, sizeof(t->newest), "%s", k->name);
			stamped = k->has_named_at;
			at = k->named_at;
		}
	}
	records_free(&a);
}

/* Switches in the log with prev or next one of tids[2], all CPUs. */
/*
 * Wait (10 s at most) for n final switches of this process's threads. On a
 * timeout, say so; the comparisons that needed the switches then fail on
 * their own.
 */
static void wait_final_switches(struct oracle *o, uint64_t n, const char *what)
{
	uint64_t seen = oracle_wait_exits(o, n, 10);

	if (seen < n)
		printf("# %s: %llu of %llu final switches seen in 10 s\n",
		       what, (unsigned long long)seen, (unsigned long long)n);
}

/* The oracle of this process's threads but the main one (the scenarios'). */
static struct oracle *exits_oracle(void)
{
	struct oracle *o = oracle_open(getpid(), gettid());

	if (o && oracle_start(o)) {
		oracle_close(o);
		return NULL;
	}
	return o;
}

static uint64_t log_count(const struct swlog *l, const pid_t tids[2])
{
	uint64_t n = 0;

	for (int c = 0; c < swlog_nr_cpus(l); c++) {
		const struct swlog_entry *e;
		size_t k;

		e = swlog_cpu(l, c, &k);
		for (size_t i = 0; i < k; i++)
			if (e[i].prev == (uint32_t)tids[0] ||
			    e[i].prev == (uint32_t)tids[1] ||
			    e[i].next == (uint32_t)tids[0] ||
			    e[i].next == (uint32_t)tids[1])
				n++;
	}
	return n;
}

static struct two_windows RETAIN, CLEAR, RETAIN_CIRC;

static void run_two_windows(struct two_windows *t, uint32_t mode,
			    uint32_t second, const char *name)
{
	char path[PATH_MAX];
	uint64_t tids[2];
	struct oracle *o;
	struct fxt_device d;
	bool opened;
	int err;

	struct swlog *l;

	snprintf(path, sizeof(path), "%s/%s.fxt", env_tmpdir(), name);
	o = exits_oracle();
	if (!o) {
		snprintf(t->why, sizeof(t->why), "oracle: %s", strerror(errno));
		return;
	}
	l = swlog_open(1u << 24);
	if (!l || swlog_start(l)) {
		snprintf(t->why, sizeof(t->why), "switch log: %s", strerror(errno));
		swlog_close(l);
		oracle_close(o);
		return;
	}
	err = dev_init(&d, &opened, mode, 2 << 20, 0, FXT_CAT_SCHED);
	if (err) {
		snprintf(t->why, sizeof(t->why), "%s: %s",
			 opened ? "initialize" : "open", strerror(-err));
		t->failed = opened;
		swlog_close(l);
		oracle_close(o);
		return;
	}
	pthread_t rn;

	if (pthread_create(&rn, NULL, stop_renamer_main, t)) {
		snprintf(t->why, sizeof(t->why), "pthread_create failed");
		t->failed = true;
		fxt_device_close(&d);
		swlog_close(l);
		oracle_close(o);
		return;
	}
	renamer_step(t, 0);
	/* Each pair lives and dies (final switch: the wait) inside its window. */
	err = fxt_device_start(&d, FXT_START_CLEAR_ENTIRE);
	renamer_step(t, 1);		/* renamed while traced */
	if (!err)
		err = workload_pingpong(300, -1, -1, t->a);
	wait_final_switches(o, 2, name);
	if (!err)
		err = fxt_device_stop(&d, 0);
	renamer_step(t, 2);		/* renamed while stopped */
	if (!err)
		err = fxt_device_start(&d, second);
	if (!err)
		err = workload_pingpong(300, -1, -1, t->b);
	wait_final_switches(o, 4, name);
	if (!err)
		err = fxt_device_stop(&d, FXT_STOP_WRITE_RESULTS);
	if (!err)
		err = fxt_device_save_file(&d, path);
	fxt_device_close(&d);
	renamer_step(t, 3);
	pthread_join(rn, NULL);
	swlog_stop(l);
	t->log_a = log_count(l, t->a);
	t->log_b = log_count(l, t->b);
	t->log_lost = swlog_lost(l) + swlog_misses(l);
	swlog_close(l);
	oracle_close(o);
	if (err) {
		snprintf(t->why, sizeof(t->why), "%s", strerror(-err));
		t->failed = true;
		return;
	}
	renamer_newest(t, path);
	tids[0] = t->a[0], tids[1] = t->a[1];
	err = scan_archive(path, tids, 2, &t->sa);
	tids[0] = t->b[0], tids[1] = t->b[1];
	if (!err)
		err = scan_archive(path, tids, 2, &t->sb);
	if (err) {
		snprintf(t->why, sizeof(t->why), "scan: %s", strerror(-err));
		t->failed = true;
		return;
	}
	t->ran = true;
	uint64_t na = 0, nb = 0;

	for (int c = 0; c < MAX_CPUS; c++) {
		na += t->sa.prov[c].tid_switches;
		nb += t->sb.prov[c].tid_switches;
	}
	printf("# %s: A %d,%d: %llu switches (log %llu); B %d,%d: %llu switches (log %llu); %llu diagnostics, log lost %llu\n",
	       name, t->a[0], t->a[1], (unsigned long long)na,
	       (unsigned long long)t->log_a, t->b[0], t->b[1],
	       (unsigned long long)nb, (unsigned long long)t->log_b,
	       (unsigned long long)t->sa.diags,
	       (unsigned long long)t->log_lost);
}

static uint64_t tid_switches(const struct scan *s)
{
	uint64_t n = 0;

	for (int c = 0; c < MAX_CPUS; c++)
		n += s->prov[c].tid_switches;
	return n;
}

static uint64_t reassigned(const struct scan *s)
{
	uint64_t n = 0;

	for (int c = 0; c < MAX_CPUS; c++)
		n += s->prov[c].thread_reassigned + s->prov[c].string_reassigned;
	return n;
}

/*
 * Every switch of A's and B's threads the switch log saw is in the buffers,
 * attributed to the right thread (a thread index reused for another thread
 * after the restart would move A's switches to someone else).
 */
static void check_retain(struct __test_metadata *_metadata,
			 const struct two_windows *t)
{
	EXPECT_EQ(0, t->log_lost);
	EXPECT_LT(300, t->log_a);
	EXPECT_EQ(t->log_a, tid_switches(&t->sa))
		TH_LOG("thread A's switches (first window): log vs buffers");
	EXPECT_EQ(t->log_b, tid_switches(&t->sb))
		TH_LOG("thread B's switches (second window): log vs buffers");
	EXPECT_EQ(0, t->sa.diags);
	EXPECT_FALSE(t->sa.read_error);
}

TEST(retain_oneshot_keeps_first_window)
{
	NEED(RETAIN);
	check_retain(_metadata, &RETAIN);
}

TEST(retain_circular_keeps_first_window)
{
	NEED(RETAIN_CIRC);
	check_retain(_metadata, &RETAIN_CIRC);
}

/*
 * A thread renamed while tracing was stopped: after the restart its newest
 * name (the one the readers and fxt-collect's trailer pick) is that one,
 * whatever the restart kept of the first run's records.
 */
static void check_renamed_while_stopped(struct __test_metadata *_metadata,
					const struct two_windows *t)
{
	EXPECT_STREQ(RN_NAME(2), t->newest)
		TH_LOG("thread %d, %u records", t->renamer, t->rn_records);
}

TEST(retain_oneshot_rename_while_stopped)
{
	NEED(RETAIN);
	check_renamed_while_stopped(_metadata, &RETAIN);
}

TEST(retain_circular_rename_while_stopped)
{
	NEED(RETAIN_CIRC);
	check_renamed_while_stopped(_metadata, &RETAIN_CIRC);
}

TEST(clear_entire_rename_while_stopped)
{
	NEED(CLEAR);
	check_renamed_while_stopped(_metadata, &CLEAR);
}

/* Indices never change meaning within a session, restarts included. */
TEST(retain_oneshot_indices_not_reassigned)
{
	NEED(RETAIN);
	EXPECT_EQ(0, reassigned(&RETAIN.sa));
}

TEST(retain_circular_indices_not_reassigned)
{
	NEED(RETAIN_CIRC);
	EXPECT_EQ(0, reassigned(&RETAIN_CIRC.sa));
}

/* The circular 128K run wrapped: kept data must still mean what it meant. */
TEST(circular_indices_not_reassigned)
{
	NEED(CIRC);
	ASSERT_TRUE(CIRC.scanned);
	EXPECT_EQ(0, reassigned(&CIRC.scan));
}

TEST(clear_entire_loses_first_window)
{
	NEED(CLEAR);
	EXPECT_EQ(0, CLEAR.log_lost);
	EXPECT_LT(300, CLEAR.log_a);
	EXPECT_EQ(0, tid_switches(&CLEAR.sa))
		TH_LOG("thread A's switches survived CLEAR_ENTIRE");
	EXPECT_EQ(CLEAR.log_b, tid_switches(&CLEAR.sb))
		TH_LOG("thread B's switches (second window): log vs buffers");
	EXPECT_EQ(0, reassigned(&CLEAR.sa));
}

/* ------------------------------------------------------------------ */
/* 6. Start / stop / start: CLEAR_NONDURABLE.                          */

static struct two_windows NONDUR;

/*
 * CLEAR_NONDURABLE empties the rolling buffers only: the first window's
 * switches are gone, the second's are all there, and the first window's
 * durable records (the kernel objects of pair A, named at fork) are kept.
 */
TEST(clear_nondurable_loses_first_window)
{
	NEED(NONDUR);
	EXPECT_EQ(0, NONDUR.log_lost);
	EXPECT_LT(300, NONDUR.log_a);
	EXPECT_EQ(0, tid_switches(&NONDUR.sa))
		TH_LOG("thread A's switches survived CLEAR_NONDURABLE");
	EXPECT_EQ(NONDUR.log_b, tid_switches(&NONDUR.sb))
		TH_LOG("thread B's switches (second window): log vs buffers");
}

TEST(clear_nondurable_keeps_durable)
{
	NEED(NONDUR);
	EXPECT_LE(2, NONDUR.sa.kobj_watched)
		TH_LOG("thread A's kernel objects (durable) did not survive CLEAR_NONDURABLE");
	EXPECT_EQ(0, reassigned(&NONDUR.sa));
	EXPECT_EQ(0, NONDUR.sa.thread_undefined);
	EXPECT_EQ(0, NONDUR.sa.string_undefined);
	EXPECT_EQ(0, NONDUR.sa.diags);
	EXPECT_FALSE(NONDUR.sa.read_error);
}

/*
 * Oneshot with a 4 KiB durable buffer that fills in the first window, so
 * durable records (threads indexed then, their names) spill into the
 * rolling buffer; then CLEAR_NONDURABLE. Clearing the rolling buffer erases
 * those records: the CPU must not keep using the indices they defined
 * (buffers.rst: such a CPU's durable buffer and tables are cleared too).
 * A ping-pong pair runs through both windows, so its threads, indexed in
 * the first, switch again in the second.
 */
static struct {
	bool ran, failed;
	char why[256];
	struct fxt_cpu_stats s1[MAX_CPUS], s2[MAX_CPUS];
	pid_t pair[2];
	int dump_status;
	struct scan scan;
	char archive[PATH_MAX], dump_log[PATH_MAX];
} NDSPILL;

static void run_nondurable_spill(void)
{
	struct renamer r[MAX_CPUS];
	uint64_t tids[2];
	struct workload_bg *bg = NULL;
	struct fxt_device d;
	bool opened;
	int err;

	snprintf(NDSPILL.archive, sizeof(NDSPILL.archive),
		 "%s/modes-nondurable-spill.fxt", env_tmpdir());
	snprintf(NDSPILL.dump_log, sizeof(NDSPILL.dump_log),
		 "%s/modes-nondurable-spill-dump.log", env_tmpdir());
	err = dev_init(&d, &opened, FXT_MODE_ONESHOT, 2 << 20, 4096, FXT_CAT_SCHED);
	if (err) {
		snprintf(NDSPILL.why, sizeof(NDSPILL.why), "%s: %s",
			 opened ? "initialize" : "open", strerror(-err));
		NDSPILL.failed = opened;
		return;
	}
	err = fxt_device_start(&d, FXT_START_CLEAR_ENTIRE);
	/* Fill every CPU's durable buffer, then index new threads. */
	for (int i = 0; !err && i < NCPUS; i++) {
		r[i] = (struct renamer){ .cpu = CPUS[i], .n = 200, .tag = 'n' };
		pthread_create(&r[i].th, NULL, renamer_main, &r[i]);
	}
	for (int i = 0; !err && i < NCPUS; i++)
		pthread_join(r[i].th, NULL);
	if (!err) {
		bg = workload_pingpong_bg(ULONG_MAX, CPUS[0], CPUS[NCPUS - 1]);
		if (!bg)
			err = -ENOMEM;
	}
	if (!err) {
		usleep(200000);
		err = get_stats(&d, NDSPILL.s1);
	}
	if (!err)
		err = fxt_device_stop(&d, 0);
	if (!err)
		err = fxt_device_start(&d, FXT_START_CLEAR_NONDURABLE);
	if (!err)
		usleep(200000);
	workload_bg_stop(bg);
	if (bg) {
		int e = workload_bg_join(bg, NDSPILL.pair);

		err = err ? err : e;
	}
	if (!err)
		err = fxt_device_stop(&d, FXT_STOP_WRITE_RESULTS);
	if (!err)
		err = get_stats(&d, NDSPILL.s2);
	if (!err)
		err = fxt_device_save_file(&d, NDSPILL.archive);
	fxt_device_close(&d);
	if (err) {
		snprintf(NDSPILL.why, sizeof(NDSPILL.why), "%s", strerror(-err));
		NDSPILL.failed = true;
		return;
	}
	NDSPILL.dump_status = dump_check(NDSPILL.archive,
					     NDSPILL.dump_log, 120);
	tids[0] = NDSPILL.pair[0], tids[1] = NDSPILL.pair[1];
	err = scan_archive(NDSPILL.archive, tids, 2, &NDSPILL.scan);
	if (err) {
		snprintf(NDSPILL.why, sizeof(NDSPILL.why), "scan: %s",
			 strerror(-err));
		NDSPILL.failed = true;
		return;
	}
	NDSPILL.ran = true;
	print_stats("nondurable-spill, first window", NDSPILL.s1);
	print_stats("nondurable-spill, second window", NDSPILL.s2);
}

TEST(clear_nondurable_spill_durable_was_full)
{
	bool any = false;

	NEED(NDSPILL);
	for (int i = 0; i < NCPUS; i++)
		any |= !!(NDSPILL.s1[CPUS[i]].flags & FXT_CPU_DURABLE_FULL);
	ASSERT_TRUE(any) TH_LOG("4 KiB durable buffer never full: tested nothing");
}

TEST(clear_nondurable_spill_refs_resolve)
{
	uint64_t undef = 0;

	NEED(NDSPILL);
	for (int c = 0; c < MAX_CPUS; c++)
		undef += NDSPILL.scan.prov[c].undefined_refs;
	EXPECT_EQ(0, undef);
	EXPECT_EQ(0, NDSPILL.scan.thread_undefined);
	EXPECT_EQ(0, NDSPILL.scan.string_undefined);
	EXPECT_EQ(0, NDSPILL.scan.undefined_strs);
	EXPECT_EQ(0, NDSPILL.scan.diags);
	EXPECT_FALSE(NDSPILL.scan.read_error);
	/* The pair switched in the second window, through its CPUs' tables. */
	EXPECT_LT(0, tid_switches(&NDSPILL.scan));
}

TEST(clear_nondurable_spill_dump_check)
{
	NEED(NDSPILL);
	if (NDSPILL.dump_status)
		child_log_print("fxt-dump --check", NDSPILL.dump_log, 20);
	EXPECT_EXIT0(NDSPILL.dump_status, "fxt-dump --check");
}

/* ------------------------------------------------------------------ */
/* 7. Interrupt events nest under timer and IPI load.                  */


static void run_nesting(void)
{
	const char *extra[] = { "-b", "256K", NULL };
	struct workload_bg *bg;
	pid_t pid;

	crun_paths(&NEST, "modes-nesting");
	pid = collector_start(NEST.archive, "streaming", extra, NEST.log,
			       NEST.why, sizeof(NEST.why));
	if (pid < 0)
		return;
	/* Cross-CPU wakeups: reschedule IPIs; sleepers: timer interrupts. */
	bg = workload_pingpong_bg(ROUNDS / 4, CPUS[0], CPUS[NCPUS - 1]);
	workload_sleepers(16, 200, 50000, CPUS, NCPUS);
	workload_bg_join(bg, NULL);
	crun_finish(&NEST, pid, NULL, 0);
	crun_print("nesting", &NEST);
}

TEST(nesting_collector_exit_0)
{
	NEED(NEST);
	EXPECT_EXIT0(NEST.status, "fxt-collect");
}

TEST(nesting_dump_check)
{
	NEED(NEST);
	if (NEST.dump_status)
		child_log_print("fxt-dump --check", NEST.dump_log, 20);
	EXPECT_EXIT0(NEST.dump_status, "fxt-dump --check");
}

TEST(nesting_irq_events_seen)
{
	NEED(NEST);
	ASSERT_TRUE(NEST.scanned);
	for (int i = 0; i < NCPUS; i++) {
		EXPECT_LT(0, NEST.scan.prov[CPUS[i]].irq_begin)
			TH_LOG("cpu %d: no interrupt begin events", CPUS[i]);
	}
}

TEST(nesting_begin_end_nest)
{
	NEED(NEST);
	ASSERT_TRUE(NEST.scanned);
	for (int c = 0; c < MAX_CPUS; c++) {
		const struct scan_prov *p = &NEST.scan.prov[c];
		const struct stats_row *s = &NEST.rows[c];

		EXPECT_EQ(0, p->other_thread_irq)
			TH_LOG("cpu %d: duration events off the irq pseudo-thread", c);
		if (s->dropped) {
			/* Lost records break pairs legitimately: report only. */
			if (p->nest_mismatch || p->orphan_late)
				TH_LOG("cpu %d dropped %llu records: %llu mismatches not counted",
				       c, (unsigned long long)s->dropped,
				       (unsigned long long)(p->nest_mismatch + p->orphan_late));
			continue;
		}
		EXPECT_EQ(0, p->nest_mismatch)
			TH_LOG("cpu %d: end does not match the innermost begin", c);
		EXPECT_EQ(0, p->orphan_late)
			TH_LOG("cpu %d: end without a begin after the start", c);
	}
}

/* ------------------------------------------------------------------ */
/* 7. Interrupts nest while the probes are hooked and unhooked.        */

#define HOOK_CYCLES	3
static struct crun HOOK[HOOK_CYCLES];
static char HOOK_WHY[128];
static atomic_int hook_stop;

/* UDP to itself over loopback, pinned to cpu: mostly in NET_RX softirqs. */
static void *flood_main(void *arg)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	char buf[64] = { 0 };
	int r, s;

	cpu_pin(0, (int)(long)arg);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	r = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (r >= 0 && s >= 0 && !bind(r, (struct sockaddr *)&a, sizeof(a)) &&
	    !getsockname(r, (struct sockaddr *)&a, &len)) {
		while (!atomic_load(&hook_stop)) {
			sendto(s, buf, sizeof(buf), 0, (struct sockaddr *)&a,
			       sizeof(a));
			while (recv(r, buf, sizeof(buf), 0) > 0)
				;
		}
	}
	if (r >= 0)
		close(r);
	if (s >= 0)
		close(s);
	return NULL;
}

static int loopback_up(void)
{
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), ret = 0;

	if (fd < 0)
		return -errno;
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	if (ioctl(fd, SIOCGIFFLAGS, &ifr))
		ret = -errno;
	ifr.ifr_flags |= IFF_UP;
	if (!ret && ioctl(fd, SIOCSIFFLAGS, &ifr))
		ret = -errno;
	close(fd);
	return ret;
}

static void run_hook_cycles(void)
{
	const char *extra[] = { "-b", "8M", "-c", "irq,softirq", NULL };
	pthread_t th[MAX_CPUS];
	int n = 0, ret;

	ret = loopback_up();
	if (ret) {
		snprintf(HOOK_WHY, sizeof(HOOK_WHY), "lo up: %s", strerror(-ret));
		return;
	}
	for (int i = 0; i < NCPUS; i++)
		if (!pthread_create(&th[n], NULL, flood_main,
				    (void *)(long)CPUS[i]))
			n++;
	usleep(200000);
	for (int c = 0; c < HOOK_CYCLES; c++) {
		char name[32];
		pid_t pid;

		snprintf(name, sizeof(name), "modes-hook-%d", c);
		crun_paths(&HOOK[c], name);
		pid = collector_start(HOOK[c].archive, "streaming", extra,
				       HOOK[c].log, HOOK[c].why,
				       sizeof(HOOK[c].why));
		if (pid < 0)
			continue;
		usleep(300000);
		crun_stop(&HOOK[c], pid);
	}
	atomic_store(&hook_stop, 1);
	while (n--)
		pthread_join(th[n], NULL);
	for (int c = 0; c < HOOK_CYCLES; c++) {
		char name[32];

		crun_check(&HOOK[c], NULL, 0);
		snprintf(name, sizeof(name), "hook-%d", c);
		crun_print(name, &HOOK[c]);
	}
}

/*
 * Every cycle hooked and unhooked the interrupt probes while softirqs ran:
 * each end closes the innermost begin of its CPU, and none comes after a
 * begin with nothing open.
 */
TEST(hook_cycles_nest)
{
	uint64_t softirqs = 0;

	/* Every skip before the first check (lib/kselftest_harness.h). */
	if (HOOK_WHY[0])
		SKIP(return, "%s", HOOK_WHY);
	for (int k = 0; k < HOOK_CYCLES; k++)
		if (!HOOK[k].ran && !HOOK[k].failed)
			SKIP(return, "cycle %d did not run: %s", k,
			     why_not(HOOK[k].why));
	for (int k = 0; k < HOOK_CYCLES; k++) {
		NEED(HOOK[k]);
		EXPECT_EXIT0(HOOK[k].status, "fxt-collect");
		ASSERT_TRUE(HOOK[k].scanned);
		for (int c = 0; c < MAX_CPUS; c++) {
			const struct scan_prov *p = &HOOK[k].scan.prov[c];

			softirqs += p->irq_begin;
			if (HOOK[k].rows[c].dropped) {
				TH_LOG("cycle %d cpu %d dropped records: not checked",
				       k, c);
				continue;
			}
			EXPECT_EQ(0, p->nest_mismatch + p->orphan_late)
				TH_LOG("cycle %d cpu %d: %llu ends not closing the innermost begin, %llu closing nothing",
				       k, c, (unsigned long long)p->nest_mismatch,
				       (unsigned long long)p->orphan_late);
		}
	}
	ASSERT_LT(0, softirqs) TH_LOG("no interrupt events at all");
}

/* scenarios_ran: the scenarios driving /dev/fxt directly. */
/* ------------------------------------------------------------------ */
/* Oneshot overflow: the buffer fills, the rest is counted as dropped.  */

static struct crun OSF;
static pid_t OSF_T[2];
static uint64_t OSF_LOG, OSF_LOST;	/* the threads' switches in the log */

static void run_oneshot_full(void)
{
	const char *extra[] = { "-b", "64K", "-c", "sched", NULL };
	uint64_t tids[2];
	struct oracle *o;
	struct swlog *l;
	pid_t pid;

	crun_paths(&OSF, "modes-oneshot-full");
	o = exits_oracle();
	if (!o) {
		snprintf(OSF.why, sizeof(OSF.why), "oracle: %s", strerror(errno));
		return;
	}
	l = swlog_open(1u << 24);
	if (!l || swlog_start(l)) {
		snprintf(OSF.why, sizeof(OSF.why), "switch log: %s", strerror(errno));
		swlog_close(l);
		oracle_close(o);
		return;
	}
	pid = collector_start(OSF.archive, "oneshot", extra, OSF.log, OSF.why,
			       sizeof(OSF.why));
	if (pid >= 0) {
		/* ~80000 switches of ~16 bytes: 20 times what 64K holds. */
		if (workload_pingpong(20000, -1, -1, OSF_T))
			printf("# oneshot full: ping-pong failed\n");
		/* Every switch of the pair while the trace ran: log <= kept + dropped. */
		wait_final_switches(o, 2, "oneshot full");
		tids[0] = OSF_T[0], tids[1] = OSF_T[1];
		crun_finish(&OSF, pid, tids, 2);
	}
	swlog_stop(l);
	OSF_LOG = log_count(l, OSF_T);
	OSF_LOST = swlog_lost(l) + swlog_misses(l);
	swlog_close(l);
	oracle_close(o);
	crun_print("oneshot full", &OSF);
}

TEST(oneshot_full_collector_exit_0)
{
	NEED(OSF);
	EXPECT_EXIT0(OSF.status, "fxt-collect");
}

/* ROLLING_FULL on the CPUs that dropped, a "buffer full" event on each. */
TEST(oneshot_full_dropped_and_flagged)
{
	uint64_t dropped = 0;

	NEED(OSF);
	ASSERT_TRUE(OSF.scanned);
	ASSERT_LT(0, OSF.nrows);
	for (int c = 0; c < MAX_CPUS; c++) {
		const struct stats_row *s = &OSF.rows[c];

		if (!s->present)
			continue;
		dropped += s->dropped;
		if (!s->dropped)
			continue;
		EXPECT_NE(NULL, strstr(s->flags, "rolling-full"))
			TH_LOG("cpu %d dropped %llu, flags \"%s\"", c,
			       (unsigned long long)s->dropped, s->flags);
		EXPECT_LT(0, OSF.scan.prov[c].buffer_full)
			TH_LOG("cpu %d dropped, no \"buffer full\" event", c);
	}
	EXPECT_LT(0, dropped) TH_LOG("20x the buffer, nothing dropped");
}

/*
 * What was kept is the beginning: the threads' switches in the archive are
 * fewer than the log saw, and with the drops they account for all of them.
 */
TEST(oneshot_full_kept_plus_dropped_covers_log)
{
	uint64_t kept = 0, dropped = 0;

	NEED(OSF);
	ASSERT_EQ(0, OSF_LOST);
	for (int c = 0; c < MAX_CPUS; c++) {
		kept += OSF.scan.prov[c].tid_switches;
		dropped += OSF.rows[c].present ? OSF.rows[c].dropped : 0;
	}
	EXPECT_LT(0, kept);
	EXPECT_GT(OSF_LOG, kept);
	EXPECT_LE(OSF_LOG, kept + dropped)
		TH_LOG("log %llu, kept %llu, dropped %llu", (unsigned long long)OSF_LOG,
		       (unsigned long long)kept, (unsigned long long)dropped);
}

/*
 * A oneshot CPU keeps nothing after its first loss, not even a record
 * that would still fit (a switch after a longer one that did not): its
 * switches form one chain up to the loss record at the end.
 */
TEST(oneshot_full_nothing_after_the_loss)
{
	NEED(OSF);
	ASSERT_TRUE(OSF.scanned);
	for (int c = 0; c < MAX_CPUS; c++)
		expect_no_break(_metadata, "oneshot full", c, &OSF.scan.prov[c]);
}

TEST(oneshot_full_dump_check)
{
	NEED(OSF);
	EXPECT_EXIT0(OSF.dump_status, "fxt-dump --check");
}

/* ------------------------------------------------------------------ */
/* START's additional_categories add their records, for that run only. */

static struct {
	bool ran, failed;
	char why[256];
	uint64_t irq_with, irq_without;	/* interrupt begins in each archive */
} ADDCAT;

static int addcat_run(uint32_t additional, const char *name, uint64_t *begins)
{
	struct fxt_start_options o = {
		.disposition = FXT_START_CLEAR_ENTIRE,
		.additional_categories = additional,
	};
	char path[PATH_MAX];
	struct scan s;
	struct fxt_device d;
	bool opened;
	int err;

	snprintf(path, sizeof(path), "%s/%s.fxt", env_tmpdir(), name);
	err = dev_init(&d, &opened, FXT_MODE_ONESHOT, 2 << 20, 0, FXT_CAT_SCHED);
	if (err)
		return err;
	err = ioctl(d.fd, FXT_IOC_START, &o) ? -errno : 0;
	usleep(200000);		/* timer interrupts and softirqs meanwhile */
	if (!err)
		err = fxt_device_stop(&d, FXT_STOP_WRITE_RESULTS);
	if (!err)
		err = fxt_device_save_file(&d, path);
	fxt_device_close(&d);
	if (!err)
		err = scan_archive(path, NULL, 0, &s);
	*begins = 0;
	for (int c = 0; !err && c < MAX_CPUS; c++)
		*begins += s.prov[c].irq_begin;
	return err;
}

static void run_additional_categories(void)
{
	int err;

	err = addcat_run(FXT_CAT_IRQ | FXT_CAT_SOFTIRQ, "modes-addcat",
			 &ADDCAT.irq_with);
	if (!err)
		err = addcat_run(0, "modes-noaddcat", &ADDCAT.irq_without);
	if (err) {
		snprintf(ADDCAT.why, sizeof(ADDCAT.why), "%s", strerror(-err));
		ADDCAT.failed = true;
		return;
	}
	ADDCAT.ran = true;
	printf("# additional categories: %llu interrupt begins with irq+softirq added, %llu without\n",
	       (unsigned long long)ADDCAT.irq_with,
	       (unsigned long long)ADDCAT.irq_without);
}

TEST(start_additional_categories_add_records)
{
	NEED(ADDCAT);
	EXPECT_LT(0, ADDCAT.irq_with);
	EXPECT_EQ(0, ADDCAT.irq_without)
		TH_LOG("sched only, yet interrupts were recorded");
}

/* ------------------------------------------------------------------ */
/* Out of thread indices: 255 per CPU, then threads go inline.          */

static struct crun IDX;

static void run_index_exhaustion(void)
{
	const char *extra[] = { "-b", "2M", "-c", "sched", NULL };
	pid_t pid;
	int err;

	crun_paths(&IDX, "modes-indices");
	pid = collector_start(IDX.archive, "streaming", extra, IDX.log, IDX.why,
			       sizeof(IDX.why));
	if (pid < 0)
		return;
	/* 400 threads on one CPU, each switching often enough for an index. */
	err = workload_sleepers(400, 12, 200000, CPUS, 1);
	if (err)
		printf("# indices: sleepers: %s\n", strerror(-err));
	crun_finish(&IDX, pid, NULL, 0);
	crun_print("thread indices", &IDX);
	printf("# thread indices: cpu%d defines %u\n", CPUS[0],
	       IDX.scan.prov[CPUS[0]].thread_indices);
}

/*
 * Documentation/records.rst: each CPU's thread table has 255 entries; once
 * they are taken, threads are written inline, and no index ever names
 * another thread.
 */
TEST(thread_indices_run_out_cleanly)
{
	const struct scan_prov *p;

	NEED(IDX);
	ASSERT_TRUE(IDX.scanned);
	p = &IDX.scan.prov[CPUS[0]];
	EXPECT_EQ(255, p->thread_indices)
		TH_LOG("cpu %d: %u indices defined, 400 busy threads", CPUS[0],
		       p->thread_indices);
	EXPECT_EQ(0, p->thread_reassigned);
	EXPECT_EQ(0, p->undefined_refs);
	EXPECT_EXIT0(IDX.dump_status, "fxt-dump --check");
}

static void scenarios_ran_devs(struct __test_metadata *_metadata)
{
	expect_ran(_metadata, "thread indices", IDX.ran, IDX.failed, IDX.why);
	expect_ran(_metadata, "oneshot full", OSF.ran, OSF.failed, OSF.why);
	expect_ran(_metadata, "additional categories", ADDCAT.ran, ADDCAT.failed,
		   ADDCAT.why);
	expect_ran(_metadata, "durable full", DUR.ran, DUR.failed, DUR.why);
	expect_ran(_metadata, "streaming spill", SPILL.ran, SPILL.failed,
		   SPILL.why);
	expect_ran(_metadata, "retain oneshot", RETAIN.ran, RETAIN.failed,
		   RETAIN.why);
	expect_ran(_metadata, "clear entire", CLEAR.ran, CLEAR.failed,
		   CLEAR.why);
	expect_ran(_metadata, "retain circular", RETAIN_CIRC.ran,
		   RETAIN_CIRC.failed, RETAIN_CIRC.why);
	expect_ran(_metadata, "clear nondurable", NONDUR.ran, NONDUR.failed,
		   NONDUR.why);
	expect_ran(_metadata, "nondurable spill", NDSPILL.ran, NDSPILL.failed,
		   NDSPILL.why);
}

/* scenarios_ran: the hook cycles. */
static void scenarios_ran_hook(struct __test_metadata *_metadata)
{
	EXPECT_STREQ("", HOOK_WHY) TH_LOG("hook cycles did not run");
	for (int k = 0; k < HOOK_CYCLES; k++) {
		char name[32];

		snprintf(name, sizeof(name), "hook cycle %d", k);
		expect_ran(_metadata, name, HOOK[k].ran, HOOK[k].failed,
			   HOOK[k].why);
	}
}

int main(int argc, char **argv)
{
	double t0 = env_now();

	setvbuf(stdout, NULL, _IOLBF, 0);
	ROUNDS = env_ulong("FXT_MODES_N", 20000);
	NCPUS = cpu_list(CPUS, MAX_CPUS);
	if (NCPUS == 0)
		CPUS[NCPUS++] = 0;
	if (geteuid() != 0 || access(FXT_DEVICE_PATH, F_OK)) {
		snprintf(NOT_RUN_WHY, sizeof(NOT_RUN_WHY),
			 "needs root and %s (fxt.ko loaded)", FXT_DEVICE_PATH);
		printf("# %s\n", NOT_RUN_WHY);
	} else {
		for (int m = 0; m < 3; m++)
			run_mode(m);
		run_circular();
		run_slow();
		run_durable_full();
		if (!DUR.ran)
			printf("# durable-full: %s\n", DUR.why);
		run_spill();
		if (!SPILL.ran)
			printf("# streaming spill: %s\n", SPILL.why);
		run_two_windows(&RETAIN, FXT_MODE_ONESHOT, FXT_START_RETAIN,
				"modes-retain");
		run_two_windows(&CLEAR, FXT_MODE_ONESHOT, FXT_START_CLEAR_ENTIRE,
				"modes-clear");
		run_two_windows(&RETAIN_CIRC, FXT_MODE_CIRCULAR,
				FXT_START_RETAIN, "modes-retain-circ");
		run_two_windows(&NONDUR, FXT_MODE_ONESHOT,
				FXT_START_CLEAR_NONDURABLE, "modes-nondurable");
		if (!RETAIN.ran || !CLEAR.ran || !RETAIN_CIRC.ran || !NONDUR.ran)
			printf("# two windows: %s %s %s %s\n", RETAIN.why,
			       CLEAR.why, RETAIN_CIRC.why, NONDUR.why);
		run_nondurable_spill();
		if (!NDSPILL.ran)
			printf("# nondurable spill: %s\n", NDSPILL.why);
		run_oneshot_full();
		run_additional_categories();
		run_index_exhaustion();
		run_nesting();
		run_hook_cycles();
	}
	printf("# scenarios took %.1f s\n", env_now() - t0);
	fflush(stdout);
	return test_harness_run(argc, argv);
}
