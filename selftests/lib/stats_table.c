// SPDX-License-Identifier: GPL-2.0
/*
 * stats_table.c - the collector's statistics table (stats_table.h).
 */
#include <stdio.h>
#include <string.h>

#include "stats_table.h"

int stats_table_parse(const char *log, struct stats_row rows[STATS_MAX_CPUS])
{
	char line[512];
	bool in_table = false;
	int found = 0;
	FILE *f = fopen(log, "r");

	memset(rows, 0, STATS_MAX_CPUS * sizeof(*rows));
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		struct stats_row r = { .present = true };
		unsigned long long v[6];
		unsigned int cpu;
		int n;

		if (strstr(line, "cpu") && strstr(line, "records") &&
		    strstr(line, "d.dropped") && strstr(line, "wraps")) {
			in_table = true;	/* the last table wins */
			memset(rows, 0, STATS_MAX_CPUS * sizeof(*rows));
			found = 0;
			continue;
		}
		if (!in_table)
			continue;
		n = sscanf(line, "%u %llu %llu %llu %llu %llu %llu %63[^\n]",
			   &cpu, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
			   r.flags);
		if (n < 7) {
			in_table = false;
			continue;
		}
		r.records = v[0];
		r.dropped = v[1];
		r.durable = v[2];
		r.d_dropped = v[3];
		r.wraps = v[4];
		r.bytes = v[5];
		if (cpu < STATS_MAX_CPUS) {
			rows[cpu] = r;
			found++;
		}
	}
	fclose(f);
	return found;
}
