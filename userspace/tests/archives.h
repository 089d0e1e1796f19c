/* SPDX-License-Identifier: MIT */
/*
 * archives.h - the test archives, built with the writer (and raw words for
 * the defective ones). Golden archives are checked against the committed
 * outputs in tests/golden/; check archives each carry a defect and list the
 * exact set of diagnostics fxt-dump --check must report for them; report
 * archives are for fxt-report's output alone (a section of its own).
 */
#ifndef FXT_TESTS_ARCHIVES_H
#define FXT_TESTS_ARCHIVES_H

#include "libfxt.h"

enum tcase_kind {
	T_GOLDEN,	/* well-formed: compared with tests/golden/<name>.* */
	T_CHECK,	/* defective: exact diagnostics expected */
	T_REPORT,	/* well-formed: only fxt-report's output compared with */
			/* tests/golden/<name>.report and .csv */
};

#define TCASE_MAX_EXPECT 6
#define TCASE_MAX_MSGS	20

struct tcase {
	const char *name;
	enum tcase_kind kind;
	void (*build)(struct fxt_writer *w);
	unsigned int nexpect;
	enum fxt_diag_id expect[TCASE_MAX_EXPECT];
	size_t bufsize;		/* reader buffer size, 0: default (unit tests only) */
	size_t memlimit;	/* reader memory limit, 0: default (unit tests only) */
	const char *what;	/* one line: what the archive contains */
	/* substrings that must each be in some diagnostic's message */
	const char *msgs[TCASE_MAX_MSGS];
	unsigned int count;	/* diagnostics in all, when not 0 */
	bool golden_check;	/* --check output compared with tests/golden/<name>.check */
	/*
	 * Written as fxt-collect writes (one init record per provider, names
	 * durable first): selftests/perfetto-check must find in Perfetto's
	 * trace processor what the tools read in it.
	 */
	bool perfetto;
};

extern const struct tcase tcases[];
extern const unsigned int ntcases;

const struct tcase *tcase_find(const char *name);
/* Build a case into fd; 0 or -errno. */
int tcase_write(const struct tcase *t, int fd);

#endif /* FXT_TESTS_ARCHIVES_H */
