/* SPDX-License-Identifier: GPL-2.0 */
/* swlog.bpf.h - what the switch log's BPF side and user side share. */
#ifndef FXT_SELFTESTS_SWLOG_BPF_H
#define FXT_SELFTESTS_SWLOG_BPF_H

/* One sched_switch, as logged into the ring buffer. */
struct swlog_event {
	__u64 ts;		/* bpf_ktime_get_boot_ns(): CLOCK_BOOTTIME, as fxt */
	__u32 cpu;		/* CPU the tracepoint fired on */
	__u32 prev;		/* outgoing task->pid (0: idle) */
	__u32 next;		/* incoming task->pid */
	__u32 pad;
};

/* Keys of the "swlog_counts" array. */
enum swlog_counter {
	SWLOG_LOGGED	= 0,	/* events put into the ring buffer */
	SWLOG_LOST	= 1,	/* ring buffer full: event not logged */
	SWLOG_NR_COUNTERS
};

#endif /* FXT_SELFTESTS_SWLOG_BPF_H */
