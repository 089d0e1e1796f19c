// SPDX-License-Identifier: GPL-2.0
/*
 * nullprobe - the cheapest possible tracepoint-based tracer, for bench/.
 *
 * Attaches probes that only count (one per-CPU increment) to exactly the
 * tracepoints fxt.ko hooks, found by name like fxt does: what any
 * tracepoint-based tracer pays before it writes a single byte. Load with
 * all=0 for fxt's "-c sched" set: sched_switch, plus the name tracepoints
 * fxt always hooks (sched_process_fork, task_rename: exec renames the task);
 * all=1 (default) for every category: also sched_waking, sched_wakeup_new,
 * irq_handler_entry/exit, softirq_entry/exit and the x86 irq_vectors
 * entry/exit tracepoints (local_timer, reschedule, call_function, ...: the
 * interrupts that bypass irq_handler_entry), where they exist.
 *
 * Counts, read-only, summed over CPUs, in /sys/module/nullprobe/parameters/:
 * switches (sched_switch), count (every event tracepoint of the scope:
 * sched_switch, wakeups, irq, softirq, vectors; not the name tracepoints),
 * vectors (irq_vectors entry and exit only, part of count) and names (fork,
 * rename).
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/tracepoint.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/interrupt.h>

static bool all = true;
module_param(all, bool, 0444);
MODULE_PARM_DESC(all, "probe all of fxt's tracepoints (else those of -c sched)");

static DEFINE_PER_CPU(unsigned long, np_switches);
static DEFINE_PER_CPU(unsigned long, np_others);
static DEFINE_PER_CPU(unsigned long, np_vectors);
static DEFINE_PER_CPU(unsigned long, np_names);

static void np_switch(void *data, bool preempt, struct task_struct *prev,
		      struct task_struct *next, unsigned int prev_state)
{
	this_cpu_inc(np_switches);
}

static void np_task(void *data, struct task_struct *p)
{
	this_cpu_inc(np_others);
}

static void np_irq_entry(void *data, int irq, struct irqaction *action)
{
	this_cpu_inc(np_others);
}

static void np_irq_exit(void *data, int irq, struct irqaction *action, int ret)
{
	this_cpu_inc(np_others);
}

static void np_softirq(void *data, unsigned int vec)
{
	this_cpu_inc(np_others);
}

static void np_vector(void *data, int vector)
{
	this_cpu_inc(np_vectors);
}

static void np_fork(void *data, struct task_struct *parent,
		    struct task_struct *child)
{
	this_cpu_inc(np_names);
}

static void np_rename(void *data, struct task_struct *task, const char *comm)
{
	this_cpu_inc(np_names);
}

struct np_hook {
	const char *name;
	void *probe;
	bool sched;		/* part of the sched-only set */
	bool optional;		/* absent on some architectures */
	struct tracepoint *tp;
	bool registered;
};

/* The same list as fxt's module/fxt_probes.c. */
static struct np_hook np_hooks[] = {
	{ "sched_process_fork", np_fork, true },
	{ "task_rename", np_rename, true },
	{ "sched_switch", np_switch, true },
	{ "sched_waking", np_task, false },
	{ "sched_wakeup_new", np_task, false },
	{ "irq_handler_entry", np_irq_entry, false },
	{ "irq_handler_exit", np_irq_exit, false },
	{ "softirq_entry", np_softirq, false },
	{ "softirq_exit", np_softirq, false },
	{ "local_timer_entry", np_vector, false, true },
	{ "local_timer_exit", np_vector, false, true },
	{ "reschedule_entry", np_vector, false, true },
	{ "reschedule_exit", np_vector, false, true },
	{ "call_function_entry", np_vector, false, true },
	{ "call_function_exit", np_vector, false, true },
	{ "call_function_single_entry", np_vector, false, true },
	{ "call_function_single_exit", np_vector, false, true },
	{ "irq_work_entry", np_vector, false, true },
	{ "irq_work_exit", np_vector, false, true },
	{ "x86_platform_ipi_entry", np_vector, false, true },
	{ "x86_platform_ipi_exit", np_vector, false, true },
	{ "spurious_apic_entry", np_vector, false, true },
	{ "spurious_apic_exit", np_vector, false, true },
	{ "error_apic_entry", np_vector, false, true },
	{ "error_apic_exit", np_vector, false, true },
	{ "thermal_apic_entry", np_vector, false, true },
	{ "thermal_apic_exit", np_vector, false, true },
	{ "threshold_apic_entry", np_vector, false, true },
	{ "threshold_apic_exit", np_vector, false, true },
	{ "deferred_error_apic_entry", np_vector, false, true },
	{ "deferred_error_apic_exit", np_vector, false, true },
};

static void np_match(struct tracepoint *tp, void *priv)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(np_hooks); i++)
		if (!strcmp(tp->name, np_hooks[i].name))
			np_hooks[i].tp = tp;
}

static unsigned long np_sum(unsigned long __percpu *v)
{
	unsigned long s = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		s += *per_cpu_ptr(v, cpu);
	return s;
}

static int np_get_count(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%lu\n", np_sum(&np_switches) +
			  np_sum(&np_others) + np_sum(&np_vectors));
}

/* switches, vectors, names: kp->arg is the per-CPU counter */
static int np_get_one(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%lu\n",
			  np_sum((unsigned long __percpu *)kp->arg));
}

static const struct kernel_param_ops np_count_ops = { .get = np_get_count };
static const struct kernel_param_ops np_one_ops = { .get = np_get_one };
module_param_cb(count, &np_count_ops, NULL, 0444);
module_param_cb(switches, &np_one_ops, &np_switches, 0444);
module_param_cb(vectors, &np_one_ops, &np_vectors, 0444);
module_param_cb(names, &np_one_ops, &np_names, 0444);

static void np_unregister(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(np_hooks); i++)
		if (np_hooks[i].registered) {
			tracepoint_probe_unregister(np_hooks[i].tp,
						    np_hooks[i].probe, NULL);
			np_hooks[i].registered = false;
		}
	tracepoint_synchronize_unregister();
}

static int __init np_init(void)
{
	int i, ret;

	for_each_kernel_tracepoint(np_match, NULL);
	for (i = 0; i < ARRAY_SIZE(np_hooks); i++) {
		if (!all && !np_hooks[i].sched)
			continue;
		if (!np_hooks[i].tp && np_hooks[i].optional)
			continue;
		if (!np_hooks[i].tp) {
			pr_err("nullprobe: no tracepoint %s\n", np_hooks[i].name);
			np_unregister();
			return -ENOENT;
		}
		ret = tracepoint_probe_register(np_hooks[i].tp,
						np_hooks[i].probe, NULL);
		if (ret) {
			np_unregister();
			return ret;
		}
		np_hooks[i].registered = true;
	}
	return 0;
}

static void __exit np_exit(void)
{
	np_unregister();
}

module_init(np_init);
module_exit(np_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("fxt bench: empty, counting probes on the scheduler tracepoints");
