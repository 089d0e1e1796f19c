// SPDX-License-Identifier: GPL-2.0
/*
 * harness_check - checks lib/kselftest_harness.h, the harness wrapper every
 * selftest uses: a SKIP() after an evaluated expectation must leave the case
 * failed. Pure user space (no /dev/fxt, no BPF): `make -C selftests` runs
 * it on the build machine and fails the build when the TAP below is not
 * what it must be (see the Makefile's harness-check rule):
 *
 *   skip_first           ok ... # SKIP   (a skip before any check)
 *   skip_after_failed_expect  not ok     (the EXPECT failure is kept)
 *   skip_after_passed_assert  not ok     (something was already checked)
 */
#include "kselftest_harness.h"

TEST(skip_first)
{
	SKIP(return, "nothing checked yet");
	EXPECT_EQ(0, 1);
}

TEST(skip_after_failed_expect)
{
	EXPECT_EQ(0, 1) TH_LOG("failing on purpose");
	SKIP(return, "too late: an EXPECT failed");
}

TEST(skip_after_passed_assert)
{
	ASSERT_EQ(0, 0);
	SKIP(return, "too late: an ASSERT was checked");
}

TEST_HARNESS_MAIN
