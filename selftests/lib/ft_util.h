/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ft_util.h - small helpers of the fault, fuzz, security, hotplug and stress
 * selftests: running fxt-collect and fxt-dump as children, reading their
 * output, and the kernel's memory and module counters.
 */
#ifndef FXT_SELFTESTS_FT_UTIL_H
#define FXT_SELFTESTS_FT_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define FT_STARTED_LINE	"fxt-collect: tracing started"
#define FT_MAX_CPUS	256

double ft_now(void);
unsigned long ft_env_ulong(const char *name, unsigned long def);
/* Tool path: $env, else <repo>/rel (repo = this binary's ../). */
void ft_tool_path(char *buf, size_t size, const char *env, const char *rel);
/* Temporary directory: $FXT_SELFTEST_TMP or /tmp. */
const char *ft_tmpdir(void);

/* fork+exec argv, stdout+stderr to log (emptied first). Return: pid or -errno. */
pid_t ft_spawn(char *const argv[], const char *log);
/* Wait up to timeout s for pid. Return: whether it was reaped. */
bool ft_wait_child(pid_t pid, double timeout, int *status);
/* SIGKILL + reap. */
void ft_kill_reap(pid_t pid, int *status);
bool ft_file_contains(const char *path, const char *needle);
/*
 * Wait for needle in log while pid runs. Return: 0 found, -ECHILD when pid
 * exited first (*status set), -ETIMEDOUT.
 */
int ft_wait_line(pid_t pid, const char *log, const char *needle,
		 double timeout, int *status);

/*
 * Start fxt-collect -o archive [extra args] (NULL-terminated list), output
 * in log. Return: pid or -errno.
 */
pid_t ft_collect_spawn(const char *archive, const char *log,
		       const char *const *extra);

/* fxt-dump --check archive into log. Return: wait status, or -errno. */
int ft_dump_check(const char *archive, const char *log);

/*
 * Read a fxt-dump --check log: *defects = "offset 0x...:" lines, *truncs =
 * those that report a truncated record; other = first other defect line.
 */
void ft_dump_defects(const char *log, int *defects, int *truncs,
		     char *other, size_t size);

/* One row of fxt-collect's per-CPU statistics table. */
struct ft_stats_row {
	unsigned int cpu;
	uint64_t records, dropped, durable, d_dropped, wraps, bytes;
};

/* Parse the table from a collector log. Return: rows found (<= max). */
int ft_collect_stats(const char *log, struct ft_stats_row *rows, int max);

/* A /proc/meminfo value in kB, -1 if absent. */
long ft_meminfo_kb(const char *key);
/* /sys/module/fxt/refcnt, -1 if unreadable. */
int ft_module_refcnt(void);
/* Write s to a file. Return: 0 or -errno. */
int ft_write_file(const char *path, const char *s);
/* Print a file as "# " lines, the last max_lines. */
void ft_print_file(const char *what, const char *path, int max_lines);

#endif /* FXT_SELFTESTS_FT_UTIL_H */
