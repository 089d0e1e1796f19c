/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fxt.h - internal declarations shared by the files of fxt.ko.
 *
 * The file list is the design. The writer is a stack; each layer calls
 * only the ones below it, and has a header of its own for its inline
 * fast path (a header named as its .c file):
 *
 *   probes         fxt_probes.c     tracepoint lookup, registration, and
 *                                   the scheduler, name and power probes
 *                  fxt_irq_probes.c the interrupt probes and their nesting
 *                  fxt_probe_entry.S  sched_switch's probe entry (x86_64):
 *                                   where it was called from, for the walk,
 *                                   without a frame pointer
 *   event writers  fxt_records.c    switch, wakeup, trigger, power and
 *                                   interrupt records, one writer per kind
 *                  fxt_sleep.c      the sleep event: D, I, P, t and the
 *                                   function blocked in
 *                  fxt_stack.c      the frames above the sched_switch probe,
 *                                   stepped with the kernel's ORC data
 *                  fxt_triggers.c   latency triggers: measure in the probes,
 *                    (.h)           close the window
 *                  fxt_wakeups.c    wakeups written once their thread has
 *                                   left its CPU
 *   definitions    fxt_names.c (.h) kernel object records: start snapshot,
 *                                   fork, rename, exec (with the command
 *                                   line), circular mode's naming in the
 *                                   window
 *                  fxt_tables.c (.h) per-CPU string and thread tables
 *                  fxt_def_records.c (.h) string, thread and kernel object
 *                                   records, and each CPU's preamble
 *   buffer         fxt_buffer.c (.h) reserve, commit, roll; the save
 *                                   hand-shake; knows nothing above it
 *                  fxt_buffer_setup.c each CPU's region: allocation,
 *                                   layout, emptying, GET_STATS' counters
 *
 * Beside the stack, the control side:
 *   fxt_main.c     module init/exit, the misc device
 *   fxt_dev.c      file operations: ioctl, mmap, read/write/poll of packets
 *   fxt_session.c  the controller state machine (initialize..terminate);
 *                  a start empties the buffers, then the definitions
 *   fxt_packets.c  the packet FIFO (STARTED, SAVE_BUFFER, STOPPED)
 *   fxt_hotplug.c  the switch a CPU going offline does not trace
 *   fxt_mem.c      every allocation, charged to the caller's cgroup, counted
 */
#ifndef _FXT_INTERNAL_H
#define _FXT_INTERNAL_H

#include <linux/types.h>
#include <linux/cpumask.h>
#include <linux/irq_work.h>
#include <linux/kallsyms.h>
#include <linux/percpu.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/kfifo.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <asm/local.h>
#include <linux/fxt.h>

/* Constant strings, pre-registered in every CPU's string table at start. */
enum fxt_const_string {
	FXT_S_NONE = 0,
	FXT_S_SCHED,		/* category names, FXT_CAT_* order */
	FXT_S_WAKEUP,
	FXT_S_IRQ,		/* also the "irq" argument name */
	FXT_S_SOFTIRQ,
	FXT_S_POWER,
	FXT_S_PERFETTO,		/* the name of embedded Perfetto blobs */
	FXT_S_PROCESS,		/* argument names */
	FXT_S_WAKER,
	FXT_S_WAKING_CPU,
	FXT_S_WEIGHT,
	FXT_S_HANDLED,
	FXT_S_VECTOR,
	FXT_S_NAMED_AT,		/* kernel object records' name time */
	FXT_S_PARENT,		/* process records' parent and command line */
	FXT_S_CMDLINE,
	FXT_S_OUT_WEIGHT,	/* the wide context switch's arguments */
	FXT_S_IN_WEIGHT,
	FXT_S_FXT,		/* the trigger event: category, name, arguments */
	FXT_S_TRIGGER,		/* also the "trigger" argument's name */
	FXT_S_KIND,
	FXT_S_LATENCY,
	FXT_S_THRESHOLD,
	FXT_S_FIRST,
	FXT_S_KIND_FIRST,	/* kind names, by enum fxt_trigger_kind - 1 */
	FXT_S_KIND_LAST = FXT_S_KIND_FIRST + FXT_TRIGGER_IRQ_DURATION - 1,
	FXT_S_BLOCKED_IN,	/* the sleep event's argument (fxt_sleep.c) */
	FXT_S_SLEEP_FIRST,	/* sleep event names, FXT_SLEEP_STATES order */
	FXT_S_SLEEP_LAST = FXT_S_SLEEP_FIRST + 3,
	FXT_S_SOFTIRQ_FIRST,	/* softirq vector names, NR_SOFTIRQS of them */
	FXT_S_VECTOR_FIRST = FXT_S_SOFTIRQ_FIRST + 10,
	FXT_S_VECTOR_LAST = FXT_S_VECTOR_FIRST + 15,
	FXT_S_FIRST_DYNAMIC,	/* first index handed out at run time */
};

/*
 * The interrupt tracks' pseudo koids, FXT_KOID_IRQ_PROCESS and
 * FXT_KOID_IRQ_THREAD(cpu), are in include/fxt/format.h.
 */
/* Thread index of the CPU's interrupt pseudo-thread. */
#define FXT_IRQ_THREAD_INDEX	1

/* Per-CPU thread table: tid -> FXT thread index (fxt_tables.c). */
#define FXT_THREAD_SLOTS	512	/* power of two */
#define FXT_THREAD_PROBES	8	/* linear probe length */
#define FXT_THREAD_PROMOTE	2	/* sightings before a thread is indexed */

struct fxt_thread_slot {
	u32 tid;
	u32 tgid;
	u8 index;		/* 0: not (yet) indexed */
	u8 seen;		/* 0: slot free */
};

/* Strings fxt writes (string records, inline names) are cut at this length. */
#define FXT_NAME_MAX		255

/*
 * Per-CPU cache of interrupt handler name strings (fxt_tables.c), keyed on
 * (irq, keyed hash of the name's bytes); a lookup probes FXT_IRQ_NAME_WAYS
 * slots.
 */
#define FXT_IRQ_NAME_SLOTS	256	/* power of two */

#define FXT_IRQ_NAME_WAYS	8

struct fxt_irq_name_slot {
	u64 hash;		/* siphash of the name's bytes, up to FXT_NAME_MAX */
	int irq;
	u16 index;		/* 0: free */
};

/*
 * One level of interrupt nesting on a CPU (fxt_irq_probes.c): what its begin
 * opened, so that only the end of that same interrupt closes it.
 */
enum fxt_irq_kind {
	FXT_IRQ_HANDLER = 1,	/* irq_handler_entry/exit; number: the irq */
	FXT_IRQ_SOFTIRQ,	/* softirq_entry/exit; number: the vector */
	FXT_IRQ_VECTOR,		/* x86 irq_vectors; number: its name's index */
};

#define FXT_IRQ_MAX_DEPTH	16

struct fxt_irq_level {
	const char *inline_name;	/* the handler's name when @name is 0 */
	u64 begin_ns;		/* for an interrupt trigger (0: not measured) */
	u32 number;
	u32 arg_value;		/* the begin's argument */
	u16 name;		/* the begin's name index; 0: inline or none */
	u16 cat;		/* the begin's category */
	u16 arg_name;
	u8 arg_type;
	u8 kind;		/* enum fxt_irq_kind */
	u8 written;		/* the begin event is in the buffer */
};

/*
 * Circular mode names threads and processes in the rolling data
 * (fxt_names.c): which were named in which rolling buffer generation.
 * Direct-mapped; a collision only writes a name once more. A tid (or
 * tgid) reused by a later task is another task: the slot holds the start
 * time of the task (or of the process's leader) it named.
 */
#define FXT_NAME_SLOTS		256	/* power of two */
#define FXT_NAME_PROCESS	BIT(31)	/* key bit: a process (tgid) */

struct fxt_name_slot {
	u32 key;		/* tid, or tgid | FXT_NAME_PROCESS; 0: free */
	u32 gen;		/* rolling generation it was named in */
	u64 born;		/* that task's start_time */
};

/*
 * Per-CPU cache of the functions threads blocked in (fxt_sleep.c): return
 * address -> string index. Direct-mapped, FXT_SYM_WAYS probes; valid while
 * @gen is the module-unload generation it was filled in.
 */
#define FXT_SYM_SLOTS		64	/* power of two */
#define FXT_SYM_WAYS		4

struct fxt_sym_slot {
	unsigned long addr;	/* 0: free */
	u32 gen;
	u16 index;
};

/*
 * Per-CPU cache of how to step over vmlinux frames, from the kernel's ORC
 * table (fxt_stack.c): return address -> the ORC rule for its frame;
 * sp_reg ORC_REG_UNDEFINED (0) for a frame only the unwinder steps over.
 * Direct-mapped; never stale (vmlinux text does not change).
 */
#define FXT_FRAME_SLOTS		32	/* power of two */

struct fxt_frame_slot {
	unsigned long ret;	/* 0: free */
	s16 sp_offset, bp_offset;
	u8 sp_reg, bp_reg;
};

/* A frame being stepped over: its return address, stack, frame pointer */
struct fxt_frame {
	unsigned long ret, sp, bp;
};

/* Everything a CPU owns. Only probes on that CPU write it (plus control). */
struct fxt_cpu {
	unsigned int cpu;
	struct fxt_buffer_header *hdr;	/* first page of the CPU's region */
	struct page **pages;		/* the region's pages (fxt_region_alloc()) */
	u8 *durable;
	u8 *rolling[2];
	u64 durable_size;
	u64 rolling_size;

	/* streaming: buffer i may be rolled into (bit i); see fxt_buffer.c */
	unsigned long ready;
	/* the outstanding SAVE_BUFFER request, valid while save_pending */
	u32 save_wrapped;
	u64 save_durable_end;
	bool save_pending;		/* written on the CPU, read by control */
	struct irq_work save_work;	/* posts the packet outside the probe */

	/* the durable buffer was emptied: write the preamble at start */
	bool need_preamble;

	/*
	 * The incoming thread of the last context switch record in this
	 * CPU's rolling data (0: the idle task, or none), for the switches
	 * the data lacks (fxt_emit_switch_to_idle()).
	 */
	u32 last_tid, last_tgid;
	u8 last_prio;

	/*
	 * Interrupt nesting on this CPU (fxt_irq_probes.c): the open levels,
	 * innermost at irq_depth - 1 (those above FXT_IRQ_MAX_DEPTH only
	 * counted), so that an end is written exactly when its begin was.
	 */
	unsigned int irq_depth;
	struct fxt_irq_level irq_stack[FXT_IRQ_MAX_DEPTH];

	/* tables; touched only by probes on this CPU (fxt_tables.c) */
	u16 next_string;
	u8 next_thread;
	u8 irq_name_victim;		/* next way replaced when all are taken */
	struct fxt_thread_slot threads[FXT_THREAD_SLOTS];
	struct fxt_irq_name_slot irq_names[FXT_IRQ_NAME_SLOTS];

	/* circular mode: names written in the rolling data (fxt_names.c) */
	struct fxt_name_slot names[FXT_NAME_SLOTS];

	/* functions threads blocked in (fxt_sleep.c); sched_switch only */
	u8 sym_victim;
	unsigned long sleep_ip, sleep_sp, sleep_bp;	/* fxt_sleep_caller() */
	u64 sleep_hdr, sleep_arg;	/* fxt_sleep_prepare() */
	unsigned int sleep_len;
	struct fxt_sym_slot syms[FXT_SYM_SLOTS];
	struct fxt_frame_slot frames[FXT_FRAME_SLOTS];
	char sym_buf[KSYM_SYMBOL_LEN];

	/* latencies not measured: a trigger table note pushed out */
	local_t trig_missed;
};

/* Latency triggers (fxt_triggers.c). */
struct fxt_trig_state {
	struct fxt_trigger_set set;	/* as FXT_IOC_SET_TRIGGERS gave it */
	u32 kinds;			/* BIT(kind) of each armed kind */
	u32 anyone;			/* BIT(kind): one matches every task */
	/* per kind: the least threshold (ns); no lower latency can fire */
	u64 least_ns[FXT_TRIGGER_IRQ_DURATION + 1];
	atomic_t fired;			/* a window is open */
	atomic64_t *wakeups;		/* notes of wakeups (wakeup latency) */
	atomic64_t *blocked;		/* notes of blocks (off-CPU time) */
	struct irq_work work;		/* posts TRIGGERED */
	u16 pkt_cpu;			/* TRIGGERED's fields */
	u32 pkt_data32;
	u64 pkt_data64;
};

/* The one session (one opener at a time). */
struct fxt_session {
	struct mutex lock;		/* serialises control operations */
	u32 state;			/* enum fxt_session_state */
	u32 mode;
	u32 categories;			/* configured */
	u32 active_categories;		/* configured + start's additions */
	bool aborted;			/* a start failed half-way */
	bool results_written;		/* last stop asked to write results */
	u64 cpu_stride;			/* a region's size */
	u64 map_size;			/* nr_cpu_ids regions, traced or not */
	u64 durable_size;
	/*
	 * nr_cpu_ids entries; NULL for a CPU that was not present at
	 * INITIALIZE, which has no region and is not traced (its events are
	 * counted in fxt_untraced). NULL before INITIALIZE.
	 */
	struct fxt_cpu **cpus;
	cpumask_var_t traced;		/* the CPUs with an entry (once INITIALIZE succeeded) */
	atomic_t map_count;		/* live mappings of the regions */

	/*
	 * Packets to the collector (fxt_packets.c). pkt_lock is raw: the save
	 * irq_work posts in hard interrupt context, on PREEMPT_RT too.
	 */
	raw_spinlock_t pkt_lock;	/* every change to the FIFO */
	struct mutex pkt_read_lock;	/* one reader at a time */
	DECLARE_KFIFO_PTR(pkts, struct fxt_packet);
	u32 pkt_resets;			/* times the FIFO was emptied */
	u32 pkt_drops;			/* times control packets were dropped */
	unsigned long *pkt_delivered;	/* CPUs whose SAVE_BUFFER was read */
	wait_queue_head_t pkt_wait;
	struct work_struct pkt_wake_work; /* PREEMPT_RT: wakes pkt_wait */

	struct fxt_trig_state trig;
	/*
	 * The rolling buffers refuse records from this boot time (ns) on: a
	 * trigger's window closed (fxt_triggers.c), or a stop ended the
	 * recording (fxt_session.c); only ever moved earlier. 0: never.
	 */
	u64 freeze_at;

	/* Wakeups waiting for their thread to leave a CPU (fxt_wakeups.c). */
	struct fxt_wake_slot *wake_slots;
	unsigned int wake_slots_bits;
};

extern struct fxt_session fxt_session;

/* A wakeup's waker and the CPU that woke, as its record names them. */
struct fxt_waker {
	u32 koid;		/* a tid, or the CPU's interrupt pseudo-thread */
	u16 cpu;		/* the CPU that ran try_to_wake_up() */
	bool by_thread;		/* koid is the thread that ran it */
	bool deferred;		/* written later, maybe on another CPU */
};

/* fxt_stack.c */
unsigned long fxt_kernel_symbol(const char *name);
void fxt_stack_init(void);
bool fxt_stack_walkable(void);
bool fxt_stack_step(struct fxt_cpu *c, struct fxt_frame *f);

/* fxt_sleep.c */
int fxt_sleep_init(void);
void fxt_sleep_exit(void);
unsigned int fxt_sleep_prepare(struct fxt_cpu *c, struct task_struct *prev,
			       unsigned int prev_state, u8 out_ref);
void fxt_sleep_fill(struct fxt_cpu *c, u64 *p, u64 ts,
		    struct task_struct *prev);
void fxt_emit_sleep(struct fxt_cpu *c, struct task_struct *prev,
		    unsigned int words, u64 ts);
void fxt_sleep_caller(struct fxt_cpu *c, unsigned long ip, unsigned long sp,
		      unsigned long bp);

/*
 * sched_switch's probe on x86_64: the entry the tracepoint calls
 * (fxt_probe_entry.S) and the C probe it jumps to (fxt_probes.c). The
 * entry's prototype is checked against the tracepoint's (FXT_HOOK); the
 * C probe's is the entry's with data as the stack pointer and a sixth
 * argument (%r9, free after five), so change the three together.
 */
void fxt_probe_switch_entry(void *data, bool preempt, struct task_struct *prev,
			    struct task_struct *next, unsigned int prev_state);
void fxt_probe_switch(unsigned long entry_sp, bool preempt,
		      struct task_struct *prev, struct task_struct *next,
		      unsigned int prev_state, unsigned long entry_bp);

/*
 * Linux states a switch's outgoing state does not tell apart (D, I, P, t):
 * any of these bits in prev_state may make one (fxt_sleep_prepare()).
 */
#ifdef TASK_FROZEN
#define FXT_SLEEP_DETAIL_BITS	(TASK_UNINTERRUPTIBLE | TASK_PARKED | \
				 __TASK_TRACED | TASK_RTLOCK_WAIT | TASK_FROZEN)
#else
#define FXT_SLEEP_DETAIL_BITS	(TASK_UNINTERRUPTIBLE | TASK_PARKED | \
				 __TASK_TRACED | TASK_RTLOCK_WAIT)
#endif

/* fxt_wakeups.c */
struct fxt_wake_slot {
	struct task_struct *task;	/* NULL: free */
	struct fxt_waker waker;
};

int fxt_wakeups_alloc(struct fxt_session *s);
void fxt_wakeups_free(struct fxt_session *s);
void fxt_wakeups_clear(struct fxt_session *s);
bool fxt_wakeup_defer(struct task_struct *p, const struct fxt_waker *w);
bool fxt_wakeup_take(struct task_struct *p, struct fxt_waker *w);

/* fxt_hotplug.c */
int fxt_hotplug_init(void);
void fxt_hotplug_exit(void);
void fxt_hotplug_start(struct fxt_session *s, bool sched);
void fxt_hotplug_stop(void);

/* The header's live counters are local_t words in the shared page. */
#define FXT_LOCAL(field)	((local_t *)&(field))

DECLARE_PER_CPU(u64, fxt_untraced);

/*
 * This CPU's state, or NULL when it has none (it was added after
 * INITIALIZE): the probe then only counts the event it lost.
 */
static inline struct fxt_cpu *fxt_this_cpu(void)
{
	struct fxt_cpu *c = fxt_session.cpus[smp_processor_id()];

	if (unlikely(!c))
		this_cpu_inc(fxt_untraced);
	return c;
}

/* fxt_packets.c */
int fxt_packets_init(struct fxt_session *s);
void fxt_packets_free(struct fxt_session *s);
void fxt_packets_reset(struct fxt_session *s);
void fxt_packets_drop_control(struct fxt_session *s);
void fxt_packet_post(struct fxt_session *s, u16 request, u16 cpu,
		     u32 data32, u64 data64);
void fxt_packet_post_hardirq(struct fxt_session *s, u16 request, u16 cpu,
			     u32 data32, u64 data64);
bool fxt_packets_pending(struct fxt_session *s);
bool fxt_packets_take_delivered(struct fxt_session *s, unsigned int cpu);
ssize_t fxt_packets_read(struct fxt_session *s, char __user *buf,
			 size_t count, bool nonblock);

/* fxt_records.c */
u8 fxt_prio(const struct task_struct *p);
unsigned int fxt_out_state(bool preempt, unsigned int prev_state,
			   const struct task_struct *prev);
u64 fxt_emit_switch(struct fxt_cpu *c, bool preempt,
		    struct task_struct *prev, struct task_struct *next,
		     unsigned int prev_state);
u64 fxt_emit_switch_sleep(struct fxt_cpu *c, bool preempt,
			  struct task_struct *prev, struct task_struct *next,
			   unsigned int prev_state);
void fxt_waker_of_current(struct fxt_cpu *c, struct fxt_waker *w);
u64 fxt_emit_wakeup(struct fxt_cpu *c, struct task_struct *p, bool queued,
		    const struct fxt_waker *w);
void fxt_emit_switch_to_idle(struct fxt_cpu *c);
void fxt_emit_power(struct fxt_cpu *c, unsigned int event, u32 cpu_id,
		    u32 pid, u32 state);
void fxt_emit_trigger(struct fxt_cpu *c, struct task_struct *p, u32 kind,
		      u64 latency, u64 threshold, unsigned int index,
		       bool first);
bool fxt_emit_irq_event(struct fxt_cpu *c, unsigned int type, u16 cat,
			u16 name, const char *inline_name, u16 arg_name,
			 unsigned int arg_type, u32 arg_value);

/* fxt_mem.c: allocations counted in /sys/module/fxt/parameters/mem_bytes */
void fxt_mem_account(long bytes);
void *fxt_kvcalloc(size_t n, size_t size);
void fxt_kvfree(void *p, size_t bytes);
struct fxt_cpu *fxt_cpu_alloc(unsigned int cpu);
void fxt_cpu_free(struct fxt_cpu *c);
bool fxt_mem_affordable(u64 bytes);
void *fxt_region_alloc(unsigned int cpu, unsigned long bytes,
		       struct page ***pages);
void fxt_region_free(void *addr, struct page **pages, unsigned long bytes);
unsigned long *fxt_bitmap_zalloc(unsigned int nbits);
void fxt_bitmap_free(unsigned long *p, unsigned int nbits);

/* fxt_probes.c */
int fxt_probes_find(void);
int fxt_probes_register(u32 categories, bool stamp_names);
void fxt_probes_unregister(void);

/*
 * The benchmark's pieces of the sched_switch probe (bench/fxt-parts): a
 * build with FXT_PROBE_PART=N (KCFLAGS) returns from the probe after piece
 * N, so that probebench times the pieces of the real code one by one:
 * 1 the probe's entry and its CPU state, 2 also both thread lookups, the
 * outgoing state and the priorities; in circular mode, 3 also the room
 * made for names, 4 also the window's name cache for both threads. 0, the
 * only value a module meant for tracing is built with, stops nowhere and
 * compiles to nothing.
 */
#ifndef FXT_PROBE_PART
#define FXT_PROBE_PART	0
#endif

/* Is a trigger of any kind armed? One load when none is. */
static inline bool fxt_trig_armed(void)
{
	return unlikely(READ_ONCE(fxt_session.trig.kinds));
}

/* fxt_dev.c */
extern const struct file_operations fxt_fops;

/* fxt_session.c */
long fxt_session_ioctl(struct fxt_session *s, unsigned int cmd,
		       unsigned long arg);
void fxt_session_release(struct fxt_session *s);
int fxt_session_init(struct fxt_session *s);
void fxt_session_exit(struct fxt_session *s);

#endif /* _FXT_INTERNAL_H */
