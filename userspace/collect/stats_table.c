// SPDX-License-Identifier: MIT
/*
 * stats_table.c - the per-CPU statistics of fxt-collect: what each CPU
 * wrote, dropped and saved, read from the device after the stop, as a
 * table for people and as JSON for programs (--stats-json).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "stats_table.h"

/*
 * The first possible CPU of d from *cpu on, and its statistics: 1, 0 when
 * there is none, or -errno (the message in d->err).
 */
static int next_cpu_stats(struct fxt_device *d, uint32_t *cpu,
			  struct fxt_cpu_stats *st)
{
	int ret;

	for (; *cpu < d->layout.nr_cpus; ++*cpu) {
		if (!fxt_device_cpu_possible(d, *cpu))
			continue;
		ret = fxt_device_cpu_stats(d, *cpu, st);
		return ret < 0 ? ret : 1;
	}
	return 0;
}

int fxt_stats_table(struct fxt_device *d, bool triggers, FILE *f)
{
	struct fxt_cpu_stats st;
	uint32_t cpu;
	int ret;

	fprintf(f, "%4s %12s %10s %10s %10s %6s %12s ", "cpu", "records",
		"dropped", "durable", "d.dropped", "wraps", "bytes");
	if (triggers)
		fprintf(f, "%8s ", "missed");
	fprintf(f, "%s\n", "flags");
	for (cpu = 0; (ret = next_cpu_stats(d, &cpu, &st)) > 0; cpu++) {
		fprintf(f, "%4u %12" PRIu64 " %10" PRIu64 " %10" PRIu64 " %10" PRIu64
			" %6" PRIu64 " %12" PRIu64 " ", cpu,
			(uint64_t)st.records_written, (uint64_t)st.records_dropped,
			(uint64_t)st.durable_records, (uint64_t)st.durable_dropped,
			(uint64_t)st.wrapped_count,
			(uint64_t)(st.durable_bytes + st.rolling_bytes));
		if (triggers)
			fprintf(f, "%8" PRIu64 " ", (uint64_t)st.trigger_missed);
		fprintf(f, "%s%s\n",
			st.flags & FXT_CPU_DURABLE_FULL ? "durable-full " : "",
			st.flags & FXT_CPU_ROLLING_FULL ? "rolling-full" : "");
	}
	return ret;
}

int fxt_stats_json(struct fxt_device *d, const char *path)
{
	struct fxt_cpu_stats st;
	char tmp[4096];
	const char *sep = "";
	uint32_t cpu;
	int ret = 0;
	FILE *f;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp))
		return fxt_device_fail(d, -ENAMETOOLONG, "--stats-json %s: name too long", path);
	f = fopen(tmp, "w");
	if (!f)
		return fxt_device_fail(d, -errno, "--stats-json %s: %s", tmp, strerror(errno));
	fprintf(f, "{\"cpus\": [\n");
	for (cpu = 0; (ret = next_cpu_stats(d, &cpu, &st)) > 0; cpu++) {
		fprintf(f, "%s{\"cpu\": %u, \"records\": %" PRIu64 ", \"dropped\": %" PRIu64
			", \"durable\": %" PRIu64 ", \"durable_dropped\": %" PRIu64
			", \"wraps\": %" PRIu64 ", \"bytes\": %" PRIu64
			", \"trigger_missed\": %" PRIu64
			", \"durable_full\": %s, \"rolling_full\": %s}", sep, cpu,
			(uint64_t)st.records_written, (uint64_t)st.records_dropped,
			(uint64_t)st.durable_records, (uint64_t)st.durable_dropped,
			(uint64_t)st.wrapped_count,
			(uint64_t)(st.durable_bytes + st.rolling_bytes),
			(uint64_t)st.trigger_missed,
			st.flags & FXT_CPU_DURABLE_FULL ? "true" : "false",
			st.flags & FXT_CPU_ROLLING_FULL ? "true" : "false");
		sep = ",\n";
	}
	fprintf(f, "\n]}\n");
	if (ferror(f) && !ret)
		ret = fxt_device_fail(d, -EIO, "--stats-json %s: write error", tmp);
	if (fclose(f) && !ret)
		ret = fxt_device_fail(d, -errno, "--stats-json %s: %s", tmp, strerror(errno));
	if (!ret && rename(tmp, path))
		ret = fxt_device_fail(d, -errno, "--stats-json %s: %s", path, strerror(errno));
	if (ret)
		remove(tmp);
	return ret;
}
