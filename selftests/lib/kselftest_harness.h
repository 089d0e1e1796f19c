/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kselftest_harness.h - the kernel's harness (build/kselftest/, extracted
 * from linux-source), with one change: a SKIP() after an expectation was
 * evaluated is a failure.
 *
 * Every selftest includes "kselftest_harness.h"; -Ilib comes before
 * -isystem build/kselftest, so this file is the one found, and it pulls in
 * the kernel's with #include_next.
 *
 * The kernel's SKIP() sets passed = 1: an EXPECT that failed earlier in the
 * same case is forgotten and the case is reported "ok ... # SKIP" (e.g. a
 * case looping over several runs that skips on the third after checking
 * the first two). Here a SKIP() in a case that already failed an EXPECT
 * (passed == 0) or passed an ASSERT (step > 1: the harness counts passed
 * ASSERTs in step) keeps the case failed, logs the skip reason and runs the
 * statement. Decide to skip before checking anything.
 *
 * Second change: every case's time limit (the default 30 s and each
 * TEST_F_TIMEOUT) is multiplied by FXT_TIMEOUT_SCALE, 1 unless the build
 * says otherwise (make check-debug: its KASAN and lockdep kernel runs the
 * same work several times slower).
 */
#ifndef FXT_SELFTESTS_KSELFTEST_HARNESS_H
#define FXT_SELFTESTS_KSELFTEST_HARNESS_H

#include_next "kselftest_harness.h"

#ifndef SKIP
#error "the kernel's kselftest_harness.h defines no SKIP()"
#endif
#undef SKIP
#define SKIP(statement, fmt, ...) do {					\
	snprintf(_metadata->results->reason,				\
		 sizeof(_metadata->results->reason), fmt, ##__VA_ARGS__); \
	if (!_metadata->passed || _metadata->step > 1) {		\
		__TH_LOG("SKIP after an evaluated expectation: a failure (%s)", \
			 _metadata->results->reason);			\
		_metadata->passed = 0;					\
		_metadata->trigger = 0;					\
	} else {							\
		if (TH_LOG_ENABLED)					\
			fprintf(TH_LOG_STREAM, "#      SKIP      %s\n",	\
				_metadata->results->reason);		\
		_metadata->passed = 1;					\
		_metadata->skip = 1;					\
		_metadata->trigger = 0;					\
	}								\
	statement;							\
} while (0)

#ifndef FXT_TIMEOUT_SCALE
#define FXT_TIMEOUT_SCALE 1
#endif
#undef TEST_TIMEOUT_DEFAULT
#define TEST_TIMEOUT_DEFAULT (30 * FXT_TIMEOUT_SCALE)
#undef TEST_F_TIMEOUT
#define TEST_F_TIMEOUT(fixture_name, test_name, timeout) \
	__TEST_F_IMPL(fixture_name, test_name, -1, (timeout) * FXT_TIMEOUT_SCALE)

#endif /* FXT_SELFTESTS_KSELFTEST_HARNESS_H */
