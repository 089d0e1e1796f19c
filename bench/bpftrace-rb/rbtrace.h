/* SPDX-License-Identifier: GPL-2.0 */
/* One record in the BPF ring buffer and in the output file: 32 bytes. */
#ifndef RBTRACE_H
#define RBTRACE_H

enum rb_type { RB_SWITCH = 1, RB_WAKING, RB_WAKEUP_NEW, RB_IRQ_ENTRY,
	       RB_IRQ_EXIT, RB_SOFTIRQ_ENTRY, RB_SOFTIRQ_EXIT, RB_VECTOR_ENTRY,
	       RB_VECTOR_EXIT };

struct rb_event {
	__u64 ts;		/* bpf_ktime_get_boot_ns() */
	__u16 cpu;
	__u16 type;		/* enum rb_type */
	__u32 a;		/* prev tid; woken tid; irq; softirq or x86 vector */
	__u32 b;		/* next tid; target cpu; handled; vector index */
	__u32 state;		/* prev_state */
	__u8 prev_prio, next_prio;
	__u16 pad;
	__u32 pad2;
};

/* per-CPU counters: [0] events written, [1] events lost (ring full) */
#define RB_NR_COUNTERS 2

#endif
