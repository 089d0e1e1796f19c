/* SPDX-License-Identifier: MIT */
/*
 * libfxt: small helpers shared by the tools: the project's sleep event,
 * loss record and switch priorities, and the names of enum values.
 */
#ifndef LIBFXT_HELPERS_H
#define LIBFXT_HELPERS_H

#include <stdbool.h>
#include <stdint.h>

#include "libfxt_records.h"
#include "libfxt_writer.h"

/*
 * The sleep event (Documentation/records.rst, "Sleep states"): an instant
 * event of category "sched" whose name is one letter of FXT_SLEEP_STATES,
 * on the thread that the next context switch of its provider switches out.
 * Returns the letter ('D', 'I', 'P' or 't') when rec is one (not
 * malformed), else 0. *blocked_in (may be NULL) is its "blocked_in" string
 * argument, the function the thread blocked in, or the empty string when
 * it has none (no argument, one of another type, an undefined index).
 */
char fxt_sleep_event(const struct fxt_record *rec, struct fxt_str *blocked_in);

/*
 * The loss record (Documentation/records.rst, "Loss"; FXT_LOST_NAME in
 * <fxt/format.h>): CPU cpu's records from its kept record at from to its
 * kept record at to are incomplete, records of them lost. Times in ticks
 * (ns in fxt-collect's archives). fxt_lost_event() is true when rec is one,
 * well formed (both arguments, of their types; to >= from), and fills what
 * is not NULL.
 */
int fxt_write_lost(struct fxt_writer *w, uint32_t cpu, uint64_t from,
		   uint64_t to, uint64_t records);
bool fxt_lost_event(const struct fxt_record *rec, uint32_t *cpu,
		    uint64_t *to, uint64_t *records);

/*
 * A context switch's priorities: the legacy switch's fields, or the wide
 * one's "outgoing_weight" / "incoming_weight" int32 arguments (0 when
 * absent). Documentation/records.rst, "Context switch".
 */
void fxt_switch_prios(const struct fxt_record *rec, int32_t *out_prio, int32_t *in_prio);

/* Names of record types, event types, argument types, thread states. */
const char *fxt_record_type_name(unsigned int type);
const char *fxt_event_type_name(unsigned int type);
const char *fxt_arg_type_name(unsigned int type);
const char *fxt_thread_state_name(unsigned int state);

#endif /* LIBFXT_HELPERS_H */
