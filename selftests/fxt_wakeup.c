// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_wakeup - every wakeup of two ping-pong threads is in the archive,
 * exactly once, on the CPU that issued it.
 *
 * Same scenario as fxt_pingpong (lib/pingpong.h), with the threads pinned to
 * different CPUs so that every pipe wakeup crosses CPUs. The archive's thread
 * wakeup records (type 8, subtype 2) whose woken thread is one of the two
 * must equal the oracle's sched_waking + sched_wakeup_new count, in total
 * and per CPU (provider). Both sched_wakeup_new of the threads are inside
 * the window, so the count includes them.
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
