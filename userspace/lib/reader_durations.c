// SPDX-License-Identifier: MIT
/*
 * reader_durations.c - the nesting of duration events, checked with
 * fxt_reader_check_durations(): per provider and thread, the open levels
 * and the names begun, so that an end without its begin, or with another
 * name, is reported (DURATION_UNMATCHED, DURATION_MISMATCH).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader_cursor.h"

/* ------------------------------------------------------------------ */
/* Duration nesting (fxt_reader_check_durations()).                     */

/* FNV-1a of a string, continuing from h; an undefined one hashes apart. */
static uint64_t str_hash(uint64_t h, struct fxt_str s)
{
	uint16_t i;

	if (!s.data)
		return (h ^ 0x100) * 0x100000001b3ull;
	for (i = 0; i < s.len; i++)
		h = (h ^ (unsigned char)s.data[i]) * 0x100000001b3ull;
	return (h ^ 0x101) * 0x100000001b3ull;	/* ends the string */
}

/* The nesting state of thread tid in the record's provider, or NULL. */
static struct dur_thread *dur_thread(struct cur *c, uint64_t tid)
{
	struct provider *p = c->prov;
	int64_t i = fxt_u64map_get(&p->dur_map, tid);
	struct dur_thread *t;

	if (i >= 0)
		return &p->durs[i];
	if (p->ndurs == UINT32_MAX - 1 ||
	    !fxt_rd_mem_take(c->r, DUR_THREAD_MEM, MEM_DURATIONS, c->rec->offset))
		return NULL;
	if (p->ndurs == p->dur_cap) {
		uint32_t cap = p->dur_cap ? p->dur_cap * 2 : 8;
		struct dur_thread *n = realloc(p->durs, cap * sizeof(*n));

		if (!n)
			goto fail;
		p->durs = n;
		p->dur_cap = cap;
	}
	if (fxt_u64map_put(&p->dur_map, tid, p->ndurs))
		goto fail;
	t = &p->durs[p->ndurs++];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	return t;
fail:
	fxt_rd_mem_give(c->r, DUR_THREAD_MEM);
	return NULL;
}

static bool dur_seen(const struct dur_thread *t, uint64_t name)
{
	unsigned int i;

	for (i = 0; i < t->nseen; i++)
		if (t->seen[i] == name)
			return true;
	return false;
}

/* "category" "name" on thread tid, for a message (names cut at 60 bytes). */
static void dur_what(char *buf, size_t size, const struct fxt_record *rec, uint64_t tid)
{
	struct fxt_str cat = rec->u.event.category, name = rec->u.event.name;

	snprintf(buf, size, "\"%.*s\" \"%.*s\" on thread %llu",
		 cat.data ? (cat.len < 60 ? (int)cat.len : 60) : 0, cat.data ? cat.data : "",
		 name.data ? (name.len < 60 ? (int)name.len : 60) : 0, name.data ? name.data : "",
		 (unsigned long long)tid);
}

/*
 * Duration begin and end events of one thread nest like a stack, and an end
 * closes the innermost open begin, of the same category and name: what a
 * viewer assumes (Perfetto closes the innermost slice, whatever the end's
 * name). An end that breaks this is drawn wrong, so it is a warning:
 *
 *   DURATION_MISMATCH	an end while other levels are open and its own is
 *			not the innermost: it closes a level further down
 *			(as fxt.ko does on PREEMPT_RT, records.rst) or,
 *			matching none, is ignored (as fxt's readers do);
 *   DURATION_UNMATCHED	an end with no level open on its thread, whose
 *			category and name were begun on the thread before.
 *
 * An end with nothing open whose name was never begun on the thread is
 * only a warning of its own, once per thread (DURATION_NO_BEGIN): its begin
 * may precede the archive (a trace that starts inside an interrupt, a
 * circular window's common start), and it cannot be told from a lost one;
 * one whose name is past the DUR_SEEN kept counts as never begun. A begin
 * left open at the end of the archive is
 * not reported either (a trace may stop inside an interrupt). Levels past
 * DUR_DEPTH are counted, not checked.
 */
void fxt_rd_check_duration(struct cur *c, unsigned int type)
{
	const struct fxt_record *rec = c->rec;
	struct dur_thread *t = dur_thread(c, rec->u.event.thread.tid);
	uint64_t name = str_hash(str_hash(0xcbf29ce484222325ull, rec->u.event.category),
				 rec->u.event.name);
	char what[160];
	uint32_t i;

	if (!t)
		return;
	if (type == FXT_EVENT_DURATION_BEGIN) {
		if (t->depth < DUR_DEPTH)
			t->open[t->depth] = name;
		if (t->depth < UINT32_MAX)
			t->depth++;
		if (t->nseen < DUR_SEEN && !dur_seen(t, name))
			t->seen[t->nseen++] = name;
		return;
	}
	if (!t->depth) {
		if (dur_seen(t, name)) {
			dur_what(what, sizeof(what), rec, t->tid);
			REPORT(c, DURATION_UNMATCHED, "%s, which began and ended it before",
			       what);
		} else if (!t->no_begin_said) {
			t->no_begin_said = true;
			dur_what(what, sizeof(what), rec, t->tid);
			REPORT(c, DURATION_NO_BEGIN, "%s (said once per thread)", what);
		}
		return;
	}
	if (t->depth > DUR_DEPTH) {	/* a level not kept */
		t->depth--;
		return;
	}
	if (t->open[t->depth - 1] == name) {
		t->depth--;
		return;
	}
	for (i = t->depth - 1; i-- > 0;)
		if (t->open[i] == name)
			break;
	if (i < t->depth) {
		dur_what(what, sizeof(what), rec, t->tid);
		REPORT(c, DURATION_MISMATCH, "%s closes level %u of %u open, not the innermost",
		       what, i + 1, t->depth);
		memmove(&t->open[i], &t->open[i + 1], (t->depth - 1 - i) * sizeof(t->open[0]));
		t->depth--;
	} else {
		dur_what(what, sizeof(what), rec, t->tid);
		REPORT(c, DURATION_MISMATCH, "%s matches no open level (%u open; ignored)",
		       what, t->depth);
	}
}
