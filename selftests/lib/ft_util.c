// SPDX-License-Identifier: GPL-2.0
/*
 * ft_util.c - helpers of the fault, fuzz, security, hotplug and stress
 * selftests (ft_util.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collector.h"
#include "ft_util.h"

void ft_dump_defects(const char *log, int *defects, int *truncs,
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

int ft_collect_stats(const char *log, struct ft_stats_row *rows, int max)
{
	char line[512];
	bool in_table = false;
	int n = 0;
	FILE *f = fopen(log, "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		struct ft_stats_row r;
		unsigned long long v[6];

		if (strstr(line, "cpu") && strstr(line, "records") &&
		    strstr(line, "d.dropped")) {
			in_table = true;
			n = 0;
			continue;
		}
		if (!in_table)
			continue;
		if (sscanf(line, "%u %llu %llu %llu %llu %llu %llu", &r.cpu,
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]) != 7) {
			in_table = false;
			continue;
		}
		r.records = v[0];
		r.dropped = v[1];
		r.durable = v[2];
		r.d_dropped = v[3];
		r.wraps = v[4];
		r.bytes = v[5];
		if (n < max)
			rows[n++] = r;
	}
	fclose(f);
	return n;
}

long ft_meminfo_kb(const char *key)
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

int ft_slabinfo(struct ft_slab *caches, int max)
{
	char line[512];
	int n = 0;
	FILE *f = fopen("/proc/slabinfo", "r");

	if (!f)
		return -errno;
	while (n < max && fgets(line, sizeof(line), f)) {
		struct ft_slab *c = &caches[n];

		/* "name <active_objs> <num_objs> <objsize> ..."; headers skipped */
		if (line[0] == '#' || !strncmp(line, "slabinfo", 8))
			continue;
		if (sscanf(line, "%63s %ld %*d %ld", c->name, &c->active, &c->objsize) == 3)
			n++;
	}
	fclose(f);
	return n;
}

long ft_module_mem_bytes(void)
{
	long v = -1;
	FILE *f = fopen("/sys/module/fxt/parameters/mem_bytes", "r");

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

int ft_module_refcnt(void)
{
	int v = -1;
	FILE *f = fopen("/sys/module/fxt/refcnt", "r");

	if (!f)
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

int ft_write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int err = 0;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	if (n < 0)
		err = -errno;
	close(fd);
	return err;
}
