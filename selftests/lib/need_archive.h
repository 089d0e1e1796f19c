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

#endif /* FXT_SELFTESTS_NEED_ARCHIVE_H */
