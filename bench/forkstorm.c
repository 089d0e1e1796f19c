// SPDX-License-Identifier: MIT
/*
 * forkstorm N [PROG]: fork and exec PROG (default /bin/true) N times, one
 * at a time, waiting for each. Prints "ns=ELAPSED ops=N".
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 200;
	const char *prog = argc > 2 ? argv[2] : "/bin/true";
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long i = 0; i < n; i++) {
		pid_t p = fork();
		int st;

		if (p < 0)
			return 1;
		if (!p) {
			execl(prog, prog, (char *)NULL);
			_exit(127);
		}
		if (waitpid(p, &st, 0) != p || !WIFEXITED(st) || WEXITSTATUS(st))
			return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("ns=%lld ops=%ld\n", (b.tv_sec - a.tv_sec) * 1000000000LL +
	       (b.tv_nsec - a.tv_nsec), n);
	return 0;
}
