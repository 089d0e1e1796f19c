// SPDX-License-Identifier: MIT
/*
 * timerload THREADS N US: THREADS threads each sleep US microseconds N times
 * (clock_nanosleep). Interrupt heavy: every sleep is an hrtimer interrupt,
 * a wakeup and two context switches, mostly to and from idle.
 * Prints "ns=ELAPSED ops=THREADS*N".
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long n, us;

static void *sleeper(void *arg)
{
	struct timespec d = { 0, us * 1000 };

	(void)arg;
	for (long i = 0; i < n; i++)
		clock_nanosleep(CLOCK_MONOTONIC, 0, &d, NULL);
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 4;
	struct timespec a, b;
	pthread_t t[256];

	n = argc > 2 ? atol(argv[2]) : 1000;
	us = argc > 3 ? atol(argv[3]) : 50;
	if (threads < 1 || threads > 256)
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (int i = 0; i < threads; i++)
		pthread_create(&t[i], NULL, sleeper, NULL);
	for (int i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("ns=%lld ops=%ld\n", (b.tv_sec - a.tv_sec) * 1000000000LL +
	       (b.tv_nsec - a.tv_nsec), threads * n);
	return 0;
}
