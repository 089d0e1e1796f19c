/* SPDX-License-Identifier: GPL-2.0 */
/* evlog.bpf.h - what the event log's BPF side and user side share. */
#ifndef FXT_SELFTESTS_EVLOG_BPF_H
#define FXT_SELFTESTS_EVLOG_BPF_H

/*
 * What an entry is. fxt writes one rolling record for each: a wakeup
 * record for EVLOG_WAKING and EVLOG_WAKEUP_NEW (the record does not say
 * which), a duration begin (category "irq", argument "irq") for EVLOG_IRQ,
 * the same with argument "vector" for EVLOG_VECTOR, and a duration begin
 * of category "softirq" for EVLOG_SOFTIRQ. Each kind is one tracepoint,
 * but for EVLOG_VECTOR, where the vector number says which.
 */
enum evlog_kind {
	EVLOG_WAKING	 = 0,	/* sched_waking: woken tid */
	EVLOG_WAKEUP_NEW = 1,	/* sched_wakeup_new: woken tid */
	EVLOG_IRQ	 = 2,	/* irq_handler_entry: irq number */
	EVLOG_VECTOR	 = 3,	/* x86 <vector>_entry: vector number */
	EVLOG_SOFTIRQ	 = 4,	/* softirq_entry: softirq number */
	EVLOG_NR_KINDS
};

/* One event, as logged into the ring buffer. */
struct evlog_event {
	__u64 ts;		/* bpf_ktime_get_boot_ns(): CLOCK_BOOTTIME, as fxt */
	__u32 cpu;		/* CPU the tracepoint fired on */
	__u32 kind;		/* enum evlog_kind */
	__u32 what;		/* tid, irq, vector or softirq number */
	__u32 pad;
};

/*
 * Keys of the per-CPU "evlog_counts" array: EVLOG_SEEN + kind counts every
 * run of the programs of that kind, logged or not; EVLOG_LOST the events
 * the ring buffer had no room for.
 */
enum evlog_counter {
	EVLOG_SEEN	= 0,
	EVLOG_LOST	= EVLOG_SEEN + EVLOG_NR_KINDS,
	EVLOG_NR_COUNTERS
};

#endif /* FXT_SELFTESTS_EVLOG_BPF_H */
