// SPDX-License-Identifier: MIT
/*
 * fxtcount FILE: count the records of an FXT archive by kind, read with
 * libfxt's reader (userspace/lib), which also checks them. Prints
 * "bytes=B records=R switches=S wakeups=W events=E other=O
 * sw_bytes=.. wk_bytes=.. ev_bytes=.. other_bytes=.." (events: record type
 * 4, i.e. IRQ/softirq begin/end and counters; other: metadata, strings,
 * threads, kernel objects (names), ...; *_bytes: those records' bytes),
 * then "sleeps=N sleep_bytes=B": the sleep events (D, I, P, t) among the
 * events, which ride with their switches (Documentation/records.rst),
 * and "power=N power_bytes=B": the power category's events (blob records
 * with a time); other is none of these.
 * Exits 1 when the archive cannot be read to its end.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "libfxt.h"

int main(int argc, char **argv)
{
	uint64_t bytes = 0, recs = 0, sw = 0, wk = 0, ev = 0, other = 0;
	uint64_t swb = 0, wkb = 0, evb = 0, otherb = 0, sl = 0, slb = 0;
	uint64_t pw = 0, pwb = 0;
	struct fxt_reader *r;
	struct fxt_record *rec;
	int rc;

	if (argc != 2) {
		fprintf(stderr, "usage: fxtcount FILE\n");
		return 1;
	}
	r = fxt_reader_open(argv[1]);
	rec = malloc(sizeof(*rec));
	if (!r || !rec) {
		fprintf(stderr, "fxtcount: cannot read %s\n", argv[1]);
		return 1;
	}
	fxt_reader_skip_args(r, FXT_SKIP_SCHED_ARGS | FXT_SKIP_SPAN_ARGS);
	while ((rc = fxt_reader_next(r, rec)) == 1) {
		uint64_t b = rec->nwords * 8;

		recs++;
		bytes += b;
		if (rec->type == FXT_REC_SCHED &&
		    (rec->subtype == FXT_SCHED_CONTEXT_SWITCH ||
		     rec->subtype == FXT_SCHED_CONTEXT_SWITCH_V2))
			sw++, swb += b;
		else if (rec->type == FXT_REC_SCHED &&
			 rec->subtype == FXT_SCHED_THREAD_WAKEUP)
			wk++, wkb += b;
		else if (rec->type == FXT_REC_EVENT)
			ev++, evb += b;
		else if (rec->type == FXT_REC_BLOB && rec->ts_ns)
			pw++, pwb += b;		/* a power event (its time) */
		else
			other++, otherb += b;
		if (fxt_sleep_event(rec, NULL))
			sl++, slb += b;
	}
	if (rc < 0) {
		fprintf(stderr, "fxtcount: %s: unreadable after %llu records\n",
			argv[1], (unsigned long long)recs);
		return 1;
	}
	printf("bytes=%llu records=%llu switches=%llu wakeups=%llu events=%llu other=%llu "
	       "sw_bytes=%llu wk_bytes=%llu ev_bytes=%llu other_bytes=%llu "
	       "sleeps=%llu sleep_bytes=%llu power=%llu power_bytes=%llu\n",
	       (unsigned long long)bytes, (unsigned long long)recs,
	       (unsigned long long)sw, (unsigned long long)wk,
	       (unsigned long long)ev, (unsigned long long)other,
	       (unsigned long long)swb, (unsigned long long)wkb,
	       (unsigned long long)evb, (unsigned long long)otherb,
	       (unsigned long long)sl, (unsigned long long)slb,
	       (unsigned long long)pw, (unsigned long long)pwb);
	fxt_reader_close(r);
	free(rec);
	return 0;
}
