// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_restart - start / stop / start on one session: what each START
 * disposition keeps of the first window (/dev/fxt driven directly,
 * lib/direct.h; buffers read through the mapping), against the BPF switch
 * log (oracle/swlog.h):
 *
 *  retain_*     RETAIN keeps the first window (oneshot and circular), no
 *               index changes meaning across the restart;
 *  clear_entire_*  CLEAR_ENTIRE loses it;
 *  *_rename_while_stopped  a thread renamed while stopped has that name
 *               as its newest after the restart;
 *  clear_nondurable_*  CLEAR_NONDURABLE loses the first window's rolling
 *               data but keeps its durable records; after durable records
 *               spilled into the rolling buffer (oneshot, 4 KiB durable),
 *               every reference in the second window still resolves
 *               (clear_nondurable_spill_*).
 *
 * Every scenario runs once in main(), before the harness forks the cases;
 * each case checks one property of those runs. scenarios_ran fails when
 * any scenario could not start (its cases then skip) or broke (a failed
 * ioctl, a hung collector: its cases then fail too): lib/scenario.h.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/fxt.h>

#include "kselftest_harness.h"
#include "child.h"
#include "direct.h"
#include "dump.h"
#include "env.h"
#include "oracle.h"
#include "records.h"
#include "scan.h"
#include "scenario.h"
#include "swlog.h"
#include "workload.h"

SCENARIOS_RAN_CASE();

/* ------------------------------------------------------------------ */
/* Start / stop / start: RETAIN keeps the first window.                */

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

static struct two_windows RETAIN, CLEAR, RETAIN_CIRC;

static void run_two_windows(struct two_windows *t, uint32_t mode,
			    uint32_t second, const char *name)
{
	char path[PATH_MAX];
	uint64_t tids[2];
	struct oracle *o;
	struct fxt_device d;
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
	err = dev_init(&d, t->why, sizeof(t->why), &t->failed, mode, 2 << 20,
		       0, FXT_CAT_SCHED);
	if (err) {
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

/*
 * Every switch of A's and B's threads the switch log saw is in the buffers,
 * attributed to the right thread (a thread index reused for another thread
 * after the restart would move A's switches to someone else).
 */
static void check_retain(struct __test_metadata *_metadata,
			 const struct two_windows *t)
{
	NEED(*t);
	EXPECT_EQ(0, t->log_lost);
	EXPECT_LT(300, t->log_a);
	EXPECT_EQ(t->log_a, scan_tid_switches(&t->sa))
		TH_LOG("thread A's switches (first window): log vs buffers");
	EXPECT_EQ(t->log_b, scan_tid_switches(&t->sb))
		TH_LOG("thread B's switches (second window): log vs buffers");
	EXPECT_EQ(0, t->sa.diags);
	EXPECT_FALSE(t->sa.read_error);
}

TEST(retain_oneshot_keeps_first_window)
	{ check_retain(_metadata, &RETAIN); }

TEST(retain_circular_keeps_first_window)
	{ check_retain(_metadata, &RETAIN_CIRC); }

/*
 * A thread renamed while tracing was stopped: after the restart its newest
 * name (the one the readers and fxt-collect's trailer pick) is that one,
 * whatever the restart kept of the first run's records.
 */
static void check_renamed_while_stopped(struct __test_metadata *_metadata,
					const struct two_windows *t)
{
	NEED(*t);
	EXPECT_STREQ(RN_NAME(2), t->newest)
		TH_LOG("thread %d, %u records", t->renamer, t->rn_records);
}

TEST(retain_oneshot_rename_while_stopped)
	{ check_renamed_while_stopped(_metadata, &RETAIN); }

TEST(retain_circular_rename_while_stopped)
	{ check_renamed_while_stopped(_metadata, &RETAIN_CIRC); }

TEST(clear_entire_rename_while_stopped)
	{ check_renamed_while_stopped(_metadata, &CLEAR); }

/* Indices never change meaning within a session, restarts included. */
TEST(retain_oneshot_indices_not_reassigned)
{
	NEED(RETAIN);
	EXPECT_EQ(0, scan_reassigned(&RETAIN.sa));
}

TEST(retain_circular_indices_not_reassigned)
{
	NEED(RETAIN_CIRC);
	EXPECT_EQ(0, scan_reassigned(&RETAIN_CIRC.sa));
}

/*
 * The restart (disposition what) lost the first window's switches: none of
 * A's is in the buffers; every one of B's the switch log saw is.
 */
static void check_lost_first_window(struct __test_metadata *_metadata,
				    const struct two_windows *t, const char *what)
{
	EXPECT_EQ(0, t->log_lost);
	EXPECT_LT(300, t->log_a);
	EXPECT_EQ(0, scan_tid_switches(&t->sa))
		TH_LOG("thread A's switches survived %s", what);
	EXPECT_EQ(t->log_b, scan_tid_switches(&t->sb))
		TH_LOG("thread B's switches (second window): log vs buffers");
}

TEST(clear_entire_loses_first_window)
{
	NEED(CLEAR);
	check_lost_first_window(_metadata, &CLEAR, "CLEAR_ENTIRE");
	EXPECT_EQ(0, scan_reassigned(&CLEAR.sa));
}

/* ------------------------------------------------------------------ */
/* Start / stop / start: CLEAR_NONDURABLE.                             */

static struct two_windows NONDUR;

/*
 * CLEAR_NONDURABLE empties the rolling buffers only: the first window's
 * switches are gone, the second's are all there, and the first window's
 * durable records (the kernel objects of pair A, named at fork) are kept.
 */
TEST(clear_nondurable_loses_first_window)
{
	NEED(NONDUR);
	check_lost_first_window(_metadata, &NONDUR, "CLEAR_NONDURABLE");
}

TEST(clear_nondurable_keeps_durable)
{
	NEED(NONDUR);
	EXPECT_LE(2, NONDUR.sa.kobj_watched)
		TH_LOG("thread A's kernel objects (durable) did not survive CLEAR_NONDURABLE");
	EXPECT_EQ(0, scan_reassigned(&NONDUR.sa));
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
	uint64_t tids[2];
	struct workload_bg *bg = NULL;
	struct fxt_device d;
	int err;

	snprintf(NDSPILL.archive, sizeof(NDSPILL.archive),
		 "%s/modes-nondurable-spill.fxt", env_tmpdir());
	snprintf(NDSPILL.dump_log, sizeof(NDSPILL.dump_log),
		 "%s/modes-nondurable-spill-dump.log", env_tmpdir());
	err = dev_start(&d, NDSPILL.why, sizeof(NDSPILL.why), &NDSPILL.failed,
			FXT_MODE_ONESHOT, 2 << 20, 4096, FXT_CAT_SCHED);
	if (err)
		return;
	/* Fill every CPU's durable buffer, then index new threads. */
	rename_on_every_cpu(200, 0, 'n');
	bg = workload_pingpong_bg(ULONG_MAX, CPUS[0], CPUS[NCPUS - 1]);
	if (!bg)
		err = -ENOMEM;
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
	print_stats("nondurable-spill, first window", NDSPILL.s1);
	print_stats("nondurable-spill, second window", NDSPILL.s2);
	NDSPILL.ran = true;
}

TEST(clear_nondurable_spill_durable_was_full)
{
	NEED(NDSPILL);
	ASSERT_TRUE(any_cpu_flag(NDSPILL.s1, FXT_CPU_DURABLE_FULL))
		TH_LOG("4 KiB durable buffer never full: tested nothing");
}

TEST(clear_nondurable_spill_refs_resolve)
{
	NEED(NDSPILL);
	EXPECT_REFS_RESOLVE(NDSPILL.scan);
	EXPECT_FALSE(NDSPILL.scan.read_error);
	/* The pair switched in the second window, through its CPUs' tables. */
	EXPECT_LT(0, scan_tid_switches(&NDSPILL.scan));
}

TEST(clear_nondurable_spill_dump_check)	{ EXPECT_DUMP_CHECK(NDSPILL); }

/* scenarios_ran: every scenario of main() ran to its end. */
static void check_scenarios_ran(struct __test_metadata *_metadata)
{
	EXPECT_RAN("retain oneshot", RETAIN.ran, RETAIN.failed, RETAIN.why);
	EXPECT_RAN("clear entire", CLEAR.ran, CLEAR.failed, CLEAR.why);
	EXPECT_RAN("retain circular", RETAIN_CIRC.ran, RETAIN_CIRC.failed,
		   RETAIN_CIRC.why);
	EXPECT_RAN("clear nondurable", NONDUR.ran, NONDUR.failed, NONDUR.why);
	EXPECT_RAN("nondurable spill", NDSPILL.ran, NDSPILL.failed,
		   NDSPILL.why);
}

static void run_scenarios(void)
{
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
}

SCENARIO_MAIN(run_scenarios)
