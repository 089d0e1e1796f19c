// SPDX-License-Identifier: GPL-2.0
/*
 * evlog.bpf.c - log every wakeup, hard interrupt and softirq entry
 * (timestamp, CPU, kind, number) into a BPF ring buffer, unfiltered, for
 * the selftests' exact accounting of those records (evlog.h).
 *
 * The tracepoints are the ones module/fxt_probes.c hooks for these
 * records: sched_waking and sched_wakeup_new (wakeup records),
 * irq_handler_entry and the x86 vector entries of fxt_vector_names[]
 * (interrupt begins, category "irq"), softirq_entry (category "softirq").
 * User space leaves out (autoload) the vector programs whose tracepoint
 * this kernel lacks; fxt hooks those as optional too.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "evlog.bpf.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 24);	/* set by user space before load */
} evlog_rb SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, EVLOG_NR_COUNTERS);
	__type(key, u32);
	__type(value, u64);
} evlog_counts SEC(".maps");

static __always_inline void bump(u32 key)
{
	u64 *v = bpf_map_lookup_elem(&evlog_counts, &key);

	/* Atomic: a hard interrupt can log between a softirq's load and store. */
	if (v)
		__sync_fetch_and_add(v, 1);
}

/*
 * No wakeup of the reader (BPF_RB_NO_WAKEUP): it polls on a timer, so that
 * logging an event never queues the irq_work (and the wakeup) that would
 * log the next one.
 */
static __always_inline void log_event(u32 kind, u32 what)
{
	struct evlog_event *e;

	bump(EVLOG_SEEN + kind);
	e = bpf_ringbuf_reserve(&evlog_rb, sizeof(*e), 0);
	if (!e) {
		bump(EVLOG_LOST);
		return;
	}
	e->ts = bpf_ktime_get_boot_ns();
	e->cpu = bpf_get_smp_processor_id();
	e->kind = kind;
	e->what = what;
	e->pad = 0;
	bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
}

SEC("tp_btf/sched_waking")
int BPF_PROG(evlog_waking, struct task_struct *p)
{
	log_event(EVLOG_WAKING, p->pid);
	return 0;
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(evlog_wakeup_new, struct task_struct *p)
{
	log_event(EVLOG_WAKEUP_NEW, p->pid);
	return 0;
}

SEC("tp_btf/irq_handler_entry")
int BPF_PROG(evlog_irq, int irq, struct irqaction *action)
{
	log_event(EVLOG_IRQ, irq);
	return 0;
}

SEC("tp_btf/softirq_entry")
int BPF_PROG(evlog_softirq, unsigned int vec)
{
	log_event(EVLOG_SOFTIRQ, vec);
	return 0;
}

/* The x86 vectors of module/fxt_def_records.c's fxt_vector_names[]. */
#define EVLOG_VECTOR_PROG(v)						\
SEC("tp_btf/" #v "_entry")						\
int BPF_PROG(evlog_##v, int vector)					\
{									\
	log_event(EVLOG_VECTOR, vector);				\
	return 0;							\
}

EVLOG_VECTOR_PROG(local_timer)
EVLOG_VECTOR_PROG(reschedule)
EVLOG_VECTOR_PROG(call_function)
EVLOG_VECTOR_PROG(call_function_single)
EVLOG_VECTOR_PROG(irq_work)
EVLOG_VECTOR_PROG(x86_platform_ipi)
EVLOG_VECTOR_PROG(spurious_apic)
EVLOG_VECTOR_PROG(error_apic)
EVLOG_VECTOR_PROG(thermal_apic)
EVLOG_VECTOR_PROG(threshold_apic)
EVLOG_VECTOR_PROG(deferred_error_apic)
