// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_probes.c - the tracepoints fxt hooks, and the probes themselves.
 *
 * Tracepoints are found by name (for_each_kernel_tracepoint()), since the
 * scheduler's are not exported to modules. Probes run with preemption off,
 * in task, softirq or hardirq context; each does bounded work: look up a
 * table, reserve, fill, commit. Documentation/records.rst maps each
 * tracepoint to the record it produces.
 */
#include <linux/kernel.h>
#include <linux/tracepoint.h>
#include <linux/interrupt.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/build_bug.h>
/*
 * The kernel's declarations of the tracepoints hooked, for their probes'
 * prototypes only (FXT_PROBE_OK()): nothing they declare is called.
 */
#include <trace/events/sched.h>
#include <trace/events/irq.h>
#include <trace/events/power.h>
#include <trace/events/task.h>
#ifdef CONFIG_X86
#include <asm/trace/irq_vectors.h>
#endif
#include <fxt/format.h>
#include <fxt/perfetto_blob.h>
#include "fxt.h"
#include "fxt_buffer.h"
#include "fxt_tables.h"
#include "fxt_names.h"
#include "fxt_triggers.h"
#include "fxt_def_records.h"
#include "fxt_irq_probes.h"

/*
 * A tracepoint is hooked by name, through a void pointer to its probe, so
 * the compiler sees neither. Its declaration (DECLARE_TRACE) gives
 * register_trace_<tp>() a parameter of exactly the probe type the kernel
 * calls, void (*)(void *data, <the tracepoint's prototype>): fxt's probe
 * must have that type, or building against this kernel fails here instead
 * of a probe reading its arguments wrong at run time.
 */
#define FXT_PROBE_OK(tp, probe)						\
	__same_type(&register_trace_##tp, int (*)(typeof(probe) *, void *))

/**
 * fxt_probe_switch() - the sched_switch probe (Linux 5.18 and later)
 * @entry_sp: the stack pointer at the tracepoint's call, where the return
 *	address is; 0 where the entry is not fxt_probe_switch_entry()
 * @preempt: sched_switch's preempt
 * @prev: the outgoing task
 * @next: the incoming task
 * @prev_state: sched_switch's prev_state
 * @entry_bp: the caller's frame pointer register at the call
 *
 * On x86_64 the tracepoint calls fxt_probe_switch_entry()
 * (fxt_probe_entry.S), which jumps here with @entry_sp in place of the
 * data argument, and @entry_bp: a switch into D walks the stack from there
 * (fxt_sleep.c), and no other switch pays for a frame pointer of this
 * probe's. Elsewhere fxt_probe_switch_c() calls it without them, and no
 * kernel but x86's with ORC is walked anyway.
 */
void fxt_probe_switch(unsigned long entry_sp, bool preempt,
		      struct task_struct *prev, struct task_struct *next,
		      unsigned int prev_state, unsigned long entry_bp)
{
	struct fxt_cpu *c = fxt_this_cpu();
	u64 ts;

	if (!c)
		return;
	if (FXT_PROBE_PART == 1)
		return;
	/*
	 * Where the tracepoint called this probe from: the unwinder starts
	 * there, not at fxt's own frames (fxt_sleep.c).
	 */
	if (unlikely(prev_state & FXT_SLEEP_DETAIL_BITS)) {
		if (entry_sp)
			fxt_sleep_caller(c, READ_ONCE_NOCHECK(*(unsigned long *)entry_sp),
					 entry_sp + sizeof(long), entry_bp);
		ts = fxt_emit_switch_sleep(c, preempt, prev, next, prev_state);
	} else {
		ts = fxt_emit_switch(c, preempt, prev, next, prev_state);
	}
	if (fxt_trig_armed())
		fxt_trig_switch(c, preempt, prev, next, prev_state, ts);
}

#ifdef CONFIG_X86_64
#define FXT_SWITCH_PROBE	fxt_probe_switch_entry
#else
static void fxt_probe_switch_c(void *data, bool preempt,
			       struct task_struct *prev,
			       struct task_struct *next,
			       unsigned int prev_state)
{
	fxt_probe_switch(0, preempt, prev, next, prev_state, 0);
}

#define FXT_SWITCH_PROBE	fxt_probe_switch_c
#endif

/*
 * sched_waking fires in try_to_wake_up() before the scheduler looks at the
 * task, and a wakeup record must not say more than the wakeup does:
 *
 * - A task still on its run queue (running, or preempted on its way to
 *   sleep) is not made runnable by it: try_to_wake_up() only sets it
 *   TASK_RUNNING again. Its record says so with the weight
 *   FXT_WEIGHT_NO_STATE_CHANGE, which Perfetto reads as "leave the
 *   thread's state alone"; with the thread's priority, Perfetto would
 *   restart the thread's time at the wakeup and cut its running slice
 *   short at the next switch.
 * - A task off its run queue but still on another CPU is being switched
 *   out there: its switch record may not be written yet. Its wakeup is
 *   written by fxt_probe_wakeup(), once the kernel has waited for that
 *   CPU or queued the wakeup to it (fxt_wakeups.c): never a wait here.
 *
 * p->on_rq cannot become set under us (that takes a wakeup, and we hold
 * p->pi_lock); it can become clear, if the task blocks on its CPU after
 * we looked: that wakeup is then written as changing nothing, at a time
 * before the switch, where it could not have been drawn as a wakeup.
 * p->on_cpu can clear after we looked: the wakeup is then deferred for
 * nothing, and written a little later all the same.
 */
static void fxt_probe_waking(void *data, struct task_struct *p)
{
	bool queued = READ_ONCE(p->on_rq);
	struct fxt_waker w;
	struct fxt_cpu *c;
	u64 ts;

	c = fxt_this_cpu();
	if (!c)
		return;
	fxt_waker_of_current(c, &w);
#ifdef CONFIG_SMP
	if (!queued && task_cpu(p) != c->cpu) {
		/*
		 * Pairs with finish_task()'s release: once on_cpu reads 0,
		 * the switch record came first, and the wakeup is written now.
		 */
		bool on_cpu = smp_load_acquire(&p->on_cpu);

		if (on_cpu && fxt_wakeup_defer(p, &w)) {
			if (w.by_thread &&
			    c->hdr->mode == FXT_MODE_CIRCULAR) {
				fxt_rolling_make_room(c, FXT_NAMED_RECORD_MAX);
				fxt_name_in_window(c, current);
			}
			return;
		}
	}
#endif
	ts = fxt_emit_wakeup(c, p, queued, &w);
	if (fxt_trig_armed() && !queued)
		fxt_trig_wakeup(c, p, ts);
}

/*
 * sched_wakeup fires once a woken task is off every CPU and being put on a
 * run queue: it writes the wakeups fxt_probe_waking() left. Every other
 * wakeup was written at its sched_waking; this probe then only looks up
 * the table. The slot is freed even on a CPU that is not traced.
 */
static void fxt_probe_wakeup(void *data, struct task_struct *p)
{
	struct fxt_waker w;
	struct fxt_cpu *c;
	u64 ts;

	if (!fxt_wakeup_take(p, &w))
		return;
	c = fxt_this_cpu();
	if (!c)
		return;
	ts = fxt_emit_wakeup(c, p, false, &w);
	if (fxt_trig_armed())
		fxt_trig_wakeup(c, p, ts);
}

/* A new task is on its run queue already, and has never run. */
static void fxt_probe_wakeup_new(void *data, struct task_struct *p)
{
	struct fxt_cpu *c = fxt_this_cpu();
	struct fxt_waker w;
	u64 ts;

	if (!c)
		return;
	fxt_waker_of_current(c, &w);
	ts = fxt_emit_wakeup(c, p, false, &w);
	if (fxt_trig_armed())
		fxt_trig_wakeup(c, p, ts);
}

/*
 * Probes write to this CPU's buffers as a nested writer would: nothing
 * else on the CPU may write until they are done. Most tracepoints fire
 * with interrupts off (the scheduler's, the hard interrupts'), and the
 * interrupt probes turn them off themselves. sched_process_fork,
 * task_rename and sched_process_exec fire in preemptible code: Debian's
 * 6.1 and 6.12 call every probe with preemption disabled (__DO_TRACE), but
 * a kernel may call probes with only migration disabled (SRCU-protected
 * tracepoints, as on PREEMPT_RT), so these three disable preemption
 * themselves; nested in the
 * tracepoint's own, that costs one per-CPU increment.
 */
static void fxt_probe_fork(void *data, struct task_struct *parent,
			   struct task_struct *child)
{
	struct fxt_cpu *c;

	preempt_disable_notrace();
	c = fxt_this_cpu();
	if (c)
		fxt_emit_task_names(c, child, NULL);
	preempt_enable_notrace();
}

/*
 * Tasks copy_process() makes without sched_process_fork: io_uring's
 * workers (create_io_thread(), PF_IO_WORKER) and, from 6.4, vhost's
 * (vhost_task_create(), PF_USER_WORKER). Their first wakeup names them,
 * before they first run; an io worker then renames itself ("iou-wrk-N"),
 * which task_rename writes.
 */
#ifdef PF_USER_WORKER
#define FXT_PF_UNFORKED		(PF_IO_WORKER | PF_USER_WORKER)
#else
#define FXT_PF_UNFORKED		PF_IO_WORKER
#endif

static void fxt_probe_new_worker(void *data, struct task_struct *p)
{
	struct fxt_cpu *c;

	if (READ_ONCE(p->flags) & FXT_PF_UNFORKED) {
		c = fxt_this_cpu();
		if (c)
			fxt_emit_task_names(c, p, NULL);
	}
}

/*
 * Also exec's names: begin_new_exec() renames the task (6.1 and 6.12 alike)
 * after de_thread() made it its process's leader, so this writes the new
 * image's process and thread records; sched_process_exec then writes the
 * process record again with its command line (fxt_probe_exec()).
 */
static void fxt_probe_rename(void *data, struct task_struct *task,
			     const char *comm)
{
	struct fxt_cpu *c;

	preempt_disable_notrace();
	c = fxt_this_cpu();
	if (c)
		fxt_emit_task_names(c, task, comm);
	preempt_enable_notrace();
}

/*
 * The end of a successful exec, in the task itself, its new image's
 * arguments on its stack: the command line (fxt_emit_exec()). Preemptible
 * code, as fork's probe.
 */
static void fxt_probe_exec(void *data, struct task_struct *p, pid_t old_pid,
			   struct linux_binprm *bprm)
{
	struct fxt_cpu *c;

	preempt_disable_notrace();
	c = fxt_this_cpu();
	if (c && p == current)
		fxt_emit_exec(c, p);
	preempt_enable_notrace();
}

/*
 * Power (records.rst "Power"): cpu_idle fires in the idle loop with
 * interrupts off, cpu_frequency where cpufreq changes a policy's
 * frequency, preemptible on some drivers: like the name hooks, it holds
 * preemption off itself.
 */
static void fxt_probe_cpu_idle(void *data, unsigned int state,
			       unsigned int cpu_id)
{
	struct fxt_cpu *c = fxt_this_cpu();

	if (c)
		fxt_emit_power(c, FXT_PB_EVENT_CPU_IDLE, cpu_id, current->pid,
			       state);
}

static void fxt_probe_cpu_frequency(void *data, unsigned int frequency,
				    unsigned int cpu_id)
{
	struct fxt_cpu *c;

	preempt_disable_notrace();
	c = fxt_this_cpu();
	if (c)
		fxt_emit_power(c, FXT_PB_EVENT_CPU_FREQUENCY, cpu_id,
			       current->pid, frequency);
	preempt_enable_notrace();
}

#define FXT_NAMES	0	/* category 0: registered whenever tracing */

struct fxt_hook {
	char name[40];
	void *probe;
	void *data;
	u32 category;
	bool optional;		/* absent on some architectures */
	struct tracepoint *tp;
	bool registered;
};

/*
 * The hook of tracepoint @tp (an identifier) by @p: FXT_PROBE_OK(), spelled
 * out so that @p is named once outside typeof (checkpatch).
 */
#define FXT_HOOK(tp, p, cat) {						\
	.name = #tp,							\
	.probe = (void *)(p) + BUILD_BUG_ON_ZERO(!__same_type(	\
		&register_trace_##tp, int (*)(typeof(p) *, void *))),	\
	.category = cat,						\
}

/*
 * Hooked in this order and unhooked in the reverse one. The name hooks come
 * first: they must be live before the snapshot. Each exit comes before its
 * entry, so that no begin is written whose end could be missed.
 */
static struct fxt_hook fxt_hooks[] = {
	FXT_HOOK(sched_process_fork, fxt_probe_fork, FXT_NAMES),
	FXT_HOOK(task_rename, fxt_probe_rename, FXT_NAMES),
	FXT_HOOK(sched_process_exec, fxt_probe_exec, FXT_NAMES),
	FXT_HOOK(sched_wakeup_new, fxt_probe_new_worker, FXT_NAMES),
	FXT_HOOK(sched_switch, FXT_SWITCH_PROBE, FXT_CAT_SCHED),
	/* Before sched_waking: a wakeup it defers is always written. */
	FXT_HOOK(sched_wakeup, fxt_probe_wakeup, FXT_CAT_WAKEUP),
	FXT_HOOK(sched_waking, fxt_probe_waking, FXT_CAT_WAKEUP),
	FXT_HOOK(sched_wakeup_new, fxt_probe_wakeup_new, FXT_CAT_WAKEUP),
	FXT_HOOK(irq_handler_exit, fxt_probe_irq_exit, FXT_CAT_IRQ),
	FXT_HOOK(irq_handler_entry, fxt_probe_irq_entry, FXT_CAT_IRQ),
	FXT_HOOK(softirq_exit, fxt_probe_softirq_exit, FXT_CAT_SOFTIRQ),
	FXT_HOOK(softirq_entry, fxt_probe_softirq_entry, FXT_CAT_SOFTIRQ),
	FXT_HOOK(cpu_idle, fxt_probe_cpu_idle, FXT_CAT_POWER),
	FXT_HOOK(cpu_frequency, fxt_probe_cpu_frequency, FXT_CAT_POWER),
};

#define FXT_NR_FIXED_HOOKS	ARRAY_SIZE(fxt_hooks)

/* Two per vector (exit, then entry), filled in by fxt_probes_find(). */
static struct fxt_hook fxt_vector_hooks[2 * FXT_NR_VECTOR_NAMES];

/*
 * The vector hooks are named at run time, from fxt_vector_names[]: check
 * their probes against each vector tracepoint this kernel declares.
 */
#define FXT_VECTOR_PROBES_OK(v)						\
	static_assert(FXT_PROBE_OK(v##_entry, fxt_probe_vector_entry) &&	\
		      FXT_PROBE_OK(v##_exit, fxt_probe_vector_exit),	\
		      "fxt: probe type differs from tracepoint " #v)

#ifdef CONFIG_X86_LOCAL_APIC
FXT_VECTOR_PROBES_OK(local_timer);
FXT_VECTOR_PROBES_OK(spurious_apic);
FXT_VECTOR_PROBES_OK(error_apic);
FXT_VECTOR_PROBES_OK(x86_platform_ipi);
#ifdef CONFIG_IRQ_WORK
FXT_VECTOR_PROBES_OK(irq_work);
#endif
#ifdef CONFIG_SMP
FXT_VECTOR_PROBES_OK(reschedule);
FXT_VECTOR_PROBES_OK(call_function);
FXT_VECTOR_PROBES_OK(call_function_single);
#endif
#ifdef CONFIG_X86_MCE_THRESHOLD
FXT_VECTOR_PROBES_OK(threshold_apic);
#endif
#ifdef CONFIG_X86_MCE_AMD
FXT_VECTOR_PROBES_OK(deferred_error_apic);
#endif
#ifdef CONFIG_X86_THERMAL_VECTOR
FXT_VECTOR_PROBES_OK(thermal_apic);
#endif
#endif /* CONFIG_X86_LOCAL_APIC */

static void fxt_match_tracepoint(struct tracepoint *tp, void *priv)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fxt_hooks); i++)
		if (!strcmp(tp->name, fxt_hooks[i].name))
			fxt_hooks[i].tp = tp;
	for (i = 0; i < ARRAY_SIZE(fxt_vector_hooks); i++)
		if (!strcmp(tp->name, fxt_vector_hooks[i].name))
			fxt_vector_hooks[i].tp = tp;
}

/**
 * fxt_probes_find() - find every tracepoint fxt hooks
 *
 * Return: 0, or -ENOENT when a tracepoint fxt cannot do without is missing.
 */
int fxt_probes_find(void)
{
	unsigned int i;

	BUILD_BUG_ON(FXT_NR_VECTOR_NAMES >
		     FXT_S_VECTOR_LAST - FXT_S_VECTOR_FIRST + 1);
	for (i = 0; i < FXT_NR_VECTOR_NAMES; i++) {
		struct fxt_hook *out = &fxt_vector_hooks[2 * i];
		struct fxt_hook *in = out + 1;

		snprintf(in->name, sizeof(in->name), "%s_entry",
			 fxt_vector_names[i]);
		snprintf(out->name, sizeof(out->name), "%s_exit",
			 fxt_vector_names[i]);
		in->probe = fxt_probe_vector_entry;
		out->probe = fxt_probe_vector_exit;
		in->data = (void *)(uintptr_t)(FXT_S_VECTOR_FIRST + i);
		out->data = in->data;
		in->category = FXT_CAT_IRQ;
		out->category = FXT_CAT_IRQ;
		in->optional = true;
		out->optional = true;
	}
	for_each_kernel_tracepoint(fxt_match_tracepoint, NULL);
	for (i = 0; i < ARRAY_SIZE(fxt_hooks); i++) {
		if (!fxt_hooks[i].tp) {
			pr_err("fxt: tracepoint %s not found\n",
			       fxt_hooks[i].name);
			return -ENOENT;
		}
	}
	return 0;
}

static struct fxt_hook *fxt_hook_at(unsigned int i)
{
	if (i < FXT_NR_FIXED_HOOKS)
		return &fxt_hooks[i];
	i -= FXT_NR_FIXED_HOOKS;
	return i < ARRAY_SIZE(fxt_vector_hooks) ? &fxt_vector_hooks[i] : NULL;
}

static int fxt_register_matching(u32 categories, bool names)
{
	struct fxt_hook *h;
	unsigned int i;
	int ret;

	for (i = 0; (h = fxt_hook_at(i)); i++) {
		if (h->registered || !h->tp)
			continue;
		if (names ? h->category != FXT_NAMES :
			    !(h->category & categories))
			continue;
		ret = tracepoint_probe_register(h->tp, h->probe, h->data);
		if (ret) {
			pr_err("fxt: cannot hook %s: %d\n", h->name, ret);
			return ret;
		}
		h->registered = true;
	}
	return 0;
}

/**
 * fxt_probes_register() - hook the name tracepoints, snapshot the names,
 * then hook the tracepoints of @categories
 * @categories: FXT_CAT_* bits
 * @stamp_names: the snapshot's records carry "named_at" (a restart that
 *	keeps the names of an earlier run: fxt_names_snapshot())
 *
 * Return: 0, or the error of the first hook that failed (nothing is left
 * hooked then).
 */
int fxt_probes_register(u32 categories, bool stamp_names)
{
	int ret;

	ret = fxt_register_matching(0, true);
	if (!ret) {
		fxt_names_snapshot(stamp_names);
		ret = fxt_register_matching(categories, false);
	}
	if (ret)
		fxt_probes_unregister();
	return ret;
}

/**
 * fxt_probes_unregister() - unhook everything
 *
 * In the reverse order of hooking (entries before their exits); on return
 * no probe is running or will run.
 */
void fxt_probes_unregister(void)
{
	struct fxt_hook *h;
	unsigned int i = FXT_NR_FIXED_HOOKS + ARRAY_SIZE(fxt_vector_hooks);

	while (i--) {
		h = fxt_hook_at(i);
		if (!h->registered)
			continue;
		WARN_ON_ONCE(tracepoint_probe_unregister(h->tp, h->probe,
							 h->data));
		h->registered = false;
	}
	tracepoint_synchronize_unregister();
}
