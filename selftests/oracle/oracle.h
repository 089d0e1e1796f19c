/* SPDX-License-Identifier: GPL-2.0 */
/*
 * oracle.h - an independent count of scheduler events, for the selftests.
 *
 * The oracle is a small BPF program on the same tracepoints the fxt module
 * probes (sched_switch, sched_waking, sched_wakeup_new). It shares no code
 * with the module or the reader tools: a test compares what the archive says
 * with what the oracle counted over the same window.
 *
 * Programs are tp_btf (BTF-typed raw tracepoints): they get the task_struct
 * pointers the tracepoint passes, so the process filter reads task->tgid
 * directly, and the preempt flag and prev_state of sched_switch. A classic
 * tp/sched/... program would only see the pids of the trace event format.
 *
 * Counters are per CPU (BPF_MAP_TYPE_PERCPU_ARRAY); "cpu" below is the CPU
 * the tracepoint fired on, which is the CPU (= FXT provider) whose buffer
 * the module writes the record into.
 *
 * Usage: oracle_open() loads (the filter is fixed then), oracle_start()
 * attaches, oracle_stop() detaches (counts are frozen after it), the getters
 * read the counters any time, oracle_close() frees everything.
 */
#ifndef FXT_SELFTESTS_ORACLE_H
#define FXT_SELFTESTS_ORACLE_H

#include <stdint.h>
#include <sys/types.h>

struct oracle;

/*
 * Count events that involve threads of process tgid, except the thread
 * exclude_tid (<= 0: none excluded). Needs root (CAP_BPF + CAP_PERFMON).
 * Return: the oracle, or NULL with errno set (libbpf's messages go to
 * stderr as "# " TAP diagnostics).
 */
struct oracle *oracle_open(pid_t tgid, pid_t exclude_tid);

/* Attach all programs. Return: 0, or a negative errno. */
int oracle_start(struct oracle *o);

/* Detach all programs; counts are final afterwards. Return: 0 or -errno. */
int oracle_stop(struct oracle *o);

/*
 * Getters; cpu = -1 sums every CPU, a CPU out of range gives 0.
 * oracle_switches:     sched_switch where prev or next is a counted thread
 *                      (counted once when both are).
 * oracle_wakeups:      sched_waking + sched_wakeup_new whose woken thread is
 *                      a counted thread.
 * oracle_all_switches: every sched_switch, unfiltered.
 * oracle_exits:        switches out of a counted thread in TASK_DEAD state,
 *                      i.e. final switches: once it equals the number of
 *                      threads that exited, none of them can switch again.
 */
uint64_t oracle_switches(struct oracle *o, int cpu);
uint64_t oracle_wakeups(struct oracle *o, int cpu);
uint64_t oracle_all_switches(struct oracle *o, int cpu);
uint64_t oracle_exits(struct oracle *o, int cpu);
/*
 * Wait, timeout s at most, until oracle_exits(o, -1) >= n: pthread_join()
 * returns, and a thread's /proc entry goes, before its last schedule(),
 * which only the oracle sees. Return: oracle_exits(o, -1) at the end.
 */
uint64_t oracle_wait_exits(struct oracle *o, uint64_t n, double timeout);
/*
 * The digest (oracle.bpf.h, ORACLE_DIGEST) of CPU cpu's switches that
 * oracle_switches() counts, in order; 0 for cpu = -1 (no sum makes sense).
 */
uint64_t oracle_switch_digest(struct oracle *o, int cpu);

/*
 * Runs of the oracle's programs the kernel skipped because the same program
 * was already running on that CPU (a wakeup from an interrupt that hit the
 * sched_waking program, say). Non-zero means the counts may be short.
 */
uint64_t oracle_misses(struct oracle *o);

/* Number of CPU slots (possible CPUs) the per-CPU getters accept. */
int oracle_nr_cpus(struct oracle *o);

void oracle_close(struct oracle *o);

#endif /* FXT_SELFTESTS_ORACLE_H */
