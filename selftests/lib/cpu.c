// SPDX-License-Identifier: GPL-2.0
/*
 * cpu.c - CPU lists and pinning (cpu.h).
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>

#include "cpu.h"
#include "kfile.h"

int cpu_list(int *cpus, int max)
{
	cpu_set_t set;
	int n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (int c = 0; c < CPU_SETSIZE && n < max; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	return n;
}

int cpu_pin(pid_t tid, int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(tid, sizeof(set), &set) ? -errno : 0;
}

int cpu_set_online(int cpu, bool on)
{
	char path[96];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online",
		 cpu);
	return kfile_write(path, on ? "1" : "0");
}
