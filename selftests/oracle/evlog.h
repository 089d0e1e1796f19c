/* SPDX-License-Identifier: GPL-2.0 */
/*
 * evlog.h - a log of every wakeup, hard interrupt and softirq, per CPU, for
 * exact accounting of fxt's wakeup and interrupt records.
 *
 * tp_btf programs on the tracepoints fxt records these from (evlog.bpf.c)
 * write {CLOCK_BOOTTIME ns, CPU, kind, number} of every such event,
 * unfiltered (interrupts belong to no process), into a BPF ring buffer. A
 * thread reads it every 20 ms while attached (the programs never wake it),
 * so the log may be longer than the ring buffer; evlog_lost() says whether
 * it ever overflowed. After evlog_stop() the log is in per-CPU arrays, one
 * per class (wakeups; hard interrupts, handlers and vectors together;
 * softirqs), each in the order that CPU logged them.
 *
 * Why per class: events of one class never nest on a CPU (wakeups and hard
 * interrupts run with interrupts off; softirqs do not nest), and the
 * tracepoint runs this program and fxt's probe one after the other with
 * preemption off, so each CPU's records of one class come in the order of
 * that CPU's log of the class, with nothing of the class in between. When
 * the log is attached before fxt's probes are hooked, its program runs
 * first (a tracepoint calls its probes in the order they were hooked), and
 * both read the same clock (ktime_get_boot_fast_ns()): the entry of a
 * record is then the CPU's last entry of the class at or before the
 * record's timestamp.
 *
 * Separate from oracle.h (the filtered counting oracle) and swlog.h.
 */
#ifndef FXT_SELFTESTS_EVLOG_H
#define FXT_SELFTESTS_EVLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "evlog.bpf.h"

enum evlog_class {
	EVLOG_CLASS_WAKEUP,	/* EVLOG_WAKING, EVLOG_WAKEUP_NEW */
	EVLOG_CLASS_HARDIRQ,	/* EVLOG_IRQ, EVLOG_VECTOR */
	EVLOG_CLASS_SOFTIRQ,	/* EVLOG_SOFTIRQ */
	EVLOG_NR_CLASSES
};

struct evlog_entry {
	uint64_t ts;
	uint32_t kind;		/* enum evlog_kind */
	uint32_t what;
};

struct evlog;

enum evlog_class evlog_class_of(uint32_t kind);
const char *evlog_class_name(enum evlog_class cls);

/* Load with a ring buffer of rb_bytes (power of 2). NULL + errno on failure. */
struct evlog *evlog_open(size_t rb_bytes);
/* Attach and start the reader thread: 0 or -errno. */
int evlog_start(struct evlog *l);
/* Detach, stop the reader, read what is left. 0 or -errno. */
int evlog_stop(struct evlog *l);
int evlog_nr_cpus(const struct evlog *l);
/* CPU cpu's log of class cls after evlog_stop(): *n entries, in order. */
const struct evlog_entry *evlog_cpu(const struct evlog *l, int cpu,
				    enum evlog_class cls, size_t *n);
/* Events of kind seen on cpu (-1: all) while attached, logged or not. */
uint64_t evlog_seen(struct evlog *l, int cpu, enum evlog_kind kind);
uint64_t evlog_lost(struct evlog *l);	/* not logged: ring buffer full, bad */
uint64_t evlog_misses(struct evlog *l);	/* program runs the kernel skipped */
/* Vector programs left out because the kernel lacks their tracepoint. */
int evlog_absent(const struct evlog *l);
void evlog_close(struct evlog *l);

/*
 * Whether two entries stand for the same record: equal kinds and numbers,
 * where EVLOG_WAKEUP_NEW equals EVLOG_WAKING (both give a wakeup record).
 */
bool evlog_same(const struct evlog_entry *x, const struct evlog_entry *y);

#endif /* FXT_SELFTESTS_EVLOG_H */
