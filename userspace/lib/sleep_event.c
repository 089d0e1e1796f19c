// SPDX-License-Identifier: MIT
/*
 * sleep_event.c - the sleep event (Documentation/records.rst, "Sleep
 * states"): an instant event of category "sched" named by the Linux state
 * letter a thread switches out in (FXT_SLEEP_STATES), with, for D, the
 * function it blocked in. Every tool recognizes it here and nowhere else.
 */
#include <string.h>

#include <fxt/format.h>

#include "libfxt_helpers.h"

/* s is the literal lit. */
#define STR_IS(s, lit)	((s).len == sizeof(lit) - 1 && (s).data && \
			 !memcmp((s).data, (lit), sizeof(lit) - 1))

char fxt_sleep_event(const struct fxt_record *rec, struct fxt_str *blocked_in)
{
	struct fxt_str name;
	unsigned int i;
	char letter;

	if (blocked_in)
		*blocked_in = fxt_str("");
	if (rec->type != FXT_REC_EVENT || rec->subtype != FXT_EVENT_INSTANT ||
	    (rec->flags & (FXT_RF_MALFORMED | FXT_RF_UNKNOWN | FXT_RF_NO_PAYLOAD)))
		return 0;
	name = rec->u.event.name;
	if (name.len != 1 || !name.data || !name.data[0] ||
	    !strchr(FXT_SLEEP_STATES, name.data[0]) ||
	    !STR_IS(rec->u.event.category, FXT_CAT_NAME_SCHED))
		return 0;
	letter = name.data[0];
	if (!blocked_in)
		return letter;
	for (i = 0; i < rec->nargs && i < FXT_MAX_ARGS; i++) {
		const struct fxt_arg *a = &rec->args[i];

		if (a->type == FXT_ARG_STRING && a->v.str.data && a->v.str.len &&
		    STR_IS(a->name, FXT_ARG_NAME_BLOCKED_IN)) {
			*blocked_in = a->v.str;
			break;
		}
	}
	return letter;
}
