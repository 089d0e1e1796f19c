/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scan.h - an archive summed up per provider (= CPU) through libfxt:
 * context switches (of watched threads too), unresolved thread refs,
 * interrupt begin/end nesting, drops, thread and string index reuse.
 */
#ifndef FXT_SELFTESTS_SCAN_H
#define FXT_SELFTESTS_SCAN_H

#include <stdbool.h>
#include <stdint.h>

#include "cpu.h"

/* What scan_archive() finds per provider (= CPU). */
struct scan_sw {
	uint64_t ts;
	uint64_t out, in;	/* tids (0 = idle) */
};

/* A loss record (fxt/lost), with the switches kept on either side of it. */
#define SCAN_GAPS	16
struct scan_gap {
	uint64_t from, to, records;
	bool have_before, have_after;
	struct scan_sw before;		/* the provider's last switch before it */
	struct scan_sw after;		/* and its first after */
};

struct scan_prov {
	bool seen;
	unsigned int gaps;		/* loss records (the first SCAN_GAPS kept) */
	unsigned int gap_wrong_cpu;	/* ... in another CPU's provider */
	struct scan_gap gap[SCAN_GAPS];
	uint64_t switches;		/* context switch records */
	uint64_t tid_switches;		/* ... with a watched tid out or in */
	struct scan_sw first, last;	/* first and last context switch */
	uint64_t last_ns;		/* latest time of any record (ts_ns) */
	/*
	 * Switches whose outgoing thread is not the previous switch's
	 * incoming one with no loss record between them: a switch lost
	 * uncounted, or counted but placed elsewhere (records.rst, "Loss").
	 * The first such pair is kept.
	 */
	uint64_t unexplained_breaks;
	struct scan_sw break_before, break_after;
	bool gap_since_switch;		/* a loss record since the last switch */
	uint64_t undefined_refs;	/* thread refs the reader cannot resolve */
	uint64_t buffer_full;		/* provider event 0 records */
	bool have_dropped;		/* an fxt/dropped counter was seen */
	uint64_t dropped_last;		/* its last "records" value */
	uint64_t irq_begin, irq_end;	/* duration begin/end on the irq thread */
	uint64_t nest_mismatch;		/* end not matching the innermost begin */
	uint64_t orphan_start;		/* ends on an empty stack before any begin */
	uint64_t orphan_late;		/* ends on an empty stack after a begin */
	uint64_t other_thread_irq;	/* irq/softirq events not on the pseudo-thread */
	uint64_t mismatch_shown;
	uint64_t thread_reassigned;	/* thread index redefined to another koid */
	unsigned int thread_indices;	/* distinct thread indices defined */
	uint64_t string_reassigned;	/* string index redefined to other text */
};

struct scan {
	struct scan_prov prov[MAX_CPUS];
	uint64_t records;
	uint64_t diags;
	uint64_t string_undefined, thread_undefined;	/* reader diagnostics */
	uint64_t undefined_strs;	/* event string refs with no data */
	bool read_error;
	uint64_t kobj_prefixed;		/* kernel objects named scan_kobj_prefix... */
	uint64_t kobj_watched;		/* kernel objects of the watched tids */
};

/* scan_archive() counts kernel object records whose name starts with this. */
extern const char *scan_kobj_prefix;

/* Scan an archive; tids (ntids) are the watched threads. 0 or -errno. */
int scan_archive(const char *path, const uint64_t *tids, int ntids,
		 struct scan *s);
/* Over every provider: thread refs the reader cannot resolve. */
uint64_t scan_undefined_refs(const struct scan *s);
/* Over every provider: switches of the watched tids (tid_switches). */
uint64_t scan_tid_switches(const struct scan *s);
/* Over every provider: thread and string indices redefined to another. */
uint64_t scan_reassigned(const struct scan *s);

#endif /* FXT_SELFTESTS_SCAN_H */
