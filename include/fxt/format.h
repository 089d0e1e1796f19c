/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * fxt/format.h - the Fuchsia Trace Format (FXT) encoding, written once.
 *
 * Every bit layout of the Fuchsia trace format specification that fxt
 * writes or reads is spelled out here, as constants and small inline
 * encoders over 64-bit words. The kernel module and the user-space library both include
 * this file; neither encodes a header word anywhere else.
 *
 * Every field is named once, beside the encoder that writes it, as one
 * constant FXT_FIELD(lo, hi) holding its bit range exactly as the
 * specification writes it: "[16 .. 23]: cpu number" is
 * FXT_SWITCH_CPU_FIELD, FXT_FIELD(16, 23). FXT_F(value, FIELD) places
 * value in a field of a word, FXT_G(word, FIELD) extracts it: encoders and
 * decoders name the same field, and neither spells a bit range. The
 * *_RESERVED_FIELD ranges are the bits a reader checks are zero. With a
 * constant field, both are constant shifts and masks.
 */
#ifndef _FXT_FORMAT_H
#define _FXT_FORMAT_H

#include <linux/types.h>

/* A field: bits [lo..hi] of a 64-bit word, lo <= hi <= 63, as one constant. */
#define FXT_FIELD(lo, hi)	((lo) | (hi) << 8)
#define FXT_FIELD_LO(field)	((field) & 0xff)
#define FXT_FIELD_HI(field)	((field) >> 8)
/* The mask of a field's width, in the low bits. */
#define FXT_MASK(field)		\
	((~(__u64)0) >> (63 - (FXT_FIELD_HI(field) - FXT_FIELD_LO(field))))
/* value placed in field, to be or'ed into a word; the value of field in w. */
#define FXT_F(v, field)		((((__u64)(v)) & FXT_MASK(field)) << FXT_FIELD_LO(field))
#define FXT_G(w, field)		((((__u64)(w)) >> FXT_FIELD_LO(field)) & FXT_MASK(field))
/* v fits field: FXT_F() would not cut it. */
#define FXT_FITS(v, field)	((__u64)(v) <= FXT_MASK(field))

/* Words a byte count occupies, padded to 8-byte alignment. */
#define FXT_WORDS(bytes)	(((bytes) + 7) >> 3)
/* The largest record a 12-bit size field can describe, in words. */
#define FXT_MAX_RECORD_WORDS	0xfff

/* Record types (header word [0..3]). */
enum fxt_record_type {
	FXT_REC_METADATA	= 0,
	FXT_REC_INIT		= 1,
	FXT_REC_STRING		= 2,
	FXT_REC_THREAD		= 3,
	FXT_REC_EVENT		= 4,
	FXT_REC_BLOB		= 5,
	FXT_REC_USERSPACE_OBJ	= 6,
	FXT_REC_KERNEL_OBJ	= 7,
	FXT_REC_SCHED		= 8,	/* context switch and friends */
	FXT_REC_LOG		= 9,
	FXT_REC_LARGE		= 15,
};

/* Metadata types (metadata header [16..19]). */
enum fxt_metadata_type {
	FXT_META_PROVIDER_INFO		= 1,
	FXT_META_PROVIDER_SECTION	= 2,
	FXT_META_PROVIDER_EVENT		= 3,
	FXT_META_TRACE_INFO		= 4,
};

/*
 * CPU c's provider: id c, named "cpu<c>", its timestamps in nanoseconds
 * (Documentation/records.rst, "Archive layout").
 */
#define FXT_CPU_PROVIDER_NAME_FORMAT	"cpu%u"
#define FXT_TICKS_PER_SECOND		1000000000ull

/*
 * The provider of fxt-collect's trailer (Documentation/records.rst,
 * "Archive layout"): kernel object records with each koid's newest name,
 * after every CPU's data. Never a CPU number.
 */
#define FXT_NAMES_PROVIDER_ID		0xffffffffu
#define FXT_NAMES_PROVIDER_NAME		"fxt-collect newest names"

/*
 * The interrupt pseudo-threads (Documentation/records.rst): CPU c's
 * interrupts run on thread koid FXT_KOID_IRQ_THREAD(c) of the process
 * FXT_KOID_IRQ_PROCESS ("irq"), koids above any Linux pid or tid.
 */
#define FXT_KOID_IRQ_PROCESS		0x40000000ull
#define FXT_KOID_IRQ_THREAD(c)		(FXT_KOID_IRQ_PROCESS + 1 + (c))
#define FXT_IRQ_PROCESS_NAME		"irq"
#define FXT_IRQ_THREAD_NAME_FORMAT	"irq/cpu%u"

/*
 * Names fxt writes and its tools look for (Documentation/records.rst).
 * Event categories, one per FXT_CAT_* bit of <linux/fxt.h>:
 */
#define FXT_CAT_NAME_SCHED		"sched"
#define FXT_CAT_NAME_WAKEUP		"wakeup"
#define FXT_CAT_NAME_IRQ		"irq"
#define FXT_CAT_NAME_SOFTIRQ		"softirq"
#define FXT_CAT_NAME_POWER		"power"
/* Argument names. */
#define FXT_ARG_NAME_PROCESS		"process"	/* thread objects */
#define FXT_ARG_NAME_NAMED_AT		"named_at"	/* process and thread objects */
/* process objects: the parent process (koid), as /proc's PPid */
#define FXT_ARG_NAME_PARENT		"parent"
/* process objects written at exec: argv, NULs as spaces (string) */
#define FXT_ARG_NAME_CMDLINE		"cmdline"
#define FXT_ARG_NAME_WEIGHT		"weight"	/* thread wakeup */
#define FXT_ARG_NAME_WAKER		"waker"		/* thread wakeup */
/* thread wakeup written after its thread left a CPU: the CPU that woke it */
#define FXT_ARG_NAME_WAKING_CPU		"waking_cpu"
#define FXT_ARG_NAME_OUTGOING_WEIGHT	"outgoing_weight"	/* context switch v2 */
#define FXT_ARG_NAME_INCOMING_WEIGHT	"incoming_weight"	/* context switch v2 */
/*
 * The sleep event: an instant event of category "sched" on a thread, at
 * the moment it switches out into a Linux state that FXT's outgoing state
 * cannot tell apart (Documentation/records.rst, "Sleep states"). Its name
 * is the state's letter as Linux reports it (/proc, ftrace): one of
 * FXT_SLEEP_STATES. The next context switch of that CPU switches the
 * thread out. A switch into D carries the function the thread blocked in.
 */
#define FXT_SLEEP_STATES		"DIPt"
#define FXT_ARG_NAME_BLOCKED_IN		"blocked_in"	/* string */
/*
 * Interrupt events (Documentation/records.rst, "Interrupt events"): a
 * handler's begin carries "irq" (int32, the irq number; fxt.ko shares the
 * string with the category), an x86 vector's begin "vector" (int32), an end
 * "handled" (bool) only when false. A softirq is named after its vector,
 * as the kernel's softirq_to_name[] (and /proc/softirqs) name them, in
 * vector order; a vector beyond them carries "vector" (uint32).
 */
#define FXT_ARG_NAME_IRQ		"irq"
#define FXT_ARG_NAME_VECTOR		"vector"
#define FXT_ARG_NAME_HANDLED		"handled"
#define FXT_SOFTIRQ_NAMES						\
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL",		\
	"TASKLET", "SCHED", "HRTIMER", "RCU"
#define FXT_VECTOR_NAME_LOCAL_TIMER	"local_timer"	/* the timer tick */
/* fxt-collect's counter of the records a CPU dropped: fxt/dropped, "records". */
#define FXT_DROPPED_CATEGORY		"fxt"
#define FXT_DROPPED_NAME		"dropped"
#define FXT_DROPPED_ARG_NAME		"records"
/*
 * fxt-collect's record of a span a CPU lost records in (records.rst,
 * "Loss"): a duration complete event fxt/lost on the CPU's interrupt
 * pseudo-thread, from the time of its last kept record before the loss (or
 * the start) to that of its first kept record after it (or the stop), with
 * "cpu" (uint32) and "records" (uint64, FXT_DROPPED_ARG_NAME) lost.
 */
#define FXT_LOST_NAME			"lost"
#define FXT_LOST_ARG_CPU		"cpu"
/*
 * fxt-collect's mark of where a CPU's records begin in a circular window
 * kept whole (--window-start per-cpu): an instant fxt/window_start on the
 * CPU's interrupt pseudo-thread, at its first kept record's time.
 */
#define FXT_WINDOW_START_NAME		"window_start"

/*
 * The instant event a latency trigger writes when it fires (<linux/fxt.h>,
 * Documentation/records.rst "Latency triggers"), on the thread concerned:
 * category "fxt", name "trigger", arguments "kind" (string, one of the
 * FXT_TRIGGER_NAME_*), "latency_ns" and "threshold_ns" (uint64),
 * "trigger" (uint32: the trigger's index in FXT_IOC_SET_TRIGGERS' list)
 * and "first" (bool: this firing opened the window).
 */
#define FXT_TRIGGER_CATEGORY		"fxt"
#define FXT_TRIGGER_EVENT_NAME		"trigger"
#define FXT_TRIGGER_ARG_KIND		"kind"
#define FXT_TRIGGER_ARG_LATENCY		"latency_ns"
#define FXT_TRIGGER_ARG_THRESHOLD	"threshold_ns"
#define FXT_TRIGGER_ARG_INDEX		FXT_TRIGGER_EVENT_NAME
#define FXT_TRIGGER_ARG_FIRST		"first"
/* Kind names, as fxt-collect's --trigger spells them. */
#define FXT_TRIGGER_NAME_WAKEUP_LATENCY	"wakeup-latency"
#define FXT_TRIGGER_NAME_OFF_CPU	"off-cpu"
#define FXT_TRIGGER_NAME_IRQ_DURATION	"irq-duration"

/*
 * The "weight" argument of a thread wakeup (subtype 2) that changes no
 * thread's state: Perfetto's importer reads INT32_MIN as "idle" and leaves
 * the thread's state alone. fxt writes it for a wakeup of a thread that was
 * still on its run queue, running or preempted (Documentation/records.rst,
 * "Thread wakeup").
 */
#define FXT_WEIGHT_NO_STATE_CHANGE	0x80000000u

/*
 * The FXT priority of a thread at nice 0 (140 - prio 120), by far the most
 * common: a thread wakeup whose woken thread has it carries no "weight"
 * argument (40 bytes instead of 48), and a wakeup without one means it
 * (Documentation/records.rst, "Thread wakeup"). Perfetto's importer reads
 * a missing weight as 0, which it treats like any weight but INT32_MIN.
 */
#define FXT_WAKEUP_WEIGHT_DEFAULT	20

/* Provider event ids (provider event metadata [52..55]). */
#define FXT_PROVIDER_EVENT_BUFFER_FULL	0

/* Trace info types; the magic number record is the only one defined. */
#define FXT_TRACE_INFO_MAGIC		0
#define FXT_MAGIC_NUMBER		0x16547846u
/* The whole magic number record as one word (8 bytes: 10 00 04 46 78 54 16 00). */
#define FXT_MAGIC_RECORD		0x0016547846040010ull

/* Event types (event header [16..19]). */
enum fxt_event_type {
	FXT_EVENT_INSTANT		= 0,
	FXT_EVENT_COUNTER		= 1,
	FXT_EVENT_DURATION_BEGIN	= 2,
	FXT_EVENT_DURATION_END		= 3,
	FXT_EVENT_DURATION_COMPLETE	= 4,
	FXT_EVENT_ASYNC_BEGIN		= 5,
	FXT_EVENT_ASYNC_INSTANT		= 6,
	FXT_EVENT_ASYNC_END		= 7,
	FXT_EVENT_FLOW_BEGIN		= 8,
	FXT_EVENT_FLOW_STEP		= 9,
	FXT_EVENT_FLOW_END		= 10,
};

/* Scheduling record subtypes (record type 8, header [60..63]). */
enum fxt_sched_type {
	FXT_SCHED_CONTEXT_SWITCH	= 0,	/* the seed's layout */
	FXT_SCHED_CONTEXT_SWITCH_V2	= 1,	/* koids + weight arguments */
	FXT_SCHED_THREAD_WAKEUP		= 2,
};

/* Thread states of a context switch's outgoing thread. */
enum fxt_thread_state {
	FXT_THREAD_NEW		= 0,	/* fxt: preempted, still runnable */
	FXT_THREAD_RUNNING	= 1,	/* never written as an outgoing state */
	FXT_THREAD_SUSPENDED	= 2,
	FXT_THREAD_BLOCKED	= 3,
	FXT_THREAD_DYING	= 4,
	FXT_THREAD_DEAD		= 5,
};

/* Argument types (argument header [0..3]). */
enum fxt_arg_type {
	FXT_ARG_NULL	= 0,
	FXT_ARG_INT32	= 1,
	FXT_ARG_UINT32	= 2,
	FXT_ARG_INT64	= 3,
	FXT_ARG_UINT64	= 4,
	FXT_ARG_DOUBLE	= 5,
	FXT_ARG_STRING	= 6,
	FXT_ARG_POINTER	= 7,
	FXT_ARG_KOID	= 8,
	FXT_ARG_BOOL	= 9,
};

/* Kernel object types used by fxt (ZX_OBJ_TYPE_*). */
#define FXT_OBJ_PROCESS		1
#define FXT_OBJ_THREAD		2

/* String refs: 0 empty, MSB clear = index, MSB set = inline length. */
#define FXT_STRING_REF_INLINE	0x8000u
#define FXT_STRING_INDEX_MAX	0x7fffu
#define FXT_STRING_MAX_LEN	32000u
/* Thread refs: 0 inline, 1..255 index. */
#define FXT_THREAD_INDEX_MAX	0xffu

static inline __u16 fxt_inline_string_ref(__u32 len)
{
	return (__u16)(FXT_STRING_REF_INLINE | (len & FXT_STRING_INDEX_MAX));
}

/* Words used by a string ref's inline stream (0 for empty or indexed). */
static inline __u32 fxt_string_ref_words(__u16 ref)
{
	return (ref & FXT_STRING_REF_INLINE) ?
		FXT_WORDS(ref & FXT_STRING_INDEX_MAX) : 0;
}

/* Record header word common part: type [0..3], size in words [4..15]. */
#define FXT_RECORD_TYPE_FIELD		FXT_FIELD(0, 3)
#define FXT_RECORD_WORDS_FIELD		FXT_FIELD(4, 15)

static inline __u64 fxt_record_header(unsigned int type, unsigned int words)
{
	return FXT_F(type, FXT_RECORD_TYPE_FIELD) |
	       FXT_F(words, FXT_RECORD_WORDS_FIELD);
}

static inline unsigned int fxt_record_type(__u64 header)
{
	return (unsigned int)FXT_G(header, FXT_RECORD_TYPE_FIELD);
}

static inline unsigned int fxt_record_words(__u64 header)
{
	return (unsigned int)FXT_G(header, FXT_RECORD_WORDS_FIELD);
}

/* Metadata records: metadata type, provider id, then per type. */
#define FXT_META_TYPE_FIELD			FXT_FIELD(16, 19)
#define FXT_META_PROVIDER_FIELD			FXT_FIELD(20, 51)
#define FXT_PROVIDER_INFO_NAME_LEN_FIELD	FXT_FIELD(52, 59)
#define FXT_PROVIDER_INFO_RESERVED_FIELD	FXT_FIELD(60, 63)
#define FXT_PROVIDER_SECTION_RESERVED_FIELD	FXT_FIELD(52, 63)
#define FXT_PROVIDER_EVENT_FIELD		FXT_FIELD(52, 55)
#define FXT_PROVIDER_EVENT_RESERVED_FIELD	FXT_FIELD(56, 63)
/* Trace info (its own layout after the metadata type). */
#define FXT_TRACE_INFO_TYPE_FIELD		FXT_FIELD(20, 23)
#define FXT_TRACE_INFO_MAGIC_FIELD		FXT_FIELD(24, 55)
#define FXT_TRACE_INFO_RESERVED_FIELD		FXT_FIELD(56, 63)

static inline __u64 fxt_provider_info_header(__u32 id, unsigned int name_len)
{
	return fxt_record_header(FXT_REC_METADATA, 1 + FXT_WORDS(name_len)) |
	       FXT_F(FXT_META_PROVIDER_INFO, FXT_META_TYPE_FIELD) |
	       FXT_F(id, FXT_META_PROVIDER_FIELD) |
	       FXT_F(name_len, FXT_PROVIDER_INFO_NAME_LEN_FIELD);
}

static inline __u64 fxt_provider_section_header(__u32 id)
{
	return fxt_record_header(FXT_REC_METADATA, 1) |
	       FXT_F(FXT_META_PROVIDER_SECTION, FXT_META_TYPE_FIELD) |
	       FXT_F(id, FXT_META_PROVIDER_FIELD);
}

static inline __u64 fxt_provider_event_header(__u32 id, unsigned int event)
{
	return fxt_record_header(FXT_REC_METADATA, 1) |
	       FXT_F(FXT_META_PROVIDER_EVENT, FXT_META_TYPE_FIELD) |
	       FXT_F(id, FXT_META_PROVIDER_FIELD) |
	       FXT_F(event, FXT_PROVIDER_EVENT_FIELD);
}

/* Initialization record: header + ticks per second. */
#define FXT_INIT_RESERVED_FIELD		FXT_FIELD(16, 63)

static inline __u64 fxt_init_header(void)
{
	return fxt_record_header(FXT_REC_INIT, 2);
}

/* String record: header + stream; index 1..0x7fff, len 0..0x7fff. */
#define FXT_STRING_INDEX_FIELD		FXT_FIELD(16, 30)
#define FXT_STRING_RESERVED1_FIELD	FXT_FIELD(31, 31)
#define FXT_STRING_LEN_FIELD		FXT_FIELD(32, 46)
#define FXT_STRING_RESERVED2_FIELD	FXT_FIELD(47, 63)

static inline __u64 fxt_string_header(__u16 index, __u32 len)
{
	return fxt_record_header(FXT_REC_STRING, 1 + FXT_WORDS(len)) |
	       FXT_F(index, FXT_STRING_INDEX_FIELD) |
	       FXT_F(len, FXT_STRING_LEN_FIELD);
}

/* Thread record: header + process koid + thread koid. */
#define FXT_THREAD_INDEX_FIELD		FXT_FIELD(16, 23)
#define FXT_THREAD_RESERVED_FIELD	FXT_FIELD(24, 63)

static inline __u64 fxt_thread_header(__u8 index)
{
	return fxt_record_header(FXT_REC_THREAD, 3) |
	       FXT_F(index, FXT_THREAD_INDEX_FIELD);
}

/* Kernel object record: header + koid + name stream + arguments. */
#define FXT_KOBJ_TYPE_FIELD		FXT_FIELD(16, 23)
#define FXT_KOBJ_NAME_FIELD		FXT_FIELD(24, 39)
#define FXT_KOBJ_NARGS_FIELD		FXT_FIELD(40, 43)
#define FXT_KOBJ_RESERVED_FIELD		FXT_FIELD(44, 63)

static inline __u64 fxt_kobj_header(unsigned int words, unsigned int obj_type,
				    __u16 name_ref, unsigned int nargs)
{
	return fxt_record_header(FXT_REC_KERNEL_OBJ, words) |
	       FXT_F(obj_type, FXT_KOBJ_TYPE_FIELD) |
	       FXT_F(name_ref, FXT_KOBJ_NAME_FIELD) |
	       FXT_F(nargs, FXT_KOBJ_NARGS_FIELD);
}

/* Event record: header + timestamp + [koids] + [streams] + args + data. */
#define FXT_EVENT_TYPE_FIELD		FXT_FIELD(16, 19)
#define FXT_EVENT_NARGS_FIELD		FXT_FIELD(20, 23)
#define FXT_EVENT_THREAD_FIELD		FXT_FIELD(24, 31)
#define FXT_EVENT_CATEGORY_FIELD	FXT_FIELD(32, 47)
#define FXT_EVENT_NAME_FIELD		FXT_FIELD(48, 63)

static inline __u64 fxt_event_header(unsigned int words, unsigned int type,
				     unsigned int nargs, __u8 thread_ref,
				     __u16 category_ref, __u16 name_ref)
{
	return fxt_record_header(FXT_REC_EVENT, words) |
	       FXT_F(type, FXT_EVENT_TYPE_FIELD) |
	       FXT_F(nargs, FXT_EVENT_NARGS_FIELD) |
	       FXT_F(thread_ref, FXT_EVENT_THREAD_FIELD) |
	       FXT_F(category_ref, FXT_EVENT_CATEGORY_FIELD) |
	       FXT_F(name_ref, FXT_EVENT_NAME_FIELD);
}

/* Scheduling records: the subtype is in [60..63] of every one. */
#define FXT_SCHED_TYPE_FIELD		FXT_FIELD(60, 63)

/* Context switch, subtype 0: header + timestamp + inline koid pairs. */
#define FXT_SWITCH_CPU_FIELD		FXT_FIELD(16, 23)
#define FXT_SWITCH_OUT_STATE_FIELD	FXT_FIELD(24, 27)
#define FXT_SWITCH_OUT_THREAD_FIELD	FXT_FIELD(28, 35)
#define FXT_SWITCH_IN_THREAD_FIELD	FXT_FIELD(36, 43)
#define FXT_SWITCH_OUT_PRIO_FIELD	FXT_FIELD(44, 51)
#define FXT_SWITCH_IN_PRIO_FIELD	FXT_FIELD(52, 59)

static inline __u64 fxt_switch_header(unsigned int words, unsigned int cpu,
				      unsigned int out_state, __u8 out_ref,
				      __u8 in_ref, __u8 out_prio, __u8 in_prio)
{
	return fxt_record_header(FXT_REC_SCHED, words) |
	       FXT_F(cpu, FXT_SWITCH_CPU_FIELD) |
	       FXT_F(out_state, FXT_SWITCH_OUT_STATE_FIELD) |
	       FXT_F(out_ref, FXT_SWITCH_OUT_THREAD_FIELD) |
	       FXT_F(in_ref, FXT_SWITCH_IN_THREAD_FIELD) |
	       FXT_F(out_prio, FXT_SWITCH_OUT_PRIO_FIELD) |
	       FXT_F(in_prio, FXT_SWITCH_IN_PRIO_FIELD) |
	       FXT_F(FXT_SCHED_CONTEXT_SWITCH, FXT_SCHED_TYPE_FIELD);
}

/* Thread wakeup, subtype 2: header + timestamp + woken koid + arguments. */
#define FXT_WAKEUP_NARGS_FIELD		FXT_FIELD(16, 19)
#define FXT_WAKEUP_CPU_FIELD		FXT_FIELD(20, 35)
#define FXT_WAKEUP_RESERVED_FIELD	FXT_FIELD(36, 59)

static inline __u64 fxt_wakeup_header(unsigned int words, unsigned int nargs,
				      unsigned int cpu)
{
	return fxt_record_header(FXT_REC_SCHED, words) |
	       FXT_F(nargs, FXT_WAKEUP_NARGS_FIELD) |
	       FXT_F(cpu, FXT_WAKEUP_CPU_FIELD) |
	       FXT_F(FXT_SCHED_THREAD_WAKEUP, FXT_SCHED_TYPE_FIELD);
}

static inline unsigned int fxt_sched_subtype(__u64 header)
{
	return (unsigned int)FXT_G(header, FXT_SCHED_TYPE_FIELD);
}

/* Argument header: type [0..3], size [4..15], name [16..31], value [32..63]. */
#define FXT_ARG_TYPE_FIELD		FXT_FIELD(0, 3)
#define FXT_ARG_WORDS_FIELD		FXT_FIELD(4, 15)
#define FXT_ARG_NAME_FIELD		FXT_FIELD(16, 31)
#define FXT_ARG_VALUE32_FIELD		FXT_FIELD(32, 63)
/* A bool's value is bit 32, a string's value its ref in [32..47]. */
#define FXT_ARG_BOOL_FIELD		FXT_FIELD(32, 32)
#define FXT_ARG_BOOL_RESERVED_FIELD	FXT_FIELD(33, 63)
#define FXT_ARG_STRING_FIELD		FXT_FIELD(32, 47)
#define FXT_ARG_STRING_RESERVED_FIELD	FXT_FIELD(48, 63)

static inline __u64 fxt_arg_header(unsigned int type, unsigned int words,
				   __u16 name_ref, __u32 value32)
{
	return FXT_F(type, FXT_ARG_TYPE_FIELD) |
	       FXT_F(words, FXT_ARG_WORDS_FIELD) |
	       FXT_F(name_ref, FXT_ARG_NAME_FIELD) |
	       FXT_F(value32, FXT_ARG_VALUE32_FIELD);
}

/*
 * Records fxt itself never emits, encoded here so that the user-space
 * library can write (for tests and round trips) every record type the
 * specification defines without spelling a header word anywhere else.
 * (The context switch of subtype 1 below is the exception: the module
 * writes it for a CPU the legacy switch's 8-bit cpu field cannot hold.)
 */

/* Context switch, subtype 1: header + timestamp + out koid + in koid + args. */
#define FXT_SWITCH_V2_NARGS_FIELD	FXT_FIELD(16, 19)
#define FXT_SWITCH_V2_CPU_FIELD		FXT_FIELD(20, 35)
#define FXT_SWITCH_V2_OUT_STATE_FIELD	FXT_FIELD(36, 39)
#define FXT_SWITCH_V2_RESERVED_FIELD	FXT_FIELD(40, 59)

static inline __u64 fxt_switch_v2_header(unsigned int words, unsigned int nargs,
					 unsigned int cpu,
					 unsigned int out_state)
{
	return fxt_record_header(FXT_REC_SCHED, words) |
	       FXT_F(nargs, FXT_SWITCH_V2_NARGS_FIELD) |
	       FXT_F(cpu, FXT_SWITCH_V2_CPU_FIELD) |
	       FXT_F(out_state, FXT_SWITCH_V2_OUT_STATE_FIELD) |
	       FXT_F(FXT_SCHED_CONTEXT_SWITCH_V2, FXT_SCHED_TYPE_FIELD);
}

/* The largest CPU number the legacy context switch (subtype 0) can hold. */
#define FXT_SWITCH_CPU_MAX		0xffu
/* A subtype 1 switch with its two weight arguments, in words. */
#define FXT_SWITCH_WIDE_WORDS		6
/* The weight of the idle thread: Perfetto's importer reads it as idle. */
#define FXT_WEIGHT_IDLE			((__s32)0x80000000u)

/*
 * Fill a subtype 1 context switch as fxt writes one for a CPU above
 * FXT_SWITCH_CPU_MAX: the threads' koids, and their priorities as
 * "outgoing_weight" and "incoming_weight" (int32; FXT_WEIGHT_IDLE for the
 * idle thread), whose names are string refs @out_name and @in_name. The
 * kernel and the tests' writer both fill it here.
 */
static inline void fxt_fill_switch_wide(__u64 *p, unsigned int cpu,
					unsigned int out_state, __u64 ts,
					__u64 out_koid, __s32 out_weight,
					__u64 in_koid, __s32 in_weight,
					__u16 out_name, __u16 in_name)
{
	p[0] = fxt_switch_v2_header(FXT_SWITCH_WIDE_WORDS, 2, cpu, out_state);
	p[1] = ts;
	p[2] = out_koid;
	p[3] = in_koid;
	p[4] = fxt_arg_header(FXT_ARG_INT32, 1, out_name, (__u32)out_weight);
	p[5] = fxt_arg_header(FXT_ARG_INT32, 1, in_name, (__u32)in_weight);
}

/*
 * Blob record: header + [name stream] + payload stream. Blob type
 * FXT_BLOB_TYPE_PERFETTO's payload is serialized perfetto.protos.Trace
 * (TracePacket in field 1), which Perfetto's FXT importer hands to its
 * protobuf importer ("Perfetto blob", as Fuchsia's Perfetto bridge uses).
 */
#define FXT_BLOB_TYPE_PERFETTO		3
#define FXT_BLOB_NAME_PERFETTO		"perfetto"

#define FXT_BLOB_NAME_FIELD		FXT_FIELD(16, 31)
#define FXT_BLOB_SIZE_FIELD		FXT_FIELD(32, 46)
#define FXT_BLOB_RESERVED1_FIELD	FXT_FIELD(47, 47)
#define FXT_BLOB_TYPE_FIELD		FXT_FIELD(48, 55)
#define FXT_BLOB_RESERVED2_FIELD	FXT_FIELD(56, 63)

static inline __u64 fxt_blob_header(unsigned int words, __u16 name_ref,
				    unsigned int size, unsigned int blob_type)
{
	return fxt_record_header(FXT_REC_BLOB, words) |
	       FXT_F(name_ref, FXT_BLOB_NAME_FIELD) |
	       FXT_F(size, FXT_BLOB_SIZE_FIELD) |
	       FXT_F(blob_type, FXT_BLOB_TYPE_FIELD);
}

/* Userspace object record: header + pointer + [pid] + [name] + args. */
#define FXT_UOBJ_PROCESS_FIELD		FXT_FIELD(16, 23)
#define FXT_UOBJ_NAME_FIELD		FXT_FIELD(24, 39)
#define FXT_UOBJ_NARGS_FIELD		FXT_FIELD(40, 43)
#define FXT_UOBJ_RESERVED_FIELD		FXT_FIELD(44, 63)

static inline __u64 fxt_uobj_header(unsigned int words, __u8 process_ref,
				    __u16 name_ref, unsigned int nargs)
{
	return fxt_record_header(FXT_REC_USERSPACE_OBJ, words) |
	       FXT_F(process_ref, FXT_UOBJ_PROCESS_FIELD) |
	       FXT_F(name_ref, FXT_UOBJ_NAME_FIELD) |
	       FXT_F(nargs, FXT_UOBJ_NARGS_FIELD);
}

/* Log record: header + timestamp + [koids] + message stream. */
#define FXT_LOG_LEN_FIELD		FXT_FIELD(16, 30)
#define FXT_LOG_RESERVED1_FIELD		FXT_FIELD(31, 31)
#define FXT_LOG_THREAD_FIELD		FXT_FIELD(32, 39)
#define FXT_LOG_RESERVED2_FIELD		FXT_FIELD(40, 63)

static inline __u64 fxt_log_header(unsigned int words, unsigned int len,
				   __u8 thread_ref)
{
	return fxt_record_header(FXT_REC_LOG, words) |
	       FXT_F(len, FXT_LOG_LEN_FIELD) |
	       FXT_F(thread_ref, FXT_LOG_THREAD_FIELD);
}

/* Large records (type 15): 32-bit size in words [4..35], large type [36..39]. */
#define FXT_LARGE_BLOB			0	/* large record type */
#define FXT_LARGE_BLOB_WITH_METADATA	0	/* blob format */
#define FXT_LARGE_BLOB_NO_METADATA	1

#define FXT_LARGE_WORDS_FIELD		FXT_FIELD(4, 35)
#define FXT_LARGE_TYPE_FIELD		FXT_FIELD(36, 39)
/* Large blob: format [40..43]. */
#define FXT_LBLOB_FORMAT_FIELD		FXT_FIELD(40, 43)
#define FXT_LBLOB_RESERVED_FIELD	FXT_FIELD(44, 63)

static inline __u64 fxt_large_record_header(__u32 words, unsigned int large_type)
{
	return FXT_F(FXT_REC_LARGE, FXT_RECORD_TYPE_FIELD) |
	       FXT_F(words, FXT_LARGE_WORDS_FIELD) |
	       FXT_F(large_type, FXT_LARGE_TYPE_FIELD);
}

static inline __u64 fxt_large_blob_header(__u32 words, unsigned int format)
{
	return fxt_large_record_header(words, FXT_LARGE_BLOB) |
	       FXT_F(format, FXT_LBLOB_FORMAT_FIELD);
}

/*
 * Large blob format header word: category, name, [nargs, thread]; without
 * metadata, [32..63] are reserved.
 */
#define FXT_LBLOB_CATEGORY_FIELD		FXT_FIELD(0, 15)
#define FXT_LBLOB_NAME_FIELD			FXT_FIELD(16, 31)
#define FXT_LBLOB_NARGS_FIELD			FXT_FIELD(32, 35)
#define FXT_LBLOB_THREAD_FIELD			FXT_FIELD(36, 43)
#define FXT_LBLOB_META_RESERVED_FIELD		FXT_FIELD(44, 63)
#define FXT_LBLOB_NO_META_RESERVED_FIELD	FXT_FIELD(32, 63)

static inline __u64 fxt_large_blob_format_word(__u16 category_ref,
					       __u16 name_ref,
					       unsigned int nargs,
					       __u8 thread_ref)
{
	return FXT_F(category_ref, FXT_LBLOB_CATEGORY_FIELD) |
	       FXT_F(name_ref, FXT_LBLOB_NAME_FIELD) |
	       FXT_F(nargs, FXT_LBLOB_NARGS_FIELD) |
	       FXT_F(thread_ref, FXT_LBLOB_THREAD_FIELD);
}

static inline __u64 fxt_large_record_words(__u64 header)
{
	return FXT_G(header, FXT_LARGE_WORDS_FIELD);
}

/*
 * A record's size in words, from its header word: a large record (type
 * 15) has a size field of its own. 0 is a framing error. Every reader of
 * framed records steps by this.
 */
static inline __u64 fxt_record_span(__u64 header)
{
	return fxt_record_type(header) == FXT_REC_LARGE ?
	       fxt_large_record_words(header) : fxt_record_words(header);
}

#endif /* _FXT_FORMAT_H */
