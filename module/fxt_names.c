// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_names.c - kernel object records: who every thread and process is.
 *
 * At start a snapshot names every task; from then on the fork and rename
 * probes name what changes (exec renames the task: records.rst). All of it
 * goes to the durable buffer of the CPU that writes it, so no trace of any
 * length or mode shows a thread without a name. Kernel object records are
 * global in FXT: the CPU (the provider) that carries one does not matter.
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/rcupdate.h>
#include <linux/string.h>
#include "fxt.h"

/*
 * Copy a name up to its NUL and never past it: the comm task_rename passes
 * may be a shorter buffer than TASK_COMM_LEN (exec passes the basename at
 * the end of the path it was given, which can end a slab object). A racy
 * read of a task's own comm is fine (tracepoints do the same): it is always
 * 0-ended within TASK_COMM_LEN.
 */
static void fxt_copy_comm(char *dst, const char *src)
{
	strscpy(dst, src, TASK_COMM_LEN);
}

/**
 * fxt_write_task_names() - name @p, and its process when it leads one
 * @c: this CPU, preemption disabled
 * @p: the task
 * @comm: its name, or NULL to read p->comm
 */
void fxt_write_task_names(struct fxt_cpu *c, struct task_struct *p,
			  const char *comm)
{
	/* Before the copy: the name read is at least as new as this time. */
	u64 now = ktime_get_boot_fast_ns();
	char name[TASK_COMM_LEN];

	fxt_copy_comm(name, comm ? comm : p->comm);
	if (p->pid == p->tgid)
		fxt_write_kobj_process(c, p->tgid, name, now);
	fxt_write_kobj_thread(c, p->pid, p->tgid, name, now);
}

/*
 * Name every process and thread that exists now. Called at start after the
 * fork and rename probes are registered, so a task created or renamed
 * during the walk is named by one or the other (or both). At a first start
 * these records carry no "named_at": a name that changes from now on is
 * written again with one, so the snapshot's is the oldest name of its
 * koid. A restart that keeps an earlier run's names (@stamped) gives each
 * record the time it read the name at, as the probes do: a rename made
 * while tracing was stopped is then newer than the earlier run's records.
 */
void fxt_names_snapshot(bool stamped)
{
	struct task_struct *g, *t;
	char leader[TASK_COMM_LEN];
	char name[TASK_COMM_LEN];

	u64 at;

	rcu_read_lock();
	for_each_process(g) {
		at = stamped ? ktime_get_boot_fast_ns() : 0;
		fxt_copy_comm(leader, g->comm);
		preempt_disable();
		fxt_write_kobj_process(fxt_this_cpu(), g->tgid, leader, at);
		preempt_enable();
		for_each_thread(g, t) {
			at = stamped ? ktime_get_boot_fast_ns() : 0;
			fxt_copy_comm(name, t->comm);
			preempt_disable();
			fxt_write_kobj_thread(fxt_this_cpu(), t->pid, t->tgid,
					      name, at);
			preempt_enable();
		}
	}
	rcu_read_unlock();
}
