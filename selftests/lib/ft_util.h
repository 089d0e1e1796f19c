/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ft_util.h - small helpers of the fault, fuzz, security, hotplug and stress
 * selftests: reading fxt-collect's and fxt-dump's output (collector.h runs
 * them), and the kernel's memory and module counters.
 */
#ifndef FXT_SELFTESTS_FT_UTIL_H
#define FXT_SELFTESTS_FT_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "collector.h"	/* tools as children: col_*() */

#define FT_MAX_CPUS	256

/*
 * Read a fxt-dump --check log: *defects = "offset 0x...:" lines, *truncs =
 * those that report a truncated record; other = first other defect line.
 */
void ft_dump_defects(const char *log, int *defects, int *truncs,
		     char *other, size_t size);

/* One row of fxt-collect's per-CPU statistics table. */
struct ft_stats_row {
	unsigned int cpu;
	uint64_t records, dropped, durable, d_dropped, wraps, bytes;
};

/* Parse the table from a collector log. Return: rows found (<= max). */
int ft_collect_stats(const char *log, struct ft_stats_row *rows, int max);

/* A /proc/meminfo value in kB, -1 if absent. */
long ft_meminfo_kb(const char *key);
/* One cache of /proc/slabinfo: objects in use and their size. */
struct ft_slab {
	char name[64];
	long active, objsize;
};

/*
 * Read /proc/slabinfo (root only) into at most max caches.
 * Return: caches read, or -errno.
 */
int ft_slabinfo(struct ft_slab *caches, int max);
/* /sys/module/fxt/parameters/mem_bytes: what the module holds; -1 if unreadable. */
long ft_module_mem_bytes(void);
/* /sys/module/fxt/refcnt, -1 if unreadable. */
int ft_module_refcnt(void);
/* Write s to a file. Return: 0 or -errno. */
int ft_write_file(const char *path, const char *s);

#endif /* FXT_SELFTESTS_FT_UTIL_H */
