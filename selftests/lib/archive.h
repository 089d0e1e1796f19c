/* SPDX-License-Identifier: GPL-2.0 */
/*
 * archive.h - count what the selftests compare in an fxt archive.
 *
 * A deliberately small, self-contained FXT reader: it decodes the header bits
 * it needs straight from the Fuchsia trace format specification rather than
 * through include/fxt/format.h or the user-space reader library, so that a
 * mistake there cannot cancel out in the comparison with the oracle.
 *
 * It follows Documentation/records.rst: provider = CPU, but for the
 * collector's trailer of names (its own provider, no CPU's records);
 * provider info and provider section metadata switch the current provider; thread records fill
 * the current provider's thread table, which resolves the thread refs of
 * later context switch records of that provider.
 */
#ifndef FXT_SELFTESTS_ARCHIVE_H
#define FXT_SELFTESTS_ARCHIVE_H

#include <stdbool.h>
#include <stdint.h>

#define ARCHIVE_MAX_PROVIDERS	256	/* fxt_layout.possible_cpus has 256 bits */
/* fxt-collect's trailer of newest names (records.rst, "Archive layout"). */
#define ARCHIVE_NAMES_PROVIDER	0xffffffffu
#define ARCHIVE_MAX_TIDS		8

struct archive_provider {
	bool seen;			/* provider info or section metadata seen */
	uint64_t switches;		/* context switches with a tid in or out */
	uint64_t switch_digest;		/* of those, in order (oracle.bpf.h) */
	/*
	 * Wakeups whose woken thread is a tid, by the CPU that woke it: the
	 * provider, or a deferred wakeup's "waking_cpu" (records.rst).
	 */
	uint64_t wakeups;
	uint64_t deferred_wakeups;	/* of all in this provider, deferred */
	uint64_t all_switches;		/* every context switch */
	uint64_t inline_refs;		/* switch thread refs written inline */
	uint64_t indexed_refs;		/* switch thread refs by index */
	uint64_t unresolved;		/* indexed refs with no thread record */
	uint64_t cpu_mismatch;		/* sched records whose cpu != provider */
	uint64_t backwards;		/* timestamps below the previous one */
	uint64_t last_ts;		/* latest timestamp seen */
	uint64_t buffer_full;		/* provider event "buffer full" records */
};

struct archive_counts {
	struct archive_provider prov[ARCHIVE_MAX_PROVIDERS];
	int max_provider;		/* highest provider id seen, -1: none */
	uint64_t records;		/* records read */
	uint64_t bytes;			/* archive size */
	uint64_t outside_provider;	/* timestamped records before any provider */
	uint64_t other_sched;		/* type 8 records of other subtypes */
	bool magic_ok;			/* starts with the magic number record */
	char error[256];		/* first framing error; "" when none */
};

/*
 * Count the archive at path for the threads tids[0..ntids-1] (Linux tids =
 * thread koids). Return: 0 (framing problems are reported in c->error), or
 * a negative errno when the file cannot be read.
 */
int archive_count(const char *path, const uint64_t *tids, int ntids,
	      struct archive_counts *c);

/*
 * The same per-provider switch and wakeup counts through the project's
 * reader library (userspace/lib/libfxt), as a cross-check of both readers.
 * Return: 0, or a negative errno when the library cannot open the file;
 * *diags is the number of diagnostics the library reported.
 */
struct archive_lib_counts {
	uint64_t switches[ARCHIVE_MAX_PROVIDERS];
	uint64_t wakeups[ARCHIVE_MAX_PROVIDERS];	/* by waking CPU */
	uint64_t deferred_wakeups;	/* with a "waking_cpu" */
	uint64_t diags;			/* reader diagnostics */
	uint64_t undefined_refs;	/* thread refs the library could not resolve */
	uint64_t records;
};

int archive_count_libfxt(const char *path, const uint64_t *tids, int ntids,
		     struct archive_lib_counts *c);

/* Sums over providers of one field, e.g. archive_sum(c, switches). */
#define archive_sum(c, field) ({						\
	uint64_t __s = 0;						\
	for (int __i = 0; __i < ARCHIVE_MAX_PROVIDERS; __i++)		\
		__s += (c)->prov[__i].field;				\
	__s;								\
})

#endif /* FXT_SELFTESTS_ARCHIVE_H */
