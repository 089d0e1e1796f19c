// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_durable - a durable buffer that fills (Documentation/buffers.rst),
 * /dev/fxt driven directly with a 4 KiB durable buffer (lib/direct.h):
 *
 *  durable_full_*  circular: durable full stops recording on that CPU
 *               (flagged, durable drops counted, nothing written after),
 *               and a CLEAR_NONDURABLE restart leaves it stopped; what was
 *               kept still resolves;
 *  spill_*      streaming: durable records spill into the rolling buffer,
 *               none is dropped, every one reaches the data.
 *
 * Every scenario runs once in main(), before the harness forks the cases;
 * each case checks one property of those runs. scenarios_ran fails when
 * any scenario could not start (its cases then skip) or broke (a failed
 * ioctl, a hung collector: its cases then fail too): lib/scenario.h.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/fxt.h>

#include "kselftest_harness.h"
#include "direct.h"
#include "env.h"
#include "scan.h"
#include "scenario.h"
#include "workload.h"

SCENARIOS_RAN_CASE();

/* ------------------------------------------------------------------ */
/* Circular, durable buffer full: the CPU stops recording.             */

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

static void run_durable_full(void)
{
	char path[PATH_MAX];
	struct fxt_device d;
	int err;

	err = dev_start(&d, DUR.why, sizeof(DUR.why), &DUR.failed,
			FXT_MODE_CIRCULAR, 64 << 10, 4096, 0);
	if (err)
		return;
	/*
	 * Circular mode names threads in the rolling data: what fills the
	 * durable buffer is thread records, one per thread index (24 bytes:
	 * 250 children are more than 4 KiB).
	 */
	rename_on_every_cpu(500, 250, 'r');
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
	NEED(DUR);
	ASSERT_TRUE(any_cpu_flag(DUR.s1, FXT_CPU_DURABLE_FULL))
		TH_LOG("no CPU reports FXT_CPU_DURABLE_FULL");
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
	uint64_t sw = 0;

	NEED(DUR);
	ASSERT_EQ(0, DUR.save_err);
	ASSERT_TRUE(DUR.scanned);
	for (int c = 0; c < MAX_CPUS; c++)
		sw += DUR.scan.prov[c].switches;
	EXPECT_REFS_RESOLVE(DUR.scan);
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
	char path[PATH_MAX];
	struct fxt_device d;
	int err;

	snprintf(path, sizeof(path), "%s/modes-spill.fxt", env_tmpdir());
	/* 1M: no roll (no SAVE_BUFFER to answer) for this little data. */
	err = dev_start(&d, SPILL.why, sizeof(SPILL.why), &SPILL.failed,
			FXT_MODE_STREAMING, 1 << 20, 4096, FXT_CAT_SCHED);
	if (err)
		return;
	rename_on_every_cpu(SPILL_RENAMES, 0, 's');
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
	NEED(SPILL);
	ASSERT_TRUE(any_cpu_flag(SPILL.st, FXT_CPU_DURABLE_FULL))
		TH_LOG("4 KiB durable buffer never full: tested nothing");
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

/* scenarios_ran: every scenario of main() ran to its end. */
static void check_scenarios_ran(struct __test_metadata *_metadata)
{
	EXPECT_RAN("durable full", DUR.ran, DUR.failed, DUR.why);
	EXPECT_RAN("streaming spill", SPILL.ran, SPILL.failed, SPILL.why);
}

static void run_scenarios(void)
{
	run_durable_full();
	if (!DUR.ran)
		printf("# durable-full: %s\n", DUR.why);
	run_spill();
	if (!SPILL.ran)
		printf("# streaming spill: %s\n", SPILL.why);
}

SCENARIO_MAIN(run_scenarios)
