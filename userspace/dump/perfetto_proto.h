/* SPDX-License-Identifier: MIT */
/*
 * perfetto_proto.h - the field numbers of Perfetto's trace protos that
 * fxt-dump --perfetto writes, from Perfetto's public .proto files
 * (protos/perfetto/trace/: trace.proto, trace_packet.proto,
 * ftrace/ftrace_event_bundle.proto, ftrace/ftrace_event.proto,
 * ftrace/sched.proto, ps/process_tree.proto,
 * interned_data/interned_data.proto, profiling/profile_common.proto).
 * Written once here, beside <fxt/perfetto_blob.h>, which has the fields
 * fxt.ko's embedded packets use too (Trace.packet, the bundle's cpu, event
 * and lost_events, an event's timestamp and pid, the sequence id):
 * perfetto.c takes those from there and nothing else from anywhere.
 */
#ifndef FXT_DUMP_PERFETTO_PROTO_H
#define FXT_DUMP_PERFETTO_PROTO_H

/* TracePacket */
#define PF_PACKET_PROCESS_TREE		2
#define PF_PACKET_TIMESTAMP		8
#define PF_PACKET_INTERNED_DATA		12
#define PF_PACKET_SEQUENCE_FLAGS	13
#define PF_PACKET_SYSTEM_INFO		45
#define PF_SEQ_INCREMENTAL_STATE_CLEARED	1
#define PF_SEQ_NEEDS_INCREMENTAL_STATE		2

/* SystemInfo, Utsname */
#define PF_SYSINFO_UTSNAME		1
#define PF_UTSNAME_SYSNAME		1
#define PF_UTSNAME_VERSION		2
#define PF_UTSNAME_RELEASE		3

/* InternedData, InternedString */
#define PF_INTERNED_KERNEL_SYMBOLS	26
#define PF_ISTRING_IID			1
#define PF_ISTRING_STR			2

/* FtraceEvent */
#define PF_EVENT_SCHED_SWITCH		4
#define PF_EVENT_SCHED_BLOCKED_REASON	18
#define PF_EVENT_SCHED_WAKING		20
#define PF_EVENT_SOFTIRQ_ENTRY		24
#define PF_EVENT_SOFTIRQ_EXIT		25
#define PF_EVENT_IRQ_HANDLER_ENTRY	36
#define PF_EVENT_IRQ_HANDLER_EXIT	37
#define PF_EVENT_SCHED_PROCESS_FREE	240
#define PF_EVENT_LOCAL_TIMER_ENTRY	559	/* no fields */
#define PF_EVENT_LOCAL_TIMER_EXIT	560	/* no fields */

/* IrqHandlerEntryFtraceEvent, IrqHandlerExitFtraceEvent */
#define PF_IRQ_ENTRY_IRQ		1
#define PF_IRQ_ENTRY_NAME		2
#define PF_IRQ_EXIT_IRQ			1
#define PF_IRQ_EXIT_RET			2	/* 1: handled (IRQ_HANDLED) */

/* SoftirqEntryFtraceEvent, SoftirqExitFtraceEvent */
#define PF_SOFTIRQ_VEC			1

/* SchedProcessFreeFtraceEvent */
#define PF_FREE_COMM			1
#define PF_FREE_PID			2

/* SchedSwitchFtraceEvent */
#define PF_SWITCH_PREV_COMM		1
#define PF_SWITCH_PREV_PID		2
#define PF_SWITCH_PREV_PRIO		3
#define PF_SWITCH_PREV_STATE		4
#define PF_SWITCH_NEXT_COMM		5
#define PF_SWITCH_NEXT_PID		6
#define PF_SWITCH_NEXT_PRIO		7

/* SchedBlockedReasonFtraceEvent: caller is an interned kernel symbol */
#define PF_BLOCKED_PID			1
#define PF_BLOCKED_CALLER		2
#define PF_BLOCKED_IO_WAIT		3

/* SchedWakingFtraceEvent */
#define PF_WAKING_COMM			1
#define PF_WAKING_PID			2
#define PF_WAKING_PRIO			3
#define PF_WAKING_SUCCESS		4
#define PF_WAKING_TARGET_CPU		5

/* ProcessTree, Process, Thread */
#define PF_TREE_PROCESSES		1
#define PF_TREE_THREADS			2
#define PF_PROCESS_PID			1
#define PF_PROCESS_PPID			2
#define PF_PROCESS_CMDLINE		3
#define PF_PROCESS_CMDLINE_IS_COMM	9
#define PF_THREAD_TID			1
#define PF_THREAD_NAME			2
#define PF_THREAD_TGID			3

/*
 * sched_switch's prev_state as ftrace reports it since Linux 4.14: bit
 * (state index - 1) of TASK_REPORT (S 0x1, D 0x2, T 0x4, t 0x8, X 0x10,
 * Z 0x20, P 0x40, I 0x80), 0 for runnable, TASK_REPORT_MAX (0x100) for a
 * preemption (R+). Perfetto decodes prev_state by the kernel's version
 * (SystemInfo.utsname.release): PF_LAYOUT_RELEASE says which layout this is.
 */
#define PF_LAYOUT_RELEASE	"4.14"
#define PF_STATE_S		0x1
#define PF_STATE_D		0x2
#define PF_STATE_T		0x4
#define PF_STATE_TRACED		0x8
#define PF_STATE_X		0x10
#define PF_STATE_Z		0x20
#define PF_STATE_P		0x40
#define PF_STATE_I		0x80
#define PF_STATE_PREEMPTED	0x100

#endif /* FXT_DUMP_PERFETTO_PROTO_H */
