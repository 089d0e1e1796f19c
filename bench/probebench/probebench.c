// SPDX-License-Identifier: GPL-2.0
/*
 * probebench - in-kernel micro-benchmark of whatever is attached to the
 * sched_switch tracepoint (fxt, ftrace, BPF, perf, nullprobe, or nothing).
 *
 * At load it calls every probe registered on sched_switch directly, the way
 * the tracepoint does (preemption and interrupts off, prev = next = current),
 * in `batches` batches of `calls` calls, and times each batch. The result,
 * read from /sys/module/probebench/parameters/result, is
 * "MEDIAN_NS MIN_NS PROBES": the median and minimum over batches of the
 * time per call of all probes together, and how many probes were attached.
 * Taking the median of short interrupt-free batches removes most of the
 * noise of a TCG guest on a busy host that whole-workload timings suffer.
 * Load it while the tracer under test is recording; unload right after.
 *
 * part=N times, instead of the probes, the building blocks of fxt's write
 * path (module/fxt_buffer.c), to explain its cost against the empty probe
 * (part=0, the default, is the probes): 1 an empty probe's this_cpu_inc(),
 * 2 the clock fxt reads (ktime_get_boot_fast_ns()), 3 one local_cmpxchg()
 * on a per-CPU word, 4 a whole 16-byte record the way fxt writes one
 * (read the reserve word, read the clock, local_cmpxchg() it forward,
 * store two words, smp_wmb(), local_add() the commit count, local_inc()
 * the record count), without the thread lookups.
 *
 * tp=sched_waking times the probes attached to sched_waking instead,
 * called with p = current (a running task: a wakeup that changes nothing,
 * written at once, as a wakeup of a task still on its CPU is).
 * tp=cpu_idle times those attached to cpu_idle, called as the idle loop
 * calls them on entry (state 1, this CPU), with interrupts off.
 *
 * real=1 times the probes on real switches instead (pb_real()): a kernel
 * thread sleeps `batches` times in usleep_range_state(), switching out
 * in prev_state (1: S, 2: D), and two probes of probebench's own, run
 * first and last on sched_switch, bracket the others for each of its
 * switches. A switch into D is walked from __schedule() as in any
 * workload, which a direct call from this module cannot show.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/tracepoint.h>
#include <linux/sched.h>
#include <linux/sort.h>
#include <linux/slab.h>
#include <linux/ktime.h>
#include <linux/percpu.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <asm/local.h>

static unsigned int calls = 200, batches = 100;
module_param(calls, uint, 0444);
module_param(batches, uint, 0444);

static unsigned int part;
module_param(part, uint, 0444);

/*
 * The prev_state passed (0: TASK_RUNNING, as a preemption leaves it). 1
 * (TASK_INTERRUPTIBLE) makes every call a block and a switch in of the
 * same thread: with fxt's off-cpu trigger armed, a note and its taking.
 * With real=1, the state the sleeping thread switches out in (1 or 2).
 */
static unsigned int prev_state;
module_param(prev_state, uint, 0444);

static unsigned int real;
module_param(real, uint, 0444);

static char tp[32] = "sched_switch";
module_param_string(tp, tp, sizeof(tp), 0444);

static char result[64];
module_param_string(result, result, sizeof(result), 0444);

static struct tracepoint *pb_tp;

static void pb_match(struct tracepoint *t, void *priv)
{
	if (!strcmp(t->name, priv))
		pb_tp = t;
}

typedef void (*switch_probe_t)(void *data, bool preempt,
			       struct task_struct *prev,
			       struct task_struct *next,
			       unsigned int prev_state);
typedef void (*waking_probe_t)(void *data, struct task_struct *p);
typedef void (*idle_probe_t)(void *data, unsigned int state,
			     unsigned int cpu_id);

static int pb_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

struct pb_buf {
	unsigned long counter;
	local_t reserve, committed, written;
	u64 data[512];
};

/*
 * Allocated at load, from the dynamic per-CPU area: as a static per-CPU
 * variable its 4 KiB come from the 8 KiB the kernel reserves for every
 * module's, where the guest's other modules left no room after a few
 * loads ("Could not allocate 4128 bytes percpu data").
 */
static struct pb_buf __percpu *pb_buf;

/* One of the building blocks; interrupts are off */
static noinline void pb_part(unsigned int what)
{
	struct pb_buf *pb = this_cpu_ptr(pb_buf);
	long old, off;
	u64 ts, *p;

	switch (what) {
	case 1:
		this_cpu_inc(pb_buf->counter);
		break;
	case 2:
		ts = ktime_get_boot_fast_ns();
		barrier_data(&ts);
		break;
	case 3:
		old = local_read(&pb->reserve);
		local_cmpxchg(&pb->reserve, old, old + 16);
		break;
	case 4:
		old = local_read(&pb->reserve);
		off = old & (sizeof(pb->data) - 1);
		ts = ktime_get_boot_fast_ns();
		if (local_cmpxchg(&pb->reserve, old, old + 16) != old)
			break;
		p = &pb->data[off / 8];
		p[0] = old;
		p[1] = ts;
		smp_wmb();	/* the record before the commit count, as fxt */
		local_add(16, &pb->committed);
		local_inc(&pb->written);
		break;
	}
}

static u64 *pb_times;
static unsigned int pb_nprobes;

/* The batches: pb_times[] and pb_nprobes. */
static noinline void pb_measure(void)
{
	bool waking = !strcmp(tp, "sched_waking");
	bool idle = !strcmp(tp, "cpu_idle");
	struct tracepoint_func *f;
	unsigned int b, i, nprobes = 0;
	unsigned long flags;
	u64 *t = pb_times;

	for (b = 0; b < batches; b++) {
		u64 t0, t1;

		preempt_disable();
		local_irq_save(flags);
		f = rcu_dereference_sched(pb_tp->funcs);
		t0 = ktime_get_ns();
		for (i = 0; i < calls; i++) {
			struct tracepoint_func *p = f;

			if (part) {
				pb_part(part);
				continue;
			}
			if (p && idle)
				for (; p->func; p++)
					((idle_probe_t)p->func)(p->data, 1,
								smp_processor_id());
			else if (p && waking)
				for (; p->func; p++)
					((waking_probe_t)p->func)(p->data,
								  current);
			else if (p)
				for (; p->func; p++)
					((switch_probe_t)p->func)(p->data, false,
								  current, current,
								  prev_state);
		}
		t1 = ktime_get_ns();
		nprobes = 0;
		if (f)
			for (; f->func; f++)
				nprobes++;
		local_irq_restore(flags);
		preempt_enable();
		t[b] = t1 - t0;
		cond_resched();
	}
	pb_nprobes = nprobes;
}

/*
 * real=1: the probes on real switches. pb_first() and pb_last() are
 * registered on sched_switch with the highest and lowest priority, so the
 * tracepoint calls every other probe between them; for each switch out of
 * pb_sleeper() in prev_state, pb_last() stores the time since pb_first().
 * The bracket's own cost (two clock reads, the calls) is what the same
 * row with no tracer measures.
 */
#define PB_FIRST_PRIO	10000
#define PB_LAST_PRIO	(-10000)

static struct task_struct *pb_task;
static unsigned int pb_state, pb_n;
static u64 pb_t0;

static void pb_first(void *data, bool preempt, struct task_struct *prev,
		     struct task_struct *next, unsigned int state)
{
	if (prev == pb_task && !preempt && state == pb_state)
		pb_t0 = ktime_get_ns();
}

static void pb_last(void *data, bool preempt, struct task_struct *prev,
		    struct task_struct *next, unsigned int state)
{
	u64 t1 = ktime_get_ns();

	if (prev != pb_task || preempt || state != pb_state || !pb_t0)
		return;
	/* no wake-up here: the runqueue is locked (pb_real() polls) */
	if (pb_n < batches)
		pb_times[pb_n++] = t1 - pb_t0;
	pb_t0 = 0;
}

/* The function the sleeps are in: what fxt names for a switch into D */
static noinline void pb_sleep(unsigned int state)
{
	usleep_range_state(20, 40, state);
}

static int pb_sleeper(void *arg)
{
	while (!kthread_should_stop()) {
		if (READ_ONCE(pb_n) < batches)
			pb_sleep(pb_state);
		else
			schedule_timeout_interruptible(HZ / 50);
	}
	return 0;
}

/* The real switches' times in pb_times[], and the other probes' count */
static int pb_real(void)
{
	unsigned long deadline = jiffies + 120 * HZ;
	struct tracepoint_func *f;
	int ret;

	if (prev_state != 1 && prev_state != 2)
		return -EINVAL;
	pb_state = prev_state == 2 ? TASK_UNINTERRUPTIBLE : TASK_INTERRUPTIBLE;
	ret = tracepoint_probe_register_prio(pb_tp, pb_first, NULL,
					     PB_FIRST_PRIO);
	if (ret)
		return ret;
	ret = tracepoint_probe_register_prio(pb_tp, pb_last, NULL,
					     PB_LAST_PRIO);
	if (ret)
		goto out_first;
	pb_task = kthread_run(pb_sleeper, NULL, "probebench");
	if (IS_ERR(pb_task)) {
		ret = PTR_ERR(pb_task);
		pb_task = NULL;
		goto out_last;
	}
	while (READ_ONCE(pb_n) < batches && time_before(jiffies, deadline))
		msleep(20);
	if (READ_ONCE(pb_n) < batches)
		ret = -ETIMEDOUT;
	rcu_read_lock_sched();
	pb_nprobes = 0;
	for (f = rcu_dereference_sched(pb_tp->funcs); f && f->func; f++)
		pb_nprobes++;
	rcu_read_unlock_sched();
	pb_nprobes -= 2;	/* the bracket */
out_last:
	tracepoint_probe_unregister(pb_tp, pb_last, NULL);
out_first:
	tracepoint_probe_unregister(pb_tp, pb_first, NULL);
	tracepoint_synchronize_unregister();
	if (pb_task)
		kthread_stop(pb_task);
	return ret;
}

static int __init pb_init(void)
{
	unsigned int nprobes;
	u64 *t;

	if (strcmp(tp, "sched_switch") && strcmp(tp, "sched_waking") &&
	    strcmp(tp, "cpu_idle"))
		return -EINVAL;
	if (real && strcmp(tp, "sched_switch"))
		return -EINVAL;
	for_each_kernel_tracepoint(pb_match, tp);
	if (!pb_tp || !calls || !batches)
		return -EINVAL;
	t = kcalloc(batches, sizeof(*t), GFP_KERNEL);
	pb_buf = alloc_percpu(struct pb_buf);
	if (!t || !pb_buf) {
		kfree(t);
		free_percpu(pb_buf);
		return -ENOMEM;
	}
	pb_times = t;
	if (real) {
		int ret = pb_real();

		if (ret) {
			kfree(t);
			free_percpu(pb_buf);
			return ret;
		}
	} else {
		pb_measure();
	}
	nprobes = pb_nprobes;
	sort(t, batches, sizeof(*t), pb_cmp, NULL);
	snprintf(result, sizeof(result), "%llu %llu %u",
		 div_u64(t[batches / 2], real ? 1 : calls),
		 div_u64(t[0], real ? 1 : calls), nprobes);
	kfree(t);
	free_percpu(pb_buf);
	pb_buf = NULL;
	return 0;
}

static void __exit pb_exit(void)
{
}

module_init(pb_init);
module_exit(pb_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("fxt bench: time the probes attached to sched_switch");
