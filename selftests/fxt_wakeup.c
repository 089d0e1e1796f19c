// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_wakeup - every wakeup of two ping-pong threads is in the archive,
 * exactly once, on the CPU that issued it.
 *
 * Same scenario as fxt_pingpong (lib/pingpong.h), with the threads pinned to
 * different CPUs so that every pipe wakeup crosses CPUs. The archive's thread
 * wakeup records (type 8, subtype 2) whose woken thread is one of the two
 * must equal the oracle's sched_waking + sched_wakeup_new count, in total
 * and per CPU: the provider, or for a wakeup written after its thread left
 * another CPU, its "waking_cpu". Both sched_wakeup_new of the threads are
 * inside the window, so the count includes them.
 */
#include "kselftest_harness.h"

#define PINGPONG_NAME	"wakeup"
#define PINGPONG_PIN	PINGPONG_PIN_SPREAD
#include "pingpong_tests.h"

TEST(wakeups_seen)
{
	NEED_RUN();
	/* Two wakeup_new, then each round trip wakes each thread once or so. */
	ASSERT_LE(2, R.or_wakeups_total);
}

TEST(wakeups_equal_total)
{
	NEED_ARCHIVE();
	NEED_RUN();
	if (R.or_misses)
		TH_LOG("oracle programs were skipped %llu times (nested runs): its counts may be short",
		       (unsigned long long)R.or_misses);
	ASSERT_EQ(R.or_wakeups_total, archive_sum(&R.arc, wakeups));
}

TEST(wakeups_equal_per_cpu)
{
	NEED_ARCHIVE();
	NEED_RUN();
	EXPECT_PER_CPU_EQ(wakeups, or_wakeups);
}

/*
 * A thread woken while still switching out on its CPU is not waited for in
 * the waking probe (records.rst, "Thread wakeup"): its record is written
 * at sched_wakeup, with the waking CPU. Ping-pong across CPUs wakes each
 * thread just after it blocked, so some of its wakeups are such; both
 * readers find the same ones. A module that spins in sched_waking writes
 * none.
 */
TEST(wakeups_deferred_written)
{
	NEED_ARCHIVE();
	NEED_RUN();
	uint64_t deferred = archive_sum(&R.arc, deferred_wakeups);

	printf("# deferred wakeups: %llu of %llu\n", (unsigned long long)deferred,
	       (unsigned long long)archive_sum(&R.arc, wakeups));
	fflush(stdout);
	EXPECT_EQ(deferred, R.lib.deferred_wakeups)
		TH_LOG("deferred wakeups: selftests reader vs libfxt");
	ASSERT_LT(0, deferred)
		TH_LOG("no wakeup was deferred: the waking probe waited");
}
