// SPDX-License-Identifier: MIT
/*
 * pingpong N [CPU|x]: two threads bounce one byte over two pipes N times.
 * Context-switch bound: with both threads on one CPU (CPU given, default 0)
 * every round trip is 2 switches there; "x" puts them on CPUs 0 and 1
 * (wakeups become IPIs, switches to and from idle). Prints
 * "ns=ELAPSED ops=N".
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int p1[2], p2[2];
static long n;

static void pin(int cpu)
{
	cpu_set_t s;

	if (cpu < 0)
		return;
	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	sched_setaffinity(0, sizeof(s), &s);
}

static int cpu_b;

static void *pong(void *arg)
{
	char c;

	(void)arg;
	pin(cpu_b);
	for (long i = 0; i < n; i++) {
		if (read(p1[0], &c, 1) != 1 || write(p2[1], &c, 1) != 1)
			exit(2);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct timespec a, b;
	pthread_t t;
	int cpu_a = 0;
	char c = 'x';

	n = argc > 1 ? atol(argv[1]) : 10000;
	cpu_b = 0;
	if (argc > 2 && !strcmp(argv[2], "x"))
		cpu_a = 0, cpu_b = 1;
	else if (argc > 2)
		cpu_a = cpu_b = atoi(argv[2]);
	if (pipe(p1) || pipe(p2))
		return 1;
	pin(cpu_a);
	pthread_create(&t, NULL, pong, NULL);
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long i = 0; i < n; i++) {
		if (write(p1[1], &c, 1) != 1 || read(p2[0], &c, 1) != 1)
			return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	pthread_join(t, NULL);
	printf("ns=%lld ops=%ld\n", (b.tv_sec - a.tv_sec) * 1000000000LL +
	       (b.tv_nsec - a.tv_nsec), n);
	return 0;
}
