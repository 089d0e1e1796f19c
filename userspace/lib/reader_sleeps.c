// SPDX-License-Identifier: MIT
/*
 * reader_sleeps.c - sleep events paired with their switch, checked with
 * fxt_reader_check_sleeps(): fxt.ko writes a sleep event (D, I, P, t)
 * just before the context switch that switches its thread out, in the
 * same CPU's provider (Documentation/records.rst, "Sleep states"). An
 * event whose provider's next switch switches another thread out, that
 * another sleep event follows first, or that no switch follows before
 * the end of the archive, is reported once (SLEEP_UNPAIRED, a warning):
 * the readers then give the sleep no state, its switch's own (a lost
 * switch record, a full buffer, does that).
 */
#include <stdio.h>
#include <string.h>

#include "reader_cursor.h"

/* "D" on thread 7 */
static void what(char *buf, size_t size, char letter, uint64_t tid)
{
	snprintf(buf, size, "\"%c\" on thread %llu", letter, (unsigned long long)tid);
}

void fxt_rd_check_sleep_event(struct cur *c)
{
	struct provider *p = c->prov;
	char letter = fxt_sleep_event(c->rec, NULL), buf[64];

	if (!letter || !c->rec->u.event.thread.defined)
		return;
	if (p->sleep) {
		what(buf, sizeof(buf), p->sleep, p->sleep_tid);
		fxt_rd_report(c->r, p->sleep_offset, FXT_D_SLEEP_UNPAIRED,
			      "%s, then another sleep event (offset 0x%llx) before a switch",
			      buf, (unsigned long long)c->rec->offset);
	}
	p->sleep = letter;
	p->sleep_tid = c->rec->u.event.thread.tid;
	p->sleep_offset = c->rec->offset;
}

void fxt_rd_check_sleep_switch(struct cur *c)
{
	const struct fxt_record *rec = c->rec;
	struct provider *p = c->prov;
	char buf[64];

	if (rec->subtype != FXT_SCHED_CONTEXT_SWITCH &&
	    rec->subtype != FXT_SCHED_CONTEXT_SWITCH_V2)
		return;
	if (!rec->u.sw.out.defined || rec->u.sw.out.tid != p->sleep_tid) {
		what(buf, sizeof(buf), p->sleep, p->sleep_tid);
		fxt_rd_report(c->r, p->sleep_offset, FXT_D_SLEEP_UNPAIRED,
			      "%s, but the next switch (offset 0x%llx) switches out %s",
			      buf, (unsigned long long)rec->offset,
			      rec->u.sw.out.defined ? "another thread" : "an undefined thread");
	}
	p->sleep = 0;
}

static void end_of(struct fxt_reader *r, struct provider *p)
{
	char buf[64];

	if (!p->sleep)
		return;
	what(buf, sizeof(buf), p->sleep, p->sleep_tid);
	fxt_rd_report(r, p->sleep_offset, FXT_D_SLEEP_UNPAIRED,
		      "%s, and no switch after it in provider %u", buf, p->id);
	p->sleep = 0;
}

void fxt_rd_check_sleeps_end(struct fxt_reader *r)
{
	unsigned int b;
	struct provider *p;

	for (b = 0; b < PROV_BUCKETS; b++)
		for (p = r->buckets[b]; p; p = p->hnext)
			end_of(r, p);
	if (r->spare)
		end_of(r, r->spare);
}
