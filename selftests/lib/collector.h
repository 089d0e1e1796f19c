/* SPDX-License-Identifier: GPL-2.0 */
/*
 * collector.h - running the project's tools as children of a selftest:
 * tool paths, fork+exec with the output in a log, waits with a timeout,
 * fxt-collect's start and stop, and fxt-dump --check. One copy for every
 * selftest library (pingpong, fxtscan, fm_util, ft_util) and test binary.
 *
 * Environment: FXT_COLLECT and FXT_DUMP (tool paths, default
 * userspace/fxt-collect and userspace/fxt-dump of the repository this
 * binary's selftests/ lives in), FXT_SELFTEST_TMP (default /tmp).
 */
#ifndef FXT_SELFTESTS_COLLECTOR_H
#define FXT_SELFTESTS_COLLECTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* fxt-collect's stderr line once every CPU is tracing. */
#define COL_STARTED_LINE	"fxt-collect: tracing started"

/* CLOCK_MONOTONIC in seconds. */
double col_now(void);
/* $name as an unsigned number, def when unset, empty or not a number. */
unsigned long col_env_ulong(const char *name, unsigned long def);
/*
 * A random test's seed, for a replay: $name when set (a number <= max),
 * else one from the time and pid. Return: false when $name is set but is
 * no such number (the caller fails: a mistyped replay must not run as a
 * new random one).
 */
bool col_env_seed(const char *name, unsigned long max, unsigned long *seed);
/* $name as seconds > 0, def when unset, empty, not a number or <= 0. */
double col_env_seconds(const char *name, double def);
/* Temporary directory: $FXT_SELFTEST_TMP or /tmp. */
const char *col_tmpdir(void);
/* Tool path: $env when set and non-empty, else <repo>/rel (repo = ../ of this binary). */
void col_tool_path(char *buf, size_t size, const char *env, const char *rel);

/*
 * fork + exec argv with stdout and stderr into log, stdin /dev/null. The log
 * is emptied before fork(): a caller polling it for a line never sees what
 * an earlier run left. The child gets SIGKILL when this process dies.
 * Return: pid or -errno.
 */
pid_t col_spawn(char *const argv[], const char *log);
/* Wait up to timeout s for pid. Return: whether it was reaped. */
bool col_wait_child(pid_t pid, double timeout, int *status);
/* SIGKILL + reap (status may be NULL). */
void col_kill_reap(pid_t pid, int *status);
/*
 * SIGINT, wait up to timeout s, else SIGKILL + reap.
 * Return: whether it exited within timeout.
 */
bool col_stop(pid_t pid, double timeout, int *status);
/* Run argv with its output in out. Return: wait status, or -1 (spawn failed, timed out). */
int col_run(char *const argv[], const char *out, double timeout);

/* Is needle in the first 16 KiB of path? */
bool col_file_contains(const char *path, const char *needle);
/*
 * Wait for needle in log while pid runs. Return: 0 found, -ECHILD when pid
 * exited first (reaped, *status set), -ETIMEDOUT (pid still running).
 */
int col_wait_line(pid_t pid, const char *log, const char *needle,
		  double timeout, int *status);

/*
 * Start fxt-collect -o archive [extra args] (NULL-terminated list), output
 * in log. Return: pid or -errno.
 */
pid_t col_collect_spawn(const char *archive, const char *log,
			const char *const *extra);

/*
 * fxt-dump --check archive into log, at most timeout s.
 * Return: wait status, or -errno, or -ETIMEDOUT (killed and reaped).
 */
int col_dump_check(const char *archive, const char *log, double timeout);

/* Print a file as "# " diagnostics (its last max_lines lines). */
void col_print_file(const char *what, const char *path, int max_lines);

#endif /* FXT_SELFTESTS_COLLECTOR_H */
