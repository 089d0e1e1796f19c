// SPDX-License-Identifier: MIT
/*
 * rusage OUT -- COMMAND [ARGS...]: run COMMAND, pass SIGINT and SIGTERM on
 * to it, and when it exits write "user_s sys_s maxrss_kb status" to OUT.
 * (GNU time ignores SIGINT, so it cannot stop a tracer it wraps.)
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static pid_t child;

static void fwd(int s)
{
	if (child > 0)
		kill(child, s);
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = fwd, .sa_flags = SA_RESTART };
	struct rusage ru;
	int st;
	FILE *f;

	if (argc < 4 || argv[2][0] != '-' || argv[2][1] != '-') {
		fprintf(stderr, "usage: rusage OUT -- COMMAND [ARGS...]\n");
		return 2;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	child = fork();
	if (child < 0)
		return 1;
	if (!child) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		execvp(argv[3], argv + 3);
		_exit(127);
	}
	while (wait4(child, &st, 0, &ru) < 0)
		;
	f = fopen(argv[1], "w");
	if (f) {
		fprintf(f, "%ld.%06ld %ld.%06ld %ld %d\n",
			(long)ru.ru_utime.tv_sec, (long)ru.ru_utime.tv_usec,
			(long)ru.ru_stime.tv_sec, (long)ru.ru_stime.tv_usec,
			ru.ru_maxrss, WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
		fclose(f);
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
