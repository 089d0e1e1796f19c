// SPDX-License-Identifier: GPL-2.0
/*
 * kfile.c - /proc and /sys files (kfile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kfile.h"

int kfile_read(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int kfile_write(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	if (n < 0)
		n = -errno;
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : n < 0 ? n : -EIO;
}

long kfile_meminfo_kb(const char *key)
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

int kfile_slabinfo(struct kfile_slab *caches, int max)
{
	char line[512];
	int n = 0;
	FILE *f = fopen("/proc/slabinfo", "r");

	if (!f)
		return -errno;
	while (n < max && fgets(line, sizeof(line), f)) {
		struct kfile_slab *c = &caches[n];

		/* "name <active_objs> <num_objs> <objsize> ..."; headers skipped */
		if (line[0] == '#' || !strncmp(line, "slabinfo", 8))
			continue;
		if (sscanf(line, "%63s %ld %*d %ld", c->name, &c->active, &c->objsize) == 3)
			n++;
	}
	fclose(f);
	return n;
}

long kfile_long(const char *path)
{
	long v = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

int kfile_raise(const char *path, unsigned long want)
{
	long have = kfile_long(path);
	char num[32];

	if (have >= 0 && (unsigned long)have >= want)
		return 0;
	snprintf(num, sizeof(num), "%lu\n", want);
	return kfile_write(path, num);
}

long kfile_module_mem_bytes(void)
{
	return kfile_long("/sys/module/fxt/parameters/mem_bytes");
}

int kfile_module_refcnt(void)
{
	return kfile_long("/sys/module/fxt/refcnt");
}

int kfile_shared_virtio_irq(void)
{
	char line[512];
	int irq = -1, v;
	FILE *f = fopen("/proc/interrupts", "r");

	if (!f)
		return -1;
	while (irq < 0 && fgets(line, sizeof(line), f))
		if (sscanf(line, " %d:", &v) == 1 && strstr(line, ", ") &&
		    strstr(line, "virtio"))
			irq = v;
	fclose(f);
	return irq;
}
