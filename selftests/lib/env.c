// SPDX-License-Identifier: GPL-2.0
/*
 * env.c - knobs, seeds, paths and the clock of the selftests (env.h).
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "env.h"

double env_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

uint64_t env_boottime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

unsigned long env_ulong(const char *name, unsigned long def)
{
	const char *s = getenv(name);
	char *end;
	unsigned long v;

	if (!s || !*s)
		return def;
	v = strtoul(s, &end, 0);
	return *end ? def : v;
}

bool env_seed(const char *name, unsigned long max, unsigned long *seed)
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

double env_seconds(const char *name, double def)
{
	const char *s = getenv(name);
	char *end;
	double v;

	if (!s || !*s)
		return def;
	v = strtod(s, &end);
	return *end || v <= 0 ? def : v;
}

const char *env_tmpdir(void)
{
	const char *t = getenv("FXT_SELFTEST_TMP");

	return t && *t ? t : "/tmp";
}

void env_tool_path(char *buf, size_t size, const char *env, const char *rel)
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

size_t env_proc_cmdline(pid_t pid, char *buf, size_t size)
{
	char path[64];
	size_t n = 0, i;
	FILE *f;

	if (!size)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	f = fopen(path, "r");
	if (f) {
		n = fread(buf, 1, size - 1, f);
		fclose(f);
	}
	if (n > ENV_CMDLINE_MAX)
		n = ENV_CMDLINE_MAX;
	while (n && !buf[n - 1])
		n--;
	for (i = 0; i < n; i++)
		if (!buf[i])
			buf[i] = ' ';
	buf[n] = '\0';
	return n;
}
