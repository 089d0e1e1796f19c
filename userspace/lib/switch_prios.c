// SPDX-License-Identifier: MIT
/*
 * switch_prios.c - a context switch's priorities, whichever its subtype
 * (fxt_switch_prios() in libfxt.h).
 */
#include <string.h>

#include <fxt/format.h>

#include "libfxt_helpers.h"

/* Is the string s (a struct fxt_str) the literal lit? */
#define NAME_IS(s, lit)	((s).len == sizeof(lit) - 1 && (s).data && \
			 !memcmp((s).data, (lit), sizeof(lit) - 1))

void fxt_switch_prios(const struct fxt_record *rec, int32_t *out_prio, int32_t *in_prio)
{
	unsigned int i;

	if (rec->subtype == FXT_SCHED_CONTEXT_SWITCH) {
		*out_prio = rec->u.sw.out_prio;
		*in_prio = rec->u.sw.in_prio;
		return;
	}
	*out_prio = *in_prio = 0;
	for (i = 0; i < rec->nargs; i++) {
		const struct fxt_arg *a = &rec->args[i];

		if (a->type != FXT_ARG_INT32 || !a->name.data)
			continue;
		if (NAME_IS(a->name, FXT_ARG_NAME_INCOMING_WEIGHT))
			*in_prio = a->v.i32;
		else if (NAME_IS(a->name, FXT_ARG_NAME_OUTGOING_WEIGHT))
			*out_prio = a->v.i32;
	}
}
