// SPDX-License-Identifier: GPL-2.0
/*
 * dump.c - fxt-dump --check (dump.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "child.h"
#include "dump.h"

int dump_check(const char *archive, const char *log, double timeout)
{
	char tool[PATH_MAX];
	char *argv[] = { tool, "--check", (char *)archive, NULL };
	int status;
	pid_t pid;

	env_tool_path(tool, sizeof(tool), "FXT_DUMP", "userspace/fxt-dump");
	pid = child_spawn(argv, log);
	if (pid < 0)
		return pid;
	if (!child_wait(pid, timeout, &status)) {
		child_kill(pid, &status);
		return -ETIMEDOUT;
	}
	return status;
}

void dump_defects(const char *log, int *defects, int *truncs,
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
