/* SPDX-License-Identifier: GPL-2.0 */
/*
 * env.h - what a selftest takes from its environment: numeric knobs, replay
 * seeds, the temporary directory, the project's tool paths; the clock its
 * timeouts use; and a process's command line.
 *
 * Environment: FXT_SELFTEST_TMP (default /tmp); the tool variables the
 * callers name (FXT_COLLECT, FXT_DUMP, ...).
 */
#ifndef FXT_SELFTESTS_ENV_H
#define FXT_SELFTESTS_ENV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* CLOCK_MONOTONIC in seconds. */
double env_now(void);
/* CLOCK_BOOTTIME in ns: the clock fxt stamps records with. */
uint64_t env_boottime_ns(void);
/* $name as an unsigned number, def when unset, empty or not a number. */
unsigned long env_ulong(const char *name, unsigned long def);
/*
 * A random test's seed, for a replay: $name when set (a number <= max),
 * else one from the time and pid. Return: false when $name is set but is
 * no such number (the caller fails: a mistyped replay must not run as a
 * new random one).
 */
bool env_seed(const char *name, unsigned long max, unsigned long *seed);
/* $name as seconds > 0, def when unset, empty, not a number or <= 0. */
double env_seconds(const char *name, double def);
/* Temporary directory: $FXT_SELFTEST_TMP or /tmp. */
const char *env_tmpdir(void);
/* Tool path: $env when set and non-empty, else <repo>/rel (repo = ../ of this binary). */
void env_tool_path(char *buf, size_t size, const char *env, const char *rel);
/*
 * /proc/PID/cmdline as fxt writes a command line: arguments joined by
 * spaces, at most ENV_CMDLINE_MAX bytes, NUL-terminated in buf (size >
 * ENV_CMDLINE_MAX). Its length; 0 when there is none.
 */
#define ENV_CMDLINE_MAX	256
size_t env_proc_cmdline(pid_t pid, char *buf, size_t size);

#endif /* FXT_SELFTESTS_ENV_H */
