// SPDX-License-Identifier: MIT
/*
 * session_report.c - the end of a fxt-collect run in words: the per-CPU
 * table (collect/stats_table.c), the totals of the last archive, the names
 * its trailer restated, and warnings for what was lost.
 */
#include <inttypes.h>
#include <stdio.h>

#include "session.h"
#include "stats_table.h"

int fxt_session_report(struct fxt_session *s, bool quiet)
{
	struct fxt_device_totals t;
	int ret;

	fxt_device_totals(&s->dev, &t);
	if (!quiet) {
		ret = fxt_stats_table(&s->dev, s->triggers.count > 0, stderr);
		if (ret < 0)
			return ret;
		fprintf(stderr, "%s: %s: %" PRIu64 " bytes, %" PRIu64
			" records (%" PRIu64 " events, %" PRIu64 " durable), %" PRIu64
			" dropped, %" PRIu64 " buffers saved\n", s->prog,
			fxt_session_path(s), s->archive_bytes, t.written, t.events,
			t.written - t.events, t.dropped, s->dev.saves);
		if (s->dev.clipped)
			fprintf(stderr, "%s: %" PRIu64 " timed records from before the window's common start left out: every CPU's records begin at %" PRIu64 " ns (Documentation/buffers.rst, \"Window edges\")\n",
				s->prog, s->dev.clipped, s->dev.clip_ns);
		if (s->renamed > 0)
			fprintf(stderr, "%s: %d trailer records for %zu koids: newest names restated, %zu command lines from /proc\n",
				s->prog, s->renamed, fxt_newest_koids(s->dev.names),
				fxt_newest_cmdlines(s->dev.names));
	}
	if (t.dropped)
		fxt_device_warn(&s->dev, "%" PRIu64 " records were dropped (the archive's fxt/dropped counters say how many, its fxt/lost records which span of which CPU)",
				t.dropped);
	if (s->trigger_missed)
		fxt_device_warn(&s->dev, "%" PRIu64 " latencies were not measured (the kernel's table of pending ones was full): a trigger may have missed them",
				s->trigger_missed);
	fxt_device_warn_untraced(&s->dev);
	return 0;
}
