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
 *               irq+softirq added records interrupts; without, none.
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

/* scenarios_ran: every scenario of main() ran to its end. */
static void check_scenarios_ran(struct __test_metadata *_metadata)
{
	for (int m = 0; m < 3; m++)
		EXPECT_RAN(MODES[m], MODE_RUN[m].ran, MODE_RUN[m].failed,
			   MODE_RUN[m].why);
	EXPECT_RAN("circular 128K", CIRC.ran, CIRC.failed, CIRC.why);
	EXPECT_RAN("additional categories", ADDCAT.ran, ADDCAT.failed,
		   ADDCAT.why);
}

static void run_scenarios(void)
{
	ROUNDS = env_ulong("FXT_MODES_N", 20000);

	for (int m = 0; m < 3; m++)
		run_mode(m);
	run_circular();
	run_additional_categories();
}

SCENARIO_MAIN(run_scenarios)
