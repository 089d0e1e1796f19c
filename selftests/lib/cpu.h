/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpu.h - CPUs of a selftest: which it may run on, pinning a thread to one,
 * hotplug.
 */
#ifndef FXT_SELFTESTS_CPU_H
#define FXT_SELFTESTS_CPU_H

#include <stdbool.h>
#include <sys/types.h>

/* The most CPUs the tests' per-CPU arrays hold (the guest has 2 to 4). */
#define MAX_CPUS	64

/* Online CPUs this process may run on; return: how many (<= max). */
int cpu_list(int *cpus, int max);
/*
 * Pin thread tid (0: the calling thread) to cpu; cpu < 0 does nothing.
 * Return: 0 or -errno.
 */
int cpu_pin(pid_t tid, int cpu);
/* Take cpu offline (on false) or bring it online. Return: 0 or -errno. */
int cpu_set_online(int cpu, bool on);

#endif /* FXT_SELFTESTS_CPU_H */
