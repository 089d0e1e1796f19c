// SPDX-License-Identifier: GPL-2.0
/*
 * ft_util.c - helpers of the fault, fuzz, security, hotplug and stress
 * selftests (ft_util.h).
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

#include "ft_util.h"

double ft_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

unsigned long ft_env_ulong(const char *name, unsigned long def)
{
	const char *s = getenv(name);
	char *end;
	unsigned long v;

	if (!s || !*s)
		return def;
	v = strtoul(s, &end, 0);
	return *end ? def : v;
}

void ft_tool_path(char *buf, size_t size, const char *env, const char *rel)
{
	char exe[PATH_MAX];
	const char *s = env ? getenv(env) : NULL;
	ssize_t n;

	if (s && *s) {
		snprintf(buf, size, "%s", s);
		return;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0) {
		snprintf(buf, size, "%s", rel);
		return;
	}
	exe[n] = '\0';
	snprintf(buf, size, "%s/%s", dirname(dirname(exe)), rel);
}

const char *ft_tmpdir(void)
{
	const char *t = getenv("FXT_SELFTEST_TMP");

	return t && *t ? t : "/tmp";
}

pid_t ft_spawn(char *const argv[], const char *log)
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

bool ft_wait_child(pid_t pid, double timeout, int *status)
{
	double end = ft_now() + timeout;

	do {
		pid_t ret = waitpid(pid, status, WNOHANG);

		if (ret == pid)
			return true;
		if (ret < 0 && errno != EINTR)
			return false;
		usleep(5000);
	} while (ft_now() < end);
	return false;
}

void ft_kill_reap(pid_t pid, int *status)
{
	int st;

	kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (status)
		*status = st;
}

bool ft_file_contains(const char *path, const char *needle)
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

int ft_wait_line(pid_t pid, const char *log, const char *needle,
		 double timeout, int *status)
{
	double end = ft_now() + timeout;

	while (!ft_file_contains(log, needle)) {
		if (waitpid(pid, status, WNOHANG) == pid)
			return -ECHILD;
		if (ft_now() > end)
			return -ETIMEDOUT;
		usleep(2000);
	}
	return 0;
}

pid_t ft_collect_spawn(const char *archive, const char *log,
		       const char *const *extra)
{
	char tool[PATH_MAX];
	char *argv[40];
	int argc = 0;

	ft_tool_path(tool, sizeof(tool), "FXT_COLLECT", "userspace/fxt-collect");
	argv[argc++] = tool;
	argv[argc++] = "-o";
	argv[argc++] = (char *)archive;
	for (; extra && *extra && argc < 38; extra++)
		argv[argc++] = (char *)*extra;
	argv[argc] = NULL;
	return ft_spawn(argv, log);
}

int ft_dump_check(const char *archive, const char *log)
{
	char tool[PATH_MAX];
	char *argv[] = { tool, "--check", (char *)archive, NULL };
	int status;
	pid_t pid;

	ft_tool_path(tool, sizeof(tool), "FXT_DUMP", "userspace/fxt-dump");
	pid = ft_spawn(argv, log);
	if (pid < 0)
		return pid;
	if (!ft_wait_child(pid, 120, &status)) {
		ft_kill_reap(pid, &status);
		return -ETIMEDOUT;
	}
	return status;
}

void ft_dump_defects(const char *log, int *defects, int *truncs,
		     char *other, size_t size)
{
	char line[1024];
	FILE *f = fopen(log, "r");

	*defects = *truncs = 0;
	if (size)
		other[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "offset 0x", 9))
			continue;
		(*defects)++;
		if (strstr(line, "truncated record"))
			(*truncs)++;
		else if (size && !other[0])
			snprintf(other, size, "%s", line);
	}
	fclose(f);
}

int ft_collect_stats(const char *log, struct ft_stats_row *rows, int max)
{
	char line[512];
	bool in_table = false;
	int n = 0;
	FILE *f = fopen(log, "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		struct ft_stats_row r;
		unsigned long long v[6];

		if (strstr(line, "cpu") && strstr(line, "records") &&
		    strstr(line, "d.dropped")) {
			in_table = true;
			n = 0;
			continue;
		}
		if (!in_table)
			continue;
		if (sscanf(line, "%u %llu %llu %llu %llu %llu %llu", &r.cpu,
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]) != 7) {
			in_table = false;
			continue;
		}
		r.records = v[0];
		r.dropped = v[1];
		r.durable = v[2];
		r.d_dropped = v[3];
		r.wraps = v[4];
		r.bytes = v[5];
		if (n < max)
			rows[n++] = r;
	}
	fclose(f);
	return n;
}

long ft_meminfo_kb(const char *key)
{
	char line[256];
	size_t klen = strlen(key);
	long v = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, klen) && line[klen] == ':') {
			v = strtol(line + klen + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return v;
}

int ft_module_refcnt(void)
{
	int v = -1;
	FILE *f = fopen("/sys/module/fxt/refcnt", "r");

	if (!f)
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

int ft_write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int err = 0;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	if (n < 0)
		err = -errno;
	close(fd);
	return err;
}

void ft_print_file(const char *what, const char *path, int max_lines)
{
	char line[512];
	long total = 0, i = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		total++;
	rewind(f);
	printf("# --- %s (%s)\n", what, path);
	while (fgets(line, sizeof(line), f)) {
		if (i++ < total - max_lines)
			continue;
		line[strcspn(line, "\n")] = '\0';
		printf("#   %s\n", line);
	}
	fclose(f);
}
