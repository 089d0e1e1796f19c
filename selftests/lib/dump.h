/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dump.h - fxt-dump --check as a child, and reading its defect lines.
 *
 * Environment: FXT_DUMP (tool path, default userspace/fxt-dump).
 */
#ifndef FXT_SELFTESTS_DUMP_H
#define FXT_SELFTESTS_DUMP_H

#include <stddef.h>

/*
 * fxt-dump --check archive into log, at most timeout s.
 * Return: wait status, or -errno, or -ETIMEDOUT (killed and reaped).
 */
int dump_check(const char *archive, const char *log, double timeout);

/*
 * Read a fxt-dump --check log: *defects = "offset 0x...:" lines, *truncs =
 * those that report a truncated record; other = first other defect line.
 */
void dump_defects(const char *log, int *defects, int *truncs,
		  char *other, size_t size);

#endif /* FXT_SELFTESTS_DUMP_H */
