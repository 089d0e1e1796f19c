// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_fire_test.ko - selftest helper for fxt_fire, loaded only in the qemu
 * guest: it drives fxt's interrupt probes through sequences no real
 * interrupt can be made to produce on demand, and makes one of fxt's
 * tracepoint registrations fail.
 *
 * The probes are driven the way a tracepoint calls them: every function
 * registered on the tracepoint (found with for_each_kernel_tracepoint())
 * is called with the given arguments, with interrupts off, so that the
 * records of one sequence are contiguous in this CPU's buffer. Nothing
 * else may be hooked on these tracepoints while the test runs.
 *
 * Parameters (write-only ones act when written, on the writer's CPU):
 *   softirqs = "+5 +0 -5 -0": softirq_entry (+) and softirq_exit (-) of
 *	those vectors, in that order, between a handler named "fxtf-start"
 *	and one named "fxtf-stop" (entry and exit each, irq 0): an outer
 *	softirq ending before an inner one, as on PREEMPT_RT.
 *   handlers = "FIRST COUNT IRQ": COUNT handlers named "fxtf-<n>" for n =
 *	FIRST..FIRST+COUNT-1, each an irq_handler_entry and exit on line IRQ
 *	(a made-up number: the line is never touched).
 *   fail_hook = "TRACEPOINT": from now on, fxt's registrations of a probe
 *	on TRACEPOINT fail with ENOMEM, as when the kernel cannot allocate
 *	the tracepoint's new probe array: a kprobe on
 *	tracepoint_probe_register() makes the call return at once (as
 *	bpf_override_return() does), with nothing registered. An empty
 *	string (a lone newline) disarms it. "TRACEPOINT MS" instead delays
 *	that registration by MS milliseconds (busy, in the kprobe) and lets
 *	it succeed: a START made slow at a chosen point.
 *   slow_tasklet = "CPU MS": a real TASKLET softirq that lasts MS
 *	milliseconds on CPU: a work item on CPU schedules a tasklet with
 *	bottom halves off and enables them, so the tasklet runs there, at
 *	once, between softirq_entry and softirq_exit (on PREEMPT_RT in the
 *	kworker's own context, as a softirq is run there); it spins for
 *	MS ms by ktime_get_boot_fast_ns(), fxt's clock. The write returns
 *	once the tasklet has run (cpu then says where).
 *   slow_irq_work = "CPU MS": a real hard interrupt that lasts MS ms on
 *	CPU: a work item on CPU queues a hard irq_work there, which x86
 *	raises with a self-IPI, the irq_work vector (irq_work_entry and
 *	irq_work_exit, on PREEMPT_RT too for a hard one); it spins as the
 *	slow tasklet does. The write returns once it has run.
 *   cpu (read): the CPU the last sequence (or slow tasklet) ran on.
 *   failed (read): how many registrations were made to fail.
 */
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/interrupt.h>
#include <linux/irqflags.h>
#include <linux/irq_work.h>
#include <linux/kallsyms.h>
#include <linux/delay.h>
#include <linux/kprobes.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/workqueue.h>

static int cpu = -1;
module_param(cpu, int, 0444);
MODULE_PARM_DESC(cpu, "the CPU the last sequence or slow tasklet ran on");

static atomic_t failed = ATOMIC_INIT(0);

static DEFINE_MUTEX(fxtf_lock);
static struct irqaction fxtf_action;

struct fxtf_tp {
	const char *name;
	struct tracepoint *tp;
};

static struct fxtf_tp fxtf_tps[] = {
	{ "softirq_entry" }, { "softirq_exit" },
	{ "irq_handler_entry" }, { "irq_handler_exit" },
};

enum { SOFTIRQ_ENTRY, SOFTIRQ_EXIT, IRQ_ENTRY, IRQ_EXIT };

static void fxtf_match(struct tracepoint *tp, void *priv)
{
	struct fxtf_tp *want = priv;
	unsigned int i;

	if (want) {
		if (!strcmp(tp->name, want->name))
			want->tp = tp;
		return;
	}
	for (i = 0; i < ARRAY_SIZE(fxtf_tps); i++)
		if (!strcmp(tp->name, fxtf_tps[i].name))
			fxtf_tps[i].tp = tp;
}

/* Call what is registered on a tracepoint; interrupts are off. */
#define FXTF_CALL(which, proto, ...) do {				\
	struct tracepoint_func *f;					\
									\
	f = rcu_dereference_sched(fxtf_tps[which].tp->funcs);		\
	for (; f && f->func; f++)					\
		((void (*)proto)f->func)(f->data, __VA_ARGS__);		\
} while (0)

static void fxtf_softirq(bool entry, unsigned int vec)
{
	if (entry)
		FXTF_CALL(SOFTIRQ_ENTRY, (void *, unsigned int), vec);
	else
		FXTF_CALL(SOFTIRQ_EXIT, (void *, unsigned int), vec);
}

static void fxtf_handler(int irq, const char *name)
{
	fxtf_action.name = name;
	FXTF_CALL(IRQ_ENTRY, (void *, int, struct irqaction *), irq,
		  &fxtf_action);
	FXTF_CALL(IRQ_EXIT, (void *, int, struct irqaction *, int), irq,
		  &fxtf_action, IRQ_HANDLED);
}

static int fxtf_softirqs_set(const char *val, const struct kernel_param *kp)
{
	unsigned int vec[16], n = 0, i;
	bool entry[16];
	unsigned long flags;
	int len;

	while (n < ARRAY_SIZE(vec) && *val) {
		char sign;

		if (sscanf(val, " %c%u%n", &sign, &vec[n], &len) != 2 ||
		    (sign != '+' && sign != '-') || vec[n] >= NR_SOFTIRQS)
			break;
		entry[n++] = sign == '+';
		val += len;
	}
	val = skip_spaces(val);
	if (!n || *val)
		return -EINVAL;
	mutex_lock(&fxtf_lock);
	local_irq_save(flags);
	cpu = smp_processor_id();
	fxtf_handler(0, "fxtf-start");
	for (i = 0; i < n; i++)
		fxtf_softirq(entry[i], vec[i]);
	fxtf_handler(0, "fxtf-stop");
	local_irq_restore(flags);
	mutex_unlock(&fxtf_lock);
	return 0;
}

static const struct kernel_param_ops fxtf_softirqs_ops = {
	.set = fxtf_softirqs_set,
};
module_param_cb(softirqs, &fxtf_softirqs_ops, NULL, 0200);
MODULE_PARM_DESC(softirqs, "softirq entries (+VEC) and exits (-VEC) to fire");

static int fxtf_handlers_set(const char *val, const struct kernel_param *kp)
{
	unsigned int first, count, i;
	char name[24];
	unsigned long flags;
	int irq;

	if (sscanf(val, "%u %u %d", &first, &count, &irq) != 3 || !count ||
	    count > 1000000 || irq < 0)
		return -EINVAL;
	mutex_lock(&fxtf_lock);
	for (i = 0; i < count; i++) {
		snprintf(name, sizeof(name), "fxtf-%u", first + i);
		local_irq_save(flags);
		cpu = smp_processor_id();
		fxtf_handler(irq, name);
		local_irq_restore(flags);
		if (!(i % 256))
			cond_resched();
	}
	mutex_unlock(&fxtf_lock);
	return 0;
}

static const struct kernel_param_ops fxtf_handlers_ops = {
	.set = fxtf_handlers_set,
};
module_param_cb(handlers, &fxtf_handlers_ops, NULL, 0200);
MODULE_PARM_DESC(handlers, "\"FIRST COUNT IRQ\": handlers fxtf-FIRST... to fire");

/* slow_tasklet: one tasklet at a time (fxtf_lock), its length in ms. */
static unsigned int fxtf_slow_ms;
static DECLARE_COMPLETION(fxtf_slow_done);

/*
 * mdelay() can come out short under qemu's TCG (a 7 ms one lasted
 * 6.1 ms by the trace clock): spin until the clock fxt stamps records
 * with says the time has passed.
 */
static void fxtf_slow_fn(struct tasklet_struct *t)
{
	u64 end = ktime_get_boot_fast_ns() + fxtf_slow_ms * NSEC_PER_MSEC;

	cpu = smp_processor_id();
	while (ktime_get_boot_fast_ns() < end)
		cpu_relax();
	complete(&fxtf_slow_done);
}

static DECLARE_TASKLET(fxtf_slow_tasklet, fxtf_slow_fn);

/* On the chosen CPU: the tasklet runs when bottom halves are enabled. */
static void fxtf_slow_work_fn(struct work_struct *work)
{
	local_bh_disable();
	tasklet_schedule(&fxtf_slow_tasklet);
	local_bh_enable();
}

static DECLARE_WORK(fxtf_slow_work, fxtf_slow_work_fn);

static int fxtf_slow_set(const char *val, const struct kernel_param *kp)
{
	unsigned int on, ms;
	int ret = 0;

	if (sscanf(val, "%u %u", &on, &ms) != 2 || ms > 1000 ||
	    on >= nr_cpu_ids)
		return -EINVAL;
	mutex_lock(&fxtf_lock);
	cpus_read_lock();
	if (!cpu_online(on)) {
		ret = -ENODEV;
		goto out;
	}
	fxtf_slow_ms = ms;
	reinit_completion(&fxtf_slow_done);
	schedule_work_on(on, &fxtf_slow_work);
	wait_for_completion(&fxtf_slow_done);
	flush_work(&fxtf_slow_work);
out:
	cpus_read_unlock();
	mutex_unlock(&fxtf_lock);
	return ret;
}

static const struct kernel_param_ops fxtf_slow_ops = {
	.set = fxtf_slow_set,
};
module_param_cb(slow_tasklet, &fxtf_slow_ops, NULL, 0200);
MODULE_PARM_DESC(slow_tasklet, "\"CPU MS\": a tasklet of MS ms on CPU");

/* slow_irq_work: the same, in the irq_work vector's hard interrupt. */
static void fxtf_slow_irq_fn(struct irq_work *w)
{
	u64 end = ktime_get_boot_fast_ns() + fxtf_slow_ms * NSEC_PER_MSEC;

	cpu = smp_processor_id();
	while (ktime_get_boot_fast_ns() < end)
		cpu_relax();
	complete(&fxtf_slow_done);
}

static struct irq_work fxtf_slow_irq = IRQ_WORK_INIT_HARD(fxtf_slow_irq_fn);

/* On the chosen CPU: queued there, raised by a self-IPI. */
static void fxtf_slow_irq_work_fn(struct work_struct *work)
{
	irq_work_queue(&fxtf_slow_irq);
}

static DECLARE_WORK(fxtf_slow_irq_work, fxtf_slow_irq_work_fn);

static int fxtf_slow_irq_set(const char *val, const struct kernel_param *kp)
{
	unsigned int on, ms;
	int ret = 0;

	if (sscanf(val, "%u %u", &on, &ms) != 2 || ms > 1000 ||
	    on >= nr_cpu_ids)
		return -EINVAL;
	mutex_lock(&fxtf_lock);
	cpus_read_lock();
	if (!cpu_online(on)) {
		ret = -ENODEV;
		goto out;
	}
	fxtf_slow_ms = ms;
	reinit_completion(&fxtf_slow_done);
	schedule_work_on(on, &fxtf_slow_irq_work);
	wait_for_completion(&fxtf_slow_done);
	flush_work(&fxtf_slow_irq_work);
	irq_work_sync(&fxtf_slow_irq);
out:
	cpus_read_unlock();
	mutex_unlock(&fxtf_lock);
	return ret;
}

static const struct kernel_param_ops fxtf_slow_irq_ops = {
	.set = fxtf_slow_irq_set,
};
module_param_cb(slow_irq_work, &fxtf_slow_irq_ops, NULL, 0200);
MODULE_PARM_DESC(slow_irq_work, "\"CPU MS\": a hard irq_work of MS ms on CPU");

/* fail_hook: the tracepoint whose registration by fxt fails, and how. */
static struct fxtf_tp fxtf_fail;
static unsigned int fxtf_fail_delay_ms;	/* 0: fail; else delay, succeed */

/* Runs instead of tracepoint_probe_register(): what a failed one returns. */
static noinline int fxtf_fail_registration(void)
{
	return -ENOMEM;
}

static int fxtf_fail_pre(struct kprobe *p, struct pt_regs *regs)
{
	char sym[KSYM_SYMBOL_LEN];

	if ((struct tracepoint *)regs->di != READ_ONCE(fxtf_fail.tp))
		return 0;
	sprint_symbol(sym, regs->si);
	if (!strstr(sym, " [fxt]"))
		return 0;		/* not fxt's probe */
	if (READ_ONCE(fxtf_fail_delay_ms)) {
		mdelay(READ_ONCE(fxtf_fail_delay_ms));
		return 0;		/* then register as usual */
	}
	atomic_inc(&failed);
	/* Return from the call at once, as bpf_override_return() does. */
	instruction_pointer_set(regs, (unsigned long)fxtf_fail_registration);
	return 1;
}

/*
 * Never called: a post handler keeps the kprobe from being optimized into a
 * jump, which would ignore the new instruction pointer the pre handler
 * sets (Documentation/trace/kprobes.rst). Debian's kernels put the kprobe
 * on the function's ftrace call, where a new IP is honoured either way; a
 * kernel without the function tracer (make check-debug's) optimizes it.
 */
static void fxtf_fail_post(struct kprobe *p, struct pt_regs *regs,
			   unsigned long flags)
{
}

static struct kprobe fxtf_kprobe;

static void fxtf_disarm(void)
{
	if (!fxtf_fail.tp)
		return;
	unregister_kprobe(&fxtf_kprobe);
	WRITE_ONCE(fxtf_fail.tp, NULL);
}

static int fxtf_fail_set(const char *val, const struct kernel_param *kp)
{
	static char buf[64];
	char *name, *ms;
	struct fxtf_tp want;
	unsigned int delay = 0;
	int ret = 0;

	if (!IS_ENABLED(CONFIG_X86_64))
		return -EOPNOTSUPP;	/* the kprobe reads x86-64 registers */
	strscpy(buf, val, sizeof(buf));
	name = strim(buf);
	ms = strchr(name, ' ');
	if (ms) {
		*ms++ = '\0';
		if (kstrtouint(strim(ms), 10, &delay) || !delay || delay > 1000)
			return -EINVAL;
	}
	want.name = name;
	want.tp = NULL;
	mutex_lock(&fxtf_lock);
	fxtf_disarm();
	if (!*name)
		goto out;
	for_each_kernel_tracepoint(fxtf_match, &want);
	if (!want.tp) {
		ret = -ENOENT;
		goto out;
	}
	memset(&fxtf_kprobe, 0, sizeof(fxtf_kprobe));
	fxtf_kprobe.symbol_name = "tracepoint_probe_register";
	fxtf_kprobe.pre_handler = fxtf_fail_pre;
	fxtf_kprobe.post_handler = fxtf_fail_post;
	WRITE_ONCE(fxtf_fail_delay_ms, delay);
	WRITE_ONCE(fxtf_fail.tp, want.tp);
	ret = register_kprobe(&fxtf_kprobe);
	if (ret)
		WRITE_ONCE(fxtf_fail.tp, NULL);
out:
	mutex_unlock(&fxtf_lock);
	return ret;
}

static const struct kernel_param_ops fxtf_fail_ops = {
	.set = fxtf_fail_set,
};
module_param_cb(fail_hook, &fxtf_fail_ops, NULL, 0200);
MODULE_PARM_DESC(fail_hook, "tracepoint on which fxt's registration must fail");

static int fxtf_failed_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&failed));
}

static const struct kernel_param_ops fxtf_failed_ops = {
	.get = fxtf_failed_get,
};
module_param_cb(failed, &fxtf_failed_ops, NULL, 0444);
MODULE_PARM_DESC(failed, "registrations made to fail");

static int __init fxtf_init(void)
{
	unsigned int i;

	for_each_kernel_tracepoint(fxtf_match, NULL);
	for (i = 0; i < ARRAY_SIZE(fxtf_tps); i++)
		if (!fxtf_tps[i].tp)
			return -ENOENT;
	return 0;
}

static void __exit fxtf_exit(void)
{
	mutex_lock(&fxtf_lock);
	fxtf_disarm();
	mutex_unlock(&fxtf_lock);
	tasklet_kill(&fxtf_slow_tasklet);
}

module_init(fxtf_init);
module_exit(fxtf_exit);
MODULE_DESCRIPTION("fxt selftest helper: drives fxt's interrupt probes");
MODULE_LICENSE("GPL");
