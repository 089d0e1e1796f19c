// SPDX-License-Identifier: GPL-2.0
/*
 * oracle.bpf.c - count scheduler events per CPU for the selftests' oracle.
 *
 * tp_btf programs on sched_switch, sched_waking and sched_wakeup_new (see
 * oracle.h for why tp_btf). The filter is two read-only globals set by
 * user space before load; the verifier then sees them as constants.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "oracle.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* TASK_DEAD of include/linux/sched.h: prev_state of a task's final switch. */
#define TASK_DEAD	0x0080

const volatile pid_t targ_tgid = 0;	/* count threads of this process */
const volatile pid_t targ_exclude = 0;	/* ... except this thread (0: none) */

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, ORACLE_NR_COUNTERS);
	__type(key, u32);
	__type(value, u64);
} counts SEC(".maps");

static __always_inline void count(u32 key)
{
	u64 *v = bpf_map_lookup_elem(&counts, &key);

	/*
	 * Atomic although per CPU: an interrupt on this CPU can run another of
	 * these programs (sched_waking from a timer) between a load and a store.
	 */
	if (v)
		__sync_fetch_and_add(v, 1);
}

/*
 * Not atomic: sched_switch runs with interrupts off and never nests on a
 * CPU, so nothing else updates this CPU's digest meanwhile.
 */
static __always_inline void digest(u32 prev, u32 next)
{
	u32 key = ORACLE_SWITCH_DIGEST;
	u64 *v = bpf_map_lookup_elem(&counts, &key);

	if (v)
		*v = ORACLE_DIGEST(*v, prev, next);
}

static __always_inline bool counted(const struct task_struct *p)
{
	return p->tgid == targ_tgid &&
	       (targ_exclude <= 0 || p->pid != targ_exclude);
}

SEC("tp_btf/sched_switch")
int BPF_PROG(oracle_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next, unsigned int prev_state)
{
	bool out = counted(prev);

	count(ORACLE_ALL_SWITCH);
	if (out || counted(next)) {
		count(ORACLE_SWITCH);
		digest(prev->pid, next->pid);
	}
	if (out && !preempt && (prev_state & TASK_DEAD))
		count(ORACLE_EXIT);
	return 0;
}

SEC("tp_btf/sched_waking")
int BPF_PROG(oracle_waking, struct task_struct *p)
{
	if (counted(p))
		count(ORACLE_WAKEUP);
	return 0;
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(oracle_wakeup_new, struct task_struct *p)
{
	if (counted(p))
		count(ORACLE_WAKEUP);
	return 0;
}
