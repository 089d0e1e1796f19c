// SPDX-License-Identifier: GPL-2.0
/*
 * swlog.bpf.c - log every sched_switch (timestamp, CPU, prev/next tid) into
 * a BPF ring buffer, for the selftests' exact-window accounting (swlog.h).
 * Independent of the counting oracle (oracle.bpf.c), which it leaves alone.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "swlog.bpf.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 25);	/* set by user space before load */
} swlog_rb SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, SWLOG_NR_COUNTERS);
	__type(key, u32);
	__type(value, u64);
} swlog_counts SEC(".maps");

static __always_inline void bump(u32 key)
{
	u64 *v = bpf_map_lookup_elem(&swlog_counts, &key);

	if (v)
		__sync_fetch_and_add(v, 1);
}

SEC("tp_btf/sched_switch")
int BPF_PROG(swlog_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next, unsigned int prev_state)
{
	struct swlog_event *e;

	e = bpf_ringbuf_reserve(&swlog_rb, sizeof(*e), 0);
	if (!e) {
		bump(SWLOG_LOST);
		return 0;
	}
	e->ts = bpf_ktime_get_boot_ns();
	e->cpu = bpf_get_smp_processor_id();
	e->prev = prev->pid;
	e->next = next->pid;
	e->pad = 0;
	bpf_ringbuf_submit(e, 0);
	bump(SWLOG_LOGGED);
	return 0;
}
