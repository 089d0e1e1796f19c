// SPDX-License-Identifier: MIT
/*
 * stats_table.c - the per-CPU statistics table of fxt-collect: what each
 * CPU wrote, dropped and saved, read from the device after the stop.
 */
#include <inttypes.h>

#include "stats_table.h"

int fxt_stats_table(struct fxt_device *d, bool triggers, FILE *f)
{
	uint32_t cpu;
	int ret;

	fprintf(f, "%4s %12s %10s %10s %10s %6s %12s ", "cpu", "records",
		"dropped", "durable", "d.dropped", "wraps", "bytes");
	if (triggers)
		fprintf(f, "%8s ", "missed");
	fprintf(f, "%s\n", "flags");
	for (cpu = 0; cpu < d->layout.nr_cpus; cpu++) {
		struct fxt_cpu_stats st;

		if (!fxt_device_cpu_possible(d, cpu))
			continue;
		ret = fxt_device_cpu_stats(d, cpu, &st);
		if (ret < 0)
			return ret;
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
	return 0;
}
