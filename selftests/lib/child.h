/* SPDX-License-Identifier: GPL-2.0 */
/*
 * child.h - a program run as a child of a selftest, its stdout and stderr
 * in a log file: fork+exec, waits with a timeout, SIGINT or SIGKILL, a line
 * awaited in the log, the log printed as TAP diagnostics.
 */
#ifndef FXT_SELFTESTS_CHILD_H
#define FXT_SELFTESTS_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "env.h"

/*
 * fork + exec argv with stdout and stderr into log, stdin /dev/null. The log
 * is emptied before fork(): a caller polling it for a line never sees what
 * an earlier run left. The child gets SIGKILL when this process dies.
 * Return: pid or -errno.
 */
pid_t child_spawn(char *const argv[], const char *log);
/* Wait up to timeout s for pid. Return: whether it was reaped. */
bool child_wait(pid_t pid, double timeout, int *status);
/* SIGKILL + reap (status may be NULL). */
void child_kill(pid_t pid, int *status);
/*
 * SIGINT, wait up to timeout s, else SIGKILL + reap.
 * Return: whether it exited within timeout.
 */
bool child_stop(pid_t pid, double timeout, int *status);
/* Run argv with its output in out. Return: wait status, or -1 (spawn failed, timed out). */
int child_run(char *const argv[], const char *out, double timeout);

/* Is needle in the first 16 KiB of the log at path? */
bool child_log_contains(const char *path, const char *needle);
/*
 * Wait for needle in log while pid runs. Return: 0 found, -ECHILD when pid
 * exited first (reaped, *status set), -ETIMEDOUT (pid still running).
 */
int child_wait_line(pid_t pid, const char *log, const char *needle,
		    double timeout, int *status);
/* Print a log as "# " diagnostics (its last max_lines lines). */
void child_log_print(const char *what, const char *path, int max_lines);

#endif /* FXT_SELFTESTS_CHILD_H */
