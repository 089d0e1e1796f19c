// SPDX-License-Identifier: GPL-2.0
/*
 * collector.c - the selftests' tools as children (collector.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "collector.h"

double col_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

unsigned long col_env_ulong(const char *name, unsigned long def)
{
	const char *s = getenv(name);
	char *end;
	unsigned long v;

	if (!s || !*s)
		return def;
	v = strtoul(s, &end, 0);
	return *end ? def : v;
}

bool col_env_seed(const char *name, unsigned long max, unsigned long *seed)
{
	const char *s = getenv(name);
	struct timespec ts;
	char *end;

	if (s && *s) {
		errno = 0;
		*seed = strtoul(s, &end, 0);
		return !*end && !errno && *s != '-' && *seed <= max;
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	*seed = ((unsigned long)ts.tv_sec * 1000003UL ^ ts.tv_nsec ^
		 ((unsigned long)getpid() << 16)) & max;
	return true;
}

double col_env_seconds(const char *name, double def)
{
	const char *s = getenv(name);
	char *end;
	double v;

	if (!s || !*s)
		return def;
	v = strtod(s, &end);
	return *end || v <= 0 ? def : v;
}

const char *col_tmpdir(void)
{
	const char *t = getenv("FXT_SELFTEST_TMP");

	return t && *t ? t : "/tmp";
}

void col_tool_path(char *buf, size_t size, const char *env, const char *rel)
{
	char exe[PATH_MAX];
	const char *s = env ? getenv(env) : NULL;
	ssize_t n;

	if (s && *s) {
		snprintf(buf, size, "%s", s);
		return;
	}
	/* This binary lives in <repo>/selftests/. */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0) {
		snprintf(buf, size, "%s", rel);
		return;
	}
	exe[n] = '\0';
	if (snprintf(buf, size, "%s/%s", dirname(dirname(exe)), rel) >= (int)size)
		snprintf(buf, size, "%s", rel);
}

pid_t col_spawn(char *const argv[], const char *log)
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

bool col_wait_child(pid_t pid, double timeout, int *status)
{
	double end = col_now() + timeout;

	do {
		pid_t ret = waitpid(pid, status, WNOHANG);

		if (ret == pid)
			return true;
		if (ret < 0 && errno != EINTR)
			return false;
		usleep(5000);
	} while (col_now() < end);
	return false;
}

void col_kill_reap(pid_t pid, int *status)
{
	int st = 0;

	kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (status)
		*status = st;
}

bool col_stop(pid_t pid, double timeout, int *status)
{
	kill(pid, SIGINT);
	if (col_wait_child(pid, timeout, status))
		return true;
	col_kill_reap(pid, status);
	return false;
}

int col_run(char *const argv[], const char *out, double timeout)
{
	int status;
	pid_t pid = col_spawn(argv, out);

	if (pid < 0)
		return -1;
	if (!col_wait_child(pid, timeout, &status)) {
		col_kill_reap(pid, &status);
		return -1;
	}
	return status;
}

bool col_file_contains(const char *path, const char *needle)
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

int col_wait_line(pid_t pid, const char *log, const char *needle,
		  double timeout, int *status)
{
	double end = col_now() + timeout;

	while (!col_file_contains(log, needle)) {
		if (waitpid(pid, status, WNOHANG) == pid)
			return -ECHILD;
		if (col_now() > end)
			return -ETIMEDOUT;
		usleep(2000);
	}
	return 0;
}

pid_t col_collect_spawn(const char *archive, const char *log,
			const char *const *extra)
{
	char tool[PATH_MAX];
	char *argv[40];
	int argc = 0;

	col_tool_path(tool, sizeof(tool), "FXT_COLLECT", "userspace/fxt-collect");
	argv[argc++] = tool;
	argv[argc++] = "-o";
	argv[argc++] = (char *)archive;
	for (; extra && *extra && argc < 38; extra++)
		argv[argc++] = (char *)*extra;
	argv[argc] = NULL;
	return col_spawn(argv, log);
}

int col_dump_check(const char *archive, const char *log, double timeout)
{
	char tool[PATH_MAX];
	char *argv[] = { tool, "--check", (char *)archive, NULL };
	int status;
	pid_t pid;

	col_tool_path(tool, sizeof(tool), "FXT_DUMP", "userspace/fxt-dump");
	pid = col_spawn(argv, log);
	if (pid < 0)
		return pid;
	if (!col_wait_child(pid, timeout, &status)) {
		col_kill_reap(pid, &status);
		return -ETIMEDOUT;
	}
	return status;
}

void col_print_file(const char *what, const char *path, int max_lines)
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
