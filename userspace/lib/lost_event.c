// SPDX-License-Identifier: MIT
/*
 * lost_event.c - the loss record (Documentation/records.rst, "Loss"): a
 * duration complete event fxt/lost on a CPU's interrupt pseudo-thread over
 * the span the CPU lost records in, with the CPU and the count. Written by
 * the collector (lib/drain.c) and recognized by every tool here, and
 * nowhere else.
 */
#include <string.h>

#include <fxt/format.h>

#include "libfxt_helpers.h"

/* s is the literal lit. */
#define STR_IS(s, lit)	((s).len == sizeof(lit) - 1 && (s).data && \
			 !memcmp((s).data, (lit), sizeof(lit) - 1))

int fxt_write_lost(struct fxt_writer *w, uint32_t cpu, uint64_t from,
		   uint64_t to, uint64_t records)
{
	struct fxt_arg args[2] = {
		fxt_arg_u32(fxt_str(FXT_LOST_ARG_CPU), cpu),
		fxt_arg_u64(fxt_str(FXT_DROPPED_ARG_NAME), records),
	};

	return fxt_write_event(w, FXT_EVENT_DURATION_COMPLETE, from,
			       fxt_thread_inline(FXT_KOID_IRQ_PROCESS,
						 FXT_KOID_IRQ_THREAD(cpu)),
			       fxt_str(FXT_DROPPED_CATEGORY),
			       fxt_str(FXT_LOST_NAME), args, 2,
			       to > from ? to : from);
}

bool fxt_lost_event(const struct fxt_record *rec, uint32_t *cpu,
		    uint64_t *to, uint64_t *records)
{
	bool have_cpu = false, have_records = false;
	uint32_t c = 0;
	uint64_t n = 0;
	unsigned int i;

	if (rec->type != FXT_REC_EVENT ||
	    rec->subtype != FXT_EVENT_DURATION_COMPLETE ||
	    (rec->flags & (FXT_RF_MALFORMED | FXT_RF_UNKNOWN | FXT_RF_NO_PAYLOAD)) ||
	    !STR_IS(rec->u.event.name, FXT_LOST_NAME) ||
	    !STR_IS(rec->u.event.category, FXT_DROPPED_CATEGORY) ||
	    rec->u.event.data < rec->ts)
		return false;
	for (i = 0; i < rec->nargs && i < FXT_MAX_ARGS; i++) {
		const struct fxt_arg *a = &rec->args[i];

		if (a->type == FXT_ARG_UINT32 && STR_IS(a->name, FXT_LOST_ARG_CPU)) {
			c = a->v.u32;
			have_cpu = true;
		} else if (a->type == FXT_ARG_UINT64 &&
			   STR_IS(a->name, FXT_DROPPED_ARG_NAME)) {
			n = a->v.u64;
			have_records = true;
		}
	}
	if (!have_cpu || !have_records)
		return false;
	if (cpu)
		*cpu = c;
	if (to)
		*to = rec->u.event.data;
	if (records)
		*records = n;
	return true;
}
