/* SPDX-License-Identifier: MIT */
/*
 * sleep_pairs.h - the converters' sleep events (Documentation/records.rst,
 * "Sleep states"), each held for the next switch of its provider: when
 * that switch switches the event's thread out into a sleep, the sleep is
 * the event's (D, I, P, t), with the function a D blocked in.
 */
#ifndef FXT_DUMP_SLEEP_PAIRS_H
#define FXT_DUMP_SLEEP_PAIRS_H

#include <stdint.h>

#include "libfxt.h"
#include "name_intern.h"

struct sleep_pair {
	char letter;		/* 0: none waiting */
	uint64_t tid;
	uint32_t fn;		/* blocked_in in fns, NAME_INTERN_NONE if none */
};

struct sleep_pairs {
	struct sleep_pair *by_provider;
	size_t n;
	struct fxt_name_intern fns;	/* blocked_in names, by function id */
};

/* A sleep event (fxt_sleep_event()'s letter and blocked_in). */
void sleep_pairs_event(struct sleep_pairs *sp, const struct fxt_record *rec, char letter,
		       struct fxt_str blocked_in);
/*
 * A context switch of the provider: the letter of its sleep event when the
 * switch switches that event's thread out into a sleep (blocked or
 * suspended), with *fn its function id; else 0. The event is used up
 * either way.
 */
char sleep_pairs_switch(struct sleep_pairs *sp, const struct fxt_record *rec, uint32_t *fn);
void sleep_pairs_free(struct sleep_pairs *sp);

#endif /* FXT_DUMP_SLEEP_PAIRS_H */
