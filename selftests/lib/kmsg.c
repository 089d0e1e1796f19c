// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg.c - the kernel log from a point on (kmsg.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kmsg.h"

int kmsg_open_end(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	int err;

	if (fd < 0)
		return -errno;
	if (lseek(fd, 0, SEEK_END) < 0) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

unsigned long kmsg_count(int fd, const char *needle, char *first, size_t size)
{
	unsigned long found = 0;
	char rec[2048];
	ssize_t n;

	while ((n = read(fd, rec, sizeof(rec) - 1)) != 0) {
		char *msg;

		if (n < 0) {
			if (errno == EPIPE)	/* overwritten: go on */
				continue;
			break;			/* EAGAIN: no more */
		}
		rec[n] = '\0';
		msg = strchr(rec, ';');
		msg = msg ? msg + 1 : rec;
		if (!strstr(msg, needle))
			continue;
		if (!found++ && size)
			snprintf(first, size, "%.*s", (int)strcspn(msg, "\n"),
				 msg);
	}
	return found;
}
