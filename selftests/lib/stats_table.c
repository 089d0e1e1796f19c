// SPDX-License-Identifier: GPL-2.0
/*
 * stats_table.c - the collector's statistics, from its --stats-json file
 * (stats_table.h).
 */
#include <stdio.h>
#include <string.h>

#include "stats_table.h"

int stats_table_path(const char *log, char *path, size_t size)
{
	return snprintf(path, size, "%s.stats.json", log) < (int)size ? 0 : -1;
}

int stats_table_parse(const char *log, struct stats_row rows[STATS_MAX_CPUS])
{
	char path[4096], line[512], dfull[8], rfull[8];
	int found = 0;
	FILE *f;

	memset(rows, 0, STATS_MAX_CPUS * sizeof(*rows));
	if (stats_table_path(log, path, sizeof(path)))
		return 0;
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		struct stats_row r = { .present = true };
		unsigned long long v[8];
		unsigned int cpu;
		const char *at = strchr(line, '{');

		if (!at || sscanf(at, "{\"cpu\": %u, \"records\": %llu, \"dropped\": %llu, "
				  "\"durable\": %llu, \"durable_dropped\": %llu, "
				  "\"wraps\": %llu, \"bytes\": %llu, "
				  "\"trigger_missed\": %llu, \"durable_full\": %7[a-z], "
				  "\"rolling_full\": %7[a-z]}",
				  &cpu, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
				  &v[6], dfull, rfull) != 10)
			continue;
		r.records = v[0];
		r.dropped = v[1];
		r.durable = v[2];
		r.d_dropped = v[3];
		r.wraps = v[4];
		r.bytes = v[5];
		r.missed = v[6];
		snprintf(r.flags, sizeof(r.flags), "%s%s",
			 strcmp(dfull, "true") ? "" : "durable-full ",
			 strcmp(rfull, "true") ? "" : "rolling-full");
		if (cpu < STATS_MAX_CPUS) {
			rows[cpu] = r;
			found++;
		}
	}
	fclose(f);
	return found;
}
