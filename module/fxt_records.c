// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_records.c - the FXT records fxt.ko writes, one writer per kind.
 *
 * Header words come from include/fxt/format.h and nowhere else. What each
 * record means, and how Linux state maps onto FXT fields, is written down in
 * Documentation/records.rst; keep the two in step.
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/interrupt.h>
#include <fxt/format.h>
#include <fxt/perfetto_blob.h>
#include "fxt.h"
#include "fxt_fastpath.h"

static const char *const fxt_fixed_strings[FXT_S_SOFTIRQ_FIRST] = {
	[FXT_S_SCHED] = FXT_CAT_NAME_SCHED,
	[FXT_S_WAKEUP] = FXT_CAT_NAME_WAKEUP,
	[FXT_S_IRQ] = FXT_CAT_NAME_IRQ,
	[FXT_S_SOFTIRQ] = FXT_CAT_NAME_SOFTIRQ,
	[FXT_S_POWER] = FXT_CAT_NAME_POWER,
	[FXT_S_PERFETTO] = FXT_BLOB_NAME_PERFETTO,
	[FXT_S_PROCESS] = FXT_ARG_NAME_PROCESS,
	[FXT_S_WAKER] = FXT_ARG_NAME_WAKER,
	[FXT_S_WAKING_CPU] = FXT_ARG_NAME_WAKING_CPU,
	[FXT_S_WEIGHT] = FXT_ARG_NAME_WEIGHT,
	[FXT_S_HANDLED] = FXT_ARG_NAME_HANDLED,
	[FXT_S_VECTOR] = FXT_ARG_NAME_VECTOR,
	[FXT_S_NAMED_AT] = FXT_ARG_NAME_NAMED_AT,
	[FXT_S_PARENT] = FXT_ARG_NAME_PARENT,
	[FXT_S_CMDLINE] = FXT_ARG_NAME_CMDLINE,
	[FXT_S_OUT_WEIGHT] = FXT_ARG_NAME_OUTGOING_WEIGHT,
	[FXT_S_IN_WEIGHT] = FXT_ARG_NAME_INCOMING_WEIGHT,
	[FXT_S_FXT] = FXT_TRIGGER_CATEGORY,
	[FXT_S_TRIGGER] = FXT_TRIGGER_EVENT_NAME,
	[FXT_S_KIND] = FXT_TRIGGER_ARG_KIND,
	[FXT_S_LATENCY] = FXT_TRIGGER_ARG_LATENCY,
	[FXT_S_THRESHOLD] = FXT_TRIGGER_ARG_THRESHOLD,
	[FXT_S_FIRST] = FXT_TRIGGER_ARG_FIRST,
	[FXT_S_KIND_FIRST + FXT_TRIGGER_WAKEUP_LATENCY - 1] =
		FXT_TRIGGER_NAME_WAKEUP_LATENCY,
	[FXT_S_KIND_FIRST + FXT_TRIGGER_OFF_CPU - 1] = FXT_TRIGGER_NAME_OFF_CPU,
	[FXT_S_KIND_FIRST + FXT_TRIGGER_IRQ_DURATION - 1] =
		FXT_TRIGGER_NAME_IRQ_DURATION,
	[FXT_S_BLOCKED_IN] = FXT_ARG_NAME_BLOCKED_IN,
	[FXT_S_SLEEP_FIRST] = "D",	/* FXT_SLEEP_STATES, one each */
	[FXT_S_SLEEP_FIRST + 1] = "I",
	[FXT_S_SLEEP_FIRST + 2] = "P",
	[FXT_S_SLEEP_FIRST + 3] = "t",
};

/* The kernel's softirq_to_name[], which is not exported. */
static const char *const fxt_softirq_names[NR_SOFTIRQS] = {
	FXT_SOFTIRQ_NAMES
};

/**
 * fxt_const_string() - the text of a constant string index
 * @index: FXT_S_* below FXT_S_FIRST_DYNAMIC
 *
 * Return: the string, or NULL for an index with no constant string.
 */
const char *fxt_const_string(unsigned int index)
{
	BUILD_BUG_ON(FXT_S_VECTOR_FIRST - FXT_S_SOFTIRQ_FIRST < NR_SOFTIRQS);

	if (index < FXT_S_SOFTIRQ_FIRST)
		return fxt_fixed_strings[index];
	if (index < FXT_S_SOFTIRQ_FIRST + NR_SOFTIRQS)
		return fxt_softirq_names[index - FXT_S_SOFTIRQ_FIRST];
	if (index >= FXT_S_VECTOR_FIRST &&
	    index - FXT_S_VECTOR_FIRST < fxt_nr_vector_names)
		return fxt_vector_names[index - FXT_S_VECTOR_FIRST];
	return NULL;
}

/**
 * fxt_prio() - a task's FXT priority
 * @p: the task
 *
 * Return: larger is more important; 0 is reserved for idle.
 */
u8 fxt_prio(const struct task_struct *p)
{
	int prio = p->prio;

	if (!p->pid)
		return 0;
	if (prio < 0)
		return 141;		/* deadline */
	if (prio >= MAX_PRIO)
		return 1;
	return 140 - prio;
}

/**
 * fxt_out_state() - the FXT state of a context switch's outgoing thread
 * @preempt: sched_switch's preempt
 * @prev_state: sched_switch's prev_state
 * @prev: the outgoing task
 *
 * Return: an FXT_THREAD_* state; "running" (1) is never written.
 */
unsigned int fxt_out_state(bool preempt, unsigned int prev_state,
			   const struct task_struct *prev)
{
	if (preempt || prev_state == TASK_RUNNING)
		return FXT_THREAD_NEW;
	if (prev_state & TASK_DEAD)
		return (READ_ONCE(prev->exit_state) & EXIT_DEAD) ?
			FXT_THREAD_DEAD : FXT_THREAD_DYING;
	if (prev_state & (__TASK_STOPPED | __TASK_TRACED))
		return FXT_THREAD_SUSPENDED;
	return FXT_THREAD_BLOCKED;
}

/* Copy a string into a record's stream, zero-padded to 8 bytes. */
static u64 *fxt_put_stream(u64 *p, const char *str, unsigned int len)
{
	unsigned int words = FXT_WORDS(len);

	if (words) {
		p[words - 1] = 0;
		memcpy(p, str, len);
	}
	return p + words;
}

/**
 * fxt_write_string() - a string record in the durable buffer
 * @c: this CPU; preemption disabled
 * @index: the string index it defines
 * @str: the string, cut at FXT_NAME_MAX bytes
 *
 * Return: whether it was written.
 */
bool fxt_write_string(struct fxt_cpu *c, u16 index, const char *str)
{
	unsigned int len = strnlen(str, FXT_NAME_MAX);
	unsigned int words = 1 + FXT_WORDS(len);
	int where;
	u64 *p = fxt_durable_reserve(c, words * 8, &where);

	if (!p)
		return false;
	p[0] = fxt_string_header(index, len);
	fxt_put_stream(p + 1, str, len);
	fxt_durable_commit(c, words * 8, where);
	return true;
}

/**
 * fxt_write_thread() - a thread record in the durable buffer
 * @c: this CPU; interrupts off
 * @index: the thread index it defines
 * @pid: the process koid
 * @tid: the thread koid
 *
 * Return: whether it was written.
 */
bool fxt_write_thread(struct fxt_cpu *c, u8 index, u64 pid, u64 tid)
{
	int where;
	u64 *p = fxt_durable_reserve(c, 3 * 8, &where);

	if (!p)
		return false;
	p[0] = fxt_thread_header(index);
	p[1] = pid;
	p[2] = tid;
	fxt_durable_commit(c, 3 * 8, where);
	return true;
}

/*
 * Where a kernel object record goes: the durable buffer, or with @rolling
 * (circular mode's names, fxt_names.c) the rolling data, next to the
 * records that need the name. @where is for fxt_kobj_commit().
 */
static u64 *fxt_kobj_reserve(struct fxt_cpu *c, unsigned int len, bool rolling,
			     int *where)
{
	unsigned int bufno;
	u64 ts, *p;

	if (!rolling)
		return fxt_durable_reserve(c, len, where);
	p = fxt_rolling_reserve(c, len, &ts, &bufno);
	*where = bufno;
	return p;
}

static void fxt_kobj_commit(struct fxt_cpu *c, unsigned int len, bool rolling,
			    int where)
{
	if (rolling)
		fxt_rolling_commit(c, len, where);
	else
		fxt_durable_commit(c, len, where);
}

/**
 * fxt_write_kobj_process() - a process's kernel object record
 * @c: this CPU; preemption disabled
 * @o: what it says. o->named_at, when not 0, is written as the uint64
 *	argument "named_at": the boot-time ns at which the name took effect,
 *	by which fxt-collect finds each koid's newest name (records.rst);
 *	o->parent as the koid argument "parent", o->cmdline as the string
 *	argument "cmdline" (at most FXT_CMDLINE_MAX bytes).
 * @rolling: in the rolling data (circular mode), not the durable buffer
 */
void fxt_write_kobj_process(struct fxt_cpu *c, const struct fxt_kobj_process *o,
			    bool rolling)
{
	unsigned int len = strnlen(o->name, TASK_COMM_LEN);
	unsigned int clen = min_t(unsigned int, o->cmdline_len, FXT_CMDLINE_MAX);
	unsigned int nargs = 0, words = 2 + FXT_WORDS(len);
	int where;
	u64 *p;

	if (o->named_at) {
		nargs++;
		words += 2;
	}
	if (o->parent != FXT_NO_PARENT) {
		nargs++;
		words += 2;
	}
	if (o->cmdline) {
		nargs++;
		words += 1 + FXT_WORDS(clen);
	}
	p = fxt_kobj_reserve(c, words * 8, rolling, &where);
	if (!p)
		return;
	p[0] = fxt_kobj_header(words, FXT_OBJ_PROCESS,
			       fxt_inline_string_ref(len), nargs);
	p[1] = o->koid;
	p = fxt_put_stream(p + 2, o->name, len);
	if (o->named_at) {
		p[0] = fxt_arg_header(FXT_ARG_UINT64, 2, FXT_S_NAMED_AT, 0);
		p[1] = o->named_at;
		p += 2;
	}
	if (o->parent != FXT_NO_PARENT) {
		p[0] = fxt_arg_header(FXT_ARG_KOID, 2, FXT_S_PARENT, 0);
		p[1] = o->parent;
		p += 2;
	}
	if (o->cmdline) {
		p[0] = fxt_arg_header(FXT_ARG_STRING, 1 + FXT_WORDS(clen),
				      FXT_S_CMDLINE,
				      clen ? fxt_inline_string_ref(clen) : 0);
		fxt_put_stream(p + 1, o->cmdline, clen);
	}
	fxt_kobj_commit(c, words * 8, rolling, where);
}

/**
 * fxt_write_kobj_thread() - a thread's kernel object record
 * @c: this CPU; preemption disabled
 * @koid: the thread koid (tid)
 * @pkoid: its process koid (tgid), the "process" argument
 * @name: its name, at most TASK_COMM_LEN bytes
 * @named_at: as for fxt_write_kobj_process()
 * @rolling: as for fxt_write_kobj_process()
 */
void fxt_write_kobj_thread(struct fxt_cpu *c, u64 koid, u64 pkoid,
			   const char *name, u64 named_at, bool rolling)
{
	unsigned int len = strnlen(name, TASK_COMM_LEN);
	unsigned int nargs = named_at ? 2 : 1;
	unsigned int words = 2 + FXT_WORDS(len) + 2 * nargs;
	int where;
	u64 *p = fxt_kobj_reserve(c, words * 8, rolling, &where);

	if (!p)
		return;
	p[0] = fxt_kobj_header(words, FXT_OBJ_THREAD,
			       fxt_inline_string_ref(len), nargs);
	p[1] = koid;
	p = fxt_put_stream(p + 2, name, len);
	p[0] = fxt_arg_header(FXT_ARG_KOID, 2, FXT_S_PROCESS, 0);
	p[1] = pkoid;
	if (named_at) {
		p[2] = fxt_arg_header(FXT_ARG_UINT64, 2, FXT_S_NAMED_AT, 0);
		p[3] = named_at;
	}
	fxt_kobj_commit(c, words * 8, rolling, where);
}

/* A task's priority as the wide switch's weight: idle has its own. */
static s32 fxt_weight(const struct task_struct *p)
{
	return p->pid ? fxt_prio(p) : FXT_WEIGHT_IDLE;
}

/*
 * The switch for a CPU above FXT_SWITCH_CPU_MAX: subtype 1, whose cpu field
 * has 16 bits (the legacy one 8, and Perfetto takes the CPU from it).
 * Thread koids only: the processes are in the threads' kernel objects.
 * @early: the time read before a sleep's walk (0: the reservation's).
 */
static u64 *fxt_write_switch_wide(struct fxt_cpu *c, unsigned int state,
				  struct task_struct *prev,
				  struct task_struct *next, u64 early,
				  unsigned int *bufno)
{
	u64 ts, *p = fxt_rolling_reserve(c, FXT_SWITCH_WIDE_WORDS * 8, &ts,
					 bufno);

	if (early)
		ts = early;
	if (p)
		fxt_fill_switch_wide(p, c->cpu, state, ts, prev->pid,
				     fxt_weight(prev), next->pid,
				     fxt_weight(next), FXT_S_OUT_WEIGHT,
				     FXT_S_IN_WEIGHT);
	return p;
}

/*
 * bench/fxt-parts (FXT_PROBE_PART): where a build that times a piece of the
 * switch probe returns. Each such return computes the record's header, so
 * that the pieces after piece 2 differ by what they add alone.
 */
static __always_inline u64 fxt_part_header(unsigned int words,
					   unsigned int cpu,
					   unsigned int state, u8 out, u8 in,
					   struct task_struct *prev,
					   u8 in_prio)
{
	u64 hdr = fxt_switch_header(words, cpu, state, out, in,
				    fxt_prio(prev), in_prio);

	barrier_data(&hdr);
	return 0;
}

/*
 * The context switch record, written once for both of its callers: with
 * @detail false (fxt_write_switch(), every switch that may not need a
 * sleep event) the sleep event's code compiles away, so that a plain
 * switch runs the code it ran before sleep events existed.
 */
static __always_inline u64 fxt_write_switch_as(struct fxt_cpu *c, bool preempt,
					       struct task_struct *prev,
					       struct task_struct *next,
					       unsigned int prev_state,
					       const bool detail)
{
	bool wide = c->cpu > FXT_SWITCH_CPU_MAX;
	u8 out = wide ? 0 : fxt_thread_ref(c, prev);
	u8 in = wide ? 0 : fxt_thread_ref(c, next);
	unsigned int words = 2 + (out ? 0 : 2) + (in ? 0 : 2);
	unsigned int state = fxt_out_state(preempt, prev_state, prev);
	u8 in_prio = fxt_prio(next);
	bool window = c->hdr->mode == FXT_MODE_CIRCULAR;
	u32 gen = 0;
	unsigned int bufno, sleep = 0;
	u64 ts, early = 0, *p;

	if (FXT_PROBE_PART == 2)
		return fxt_part_header(words, c->cpu, state, out, in, prev,
				       in_prio);
	if (window) {
		fxt_rolling_make_room(c, FXT_NAMED_RECORD_MAX);
		if (FXT_PROBE_PART == 3)
			return fxt_part_header(words, c->cpu, state, out, in,
					       prev, in_prio);
		gen = fxt_rolling_gen(c);
		fxt_name_in_gen(c, prev, gen);
		fxt_name_in_gen(c, next, gen);
		if (FXT_PROBE_PART == 4)
			return fxt_part_header(words, c->cpu, state, out, in,
					       prev, in_prio);
	}
	/*
	 * D, I, P, t: the sleep event first, in the same record (fxt_sleep.c).
	 * The switch's time is read before the walk and the symbol lookup
	 * (a first lookup of a function can take a millisecond under
	 * emulation), as ftrace reads it when its probe is called; interrupts
	 * are off, so no record of this CPU can come in between.
	 */
	if (detail && state != FXT_THREAD_NEW) {
		early = ktime_get_boot_fast_ns();
		sleep = fxt_sleep_prepare(c, prev, prev_state, out);
	}
	if (unlikely(wide)) {
		if (sleep)
			fxt_write_sleep(c, prev, sleep, early);
		sleep = 0;
		words = FXT_SWITCH_WIDE_WORDS;
		p = fxt_write_switch_wide(c, state, prev, next, early, &bufno);
		if (!p)
			return 0;
		ts = p[1];
		goto commit;
	}
	if (unlikely(sleep)) {
		ts = early;
		p = fxt_rolling_reserve_at(c, (sleep + words) * 8, ts, &bufno);
		if (!p)
			return 0;
		fxt_sleep_fill(c, p, ts, prev);
		p += sleep;
	} else {
		p = fxt_rolling_reserve(c, words * 8, &ts, &bufno);
		if (!p)
			return 0;
	}
	p[0] = fxt_switch_header(words, c->cpu, state, out, in,
				 fxt_prio(prev), in_prio);
	p[1] = ts;
	p += 2;
	if (!out) {
		*p++ = prev->tgid;
		*p++ = prev->pid;
	}
	if (!in) {
		*p++ = next->tgid;
		*p++ = next->pid;
	}
commit:
	fxt_rolling_commit(c, (sleep + words) * 8, bufno);
	/* Rolled since the names: name them in the switch's buffer too. */
	if (window && fxt_rolling_gen(c) != gen) {
		fxt_name_in_window(c, prev);
		fxt_name_in_window(c, next);
	}
	c->last_tid = next->pid;
	c->last_tgid = next->tgid;
	c->last_prio = in_prio;
	return ts;
}

/**
 * fxt_write_switch() - a context switch record, for sched_switch
 * @c: this CPU; preemption disabled
 * @preempt: sched_switch's preempt
 * @prev: the outgoing task
 * @next: the incoming task
 * @prev_state: sched_switch's prev_state, without FXT_SLEEP_DETAIL_BITS
 *	(those take fxt_write_switch_sleep())
 *
 * Return: the record's timestamp, or 0 when it was not written.
 */
u64 fxt_write_switch(struct fxt_cpu *c, bool preempt,
		     struct task_struct *prev, struct task_struct *next,
		     unsigned int prev_state)
{
	return fxt_write_switch_as(c, preempt, prev, next, prev_state, false);
}

/**
 * fxt_write_switch_sleep() - fxt_write_switch() for a switch that may need
 *	a sleep event (D, I, P, t: fxt_sleep.c)
 * @c: this CPU; preemption disabled
 * @preempt: sched_switch's preempt
 * @prev: the outgoing task
 * @next: the incoming task
 * @prev_state: sched_switch's prev_state, with FXT_SLEEP_DETAIL_BITS set
 *
 * Return: the record's timestamp, or 0 when it was not written.
 */
u64 fxt_write_switch_sleep(struct fxt_cpu *c, bool preempt,
			   struct task_struct *prev, struct task_struct *next,
			   unsigned int prev_state)
{
	return fxt_write_switch_as(c, preempt, prev, next, prev_state, true);
}

/**
 * fxt_write_switch_to_idle() - a switch from the thread the CPU's last
 * switch record put on it to the idle task
 * @c: the CPU, which nothing else writes to meanwhile
 *
 * For a switch the rolling data lacks: every switch record's
 * outgoing thread is then the previous one's incoming thread, as Perfetto
 * needs (it keeps a slice open per thread, and one never closed would be
 * drawn to the end of the trace). Written on another CPU, when nothing
 * else writes to @c:
 *
 * - once a CPU that went offline is dead (fxt_hotplug.c): a dying CPU's
 *   last switches are not traced;
 * - at a RETAIN start, before the probes are hooked: what ran while
 *   tracing was stopped is not in the trace.
 *
 * Both threads inline, the outgoing one blocked (the stopper thread goes
 * back to sleep; after a stop its state is not known).
 */
void fxt_write_switch_to_idle(struct fxt_cpu *c)
{
	const unsigned int words = 6;
	unsigned int bufno;
	u64 ts, *p;

	if (!c->last_tid)
		return;
	BUILD_BUG_ON(words != FXT_SWITCH_WIDE_WORDS);
	p = fxt_rolling_reserve(c, words * 8, &ts, &bufno);
	if (!p)
		return;
	if (unlikely(c->cpu > FXT_SWITCH_CPU_MAX)) {
		fxt_fill_switch_wide(p, c->cpu, FXT_THREAD_BLOCKED, ts,
				     c->last_tid, c->last_prio, 0,
				     FXT_WEIGHT_IDLE, FXT_S_OUT_WEIGHT,
				     FXT_S_IN_WEIGHT);
	} else {
		p[0] = fxt_switch_header(words, c->cpu, FXT_THREAD_BLOCKED,
					 0, 0, c->last_prio, 0);
		p[1] = ts;
		p[2] = c->last_tgid;
		p[3] = c->last_tid;
		p[4] = 0;
		p[5] = 0;
	}
	fxt_rolling_commit(c, words * 8, bufno);
	c->last_tid = 0;
}

/**
 * fxt_waker_of_current() - who is waking a thread on this CPU now
 * @c: this CPU; preemption disabled
 * @w: filled in
 *
 * An interrupt woke it, not the thread it happened to interrupt. The idle
 * task (pid 0) also wakes threads outside interrupts: a CPU coming online
 * unparks its stopper thread, and the idle loop runs cross-CPU function
 * calls queued to a polling CPU. Those wakeups are the CPU's doing, not a
 * thread's: name the CPU's interrupt pseudo-thread too, never koid 0.
 */
void fxt_waker_of_current(struct fxt_cpu *c, struct fxt_waker *w)
{
	bool by_irq = in_hardirq() || in_serving_softirq() || !current->pid;

	w->koid = by_irq ? FXT_KOID_IRQ_THREAD(c->cpu) : current->pid;
	w->cpu = c->cpu;
	w->deferred = false;
	w->by_thread = !by_irq;
}

/**
 * fxt_write_wakeup() - a thread wakeup record
 * @c: this CPU; preemption disabled
 * @p: the task woken
 * @queued: it was still on its run queue (the wakeup changes no state)
 * @w: its waker (fxt_waker_of_current(), here or on the waking CPU)
 *
 * A deferred wakeup (fxt_wakeups.c) also names the CPU that woke @p: its
 * record is in the buffer of the CPU that completed it. In circular mode
 * the waking thread is named in the window of the CPU it ran on: here, or
 * by fxt_probe_waking() for a deferred wakeup.
 *
 * Return: the record's timestamp, or 0 when it was not written.
 */
u64 fxt_write_wakeup(struct fxt_cpu *c, struct task_struct *p, bool queued,
		     const struct fxt_waker *w)
{
	u32 weight = queued ? FXT_WEIGHT_NO_STATE_CHANGE : fxt_prio(p);
	/* nice 0, the common case, goes without its weight (format.h) */
	bool dflt = weight == FXT_WAKEUP_WEIGHT_DEFAULT;
	unsigned int nargs = (dflt ? 1 : 2) + w->deferred;
	unsigned int words = 3 + nargs + 1;
	u64 ts, *rec, *arg;
	unsigned int bufno;

	if (c->hdr->mode == FXT_MODE_CIRCULAR) {
		fxt_rolling_make_room(c, FXT_NAMED_RECORD_MAX);
		fxt_name_in_window(c, p);
		if (w->by_thread && !w->deferred)
			fxt_name_in_window(c, current);
	}
	rec = fxt_rolling_reserve(c, words * 8, &ts, &bufno);
	if (!rec)
		return 0;
	rec[0] = fxt_wakeup_header(words, nargs, c->cpu);
	rec[1] = ts;
	rec[2] = p->pid;
	arg = &rec[3];
	if (!dflt)
		*arg++ = fxt_arg_header(FXT_ARG_INT32, 1, FXT_S_WEIGHT, weight);
	arg[0] = fxt_arg_header(FXT_ARG_KOID, 2, FXT_S_WAKER, 0);
	arg[1] = w->koid;
	if (w->deferred)
		arg[2] = fxt_arg_header(FXT_ARG_UINT32, 1, FXT_S_WAKING_CPU,
					w->cpu);
	fxt_rolling_commit(c, words * 8, bufno);
	return ts;
}

/**
 * fxt_write_trigger() - the instant event of a trigger that fired
 * @c: this CPU; preemption disabled
 * @p: the thread concerned, or NULL: the CPU's interrupt pseudo-thread
 * @kind: enum fxt_trigger_kind
 * @latency: what was measured, ns
 * @threshold: the trigger's threshold, ns
 * @index: the trigger's index in the set
 * @first: this firing opened the window
 *
 * Category "fxt", name "trigger", the thread inline, five arguments
 * (include/fxt/format.h, Documentation/records.rst "Latency triggers").
 */
void fxt_write_trigger(struct fxt_cpu *c, struct task_struct *p, u32 kind,
		       u64 latency, u64 threshold, unsigned int index,
		       bool first)
{
	const unsigned int words = 11;
	unsigned int bufno;
	u64 ts, *w;

	if (p && c->hdr->mode == FXT_MODE_CIRCULAR) {
		fxt_rolling_make_room(c, FXT_NAMED_RECORD_MAX);
		fxt_name_in_window(c, p);
	}
	w = fxt_rolling_reserve(c, words * 8, &ts, &bufno);
	if (!w)
		return;
	w[0] = fxt_event_header(words, FXT_EVENT_INSTANT, 5, 0, FXT_S_FXT,
				FXT_S_TRIGGER);
	w[1] = ts;
	w[2] = p ? p->tgid : FXT_KOID_IRQ_PROCESS;
	w[3] = p ? p->pid : FXT_KOID_IRQ_THREAD(c->cpu);
	w[4] = fxt_arg_header(FXT_ARG_STRING, 1, FXT_S_KIND,
			      FXT_S_KIND_FIRST + kind - 1);
	w[5] = fxt_arg_header(FXT_ARG_UINT64, 2, FXT_S_LATENCY, 0);
	w[6] = latency;
	w[7] = fxt_arg_header(FXT_ARG_UINT64, 2, FXT_S_THRESHOLD, 0);
	w[8] = threshold;
	w[9] = fxt_arg_header(FXT_ARG_UINT32, 1, FXT_S_TRIGGER, index);
	w[10] = fxt_arg_header(FXT_ARG_BOOL, 1, FXT_S_FIRST, first);
	fxt_rolling_commit(c, words * 8, bufno);
}

/**
 * fxt_write_power() - a power event (category "power") as Perfetto's own
 *	ftrace import draws it: a blob record holding one embedded packet
 *	(include/fxt/perfetto_blob.h, Documentation/records.rst "Power")
 * @c: this CPU
 * @event: FXT_PB_EVENT_CPU_IDLE or FXT_PB_EVENT_CPU_FREQUENCY
 * @cpu_id: the CPU the event is about (the tracepoint's cpu_id)
 * @pid: the thread the event fired in (0: the idle task)
 * @state: an idle state, FXT_PB_IDLE_EXIT, or a frequency in kHz
 *
 * The packet holds the time, and its length depends on it: the time is
 * read first, with interrupts off until the record is reserved
 * (fxt_rolling_reserve_at()), so that no record of this CPU comes in
 * between.
 */
void fxt_write_power(struct fxt_cpu *c, unsigned int event, u32 cpu_id,
		     u32 pid, u32 state)
{
	u8 pkt[FXT_PB_POWER_PACKET_MAX];
	unsigned int n, words, bufno;
	unsigned long flags;
	u64 ts, *w;

	local_irq_save(flags);
	ts = ktime_get_boot_fast_ns();
	n = fxt_pb_power_packet(pkt, event, cpu_id, ts, pid, state);
	words = 1 + DIV_ROUND_UP(n, 8);
	w = fxt_rolling_reserve_at(c, words * 8, ts, &bufno);
	if (w) {
		w[0] = fxt_blob_header(words, FXT_S_PERFETTO, n,
				       FXT_BLOB_TYPE_PERFETTO);
		w[words - 1] = 0;	/* the padding */
		memcpy(w + 1, pkt, n);
		fxt_rolling_commit(c, words * 8, bufno);
	}
	local_irq_restore(flags);
}

/**
 * fxt_write_irq_event() - a duration begin or end event on the CPU's
 * interrupt pseudo-thread, with one 32-bit argument or none
 * @c: this CPU; interrupts off
 * @type: FXT_EVENT_DURATION_BEGIN or FXT_EVENT_DURATION_END
 * @cat: the category's string index
 * @name: a string index of this CPU, or 0
 * @inline_name: written inline when @name is 0 (if not NULL)
 * @arg_name: the argument's string index; 0: no argument
 * @arg_type: FXT_ARG_INT32, FXT_ARG_UINT32 or FXT_ARG_BOOL
 * @arg_value: the argument
 *
 * Return: whether the event was written.
 */
bool fxt_write_irq_event(struct fxt_cpu *c, unsigned int type, u16 cat,
			 u16 name, const char *inline_name, u16 arg_name,
			 unsigned int arg_type, u32 arg_value)
{
	unsigned int len = 0, nargs = arg_name ? 1 : 0, words, bufno;
	u64 ts, *p;

	if (!name && inline_name) {
		len = strnlen(inline_name, FXT_NAME_MAX);
		if (len)
			name = fxt_inline_string_ref(len);
	}
	words = 2 + FXT_WORDS(len) + nargs;
	p = fxt_rolling_reserve(c, words * 8, &ts, &bufno);
	if (!p)
		return false;
	p[0] = fxt_event_header(words, type, nargs, FXT_IRQ_THREAD_INDEX, cat,
				name);
	p[1] = ts;
	p = fxt_put_stream(p + 2, inline_name, len);
	if (nargs)
		p[0] = fxt_arg_header(arg_type, 1, arg_name, arg_value);
	fxt_rolling_commit(c, words * 8, bufno);
	return true;
}

/**
 * fxt_write_cpu_preamble() - what every CPU's durable buffer starts with
 * @c: the CPU; runs on any CPU before the probes are registered
 *
 * The constant strings, the interrupt pseudo-thread's thread record, and
 * its kernel object records.
 */
void fxt_write_cpu_preamble(struct fxt_cpu *c)
{
	static const struct fxt_kobj_process irq_process = {
		.koid = FXT_KOID_IRQ_PROCESS,
		.name = FXT_IRQ_PROCESS_NAME,
		.parent = FXT_NO_PARENT,
	};
	char name[TASK_COMM_LEN];
	unsigned int i;

	for (i = 1; i < FXT_S_FIRST_DYNAMIC; i++) {
		const char *str = fxt_const_string(i);

		if (str)
			fxt_write_string(c, i, str);
	}
	fxt_write_thread(c, FXT_IRQ_THREAD_INDEX, FXT_KOID_IRQ_PROCESS,
			 FXT_KOID_IRQ_THREAD(c->cpu));
	snprintf(name, sizeof(name), FXT_IRQ_THREAD_NAME_FORMAT, c->cpu);
	fxt_write_kobj_process(c, &irq_process, false);
	fxt_write_kobj_thread(c, FXT_KOID_IRQ_THREAD(c->cpu),
			      FXT_KOID_IRQ_PROCESS, name, 0, false);
}
