/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * fxt/format.h - the Fuchsia Trace Format (FXT) encoding, written once.
 *
 * Every bit layout of the Fuchsia trace format specification that fxt
 * writes or reads is spelled out here, as constants and small inline
 * encoders over 64-bit words. The kernel module and the user-space library both include
 * this file; neither encodes a header word anywhere else.
 *
 * Notation: FXT_F(value, lo, hi) places value in bits [lo..hi] of a word,
 * FXT_G(word, lo, hi) extracts them, exactly as the specification writes
 * fields ("[16 .. 23]: cpu number").
 */
#ifndef _FXT_FORMAT_H
#define _FXT_FORMAT_H

#include <linux/types.h>

#define FXT_MASK(lo, hi)	((~(__u64)0) >> (63 - ((hi) - (lo))))
#define FXT_F(v, lo, hi)	((((__u64)(v)) & FXT_MASK(lo, hi)) << (lo))
#define FXT_G(w, lo, hi)	((((__u64)(w)) >> (lo)) & FXT_MASK(lo, hi))

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
 * The provider of fxt-collect's trailer (Documentation/records.rst,
 * "Archive layout"): kernel object records with each koid's newest name,
 * after every CPU's data. Never a CPU number.
 */
#define FXT_NAMES_PROVIDER_ID		0xffffffffu
#define FXT_NAMES_PROVIDER_NAME		"fxt-collect newest names"

/*
 * The "weight" argument of a thread wakeup (subtype 2) that changes no
 * thread's state: Perfetto's importer reads INT32_MIN as "idle" and leaves
 * the thread's state alone. fxt writes it for a wakeup of a thread that was
 * still on its run queue, running or preempted (Documentation/records.rst,
 * "Thread wakeup").
 */
#define FXT_WEIGHT_NO_STATE_CHANGE	0x80000000u

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
static inline __u64 fxt_record_header(unsigned int type, unsigned int words)
{
	return FXT_F(type, 0, 3) | FXT_F(words, 4, 15);
}

static inline unsigned int fxt_record_type(__u64 header)
{
	return (unsigned int)FXT_G(header, 0, 3);
}

static inline unsigned int fxt_record_words(__u64 header)
{
	return (unsigned int)FXT_G(header, 4, 15);
}

/* Metadata records. */
static inline __u64 fxt_provider_info_header(__u32 id, unsigned int name_len)
{
	return fxt_record_header(FXT_REC_METADATA, 1 + FXT_WORDS(name_len)) |
	       FXT_F(FXT_META_PROVIDER_INFO, 16, 19) | FXT_F(id, 20, 51) |
	       FXT_F(name_len, 52, 59);
}

static inline __u64 fxt_provider_section_header(__u32 id)
{
	return fxt_record_header(FXT_REC_METADATA, 1) |
	       FXT_F(FXT_META_PROVIDER_SECTION, 16, 19) | FXT_F(id, 20, 51);
}

static inline __u64 fxt_provider_event_header(__u32 id, unsigned int event)
{
	return fxt_record_header(FXT_REC_METADATA, 1) |
	       FXT_F(FXT_META_PROVIDER_EVENT, 16, 19) | FXT_F(id, 20, 51) |
	       FXT_F(event, 52, 55);
}

/* Initialization record: header + ticks per second. */
static inline __u64 fxt_init_header(void)
{
	return fxt_record_header(FXT_REC_INIT, 2);
}

/* String record: header + stream; index 1..0x7fff, len 0..0x7fff. */
static inline __u64 fxt_string_header(__u16 index, __u32 len)
{
	return fxt_record_header(FXT_REC_STRING, 1 + FXT_WORDS(len)) |
	       FXT_F(index, 16, 30) | FXT_F(len, 32, 46);
}

/* Thread record: header + process koid + thread koid. */
static inline __u64 fxt_thread_header(__u8 index)
{
	return fxt_record_header(FXT_REC_THREAD, 3) | FXT_F(index, 16, 23);
}

/* Kernel object record: header + koid + name stream + arguments. */
static inline __u64 fxt_kobj_header(unsigned int words, unsigned int obj_type,
				    __u16 name_ref, unsigned int nargs)
{
	return fxt_record_header(FXT_REC_KERNEL_OBJ, words) |
	       FXT_F(obj_type, 16, 23) | FXT_F(name_ref, 24, 39) |
	       FXT_F(nargs, 40, 43);
}

/* Event record: header + timestamp + [koids] + [streams] + args + data. */
static inline __u64 fxt_event_header(unsigned int words, unsigned int type,
				     unsigned int nargs, __u8 thread_ref,
				     __u16 category_ref, __u16 name_ref)
{
	return fxt_record_header(FXT_REC_EVENT, words) | FXT_F(type, 16, 19) |
	       FXT_F(nargs, 20, 23) | FXT_F(thread_ref, 24, 31) |
	       FXT_F(category_ref, 32, 47) | FXT_F(name_ref, 48, 63);
}

/* Context switch, subtype 0: header + timestamp + inline koid pairs. */
static inline __u64 fxt_switch_header(unsigned int words, unsigned int cpu,
				      unsigned int out_state, __u8 out_ref,
				      __u8 in_ref, __u8 out_prio, __u8 in_prio)
{
	return fxt_record_header(FXT_REC_SCHED, words) | FXT_F(cpu, 16, 23) |
	       FXT_F(out_state, 24, 27) | FXT_F(out_ref, 28, 35) |
	       FXT_F(in_ref, 36, 43) | FXT_F(out_prio, 44, 51) |
	       FXT_F(in_prio, 52, 59) |
	       FXT_F(FXT_SCHED_CONTEXT_SWITCH, 60, 63);
}

/* Thread wakeup, subtype 2: header + timestamp + woken koid + arguments. */
static inline __u64 fxt_wakeup_header(unsigned int words, unsigned int nargs,
				      unsigned int cpu)
{
	return fxt_record_header(FXT_REC_SCHED, words) | FXT_F(nargs, 16, 19) |
	       FXT_F(cpu, 20, 35) | FXT_F(FXT_SCHED_THREAD_WAKEUP, 60, 63);
}

static inline unsigned int fxt_sched_subtype(__u64 header)
{
	return (unsigned int)FXT_G(header, 60, 63);
}

/* Argument header: type [0..3], size [4..15], name [16..31], value [32..63]. */
static inline __u64 fxt_arg_header(unsigned int type, unsigned int words,
				   __u16 name_ref, __u32 value32)
{
	return FXT_F(type, 0, 3) | FXT_F(words, 4, 15) |
	       FXT_F(name_ref, 16, 31) | FXT_F(value32, 32, 63);
}

/*
 * Records fxt itself never emits, encoded here so that the user-space
 * library can write (for tests and round trips) every record type the
 * specification defines without spelling a header word anywhere else.
 */

/* Context switch, subtype 1: header + timestamp + out koid + in koid + args. */
static inline __u64 fxt_switch_v2_header(unsigned int words, unsigned int nargs,
					 unsigned int cpu,
					 unsigned int out_state)
{
	return fxt_record_header(FXT_REC_SCHED, words) | FXT_F(nargs, 16, 19) |
	       FXT_F(cpu, 20, 35) | FXT_F(out_state, 36, 39) |
	       FXT_F(FXT_SCHED_CONTEXT_SWITCH_V2, 60, 63);
}

/* Blob record: header + [name stream] + payload stream. */
static inline __u64 fxt_blob_header(unsigned int words, __u16 name_ref,
				    unsigned int size, unsigned int blob_type)
{
	return fxt_record_header(FXT_REC_BLOB, words) | FXT_F(name_ref, 16, 31) |
	       FXT_F(size, 32, 46) | FXT_F(blob_type, 48, 55);
}

/* Userspace object record: header + pointer + [pid] + [name] + args. */
static inline __u64 fxt_uobj_header(unsigned int words, __u8 process_ref,
				    __u16 name_ref, unsigned int nargs)
{
	return fxt_record_header(FXT_REC_USERSPACE_OBJ, words) |
	       FXT_F(process_ref, 16, 23) | FXT_F(name_ref, 24, 39) |
	       FXT_F(nargs, 40, 43);
}

/* Log record: header + timestamp + [koids] + message stream. */
static inline __u64 fxt_log_header(unsigned int words, unsigned int len,
				   __u8 thread_ref)
{
	return fxt_record_header(FXT_REC_LOG, words) | FXT_F(len, 16, 30) |
	       FXT_F(thread_ref, 32, 39);
}

/* Large records (type 15): 32-bit size in words [4..35], large type [36..39]. */
#define FXT_LARGE_BLOB			0	/* large record type */
#define FXT_LARGE_BLOB_WITH_METADATA	0	/* blob format */
#define FXT_LARGE_BLOB_NO_METADATA	1

static inline __u64 fxt_large_record_header(__u32 words, unsigned int large_type)
{
	return FXT_F(FXT_REC_LARGE, 0, 3) | FXT_F(words, 4, 35) |
	       FXT_F(large_type, 36, 39);
}

static inline __u64 fxt_large_blob_header(__u32 words, unsigned int format)
{
	return fxt_large_record_header(words, FXT_LARGE_BLOB) |
	       FXT_F(format, 40, 43);
}

/* Large blob format header word: category, name, [nargs, thread]. */
static inline __u64 fxt_large_blob_format_word(__u16 category_ref,
					       __u16 name_ref,
					       unsigned int nargs,
					       __u8 thread_ref)
{
	return FXT_F(category_ref, 0, 15) | FXT_F(name_ref, 16, 31) |
	       FXT_F(nargs, 32, 35) | FXT_F(thread_ref, 36, 43);
}

static inline __u64 fxt_large_record_words(__u64 header)
{
	return FXT_G(header, 4, 35);
}

#endif /* _FXT_FORMAT_H */
