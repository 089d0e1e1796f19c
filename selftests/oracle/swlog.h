/* SPDX-License-Identifier: GPL-2.0 */
/*
 * swlog.h - a log of every context switch, per CPU, for exact accounting.
 *
 * A tp_btf sched_switch program writes {CLOCK_BOOTTIME ns, CPU, prev tid,
 * next tid} of every switch (unfiltered) into a BPF ring buffer; nothing is
 * consumed while attached, so the buffer must hold the whole window
 * (swlog_lost() says whether it did). After swlog_stop() the log is read
 * into per-CPU arrays, in the order each CPU logged them.
 *
 * Separate from oracle.h (the counting oracle); both may be loaded at once.
 */
#ifndef FXT_SELFTESTS_SWLOG_H
#define FXT_SELFTESTS_SWLOG_H

#include <stddef.h>
#include <stdint.h>

struct swlog_entry {
	uint64_t ts;
	uint32_t prev, next;
};

struct swlog;

/* Load with a ring buffer of rb_bytes (power of 2). NULL + errno on failure. */
struct swlog *swlog_open(size_t rb_bytes);
int swlog_start(struct swlog *l);	/* attach: 0 or -errno */
/* Detach and read the ring buffer into the per-CPU logs. 0 or -errno. */
int swlog_stop(struct swlog *l);
int swlog_nr_cpus(const struct swlog *l);
/* CPU cpu's log after swlog_stop(): *n entries, in logging order. */
const struct swlog_entry *swlog_cpu(const struct swlog *l, int cpu, size_t *n);
uint64_t swlog_lost(struct swlog *l);		/* ring buffer overflows */
uint64_t swlog_misses(struct swlog *l);		/* program runs skipped */
void swlog_close(struct swlog *l);

/*
 * Index in CPU cpu's log of the switch prev -> next nearest to ts, or -1.
 */
long swlog_find(const struct swlog *l, int cpu, uint32_t prev, uint32_t next,
		uint64_t ts);
/*
 * Index in CPU cpu's log of the first of n consecutive switches equal (prev
 * and next) to run[0..n-1], the run whose first switch is nearest to ts;
 * or -1. A single switch can be matched to the wrong one of its repeats
 * when the two clocks' readings differ by more than the repeats' spacing
 * (a switch into D is stamped before fxt.ko's stack walk); a run cannot.
 */
long swlog_find_run(const struct swlog *l, int cpu,
		    const struct swlog_entry *run, size_t n, uint64_t ts);

#endif /* FXT_SELFTESTS_SWLOG_H */
