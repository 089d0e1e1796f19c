// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_names.c - kernel object records: who every thread and process is.
 *
 * Oneshot and streaming: at start a snapshot names every task, each CPU a
 * share; from then on the fork and rename probes name what changes (exec
 * renames the task: records.rst). All of it goes to the durable buffer of
 * the CPU that writes it, so no trace of any length shows a thread without
 * a name.
 *
 * Circular mode keeps only the last two rolling buffers of each CPU, for as
 * long as it runs: names in the durable buffer would fill it (every fork,
 * exec and rename adds one), and a full durable buffer stops the CPU. So
 * there, names ride in the rolling data: the first record of a rolling
 * buffer generation that refers to a task (a switch in or out, a wakeup)
 * is preceded by the task's and its process's name, as they are then, and
 * the fork and rename probes write theirs there too. Every kept buffer
 * then names every thread it refers to, whatever was overwritten, and the
 * durable buffer holds only what the tables bound (strings, thread
 * indices). No snapshot is needed. The cost: one lookup in a 256-slot
 * per-CPU cache per task per record, and per generation a thread record
 * per task and a process record per process (64 bytes each for a name of
 * 8 to 15 bytes: name, "process" or "parent", "named_at"). Kernel object
 * records are global in FXT: the CPU (the provider) that carries one does
 * not matter.
 */
#include <linux/hash.h>
#include <linux/kernel.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/sched.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>
#include "fxt.h"
#include "fxt_buffer.h"
#include "fxt_names.h"
#include "fxt_def_records.h"

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

static bool fxt_names_rolling(const struct fxt_cpu *c)
{
	return c->hdr->mode == FXT_MODE_CIRCULAR;
}

/*
 * @gen is the generation read before the record was written: if the buffer
 * rolled meanwhile, the next lookup misses and names it again (a duplicate,
 * never a gap). An interrupt on this CPU can look the slot up between
 * these stores: the key goes last, so it never sees the new key with the
 * old slot's task and generation.
 */
static void fxt_name_mark(struct fxt_cpu *c, u32 key, u32 gen, u64 born)
{
	struct fxt_name_slot *s = fxt_name_slot(c, key);

	WRITE_ONCE(s->key, 0);
	barrier();
	WRITE_ONCE(s->gen, gen);
	WRITE_ONCE(s->born, born);
	barrier();
	WRITE_ONCE(s->key, key);
}

/*
 * The process @leader's parent, as /proc's PPid says: its real parent's
 * tgid (0 for init and kthreadd, whose parent is the idle task). The
 * pointer changes when the parent exits (reparenting); task structs are
 * freed after an RCU grace period.
 */
static u64 fxt_parent_of(struct task_struct *leader)
{
	u64 ppid;

	rcu_read_lock();
	ppid = rcu_dereference(leader->real_parent)->tgid;
	rcu_read_unlock();
	return ppid;
}

/*
 * Circular mode: name the process of @p in generation @gen unless done
 * already, as its leader's name reads now (@now). A thread's name is
 * marked in a generation only once its process's is: a hit on the thread
 * is then the whole check (fxt_name_in_gen()).
 */
static void fxt_name_process_in_gen(struct fxt_cpu *c, struct task_struct *p,
				    u32 gen, u64 now)
{
	struct task_struct *leader = READ_ONCE(p->group_leader);
	char name[TASK_COMM_LEN];
	struct fxt_kobj_process o = {
		.koid = p->tgid, .name = name, .named_at = now,
	};

	if (fxt_name_cached(c, p->tgid | FXT_NAME_PROCESS, gen,
			    leader->start_time))
		return;
	o.parent = fxt_parent_of(leader);
	fxt_copy_comm(name, leader->comm);
	fxt_emit_kobj_process(c, &o, true);
	fxt_name_mark(c, p->tgid | FXT_NAME_PROCESS, gen, leader->start_time);
}

/**
 * fxt_emit_task_names() - name @p, and its process when it leads one
 * @c: this CPU, preemption disabled
 * @p: the task
 * @comm: its name, or NULL to read p->comm
 */
void fxt_emit_task_names(struct fxt_cpu *c, struct task_struct *p,
			 const char *comm)
{
	/* Before the copy: the name read is at least as new as this time. */
	u64 now = ktime_get_boot_fast_ns();
	char name[TASK_COMM_LEN];
	bool rolling = fxt_names_rolling(c);
	u32 gen = rolling ? fxt_rolling_gen(c) : 0;

	fxt_copy_comm(name, comm ? comm : p->comm);
	if (p->pid == p->tgid) {
		struct fxt_kobj_process o = {
			.koid = p->tgid, .name = name, .named_at = now,
			.parent = fxt_parent_of(p),
		};

		fxt_emit_kobj_process(c, &o, rolling);
		if (rolling)
			fxt_name_mark(c, p->tgid | FXT_NAME_PROCESS, gen,
				      p->start_time);
	} else if (rolling) {
		fxt_name_process_in_gen(c, p, gen, now);
	}
	fxt_emit_kobj_thread(c, p->pid, p->tgid, name, now, rolling);
	/*
	 * A rename's new name is not in p->comm yet: what the window naming
	 * would read now is the old one, so it must not write it after this.
	 */
	if (rolling)
		fxt_name_mark(c, p->pid, gen, p->start_time);
}

/**
 * fxt_emit_exec() - an exec's process record, with its command line
 * @c: this CPU, preemption disabled
 * @p: current, just done with exec (sched_process_exec): its new image's
 *	arguments are on its new stack, mm->arg_start to mm->arg_end
 *
 * The arguments are read from the task's own memory, at most
 * FXT_CMDLINE_MAX bytes, without faulting: exec has just written them, so
 * they are present, and a read that would fault reads nothing (an empty
 * "cmdline", never a sleep in a probe). The NUL after each argument but
 * the last is written as a space, as ps shows a command line.
 */
void fxt_emit_exec(struct fxt_cpu *c, struct task_struct *p)
{
	char cmdline[FXT_CMDLINE_MAX], name[TASK_COMM_LEN];
	struct fxt_kobj_process o = {
		.koid = p->tgid, .name = name,
		.named_at = ktime_get_boot_fast_ns(),
		.parent = fxt_parent_of(p->group_leader), .cmdline = cmdline,
	};
	struct mm_struct *mm = p->mm;
	unsigned long start, end;
	unsigned int i, len = 0;

	fxt_copy_comm(name, p->comm);
	if (mm) {
		start = READ_ONCE(mm->arg_start);
		end = READ_ONCE(mm->arg_end);
		if (end > start)
			len = min_t(unsigned long, end - start, sizeof(cmdline));
		if (len && copy_from_user_nofault(cmdline,
						  (const void __user *)start, len))
			len = 0;
	}
	while (len && !cmdline[len - 1])
		len--;
	for (i = 0; i < len; i++)
		if (!cmdline[i])
			cmdline[i] = ' ';
	o.cmdline_len = len;
	fxt_emit_kobj_process(c, &o, fxt_names_rolling(c));
}

/**
 * fxt_names_reset() - forget which names the rolling data holds
 * @c: the CPU, its rolling buffers just emptied (generations restart)
 */
void fxt_names_reset(struct fxt_cpu *c)
{
	memset(c->names, 0, sizeof(c->names));
}

/**
 * fxt_name_in_window_slow() - fxt_name_in_gen() once the thread missed
 * @c: this CPU, preemption disabled
 * @p: a task a record is about to refer to
 * @gen: the generation being written
 */
void fxt_name_in_window_slow(struct fxt_cpu *c, struct task_struct *p, u32 gen)
{
	u64 now = ktime_get_boot_fast_ns();
	char name[TASK_COMM_LEN];

	fxt_name_process_in_gen(c, p, gen, now);
	fxt_copy_comm(name, p->comm);
	fxt_emit_kobj_thread(c, p->pid, p->tgid, name, now, true);
	fxt_name_mark(c, p->pid, gen, p->start_time);
}

/* Tasks (pids) visited per RCU read-side section of the snapshot. */
#define FXT_SNAPSHOT_BATCH	64

/*
 * Name one task found by the snapshot, and its process when it leads one.
 * RCU read-side: @t cannot be freed under us.
 */
static void fxt_snapshot_task(struct task_struct *t, bool stamped)
{
	char name[TASK_COMM_LEN];
	u64 at = stamped ? ktime_get_boot_fast_ns() : 0;
	struct fxt_cpu *c;

	fxt_copy_comm(name, t->comm);
	preempt_disable();
	c = fxt_this_cpu();
	if (c && t->pid == t->tgid) {
		struct fxt_kobj_process o = {
			.koid = t->tgid, .name = name, .named_at = at,
			.parent = fxt_parent_of(t),
		};

		fxt_emit_kobj_process(c, &o, false);
	}
	if (c)
		fxt_emit_kobj_thread(c, t->pid, t->tgid, name, at, false);
	preempt_enable();
}

/* One CPU's share of the snapshot (fxt_names_snapshot()). */
struct fxt_snapshot_share {
	struct work_struct work;
	struct completion done;
	bool stamped;
	unsigned int index, count;	/* it names the pids == index mod count */
};

/*
 * How long START waits for the CPUs' shares to begin before it walks the
 * ones that have not itself: a CPU monopolised by a real-time task that
 * never yields (RT throttling off, as on isolated CPUs) runs no work item.
 */
#define FXT_SNAPSHOT_WAIT	(HZ / 2)

/*
 * The snapshot's walk, on the CPU of @sh (fxt_names_snapshot()).
 *
 * Called at start after the fork and rename probes are registered, so a
 * task created or renamed during the walk is named by one or the other (or
 * both). At a first start these records carry no "named_at": a name that
 * changes from now on is written again with one, so the snapshot's is the
 * oldest name of its koid. A restart that keeps an earlier run's names
 * (@sh->stamped) gives each record the time it read the name at, as the
 * probes do: a rename made while tracing was stopped is then newer than
 * the earlier run's records.
 *
 * The walk goes by pid number, as /proc's readdir does, FXT_SNAPSHOT_BATCH
 * pids per RCU read-side section with a resched point between sections:
 * on a kernel whose RCU readers cannot be preempted, a system with a
 * million tasks would otherwise run the whole walk without one. The
 * number is the resume point, so nothing a task does in between (exit,
 * exec, a thread made leader by de_thread()) can lose the walk's place; a
 * task forked in between is named by the fork probe, whichever side of
 * the resume point its pid is.
 */
static void fxt_snapshot_walk(struct fxt_snapshot_share *sh)
{
	struct task_struct *t;
	struct pid *pid;
	unsigned int n;
	int nr = 1;

	do {
		rcu_read_lock();
		for (n = 0; n < FXT_SNAPSHOT_BATCH; n++, nr++) {
			pid = find_ge_pid(nr, &init_pid_ns);
			if (!pid)
				break;
			nr = pid_nr(pid);
			t = pid_task(pid, PIDTYPE_PID);
			if (t && (unsigned int)nr % sh->count == sh->index)
				fxt_snapshot_task(t, sh->stamped);
		}
		rcu_read_unlock();
		cond_resched();
	} while (pid);
}

static void fxt_snapshot_work(struct work_struct *work)
{
	struct fxt_snapshot_share *sh =
		container_of(work, struct fxt_snapshot_share, work);

	fxt_snapshot_walk(sh);
	complete(&sh->done);
}

/**
 * fxt_names_snapshot() - name every process and thread that exists now
 * @stamped: give each record the time its name was read ("named_at")
 *
 * Every traced online CPU names its share of the tasks, in parallel, in
 * its own buffers (a work item bound to it): the names of a machine with
 * many tasks would otherwise all land in one CPU's durable buffer, and
 * spill into its rolling buffers, which a streaming collector blocked in
 * START cannot save meanwhile. Kernel object records are global in FXT,
 * so which CPU carries a name does not matter. CPU hotplug is held off
 * for the walk, so that each share runs where it was queued. A share
 * that has not begun after FXT_SNAPSHOT_WAIT (its CPU runs a real-time
 * task that never yields) is walked by the caller instead, into the
 * caller's CPU's buffers. Without memory for the shares, the caller walks
 * them all (on a CPU added after INITIALIZE, the names are counted lost,
 * fxt_untraced).
 */
void fxt_names_snapshot(bool stamped)
{
	struct fxt_session *s = &fxt_session;
	struct fxt_snapshot_share *sh, one = { .stamped = stamped, .count = 1 };
	unsigned long deadline;
	unsigned int cpu, i = 0, n;
	long left;

	/* Circular mode names tasks in the rolling data, as they appear. */
	if (s->mode == FXT_MODE_CIRCULAR)
		return;
	cpus_read_lock();
	n = cpumask_weight_and(s->traced, cpu_online_mask);
	sh = n ? fxt_kvcalloc(n, sizeof(*sh)) : NULL;
	if (!sh) {
		/* No memory for the shares: one walk, here. */
		cpus_read_unlock();
		fxt_snapshot_walk(&one);
		return;
	}
	for_each_cpu_and(cpu, s->traced, cpu_online_mask) {
		sh[i].stamped = stamped;
		sh[i].index = i;
		sh[i].count = n;
		init_completion(&sh[i].done);
		INIT_WORK(&sh[i].work, fxt_snapshot_work);
		queue_work_on(cpu, system_highpri_wq, &sh[i].work);
		i++;
	}
	deadline = jiffies + FXT_SNAPSHOT_WAIT;
	for (i = 0; i < n; i++) {
		left = max_t(long, (long)(deadline - jiffies), 1);
		/*
		 * A share that has not begun by the deadline is taken back
		 * and walked here, into this CPU's buffers: START never
		 * waits on a CPU that runs nothing else. One that began is
		 * waited for: it runs, and ends.
		 */
		if (!wait_for_completion_timeout(&sh[i].done, left) &&
		    cancel_work(&sh[i].work)) {
			fxt_snapshot_walk(&sh[i]);
			continue;
		}
		flush_work(&sh[i].work);
	}
	cpus_read_unlock();
	fxt_kvfree(sh, n * sizeof(*sh));
}
