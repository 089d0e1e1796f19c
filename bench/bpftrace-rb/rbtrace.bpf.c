// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace.bpf.c - a lean libbpf scheduler tracer for bench/: tp_btf
 * programs write 32-byte records into one BPF ring buffer. Consumers are
 * woken only when 256 KiB are pending (else user space polls every 20 ms),
 * as a tuned BPF tracer would do: a wakeup per record costs an irq_work each.
 * The set of tracepoints is fxt's (module/fxt_probes.c) minus the name ones
 * (fork, exec, rename): sched_switch; with -a also wakeups, irq_handler,
 * softirq and the x86 irq_vectors entry/exit tracepoints.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "rbtrace.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 16 << 20);
} rb SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, RB_NR_COUNTERS);
	__type(key, u32);
	__type(value, u64);
} counts SEC(".maps");

static __always_inline void count(u32 key)
{
	u64 *v = bpf_map_lookup_elem(&counts, &key);

	if (v)
		__sync_fetch_and_add(v, 1);
}

static __always_inline struct rb_event *reserve(u16 type)
{
	struct rb_event *e = bpf_ringbuf_reserve(&rb, sizeof(*e), 0);

	if (!e) {
		count(1);
		return NULL;
	}
	e->ts = bpf_ktime_get_boot_ns();
	e->cpu = bpf_get_smp_processor_id();
	e->type = type;
	e->pad = 0;
	e->pad2 = 0;
	e->state = 0;
	e->prev_prio = e->next_prio = 0;
	return e;
}

static __always_inline void submit(struct rb_event *e)
{
	u64 flags = bpf_ringbuf_query(&rb, BPF_RB_AVAIL_DATA) > (256 << 10) ?
		    BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;

	bpf_ringbuf_submit(e, flags);
	count(0);
}

/*
 * Interrupt vector events never wake the consumer: a wakeup is an irq_work,
 * whose vector would write an event that wakes again, a loop that filled
 * the ring with millions of irq_work events while the consumer was behind.
 */
static __always_inline void submit_quiet(struct rb_event *e)
{
	bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
	count(0);
}

static __always_inline int vector_event(u16 type, u32 vector, u32 index)
{
	struct rb_event *e = reserve(type);

	if (!e)
		return 0;
	e->a = vector;
	e->b = index;
	submit_quiet(e);
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(rb_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next, unsigned int prev_state)
{
	struct rb_event *e = reserve(RB_SWITCH);

	if (!e)
		return 0;
	e->a = prev->pid;
	e->b = next->pid;
	e->state = prev_state;
	e->prev_prio = prev->prio;
	e->next_prio = next->prio;
	submit(e);
	return 0;
}

static __always_inline int task_event(u16 type, struct task_struct *p)
{
	struct rb_event *e = reserve(type);

	if (!e)
		return 0;
	e->a = p->pid;
	e->b = bpf_get_smp_processor_id();
	e->next_prio = p->prio;
	submit(e);
	return 0;
}

SEC("tp_btf/sched_waking")
int BPF_PROG(rb_waking, struct task_struct *p)
{
	return task_event(RB_WAKING, p);
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(rb_wakeup_new, struct task_struct *p)
{
	return task_event(RB_WAKEUP_NEW, p);
}

static __always_inline int num_event(u16 type, u32 a, u32 b)
{
	struct rb_event *e = reserve(type);

	if (!e)
		return 0;
	e->a = a;
	e->b = b;
	submit(e);
	return 0;
}

SEC("tp_btf/irq_handler_entry")
int BPF_PROG(rb_irq_entry, int irq, struct irqaction *action)
{
	return num_event(RB_IRQ_ENTRY, irq, 0);
}

SEC("tp_btf/irq_handler_exit")
int BPF_PROG(rb_irq_exit, int irq, struct irqaction *action, int ret)
{
	return num_event(RB_IRQ_EXIT, irq, ret);
}

SEC("tp_btf/softirq_entry")
int BPF_PROG(rb_softirq_entry, unsigned int vec)
{
	return num_event(RB_SOFTIRQ_ENTRY, vec, 0);
}

SEC("tp_btf/softirq_exit")
int BPF_PROG(rb_softirq_exit, unsigned int vec)
{
	return num_event(RB_SOFTIRQ_EXIT, vec, 0);
}

/* x86 irq_vectors: the interrupts that bypass irq_handler_entry */
#define RB_VECTOR(v, i)							\
SEC("tp_btf/" #v "_entry")						\
int BPF_PROG(rb_##v##_entry, int vector)				\
{									\
	return vector_event(RB_VECTOR_ENTRY, vector, i);			\
}									\
SEC("tp_btf/" #v "_exit")						\
int BPF_PROG(rb_##v##_exit, int vector)					\
{									\
	return vector_event(RB_VECTOR_EXIT, vector, i);			\
}

RB_VECTOR(local_timer, 0)
RB_VECTOR(reschedule, 1)
RB_VECTOR(call_function, 2)
RB_VECTOR(call_function_single, 3)
RB_VECTOR(irq_work, 4)
RB_VECTOR(x86_platform_ipi, 5)
RB_VECTOR(spurious_apic, 6)
RB_VECTOR(error_apic, 7)
RB_VECTOR(thermal_apic, 8)
RB_VECTOR(threshold_apic, 9)
RB_VECTOR(deferred_error_apic, 10)
