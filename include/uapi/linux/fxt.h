/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * fxt: the user-kernel ABI of the fxt scheduler tracer, whole.
 *
 * The module exposes one misc device, /dev/fxt. A session is driven through
 * ioctls modelled on the Fuchsia trace controller (initialize, start, stop,
 * terminate; Documentation/abi.rst), the per-CPU buffers are mapped read-only
 * with one mmap() of the device, and the streaming hand-shake of the trace
 * provider FIFO travels as 16-byte packets: read() gives the collector
 * STARTED / SAVE_BUFFER / STOPPED, write() takes BUFFER_SAVED back.
 *
 * Mapping: CPU c's region starts at c * fxt_layout.cpu_stride; it is one
 * struct fxt_buffer_header page followed by the durable buffer and the two
 * rolling buffers (Documentation/buffers.rst has the diagram). All offsets
 * in a header are relative to the start of that CPU's region.
 */
#ifndef _UAPI_LINUX_FXT_H
#define _UAPI_LINUX_FXT_H

#include <linux/types.h>
#include <linux/ioctl.h>

#define FXT_DEVICE_PATH		"/dev/fxt"
/*
 * Bumped on every incompatible change. 2: the ioctl magic moved from 'F'
 * (linux/fb.h's) to 'Y'. 3: the CPUs with a region are FXT_IOC_GET_CPUS's
 * bitmap, of any size (fxt_layout.possible_cpus holds only the first 256),
 * and only present CPUs have one. 4: latency triggers (FXT_IOC_SET_TRIGGERS,
 * FXT_PKT_TRIGGERED) and fxt_cpu_stats.trigger_missed. A module and tools
 * of different versions refuse each other (ENOTTY, or a version check of
 * fxt_layout.abi_version).
 */
#define FXT_ABI_VERSION		5
/* Version of the packet protocol, sent in the STARTED packet's data32. */
#define FXT_FIFO_PROTOCOL_VERSION	1

/* Buffering modes; values of fuchsia.tracing/BufferingMode. */
enum fxt_buffering_mode {
	FXT_MODE_ONESHOT	= 1,	/* fill once, then drop */
	FXT_MODE_CIRCULAR	= 2,	/* roll, overwriting the older buffer */
	FXT_MODE_STREAMING	= 3,	/* roll only into a buffer already saved */
};

/* Session states; values of fuchsia.tracing.controller/SessionState. */
enum fxt_session_state {
	FXT_STATE_READY		= 1,
	FXT_STATE_INITIALIZED	= 2,
	FXT_STATE_STARTING	= 3,
	FXT_STATE_STARTED	= 4,
	FXT_STATE_STOPPING	= 5,
	FXT_STATE_STOPPED	= 6,
	FXT_STATE_TERMINATING	= 7,
};

/* Start dispositions; values of fuchsia.tracing/BufferDisposition. */
enum fxt_buffer_disposition {
	FXT_START_CLEAR_ENTIRE		= 1,	/* durable and rolling data */
	FXT_START_CLEAR_NONDURABLE	= 2,	/* rolling data only */
	FXT_START_RETAIN		= 3,	/* keep everything */
};

/* Categories: one bit each. Names are given by FXT_IOC_GET_CATEGORIES. */
#define FXT_CAT_SCHED		(1u << 0)	/* "sched": context switches */
#define FXT_CAT_WAKEUP		(1u << 1)	/* "wakeup": waking, wakeup_new */
#define FXT_CAT_IRQ		(1u << 2)	/* "irq": handlers and vectors */
#define FXT_CAT_SOFTIRQ		(1u << 3)	/* "softirq": softirq vectors */
#define FXT_CAT_POWER		(1u << 4)	/* "power": cpu_idle, cpu_frequency */
#define FXT_CAT_ALL		(FXT_CAT_SCHED | FXT_CAT_WAKEUP | \
				 FXT_CAT_IRQ | FXT_CAT_SOFTIRQ | FXT_CAT_POWER)
/*
 * Power is asked for: where CPUs idle, its events are a third of an
 * archive's bytes (Documentation/performance.rst, "The power category").
 */
#define FXT_CAT_DEFAULT		(FXT_CAT_SCHED | FXT_CAT_WAKEUP | \
				 FXT_CAT_IRQ | FXT_CAT_SOFTIRQ)

/* Per-CPU buffer size limits (bytes, header page included). */
#define FXT_BUFFER_SIZE_MIN	(64u << 10)
#define FXT_BUFFER_SIZE_MAX	(1024u << 20)
#define FXT_BUFFER_SIZE_DEFAULT	(8u << 20)

/* FXT_IOC_INITIALIZE: READY -> INITIALIZED. Reserved fields must be 0. */
struct fxt_config {
	__u64 buffer_size;	/* bytes per CPU, a multiple of the page size */
	__u32 mode;		/* enum fxt_buffering_mode */
	__u32 categories;	/* FXT_CAT_* bits, 0 for FXT_CAT_DEFAULT */
	__u64 durable_size;	/* bytes of it for durable records, 0: auto */
	__u64 reserved[4];
};

/* FXT_IOC_START: INITIALIZED or STOPPED -> STARTED. */
struct fxt_start_options {
	__u32 disposition;		/* enum fxt_buffer_disposition */
	__u32 additional_categories;	/* added to fxt_config.categories */
	__u64 reserved[2];
};

/* FXT_IOC_STOP: STARTED -> STOPPED. */
#define FXT_STOP_WRITE_RESULTS	(1u << 0)	/* the collector saves the data */
struct fxt_stop_options {
	__u32 flags;
	__u32 reserved;
};

/* FXT_IOC_GET_LAYOUT: where everything is in the mapping. */
struct fxt_layout {
	__u32 abi_version;	/* FXT_ABI_VERSION */
	__u32 nr_cpus;		/* CPU slots in the mapping (nr_cpu_ids) */
	__u64 cpu_stride;	/* bytes between two CPUs' regions */
	__u64 map_size;		/* nr_cpus * cpu_stride: the whole mapping */
	__u32 mode;
	__u32 categories;	/* configured; start may add more */
	__u64 possible_cpus[4];	/* CPUs 0-255 that have a region; all: GET_CPUS */
};

/* FXT_IOC_GET_STATS: in: cpu; out: the rest (Fuchsia ProviderStats). */
struct fxt_cpu_stats {
	__u32 cpu;
	__u32 flags;			/* FXT_CPU_* */
	__u64 records_written;		/* rolling records since the last clear */
	__u64 records_dropped;		/* rolling records refused */
	__u64 wrapped_count;		/* rolling buffer switches */
	__u64 durable_bytes;		/* durable data end */
	__u64 rolling_bytes;		/* data in the current rolling buffer */
	__u64 durable_records;		/* durable records written */
	__u64 durable_dropped;		/* durable records refused (buffer full) */
	__u64 trigger_missed;		/* latencies not measured: table full */
};

/*
 * FXT_IOC_GET_CPUS: the CPUs that have a region, as a bitmap of
 * fxt_layout.nr_cpus bits (bit c of word c / 64), any number of CPUs.
 */
struct fxt_cpu_set {
	__u32 nr_bits;		/* in: bits at @bits, at least layout.nr_cpus */
	__u32 reserved;		/* must be 0 */
	__u64 bits;		/* in: user address of (nr_bits + 63) / 64 __u64 */
};

/* FXT_IOC_GET_CATEGORIES: the categories the module knows. */
#define FXT_MAX_CATEGORIES	16
struct fxt_category {
	__u32 bit;		/* FXT_CAT_* */
	char name[28];		/* NUL-terminated */
};

struct fxt_categories {
	__u32 count;
	__u32 reserved;
	struct fxt_category cat[FXT_MAX_CATEGORIES];
};

/*
 * Latency triggers (circular mode only; Documentation/abi.rst, "Latency
 * triggers"). FXT_IOC_SET_TRIGGERS, in INITIALIZED or STOPPED, sets the
 * triggers every later START arms (count 0: none). An armed trigger fires
 * when a latency it measures is more than its threshold_ns, on a task (and
 * CPU) its filters match:
 *  - WAKEUP_LATENCY: from a wakeup that makes a thread runnable
 *    (sched_waking, sched_wakeup_new) to its switch in; needs the sched
 *    and wakeup categories;
 *  - OFF_CPU: from a switch out that blocks a thread (not a preemption)
 *    to its switch in; needs sched;
 *  - IRQ_DURATION: from a hard interrupt's or softirq's entry to its
 *    exit, nested interrupts included; needs irq or softirq; only the
 *    CPU filter applies.
 * Each firing writes an instant event on the thread concerned (the CPU's
 * interrupt pseudo-thread for IRQ_DURATION): category "fxt", name
 * "trigger" (include/fxt/format.h, Documentation/records.rst). The first
 * firing after a START opens the window: post_ns later every CPU stops
 * writing (the rolling data is frozen, nothing is counted as dropped), and
 * the collector gets one FXT_PKT_TRIGGERED. It then stops and saves, as
 * on any stop. Later firings before the freeze write their event only.
 */
enum fxt_trigger_kind {
	FXT_TRIGGER_WAKEUP_LATENCY	= 1,
	FXT_TRIGGER_OFF_CPU		= 2,
	FXT_TRIGGER_IRQ_DURATION	= 3,
};

/* fxt_trigger.match: the filters that apply (all of them must match). */
#define FXT_TRIGGER_MATCH_PID	(1u << 0)	/* the thread's id (task->pid) */
#define FXT_TRIGGER_MATCH_TGID	(1u << 1)	/* its process's id (task->tgid) */
#define FXT_TRIGGER_MATCH_COMM	(1u << 2)	/* its comm, exactly */
#define FXT_TRIGGER_MATCH_CPU	(1u << 3)	/* the CPU it is measured on */
/*
 * Its real user id, in the initial user namespace. Unlike comm, which any
 * process may set to anything, a user cannot take another's uid: with
 * MATCH_UID (or a pid or tgid), another user's latency cannot fire the
 * trigger and spend its window (Documentation/usage.rst, "Who can fire a
 * window").
 */
#define FXT_TRIGGER_MATCH_UID	(1u << 4)
#define FXT_TRIGGER_MATCH_ALL	0x1fu

#define FXT_TRIGGER_COMM_LEN	16		/* TASK_COMM_LEN */
#define FXT_MAX_TRIGGERS	8
#define FXT_TRIGGER_POST_MAX	(60ull * 1000000000ull)	/* ns */

struct fxt_trigger {
	__u32 kind;		/* enum fxt_trigger_kind */
	__u32 match;		/* FXT_TRIGGER_MATCH_* */
	__u64 threshold_ns;	/* fires above it; at least 1 */
	__u32 pid;
	__u32 tgid;
	__u32 cpu;
	__u32 uid;		/* with FXT_TRIGGER_MATCH_UID; else 0 */
	char comm[FXT_TRIGGER_COMM_LEN];	/* NUL-terminated */
};

struct fxt_trigger_set {
	__u32 count;		/* triggers at @trigger, at most FXT_MAX_TRIGGERS */
	__u32 reserved;		/* must be 0 */
	__u64 post_ns;		/* recording goes on this long after the first firing */
	struct fxt_trigger trigger[FXT_MAX_TRIGGERS];
};

/* 'Y': free in the kernel's Documentation/userspace-api/ioctl/ioctl-number.rst */
#define FXT_IOC_MAGIC	'Y'
#define FXT_IOC_INITIALIZE	_IOW(FXT_IOC_MAGIC, 1, struct fxt_config)
#define FXT_IOC_START		_IOW(FXT_IOC_MAGIC, 2, struct fxt_start_options)
#define FXT_IOC_STOP		_IOW(FXT_IOC_MAGIC, 3, struct fxt_stop_options)
#define FXT_IOC_TERMINATE	_IO(FXT_IOC_MAGIC, 4)
#define FXT_IOC_GET_STATE	_IOR(FXT_IOC_MAGIC, 5, __u32)
#define FXT_IOC_GET_LAYOUT	_IOR(FXT_IOC_MAGIC, 6, struct fxt_layout)
#define FXT_IOC_GET_STATS	_IOWR(FXT_IOC_MAGIC, 7, struct fxt_cpu_stats)
#define FXT_IOC_GET_CATEGORIES	_IOR(FXT_IOC_MAGIC, 8, struct fxt_categories)
#define FXT_IOC_GET_CPUS	_IOW(FXT_IOC_MAGIC, 9, struct fxt_cpu_set)
#define FXT_IOC_SET_TRIGGERS	_IOW(FXT_IOC_MAGIC, 10, struct fxt_trigger_set)

/*
 * Packets, the trace provider FIFO packet of fifo-packets.md. One fd carries
 * every CPU, and each CPU is its own FXT provider, so the field Fuchsia
 * reserves carries the CPU of a SAVE_BUFFER request (and of its answer).
 */
struct fxt_packet {
	__u16 request;		/* FXT_PKT_* */
	__u16 cpu;		/* SAVE_BUFFER / BUFFER_SAVED: the CPU, else 0 */
	__u32 data32;
	__u64 data64;
};

#define FXT_PKT_STARTED		0x0001	/* data32: FXT_FIFO_PROTOCOL_VERSION */
#define FXT_PKT_SAVE_BUFFER	0x0002	/* data32: wrapped count, data64: durable end */
#define FXT_PKT_BUFFER_SAVED	0x0003	/* collector -> kernel, same data as the request */
/*
 * All data is final and committed. data32: 1 if results are to be
 * written; data64: the boot time (ns) the recording ended at, on every CPU
 * and in every category at once (0 from a module before 2026-11).
 */
#define FXT_PKT_STOPPED		0x0004
/*
 * A trigger opened the window: cpu: where it fired; data32: the trigger's
 * index in fxt_trigger_set (bits 0-7) and the thread's id (bits 8-31; 0
 * for IRQ_DURATION); data64: the latency in ns. Every CPU stops writing
 * fxt_trigger_set.post_ns after the firing.
 */
#define FXT_PKT_TRIGGERED	0x0005
#define FXT_PKT_TRIGGER_INDEX(data32)	((data32) & 0xffu)
#define FXT_PKT_TRIGGER_TID(data32)	((data32) >> 8)

/* Per-CPU flags (fxt_buffer_header.flags, fxt_cpu_stats.flags). */
#define FXT_CPU_DURABLE_FULL	(1u << 0)	/* circular: CPU stopped; else spills */
#define FXT_CPU_ROLLING_FULL	(1u << 1)	/* full, or waiting for a save */
#define FXT_CPU_NOT_TRACED	(1u << 2)	/* stats: not present at INITIALIZE */

/*
 * The first page of each CPU's region. The kernel writes it; the collector
 * reads it. Offsets are bytes from the start of the region. "Live" fields
 * change while tracing: read them with acquire semantics and in the order
 * Documentation/buffers.rst gives.
 */
#define FXT_BUFFER_MAGIC	0x42545846u	/* "FXTB" */
#define FXT_ROLLING_OFFSET_BITS	32
#define FXT_ROLLING_OFFSET_MASK	((1ull << FXT_ROLLING_OFFSET_BITS) - 1)

struct fxt_buffer_header {
	__u32 magic;			/* FXT_BUFFER_MAGIC */
	__u32 version;			/* FXT_ABI_VERSION */
	__u32 cpu;
	__u32 mode;			/* enum fxt_buffering_mode */
	__u64 region_size;		/* header page + durable + rolling */
	__u64 durable_offset;
	__u64 durable_size;
	__u64 rolling_offset[2];	/* oneshot: one buffer, [1] is 0 */
	__u64 rolling_size;		/* size of each rolling buffer */

	/* live */
	__u64 durable_reserved;		/* bytes handed to writers */
	__u64 durable_committed;	/* bytes whose writers finished */
	__u64 rolling_current;		/* wrapped count << 32 | offset */
	__u64 rolling_committed[2];	/* bytes finished in each buffer */
	__u64 rolling_data_end[2];	/* end of a buffer once switched away */
	__u64 records_written;		/* rolling records committed */
	__u64 records_dropped;		/* rolling records refused */
	__u64 flags;			/* FXT_CPU_* */
	__u64 durable_records;		/* durable records committed */
	__u64 durable_dropped;		/* durable records refused */
	__u64 rolling_lost_before[2];	/* records_dropped when rolled into */
};

#endif /* _UAPI_LINUX_FXT_H */
