// SPDX-License-Identifier: MIT
/*
 * sleep_pairs.c - sleep events held for their switch, for fxt-dump's
 * conversions (--json, --perfetto): see sleep_pairs.h.
 */
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "sleep_pairs.h"

#define FN_NAME_MAX	255	/* fxt.ko cuts names there too */

void sleep_pairs_event(struct sleep_pairs *sp, const struct fxt_record *rec, char letter,
		       struct fxt_str blocked_in)
{
	struct sleep_pair *s;

	if (rec->provider >= FXT_MAX_CPUS || !rec->u.event.thread.defined)
		return;
	if (rec->provider >= sp->n) {
		s = grow_zeroed(sp->by_provider, &sp->n, rec->provider, 8, sizeof(*s));
		if (!s)
			return;
		sp->by_provider = s;
	}
	s = &sp->by_provider[rec->provider];
	s->letter = letter;
	s->tid = rec->u.event.thread.tid;
	s->fn = blocked_in.len ? fxt_name_intern(&sp->fns, blocked_in.data, blocked_in.len, FN_NAME_MAX)
			       : NAME_INTERN_NONE;
}

char sleep_pairs_switch(struct sleep_pairs *sp, const struct fxt_record *rec, uint32_t *fn)
{
	struct sleep_pair *s = rec->provider < sp->n ? &sp->by_provider[rec->provider] : NULL;
	const struct fxt_thread *out = &rec->u.sw.out;
	unsigned int st = rec->u.sw.out_state;
	char letter = 0;

	*fn = NAME_INTERN_NONE;
	if (!s || !s->letter)
		return 0;
	if (out->defined && out->tid == s->tid &&
	    (st == FXT_THREAD_BLOCKED || st == FXT_THREAD_SUSPENDED)) {
		letter = s->letter;
		*fn = s->fn;
	}
	s->letter = 0;
	return letter;
}

void sleep_pairs_free(struct sleep_pairs *sp)
{
	fxt_name_intern_free(&sp->fns);
	free(sp->by_provider);
	memset(sp, 0, sizeof(*sp));
}
