// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_pingpong - the central end-to-end test: every context switch of two
 * ping-pong threads is in the archive fxt-collect writes, exactly once, on
 * the right CPU.
 *
 * fxt-collect runs as a child (streaming mode), the BPF oracle counts the
 * same sched_switch tracepoint in this process, and the two threads live and
 * die inside both windows (lib/pingpong.h). The archive's context switch
 * records (type 8, subtype 0) whose outgoing or incoming thread is one of
 * the two must equal the oracle's count, in total and per CPU (provider),
 * and be the same switches in the same order on each CPU (a digest).
 * The threads are not pinned: they migrate, so both CPUs' thread tables
 * (indexed and inline refs) are exercised.
 *
 * FXT_PINGPONG_N sets the round trips (default 20000, ~4 switches each).
 */
#include "kselftest_harness.h"

#define PINGPONG_NAME	"pp"
#define PINGPONG_PIN	PINGPONG_PIN_NONE
#include "pingpong_tests.h"

TEST(switches_seen)
{
	NEED_RUN();
	/*
	 * Sanity of the oracle: a round trip nearly always blocks both threads
	 * (4 switches); ask for one switch every other round trip.
	 */
	ASSERT_LE(R.rounds / 2, R.or_switches_total)
		TH_LOG("oracle saw fewer switches than the ping-pong must make");
}

TEST(switches_equal_total)
{
	NEED_ARCHIVE();
	NEED_RUN();
	if (R.or_misses)
		TH_LOG("oracle programs were skipped %llu times (nested runs): its counts may be short",
		       (unsigned long long)R.or_misses);
	ASSERT_EQ(R.or_switches_total, archive_sum(&R.arc, switches));
}

TEST(switches_equal_per_cpu)
{
	NEED_ARCHIVE();
	NEED_RUN();
	EXPECT_PER_CPU_EQ(switches, or_switches);
}

/*
 * Equal counts would let a duplicated switch and a lost one cancel out on
 * a CPU: the order-sensitive digests of each CPU's switches (the oracle's
 * and the archive's, oracle.bpf.h) must be equal too.
 */
TEST(switch_sequence_equal_per_cpu)
{
	NEED_ARCHIVE();
	NEED_RUN();
	EXPECT_PER_CPU_EQ(switch_digest, or_digest);
}
