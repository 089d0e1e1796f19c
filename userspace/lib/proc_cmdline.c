// SPDX-License-Identifier: MIT
/*
 * proc_cmdline.c - a process's command line from procfs, for the trailer.
 *
 * fxt.ko reads a command line only at exec (sched_process_exec): a process
 * that exec'd before the recording, or before a flight-recorder window,
 * has none in the archive. At save time its /proc/PID/cmdline is the best
 * source left, if PID is still that process: its /proc/PID/stat must show
 * the archive's name (the comm, as fxt.ko records it) and, when the archive
 * knows one, the same parent (PPid, the real parent's tgid, as fxt.ko's
 * "parent"). A process that exited, or a pid reused by another command or
 * another parent, gets none; so does a kernel thread (an empty cmdline).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <fxt/format.h>

#include "libfxt_trailer.h"

/* /proc/PID/stat: "pid (comm) state ppid ...", comm up to 64 bytes. */
#define STAT_MAX	512

/* The whole of a small file, NUL-terminated: bytes read, or -1. */
static ssize_t read_small(const char *root, uint32_t pid, const char *file,
			  char *buf, size_t cap)
{
	char path[4096];
	ssize_t n, got = 0;
	int fd;

	snprintf(path, sizeof(path), "%s/%" PRIu32 "/%s", root, pid, file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while ((size_t)got < cap - 1) {
		n = read(fd, buf + got, cap - 1 - (size_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += n;
	}
	close(fd);
	buf[got] = '\0';
	return got;
}

/* Does /proc/PID/stat name this comm and (unless unknown) this parent? */
static bool same_process(const char *root, uint32_t pid, struct fxt_str name,
			 uint64_t parent)
{
	char stat[STAT_MAX], *open_paren, *close_paren, state;
	unsigned long long ppid;
	ssize_t n = read_small(root, pid, "stat", stat, sizeof(stat));

	if (n <= 0)
		return false;
	open_paren = strchr(stat, '(');
	close_paren = strrchr(stat, ')');	/* a comm may hold ')' */
	if (!open_paren || !close_paren || close_paren < open_paren)
		return false;
	if ((size_t)(close_paren - open_paren - 1) != name.len ||
	    memcmp(open_paren + 1, name.data, name.len))
		return false;
	if (sscanf(close_paren + 1, " %c %llu", &state, &ppid) != 2)
		return false;
	return parent == FXT_KOID_NONE || parent == ppid;
}

size_t fxt_proc_cmdline(void *ctx, uint32_t pid, struct fxt_str name,
			uint64_t parent, char *buf, size_t cap)
{
	const char *root = ctx ? ctx : "/proc";
	char raw[STAT_MAX];	/* more than cap: the line is cut at cap */
	ssize_t n;
	size_t len, i;

	if (!pid || !cap || !name.len || !same_process(root, pid, name, parent))
		return 0;
	n = read_small(root, pid, "cmdline", raw, sizeof(raw));
	/* The pid may have been reused between the two reads: ask again. */
	if (n <= 0 || !same_process(root, pid, name, parent))
		return 0;
	len = (size_t)n < cap ? (size_t)n : cap;
	while (len && !raw[len - 1])
		len--;
	for (i = 0; i < len; i++)
		buf[i] = raw[i] ? raw[i] : ' ';
	return len;
}
