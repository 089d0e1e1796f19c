/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pingpong_tests.h - the test cases fxt_pingpong and fxt_wakeup share, and their
 * main(). Include it once, after kselftest_harness.h, in a file that defines
 * PINGPONG_NAME (archive name), PINGPONG_PIN (enum pingpong_pin) and its own TESTs.
 *
 * The scenario (pingpong.h) runs once in main(), before the harness forks the
 * test cases: each case checks one property of that one run, so a failure
 * names what went wrong without repeating a long run per case.
 */
#ifndef FXT_SELFTESTS_PP_TESTS_H
#define FXT_SELFTESTS_PP_TESTS_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "pingpong.h"

static struct pingpong_result R;

/* In every case that needs the archive: skip when the scenario broke. */
#define NEED_ARCHIVE() do {						\
	if (!R.have_archive)						\
		SKIP(return, "no archive: %s", R.why);			\
} while (0)

#define NEED_RUN() do {							\
	if (!R.ran)							\
		SKIP(return, "scenario did not run: %s", R.why);	\
} while (0)

TEST(scenario_ran)
{
	ASSERT_TRUE(R.ran && R.have_archive) TH_LOG("%s", R.why);
}

TEST(collector_exit_status)
{
	NEED_RUN();
	ASSERT_TRUE(WIFEXITED(R.collector_status))
		TH_LOG("fxt-collect: wait status 0x%x", R.collector_status);
	ASSERT_EQ(0, WEXITSTATUS(R.collector_status))
		TH_LOG("fxt-collect exits 0 after SIGINT");
}

TEST(threads_fully_exited)
{
	NEED_RUN();
	/* Both final switches (TASK_DEAD) fell inside the oracle's window. */
	ASSERT_EQ(2, R.or_exits);
}

TEST(archive_well_formed)
{
	NEED_ARCHIVE();
	EXPECT_TRUE(R.arc.magic_ok) TH_LOG("no magic number record first");
	EXPECT_STREQ("", R.arc.error);
	EXPECT_EQ(0, R.arc.outside_provider)
		TH_LOG("timestamped or thread records before any provider metadata");
	EXPECT_EQ(0, archive_sum(&R.arc, unresolved))
		TH_LOG("thread refs without a thread record in their provider");
	EXPECT_EQ(0, archive_sum(&R.arc, cpu_mismatch))
		TH_LOG("scheduling records whose cpu field is not their provider");
	EXPECT_EQ(0, R.arc.other_sched)
		TH_LOG("scheduling records of a subtype fxt does not write");
}

TEST(no_records_dropped)
{
	NEED_ARCHIVE();
	ASSERT_EQ(0, archive_sum(&R.arc, buffer_full))
		TH_LOG("\"buffer full\" provider events: counts below cannot match");
}

TEST(timestamps_monotonic_per_cpu)
{
	NEED_ARCHIVE();
	for (int c = 0; c <= R.arc.max_provider; c++) {
		EXPECT_EQ(0, R.arc.prov[c].backwards)
			TH_LOG("cpu %d: timestamps went backwards", c);
	}
}

TEST(fxt_dump_check)
{
	NEED_ARCHIVE();
	ASSERT_TRUE(R.dump_ran) TH_LOG("%s", R.why);
	if (!WIFEXITED(R.dump_status) || WEXITSTATUS(R.dump_status))
		child_log_print("fxt-dump --check", R.dump_log, 20);
	ASSERT_TRUE(WIFEXITED(R.dump_status));
	ASSERT_EQ(0, WEXITSTATUS(R.dump_status));
}

/* The project's reader library sees the same records as archive.c. */
TEST(reader_library_agrees)
{
	NEED_ARCHIVE();
	ASSERT_TRUE(R.have_lib) TH_LOG("libfxt could not read %s", R.archive);
	EXPECT_EQ(0, R.lib.undefined_refs);
	for (int c = 0; c < ARCHIVE_MAX_PROVIDERS; c++) {
		EXPECT_EQ(R.arc.prov[c].switches, R.lib.switches[c])
			TH_LOG("cpu %d switches: selftests reader vs libfxt", c);
		EXPECT_EQ(R.arc.prov[c].wakeups, R.lib.wakeups[c])
			TH_LOG("cpu %d wakeups: selftests reader vs libfxt", c);
	}
}

/*
 * Compare one per-CPU count of the archive with the oracle's, for every CPU
 * either side knows.
 */
#define EXPECT_PER_CPU_EQ(archive_field, oracle_array)			\
	for (int __c = 0; __c < ARCHIVE_MAX_PROVIDERS; __c++) {		\
		uint64_t __o = __c < R.nr_cpus ? R.oracle_array[__c] : 0; \
		uint64_t __a = R.arc.prov[__c].archive_field;		\
		if (__o == __a)						\
			continue;					\
		EXPECT_EQ(__o, __a)					\
			TH_LOG("cpu %d: oracle %llu, archive %llu", __c, \
			       (unsigned long long)__o,			\
			       (unsigned long long)__a);		\
	}

int main(int argc, char **argv)
{
	struct pingpong_config cfg = { .name = PINGPONG_NAME, .pin = PINGPONG_PIN };

	pingpong_config_from_env(&cfg);
	printf("# %s: %lu round trips, threads %s, collector %s\n", PINGPONG_NAME,
	       cfg.rounds, cfg.pin == PINGPONG_PIN_SPREAD ? "pinned apart" : "unpinned",
	       "fxt-collect -m streaming");
	pingpong_run(&cfg, &R);
	pingpong_print(&R);
	if (!R.ran || WEXITSTATUS(R.collector_status) || !WIFEXITED(R.collector_status))
		child_log_print("fxt-collect output", R.collect_log, 30);
	fflush(stdout);
	return test_harness_run(argc, argv);
}

#endif /* FXT_SELFTESTS_PP_TESTS_H */
