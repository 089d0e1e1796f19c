/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workload.h - threads that switch on purpose: ping-pong pairs over pipes
 * (in the foreground or the background) and sleepers.
 */
#ifndef FXT_SELFTESTS_WORKLOAD_H
#define FXT_SELFTESTS_WORKLOAD_H

#include <sys/types.h>

/*
 * Two threads ping-pong one byte rounds times over pipes, pinned to cpu_a and
 * cpu_b (-1: not pinned). tids[2] receives their tids. 0 or -errno.
 */
int workload_pingpong(unsigned long rounds, int cpu_a, int cpu_b, pid_t tids[2]);

/* A ping-pong in the background: start, then join. */
struct workload_bg;
struct workload_bg *workload_pingpong_bg(unsigned long rounds, int cpu_a,
					 int cpu_b);
/* Ask the pair to stop early (the leader stops first, its peer sees EOF). */
void workload_bg_stop(struct workload_bg *bg);
int workload_bg_join(struct workload_bg *bg, pid_t tids[2]);
/* Rounds the pair has completed so far. */
unsigned long workload_bg_rounds(struct workload_bg *bg);

/* n threads, each doing iters nanosleep(ns), pinned round-robin to cpus. */
int workload_sleepers(int n, unsigned long iters, long ns, const int *cpus,
		      int ncpus);

#endif /* FXT_SELFTESTS_WORKLOAD_H */
