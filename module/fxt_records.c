// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_records.c - the event records fxt.ko writes, one writer per kind:
 * context switches, wakeups, the trigger event, power and interrupts. The
 * records they refer to are defined below them (fxt_def_records.c).
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
#include "fxt_buffer.h"
#include "fxt_tables.h"
#include "fxt_names.h"
#include "fxt_def_records.h"

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
static u64 *fxt_emit_switch_wide(struct fxt_cpu *c, unsigned int state,
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
 * @detail false (fxt_emit_switch(), every switch that may not need a
 * sleep event) the sleep event's code compiles away, so that a plain
 * switch runs the code it ran before sleep events existed.
 */
static __always_inline u64 fxt_emit_switch_as(struct fxt_cpu *c, bool preempt,
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
			fxt_emit_sleep(c, prev, sleep, early);
		sleep = 0;
		words = FXT_SWITCH_WIDE_WORDS;
		p = fxt_emit_switch_wide(c, state, prev, next, early, &bufno);
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
 * fxt_emit_switch() - a context switch record, for sched_switch
 * @c: this CPU; preemption disabled
 * @preempt: sched_switch's preempt
 * @prev: the outgoing task
 * @next: the incoming task
 * @prev_state: sched_switch's prev_state, without FXT_SLEEP_DETAIL_BITS
 *	(those take fxt_emit_switch_sleep())
 *
 * Return: the record's timestamp, or 0 when it was not written.
 */
u64 fxt_emit_switch(struct fxt_cpu *c, bool preempt,
		    struct task_struct *prev, struct task_struct *next,
		     unsigned int prev_state)
{
	return fxt_emit_switch_as(c, preempt, prev, next, prev_state, false);
}

/**
 * fxt_emit_switch_sleep() - fxt_emit_switch() for a switch that may need
 *	a sleep event (D, I, P, t: fxt_sleep.c)
 * @c: this CPU; preemption disabled
 * @preempt: sched_switch's preempt
 * @prev: the outgoing task
 * @next: the incoming task
 * @prev_state: sched_switch's prev_state, with FXT_SLEEP_DETAIL_BITS set
 *
 * Return: the record's timestamp, or 0 when it was not written.
 */
u64 fxt_emit_switch_sleep(struct fxt_cpu *c, bool preempt,
			  struct task_struct *prev, struct task_struct *next,
			   unsigned int prev_state)
{
	return fxt_emit_switch_as(c, preempt, prev, next, prev_state, true);
}

/**
 * fxt_emit_switch_to_idle() - a switch from the thread the CPU's last
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
void fxt_emit_switch_to_idle(struct fxt_cpu *c)
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
 * fxt_emit_wakeup() - a thread wakeup record
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
u64 fxt_emit_wakeup(struct fxt_cpu *c, struct task_struct *p, bool queued,
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
 * fxt_emit_trigger() - the instant event of a trigger that fired
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
void fxt_emit_trigger(struct fxt_cpu *c, struct task_struct *p, u32 kind,
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
 * fxt_emit_power() - a power event (category "power") as Perfetto's own
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
void fxt_emit_power(struct fxt_cpu *c, unsigned int event, u32 cpu_id,
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
 * fxt_emit_irq_event() - a duration begin or end event on the CPU's
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
bool fxt_emit_irq_event(struct fxt_cpu *c, unsigned int type, u16 cat,
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
