/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scenario.h - scenarios that run once in main(), before the harness forks
 * the cases, each case then checking one property of their runs (fxt_modes,
 * fxt_overflow, fxt_durable, fxt_restart, fxt_nesting): the CPUs they run
 * on, why they did not run, an fxt-collect run and what is kept of it
 * (struct crun), the cases' skip-or-fail rule (NEED(), EXPECT_RAN()), and
 * the witnesses of their threads' switches (the oracle's final switches,
 * the switch log's count).
 *
 * A scenario that could not start (no /dev/fxt, no BPF switch log, a
 * collector that did not start) skips the cases that need it, and the
 * program's scenarios_ran case fails. One that started and then broke (a
 * failed ioctl, a hung collector, an unreadable archive) fails them.
 *
 * The macros (NEED(), EXPECT_EXIT0(), the cases, SCENARIO_MAIN()) expand to
 * harness code: include this after "kselftest_harness.h".
 */
#ifndef FXT_SELFTESTS_SCENARIO_H
#define FXT_SELFTESTS_SCENARIO_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "child.h"
#include "cpu.h"
#include "env.h"
#include "scan.h"
#include "stats_table.h"

struct oracle;
struct swlog;

/* The CPUs this process may run on (scenario_setup()). */
extern int CPUS[MAX_CPUS], NCPUS;
/* Why no scenario ran at all (scenario_setup()), else empty. */
extern char NOT_RUN_WHY[128];

/*
 * Line-buffered stdout and CPUS; then true when the scenarios can run
 * (root, FXT_DEVICE_PATH present), else false with NOT_RUN_WHY said.
 */
bool scenario_setup(void);

/* A scenario's reason for not running, never empty. */
const char *why_not(const char *why);

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

/* The archive and logs of a run called name, in env_tmpdir(). */
void crun_paths(struct crun *r, const char *name);
/*
 * crun_paths(r, name), then collector_start() of fxt-collect -m mode
 * [extra...]: its pid, or -errno with r->why said.
 */
pid_t crun_start(struct crun *r, const char *name, const char *mode,
		 const char *const *extra);
/* SIGINT the collector. */
void crun_stop(struct crun *r, pid_t pid);
/* After crun_stop(): stats, fxt-dump --check and the scan. */
void crun_check(struct crun *r, const uint64_t *tids, int ntids);
/* SIGINT the collector, then stats, fxt-dump --check and the scan. */
void crun_finish(struct crun *r, pid_t pid, const uint64_t *tids, int ntids);
/* The run's statistics table against its archive, per CPU, as # lines. */
void crun_print(const char *name, const struct crun *r);

/* The oracle of this process's threads but the main one; NULL on error. */
struct oracle *exits_oracle(void);
/*
 * Wait (10 s at most) for n final switches of this process's threads. On a
 * timeout, say so; the comparisons that needed the switches then fail on
 * their own.
 */
void wait_final_switches(struct oracle *o, uint64_t n, const char *what);
/* Switches in the log with prev or next one of tids[2], all CPUs. */
uint64_t log_count(const struct swlog *l, const pid_t tids[2]);

/*
 * The skip comes first: nothing may be checked before a SKIP()
 * (lib/kselftest_harness.h).
 */
#define NEED(r) do {							\
	if (!(r).ran && !(r).failed)					\
		SKIP(return, "scenario did not run: %s", why_not((r).why)); \
	ASSERT_FALSE((r).failed) TH_LOG("scenario failed: %s", (r).why); \
} while (0)

/* NEED(r), and r's collector printed its statistics table. */
#define NEED_STATS(r) do {						\
	NEED(r);							\
	ASSERT_LT(0, (r).nrows) TH_LOG("no statistics table in %s", (r).log); \
} while (0)

/*
 * Every reference in a scanned archive (struct scan s) resolves: thread
 * refs, thread and string indices, event strings; libfxt said nothing.
 */
#define EXPECT_REFS_RESOLVE(s) do {					\
	EXPECT_EQ(0, scan_undefined_refs(&(s)))				\
		TH_LOG("thread refs with no thread record");		\
	EXPECT_EQ(0, (s).thread_undefined);				\
	EXPECT_EQ(0, (s).string_undefined);				\
	EXPECT_EQ(0, (s).undefined_strs);				\
	EXPECT_EQ(0, (s).diags) TH_LOG("libfxt diagnostics");		\
} while (0)

#define EXPECT_EXIT0(status, what) do {					\
	ASSERT_TRUE(WIFEXITED(status)) TH_LOG("%s: wait status 0x%x", what, status); \
	ASSERT_EQ(0, WEXITSTATUS(status)) TH_LOG("%s exit status", what); \
} while (0)

/*
 * In scenarios_ran: scenario name ran to its end. The cases that need one
 * that could not start skip (NEED()): this turns that into a failure, as
 * scenario_ran does in the other end-to-end binaries.
 */
#define EXPECT_RAN(name, ran, failed, why) do {				\
	EXPECT_TRUE((ran) && !(failed))					\
		TH_LOG("%s %s: %s", name, (failed) ? "failed" : "did not run", \
		       why_not(why));					\
} while (0)

/* A run (struct crun, or any with ran, failed, why, status): fxt-collect exited 0. */
#define EXPECT_COLLECTOR_EXIT0(r) do {					\
	NEED(r);							\
	EXPECT_EXIT0((r).status, "fxt-collect");			\
} while (0)

/* A run (with dump_status, dump_log): fxt-dump --check of its archive passed. */
#define EXPECT_DUMP_CHECK(r) do {					\
	NEED(r);							\
	if ((r).dump_status)						\
		child_log_print("fxt-dump --check", (r).dump_log, 20);	\
	EXPECT_EXIT0((r).dump_status, "fxt-dump --check");		\
} while (0)

/*
 * The case scenarios_ran, first of a program: every scenario of main() ran
 * to its end. The program defines check_scenarios_ran(), an EXPECT_RAN()
 * per scenario.
 */
#define SCENARIOS_RAN_CASE()						\
static void check_scenarios_ran(struct __test_metadata *_metadata);	\
TEST(scenarios_ran)							\
{									\
	if (NOT_RUN_WHY[0])						\
		TH_LOG("%s", NOT_RUN_WHY);				\
	check_scenarios_ran(_metadata);					\
}

/*
 * main(): run every scenario (run(), when scenario_setup() says they can
 * run), then the harness forks the cases.
 */
#define SCENARIO_MAIN(run)						\
int main(int argc, char **argv)						\
{									\
	double t0 = env_now();						\
									\
	if (scenario_setup())						\
		run();							\
	printf("# scenarios took %.1f s\n", env_now() - t0);		\
	fflush(stdout);							\
	return test_harness_run(argc, argv);				\
}

#endif /* FXT_SELFTESTS_SCENARIO_H */
