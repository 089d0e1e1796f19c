// SPDX-License-Identifier: GPL-2.0
/*
 * child.c - programs as children of a selftest (child.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"

pid_t child_spawn(char *const argv[], const char *log)
{
	int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	pid_t pid;

	if (fd < 0)
		return -errno;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		pid = -errno;
		close(fd);
		return pid;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		/* Never outlive a test the harness killed on timeout. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (null < 0)
			_exit(126);
		dup2(null, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		execv(argv[0], argv);
		dprintf(2, "exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(fd);
	return pid;
}

bool child_wait(pid_t pid, double timeout, int *status)
{
	double end = env_now() + timeout;

	do {
		pid_t ret = waitpid(pid, status, WNOHANG);

		if (ret == pid)
			return true;
		if (ret < 0 && errno != EINTR)
			return false;
		usleep(5000);
	} while (env_now() < end);
	return false;
}

void child_kill(pid_t pid, int *status)
{
	int st = 0;

	kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (status)
		*status = st;
}

bool child_stop(pid_t pid, double timeout, int *status)
{
	kill(pid, SIGINT);
	if (child_wait(pid, timeout, status))
		return true;
	child_kill(pid, status);
	return false;
}

int child_run(char *const argv[], const char *out, double timeout)
{
	int status;
	pid_t pid = child_spawn(argv, out);

	if (pid < 0)
		return -1;
	if (!child_wait(pid, timeout, &status)) {
		child_kill(pid, &status);
		return -1;
	}
	return status;
}

bool child_log_contains(const char *path, const char *needle)
{
	char buf[16384];
	size_t n;
	FILE *f = fopen(path, "r");

	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return strstr(buf, needle) != NULL;
}

int child_wait_line(pid_t pid, const char *log, const char *needle,
		  double timeout, int *status)
{
	double end = env_now() + timeout;

	while (!child_log_contains(log, needle)) {
		if (waitpid(pid, status, WNOHANG) == pid)
			return -ECHILD;
		if (env_now() > end)
			return -ETIMEDOUT;
		usleep(2000);
	}
	return 0;
}

void child_log_print(const char *what, const char *path, int max_lines)
{
	char line[512];
	long total = 0, i = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		total++;
	rewind(f);
	printf("# --- %s (%s)%s\n", what, path,
	       total > max_lines ? ", last lines" : "");
	while (fgets(line, sizeof(line), f)) {
		if (i++ < total - max_lines)
			continue;
		line[strcspn(line, "\r\n")] = '\0';
		printf("#   %s\n", line);
	}
	fclose(f);
}
