// SPDX-License-Identifier: GPL-2.0
/*
 * collector.c - fxt-collect's start and stop (collector.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "collector.h"
#include "stats_table.h"

double collector_timeout(void)
{
	return env_seconds("FXT_COLLECT_TIMEOUT", 120);
}

pid_t collector_spawn(const char *archive, const char *log,
		      const char *const *args)
{
	char tool[PATH_MAX], stats[PATH_MAX];
	char *argv[42];
	int argc = 0;

	env_tool_path(tool, sizeof(tool), "FXT_COLLECT", "userspace/fxt-collect");
	argv[argc++] = tool;
	argv[argc++] = "-o";
	argv[argc++] = (char *)archive;
	/* The statistics for stats_table_read(), beside the log. */
	if (log && stats_table_path(log, stats, sizeof(stats)) == 0) {
		unlink(stats);
		argv[argc++] = "--stats-json";
		argv[argc++] = stats;
	}
	for (; args && *args && argc < 40; args++)
		argv[argc++] = (char *)*args;
	argv[argc] = NULL;
	return child_spawn(argv, log);
}

pid_t collector_start(const char *archive, const char *mode,
		      const char *const *extra, const char *log,
		      char *why, size_t why_size)
{
	double timeout = collector_timeout();
	const char *args[36];
	char tool[PATH_MAX];
	int n = 0, status, err;
	pid_t pid;

	if (mode) {
		args[n++] = "-m";
		args[n++] = mode;
	}
	for (; extra && *extra && n < 35; extra++)
		args[n++] = *extra;
	args[n] = NULL;

	unlink(archive);
	env_tool_path(tool, sizeof(tool), "FXT_COLLECT", "userspace/fxt-collect");
	if (access(tool, X_OK)) {
		err = -errno;
		snprintf(why, why_size, "%s: %s (build userspace)", tool,
			 strerror(-err));
		return err;
	}
	pid = collector_spawn(archive, log, args);
	if (pid < 0) {
		snprintf(why, why_size, "fork: %s", strerror(-pid));
		return pid;
	}
	err = child_wait_line(pid, log, COLLECTOR_STARTED_LINE, timeout,
			      &status);
	if (err == -ECHILD) {
		snprintf(why, why_size,
			 "fxt-collect exited (status 0x%x) before \"%s\"",
			 status, COLLECTOR_STARTED_LINE);
		child_log_print("fxt-collect output", log, 20);
		return -ECHILD;
	}
	if (err) {
		child_kill(pid, &status);
		snprintf(why, why_size, "no \"%s\" from fxt-collect in %.0f s",
			 COLLECTOR_STARTED_LINE, timeout);
		return -ETIMEDOUT;
	}
	return pid;
}

int collector_start_named(struct collector *c, const char *name, char *why,
			  size_t why_size)
{
	return collector_start_named_with(c, name, NULL, why, why_size);
}

int collector_start_named_with(struct collector *c, const char *name,
				const char *const *extra, char *why, size_t why_size)
{
	const char *tmp = env_tmpdir();

	memset(c, 0, sizeof(*c));
	snprintf(c->archive, sizeof(c->archive), "%s/%s.fxt", tmp, name);
	snprintf(c->log, sizeof(c->log), "%s/%s-collect.log", tmp, name);
	c->pid = collector_start(c->archive, "streaming", extra, c->log, why,
				 why_size);
	if (c->pid < 0) {
		c->pid = -1;
		return -1;
	}
	return 0;
}

int collector_stop(struct collector *c, char *why, size_t why_size)
{
	double timeout = collector_timeout();

	if (c->pid <= 0) {
		snprintf(why, why_size, "collector not running");
		return -1;
	}
	if (!child_stop(c->pid, timeout, &c->status)) {
		c->pid = -1;
		snprintf(why, why_size,
			 "fxt-collect did not exit %.0f s after SIGINT", timeout);
		return -1;
	}
	c->pid = -1;
	if (!WIFEXITED(c->status) || WEXITSTATUS(c->status)) {
		snprintf(why, why_size, "fxt-collect: wait status 0x%x",
			 c->status);
		child_log_print("fxt-collect output", c->log, 20);
		return -1;
	}
	return 0;
}
