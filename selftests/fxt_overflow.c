// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_overflow - what happens when a rolling buffer or a thread table
 * fills: every loss counted, said and placed where it happened.
 *
 *  slow_*       streaming with a collector SIGSTOPped mid-ping-pong: records
 *               are dropped, and per CPU written + dropped equals the
 *               switches the BPF switch log (oracle/swlog.h) saw between the
 *               archive's first and last switch on that CPU; each loss record
 *               spans exactly the switches the log has there; the fxt/dropped
 *               counters and "buffer full" events match the statistics;
 *  oneshot_full_*  fxt-collect -m oneshot -b 64K under 20x what it holds:
 *               drops counted, ROLLING_FULL and "buffer full" on the CPUs
 *               that dropped, kept + dropped covers the switch log, nothing
 *               kept after the first loss;
 *  thread_indices_*  400 threads on one CPU: 255 thread indices, then
 *               threads written inline, no index reassigned.
 *
 * Every scenario runs once in main(), before the harness forks the cases;
 * each case checks one property of those runs. scenarios_ran fails when
 * any scenario could not start (its cases then skip) or broke (a failed
 * ioctl, a hung collector: its cases then fail too): lib/scenario.h.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/fxt.h>

#include "kselftest_harness.h"
#include "collector.h"
#include "env.h"
#include "oracle.h"
#include "scan.h"
#include "scenario.h"
#include "swlog.h"
#include "workload.h"

SCENARIOS_RAN_CASE();

/* ------------------------------------------------------------------ */
/* Streaming with a slow collector: exact accounting.                  */

static struct crun SLOW;

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
	pid = crun_start(&SLOW, "modes-slow", "streaming", extra);
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

/* The slow run's cases that read its archive and statistics table. */
#define NEED_SLOW_SCAN() do {						\
	NEED(SLOW);							\
	ASSERT_TRUE(SLOW.scanned);					\
	ASSERT_LT(0, SLOW.nrows);					\
} while (0)

/* Each CPU c with a row s in the slow run's statistics table. */
#define for_each_slow_row(c, s)						\
	for (int c = 0; c < MAX_CPUS; c++)				\
		for (const struct stats_row *s = &SLOW.rows[c];		\
		     s && s->present; s = NULL)

TEST(slow_collector_exit_0)	{ EXPECT_COLLECTOR_EXIT0(SLOW); }

TEST(slow_records_dropped)
{
	uint64_t d = 0;

	NEED_STATS(SLOW);
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
	NEED_SLOW_SCAN();
	ASSERT_TRUE(SLOW_LOGGED);
	for_each_slow_row(c, s) {
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
	NEED_SLOW_SCAN();
	ASSERT_TRUE(SLOW_LOGGED);
	ASSERT_LT(0, SLOW_GAPS) TH_LOG("no loss record in the archive");
	for_each_slow_row(c, s) {
		EXPECT_STREQ("", SLOW_GAP_WHY[c]) TH_LOG("cpu %d", c);
		EXPECT_EQ(s->dropped, SLOW_GAP_RECORDS[c]) TH_LOG("cpu %d", c);
		EXPECT_EQ(0, SLOW.scan.prov[c].gap_wrong_cpu) TH_LOG("cpu %d", c);
		expect_no_break(_metadata, "slow", c, &SLOW.scan.prov[c]);
	}
}

TEST(slow_dropped_counter_matches_stats)
{
	NEED_SLOW_SCAN();
	for_each_slow_row(c, s) {
		const struct scan_prov *p = &SLOW.scan.prov[c];
		uint64_t want = s->dropped + s->d_dropped;

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
	NEED_SLOW_SCAN();
	for_each_slow_row(c, s) {
		if (s->dropped + s->d_dropped) {
			EXPECT_LT(0, SLOW.scan.prov[c].buffer_full)
				TH_LOG("cpu %d dropped, no \"buffer full\" event", c);
		} else {
			EXPECT_EQ(0, SLOW.scan.prov[c].buffer_full)
				TH_LOG("cpu %d: \"buffer full\" without drops", c);
		}
	}
}

TEST(slow_dump_check)	{ EXPECT_DUMP_CHECK(SLOW); }

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
	pid = crun_start(&OSF, "modes-oneshot-full", "oneshot", extra);
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

TEST(oneshot_full_collector_exit_0)	{ EXPECT_COLLECTOR_EXIT0(OSF); }

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

TEST(oneshot_full_dump_check)	{ EXPECT_DUMP_CHECK(OSF); }

/* ------------------------------------------------------------------ */
/* Out of thread indices: 255 per CPU, then threads go inline.          */

static struct crun IDX;

static void run_index_exhaustion(void)
{
	const char *extra[] = { "-b", "2M", "-c", "sched", NULL };
	pid_t pid;
	int err;

	pid = crun_start(&IDX, "modes-indices", "streaming", extra);
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

/* scenarios_ran: every scenario of main() ran to its end. */
static void check_scenarios_ran(struct __test_metadata *_metadata)
{
	EXPECT_RAN("slow collector", SLOW.ran, SLOW.failed, SLOW.why);
	EXPECT_RAN("oneshot full", OSF.ran, OSF.failed, OSF.why);
	EXPECT_RAN("thread indices", IDX.ran, IDX.failed, IDX.why);
}

static void run_scenarios(void)
{
	run_slow();
	run_oneshot_full();
	run_index_exhaustion();
}

SCENARIO_MAIN(run_scenarios)
