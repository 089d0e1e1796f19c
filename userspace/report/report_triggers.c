// SPDX-License-Identifier: MIT
/*
 * report_triggers.c - fxt-report's Triggers section: every event a latency
 * trigger wrote when it fired (Documentation/records.rst, "Latency
 * triggers": instant events fxt/trigger on the thread concerned, the CPU's
 * interrupt pseudo-thread for irq-duration), in time order, as text or
 * CSV; nothing when the archive has none.
 *
 * The events are kept as they are read (the reading side), apart from the
 * scheduling analysis: they change none of its figures.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* s equals the C string lit. */
static bool str_is(struct fxt_str s, const char *lit)
{
	return s.data && s.len == strlen(lit) && !memcmp(s.data, lit, s.len);
}

static bool is_irq_thread(uint64_t tid)
{
	return tid >= FXT_KOID_IRQ_THREAD(0) && tid < FXT_KOID_IRQ_THREAD(MAX_CPUS);
}

bool report_trigger_record(struct report *rp, const struct fxt_record *rec)
{
	const struct fxt_thread *th = &rec->u.event.thread;
	struct trigger_ev *t;
	unsigned int i;

	if (rec->type != FXT_REC_EVENT || rec->subtype != FXT_EVENT_INSTANT ||
	    !str_is(rec->u.event.category, FXT_TRIGGER_CATEGORY) ||
	    !str_is(rec->u.event.name, FXT_TRIGGER_EVENT_NAME))
		return false;
	if (rp->ntriggers == rp->trcap) {
		size_t cap = rp->trcap ? rp->trcap * 2 : 16;
		struct trigger_ev *a = realloc(rp->triggers, cap * sizeof(*a));

		if (!a)
			return false;	/* the section lacks it; the rest stands */
		rp->triggers = a;
		rp->trcap = cap;
	}
	t = &rp->triggers[rp->ntriggers++];
	memset(t, 0, sizeof(*t));
	t->ts = rec->ts_ns;
	t->tid = th->defined ? th->tid : 0;
	t->pid = th->defined ? th->pid : 0;
	t->index = UINT32_MAX;
	if (is_irq_thread(t->tid))
		t->cpu = (uint32_t)(t->tid - FXT_KOID_IRQ_THREAD(0));
	else if (rec->provider < MAX_CPUS)
		t->cpu = rec->provider;	/* fxt-collect: provider c is CPU c */
	else
		t->cpu = UINT32_MAX;
	strcpy(t->kind, "?");
	for (i = 0; i < rec->nargs; i++) {
		const struct fxt_arg *a = &rec->args[i];
		bool num = a->type == FXT_ARG_UINT64 || a->type == FXT_ARG_INT64;

		if (str_is(a->name, FXT_TRIGGER_ARG_KIND) && a->type == FXT_ARG_STRING &&
		    a->v.str.data && a->v.str.len && a->v.str.len < sizeof(t->kind)) {
			memcpy(t->kind, a->v.str.data, a->v.str.len);
			t->kind[a->v.str.len] = 0;
		} else if (str_is(a->name, FXT_TRIGGER_ARG_LATENCY) && num) {
			t->latency_ns = a->v.u64;
		} else if (str_is(a->name, FXT_TRIGGER_ARG_THRESHOLD) && num) {
			t->threshold_ns = a->v.u64;
		} else if (str_is(a->name, FXT_TRIGGER_ARG_INDEX) &&
			   (a->type == FXT_ARG_UINT32 || a->type == FXT_ARG_INT32)) {
			t->index = a->v.u32;
		} else if (str_is(a->name, FXT_TRIGGER_ARG_FIRST) && a->type == FXT_ARG_BOOL) {
			t->first = a->v.b;
		}
	}
	return true;
}

static int cmp_triggers(const void *a, const void *b)
{
	const struct trigger_ev *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

/* The thread's name when the trigger fired; irq/cpuN for the pseudo-threads. */
static const char *thread_name(const struct report *rp, const struct trigger_ev *t,
			       char *buf, size_t size)
{
	const struct fxt_kobj_info *k = fxt_merge_thread_at(rp->m, t->tid, t->ts);

	if (k && k->name_len)
		return k->name;
	if (is_irq_thread(t->tid)) {
		snprintf(buf, size, "irq/cpu%llu",
			 (unsigned long long)(t->tid - FXT_KOID_IRQ_THREAD(0)));
		return buf;
	}
	return "";
}

/* ns as ms with 3 decimals. */
static void ms(char *buf, size_t size, uint64_t ns)
{
	snprintf(buf, size, "%llu.%03llu", (unsigned long long)(ns / 1000000),
		 (unsigned long long)(ns / 1000 % 1000));
}

static void print_text(struct report *rp, struct outbuf *o)
{
	char at[32], lat[32], thr[32], name[64], cpu[16], tid[24], idx[16];
	size_t i, k;

	fxt_ob_printf(o, "\nTriggers (%zu)\n%10s %4s %-16s %8s %-16s %11s %12s %7s %5s\n",
		  rp->ntriggers, "AT ms", "CPU", "KIND", "TID", "THREAD", "LATENCY ms",
		  "THRESHOLD ms", "TRIGGER", "FIRST");
	for (i = 0; i < rp->ntriggers; i++) {
		const struct trigger_ev *t = &rp->triggers[i];
		const char *n = thread_name(rp, t, name, sizeof(name));
		char shown[17];

		ms(at, sizeof(at), t->ts - (t->ts >= rp->first_ns ? rp->first_ns : t->ts));
		ms(lat, sizeof(lat), t->latency_ns);
		ms(thr, sizeof(thr), t->threshold_ns);
		snprintf(cpu, sizeof(cpu), t->cpu == UINT32_MAX ? "-" : "%u", t->cpu);
		snprintf(tid, sizeof(tid), is_irq_thread(t->tid) ? "-" : "%llu",
			 (unsigned long long)t->tid);
		snprintf(idx, sizeof(idx), t->index == UINT32_MAX ? "-" : "%u", t->index);
		/* Printable, 16 columns (control bytes -> '?'). */
		for (k = 0; n[k] && k < 16; k++)
			shown[k] = (unsigned char)n[k] < 0x20 || n[k] == 0x7f ? '?' : n[k];
		shown[k] = 0;
		fxt_ob_printf(o, "%10s %4s %-16s %8s %-16s %11s %12s %7s %5s\n", at, cpu, t->kind,
			  tid, shown, lat, thr, idx, t->first ? "yes" : "no");
	}
}

static void print_csv(struct report *rp, struct outbuf *o)
{
	char name[64];
	size_t i;

	OB_LIT(o, "\ntable,ts_ns,cpu,kind,tid,pid,thread,latency_ns,threshold_ns,trigger,first\n");
	for (i = 0; i < rp->ntriggers; i++) {
		const struct trigger_ev *t = &rp->triggers[i];

		OB_LIT(o, "triggers,");
		fxt_ob_printf(o, "%llu,", (unsigned long long)t->ts);
		if (t->cpu != UINT32_MAX)
			fxt_ob_printf(o, "%u", t->cpu);
		fxt_ob_putc(o, ',');
		fxt_ob_csv_str(o, t->kind);
		fxt_ob_printf(o, ",%llu,%llu,", (unsigned long long)t->tid,
			  (unsigned long long)t->pid);
		fxt_ob_csv_str(o, thread_name(rp, t, name, sizeof(name)));
		fxt_ob_printf(o, ",%llu,%llu,", (unsigned long long)t->latency_ns,
			  (unsigned long long)t->threshold_ns);
		if (t->index != UINT32_MAX)
			fxt_ob_printf(o, "%u", t->index);
		fxt_ob_printf(o, ",%s\n", t->first ? "true" : "false");
	}
}

void report_print_triggers(struct report *rp, struct outbuf *o, bool csv)
{
	if (!rp->ntriggers)
		return;
	qsort(rp->triggers, rp->ntriggers, sizeof(*rp->triggers), cmp_triggers);
	if (csv)
		print_csv(rp, o);
	else
		print_text(rp, o);
}
