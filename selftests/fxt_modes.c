// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_modes - the buffering modes end to end (the buffer edge cases are
 * fxt_overflow's, fxt_durable's, fxt_restart' and fxt_nesting's):
 *
 *  mode_*       oneshot, circular and streaming through fxt-collect: exit 0,
 *               fxt-dump --check passes, context switches from every CPU;
 *  circular_*   a 128K buffer wraps >= 10 times, every kept reference
 *               still resolves and no index changes meaning;
 *  start_additional_categories_*  a sched-only session started with
 *               irq+softirq added records interrupts; without, none;
 *  stop_ends_recording_at_once_*  every category, a ping-pong still
 *               running through the stop: STOPPED says when the recording
 *               ended, and no CPU has a record after it.
 *
 * Every scenario runs once in main(), before the harness forks the cases;
 * each case checks one property of those runs. scenarios_ran fails when
 * any scenario could not start (its cases then skip) or broke (a failed
 * ioctl, a hung collector: its cases then fail too): lib/scenario.h. Knob: FXT_MODES_N (round
 * trips of the circular ping-pong, default 20000).
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/fxt.h>

#include "kselftest_harness.h"
#include "collector.h"
#include "direct.h"
#include "env.h"
#include "scan.h"
#include "scenario.h"
#include "workload.h"

SCENARIOS_RAN_CASE();

/* ------------------------------------------------------------------ */
/* Each mode end to end.                                               */

static const char *const MODES[3] = { "oneshot", "circular", "streaming" };
static struct crun MODE_RUN[3];

static void run_mode(int m)
{
	struct crun *r = &MODE_RUN[m];
	const char *extra[] = { "-b", "2M", NULL };
	char name[32];
	pid_t pid;

	snprintf(name, sizeof(name), "modes-%s", MODES[m]);
	pid = crun_start(r, name, MODES[m], extra);
	if (pid < 0)
		return;
	/* Sleepers pinned to every CPU, and a ping-pong across CPUs. */
	workload_sleepers(2 * NCPUS, 100, 200000, CPUS, NCPUS);
	workload_pingpong(1000, CPUS[0], CPUS[NCPUS - 1], NULL);
	crun_finish(r, pid, NULL, 0);
	crun_print(name, r);
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

TEST(mode_oneshot_collector_exit_0)	{ EXPECT_COLLECTOR_EXIT0(MODE_RUN[0]); }
TEST(mode_oneshot_dump_check)		{ EXPECT_DUMP_CHECK(MODE_RUN[0]); }
TEST(mode_oneshot_switches_every_cpu)	{ check_mode_cpus(_metadata, 0); }
TEST(mode_circular_collector_exit_0)	{ EXPECT_COLLECTOR_EXIT0(MODE_RUN[1]); }
TEST(mode_circular_dump_check)		{ EXPECT_DUMP_CHECK(MODE_RUN[1]); }
TEST(mode_circular_switches_every_cpu)	{ check_mode_cpus(_metadata, 1); }
TEST(mode_streaming_collector_exit_0)	{ EXPECT_COLLECTOR_EXIT0(MODE_RUN[2]); }
TEST(mode_streaming_dump_check)		{ EXPECT_DUMP_CHECK(MODE_RUN[2]); }
TEST(mode_streaming_switches_every_cpu)	{ check_mode_cpus(_metadata, 2); }

/* ------------------------------------------------------------------ */
/* Circular with a small buffer: wraps, refs still resolve.            */

static unsigned long ROUNDS;
static struct crun CIRC;

static void run_circular(void)
{
	const char *extra[] = { "-b", "128K", NULL };
	pid_t pid;

	pid = crun_start(&CIRC, "modes-circ-wrap", "circular", extra);
	if (pid < 0)
		return;
	/* Unpinned: both threads often share a CPU, which then wraps a lot. */
	workload_pingpong(ROUNDS, -1, -1, NULL);
	crun_finish(&CIRC, pid, NULL, 0);
	crun_print("circular 128K", &CIRC);
}

TEST(circular_collector_exit_0)	{ EXPECT_COLLECTOR_EXIT0(CIRC); }

TEST(circular_wraps_10_times)
{
	uint64_t max = 0;

	NEED_STATS(CIRC);
	for (int c = 0; c < MAX_CPUS; c++)
		if (CIRC.rows[c].wraps > max)
			max = CIRC.rows[c].wraps;
	ASSERT_LE(10, max) TH_LOG("most wraps on one CPU: %llu",
				  (unsigned long long)max);
}

TEST(circular_dump_check)	{ EXPECT_DUMP_CHECK(CIRC); }

TEST(circular_refs_resolve)
{
	NEED(CIRC);
	ASSERT_TRUE(CIRC.scanned);
	ASSERT_FALSE(CIRC.scan.read_error);
	EXPECT_REFS_RESOLVE(CIRC.scan);
}

/* The circular 128K run wrapped: kept data must still mean what it meant. */
TEST(circular_indices_not_reassigned)
{
	NEED(CIRC);
	ASSERT_TRUE(CIRC.scanned);
	EXPECT_EQ(0, scan_reassigned(&CIRC.scan));
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
	bool failed = false;
	char why[128];
	int err;

	snprintf(path, sizeof(path), "%s/%s.fxt", env_tmpdir(), name);
	err = dev_init(&d, why, sizeof(why), &failed, FXT_MODE_ONESHOT, 2 << 20,
		       0, FXT_CAT_SCHED);
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
/* A stop ends the recording at once, in every mode and category.      */

/*
 * How far past the STOPPED's end a record may be stamped: a probe that
 * checked the window just before the end reads its clock just after.
 */
#define STOP_END_SLACK_NS	(2 * 1000 * 1000ull)

static const uint32_t STOP_END_MODE[2] = { FXT_MODE_ONESHOT, FXT_MODE_CIRCULAR };
static struct {
	bool ran, failed;
	char why[256];
	uint64_t ended_ns, stop_ns;	/* the STOPPED's end; the stop's return */
	uint64_t late;			/* CPUs with a record past the end */
	uint64_t empty;			/* CPUs with no record at all */
	int64_t worst_ns;		/* latest record minus the end */
} STOP_END[2];

/*
 * Every category, a ping-pong across CPUs still running while the stop
 * unhooks the probes (hundreds of ms on a debug kernel): a record written
 * meanwhile would show one category outliving another.
 */
static void run_stop_end(int m)
{
	const char *name = m ? "modes-stop-end-circular" : "modes-stop-end-oneshot";
	struct fxt_cpu_stats st[MAX_CPUS];
	struct workload_bg *bg;
	struct fxt_device d;
	char path[PATH_MAX];
	struct scan s;
	int err, pingpong;

	snprintf(path, sizeof(path), "%s/%s.fxt", env_tmpdir(), name);
	STOP_END[m].worst_ns = INT64_MIN;
	err = dev_start(&d, STOP_END[m].why, sizeof(STOP_END[m].why),
			&STOP_END[m].failed, STOP_END_MODE[m], 16 << 20, 0,
			FXT_CAT_ALL);
	if (err)
		return;
	bg = workload_pingpong_bg(ULONG_MAX, CPUS[0], CPUS[NCPUS - 1]);
	usleep(100000);
	err = fxt_device_stop(&d, FXT_STOP_WRITE_RESULTS);
	workload_bg_stop(bg);
	/* Without the ping-pong through the stop, the test proves nothing. */
	pingpong = workload_bg_join(bg, NULL);
	if (!err && pingpong)
		err = fxt_device_fail(&d, pingpong, "ping-pong: %s",
				      strerror(-pingpong));
	if (!err)
		err = fxt_device_drain(&d) < 0 ? -EIO : 0;
	if (!err)
		err = get_stats(&d, st);
	if (!err)
		err = fxt_device_save_file(&d, path);
	if (err) {
		snprintf(STOP_END[m].why, sizeof(STOP_END[m].why), "%.200s",
			 d.err[0] ? d.err : strerror(-err));
		STOP_END[m].failed = true;
		fxt_device_close(&d);
		return;
	}
	STOP_END[m].ended_ns = d.ended_ns;
	STOP_END[m].stop_ns = d.stop_ns;
	fxt_device_close(&d);
	/* A full oneshot buffer would end the CPU's records early anyway. */
	if (any_cpu_flag(st, FXT_CPU_ROLLING_FULL)) {
		snprintf(STOP_END[m].why, sizeof(STOP_END[m].why),
			 "a 16M buffer filled up in 100 ms");
		STOP_END[m].failed = true;
		return;
	}
	err = scan_archive(path, NULL, 0, &s);
	if (err) {
		snprintf(STOP_END[m].why, sizeof(STOP_END[m].why), "%.160s: %.60s",
			 path, strerror(-err));
		STOP_END[m].failed = true;
		return;
	}
	for (int i = 0; i < NCPUS; i++) {
		uint64_t last = s.prov[CPUS[i]].last_ns;
		int64_t past = (int64_t)(last - d.ended_ns);

		if (!last)
			STOP_END[m].empty++;
		if (past > STOP_END[m].worst_ns)
			STOP_END[m].worst_ns = past;
		if (last > d.ended_ns + STOP_END_SLACK_NS)
			STOP_END[m].late++;
	}
	STOP_END[m].ran = true;
	printf("# %s: the stop ended the recording %.3f ms before it returned; latest record %+.3f ms from the end\n",
	       name, (STOP_END[m].stop_ns - STOP_END[m].ended_ns) / 1e6,
	       STOP_END[m].worst_ns / 1e6);
}

static void check_stop_end(struct __test_metadata *_metadata, int m)
{
	NEED(STOP_END[m]);
	ASSERT_NE(0, STOP_END[m].ended_ns)
		TH_LOG("STOPPED does not say when the recording ended");
	EXPECT_LE(STOP_END[m].ended_ns, STOP_END[m].stop_ns);
	EXPECT_EQ(0, STOP_END[m].empty) TH_LOG("a CPU has no record at all");
	EXPECT_EQ(0, STOP_END[m].late)
		TH_LOG("a record %.3f ms after the recording ended (slack %.1f ms)",
		       STOP_END[m].worst_ns / 1e6, STOP_END_SLACK_NS / 1e6);
}

TEST(stop_ends_recording_at_once_oneshot)	{ check_stop_end(_metadata, 0); }
TEST(stop_ends_recording_at_once_circular)	{ check_stop_end(_metadata, 1); }

/* scenarios_ran: every scenario of main() ran to its end. */
static void check_scenarios_ran(struct __test_metadata *_metadata)
{
	for (int m = 0; m < 3; m++)
		EXPECT_RAN(MODES[m], MODE_RUN[m].ran, MODE_RUN[m].failed,
			   MODE_RUN[m].why);
	EXPECT_RAN("circular 128K", CIRC.ran, CIRC.failed, CIRC.why);
	EXPECT_RAN("additional categories", ADDCAT.ran, ADDCAT.failed,
		   ADDCAT.why);
	for (int m = 0; m < 2; m++)
		EXPECT_RAN(m ? "stop end circular" : "stop end oneshot",
			   STOP_END[m].ran, STOP_END[m].failed, STOP_END[m].why);
}

static void run_scenarios(void)
{
	ROUNDS = env_ulong("FXT_MODES_N", 20000);

	for (int m = 0; m < 3; m++)
		run_mode(m);
	run_circular();
	run_additional_categories();
	for (int m = 0; m < 2; m++)
		run_stop_end(m);
}

SCENARIO_MAIN(run_scenarios)
