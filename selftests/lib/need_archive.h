/* SPDX-License-Identifier: GPL-2.0 */
/*
 * need_archive.h - NEED_ARCHIVE() for the record-content tests (fxt_irq,
 * fxt_irqname, fxt_names, fxt_sched_fields): their main() runs one
 * scenario and loads its archive into a static R with `bool loaded` and
 * `char why[]`; a case that reads the archive skips, saying why, when there
 * is none. (lib/pingpong_tests.h has its own, on R.have_archive.)
 */
#ifndef FXT_SELFTESTS_NEED_ARCHIVE_H
#define FXT_SELFTESTS_NEED_ARCHIVE_H

#define NEED_ARCHIVE() do {						\
	if (!R.loaded)							\
		SKIP(return, "no archive: %s", R.why);			\
} while (0)

/*
 * The first two cases of a test whose scenario fills R (ran, loaded, why,
 * a: struct records): the scenario ran, and its archive was read whole,
 * well formed, with nothing dropped.
 */
#define SCENARIO_AND_ARCHIVE_CASES()					\
TEST(scenario_ran)							\
{									\
	ASSERT_TRUE(R.ran && R.loaded) TH_LOG("%s", R.why);		\
}									\
									\
TEST(archive_complete)							\
{									\
	NEED_ARCHIVE();							\
	EXPECT_STREQ("", R.a.error);					\
	EXPECT_EQ(0, R.a.malformed);					\
	ASSERT_EQ(0, R.a.buffer_full) TH_LOG("records were dropped");	\
}

#endif /* FXT_SELFTESTS_NEED_ARCHIVE_H */
