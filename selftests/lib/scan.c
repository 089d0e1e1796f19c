// SPDX-License-Identifier: GPL-2.0
/*
 * scan.c - an archive summed up per CPU through libfxt (scan.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fxtread.h"
#include "scan.h"

#define SCAN_STACK_MAX		16

const char *scan_kobj_prefix;

struct scan_frame {
	char cat[16];
	char name[48];
};

struct scan_walk {
	uint64_t thread_koid[MAX_CPUS][256];
	bool thread_set[MAX_CPUS][256];
	uint64_t str_hash[MAX_CPUS][0x8000];
	struct scan_frame stack[MAX_CPUS][SCAN_STACK_MAX];
	int depth[MAX_CPUS];
	bool any_begin[MAX_CPUS];
};

static int scan_diag(void *ctx, uint64_t offset, enum fxt_diag_id id,
		     const char *message)
{
	struct scan *s = ctx;

	if (id == FXT_D_STRING_UNDEFINED)
		s->string_undefined++;
	if (id == FXT_D_THREAD_UNDEFINED)
		s->thread_undefined++;
	if (s->diags++ < 5)
		fxtread_diag_print(offset, id, message);
	return 0;
}

static void scan_irq(struct scan_walk *w, struct scan_prov *p, unsigned int cpu,
		     const struct fxt_record *rec)
{
	struct scan_frame f;

	if (!rec->u.event.thread.defined ||
	    rec->u.event.thread.tid != FXT_KOID_IRQ_THREAD(cpu)) {
		p->other_thread_irq++;
		return;
	}
	fxtread_str_copy(f.cat, sizeof(f.cat), &rec->u.event.category);
	fxtread_str_copy(f.name, sizeof(f.name), &rec->u.event.name);
	if (rec->subtype == FXT_EVENT_DURATION_BEGIN) {
		p->irq_begin++;
		w->any_begin[cpu] = true;
		if (w->depth[cpu] < SCAN_STACK_MAX)
			w->stack[cpu][w->depth[cpu]] = f;
		w->depth[cpu]++;
		return;
	}
	p->irq_end++;
	if (w->depth[cpu] == 0) {
		if (w->any_begin[cpu])
			p->orphan_late++;
		else
			p->orphan_start++;
		return;
	}
	w->depth[cpu]--;
	if (w->depth[cpu] < SCAN_STACK_MAX) {
		const struct scan_frame *top = &w->stack[cpu][w->depth[cpu]];

		if (strcmp(top->cat, f.cat) || strcmp(top->name, f.name)) {
			p->nest_mismatch++;
			if (p->mismatch_shown++ < 3)
				printf("# cpu%u: end %s/%s at ts %llu, innermost begin %s/%s (depth %d)\n",
				       cpu, f.cat, f.name,
				       (unsigned long long)rec->ts, top->cat,
				       top->name, w->depth[cpu] + 1);
		}
	}
}

int scan_archive(const char *path, const uint64_t *tids, int ntids,
	    struct scan *s)
{
	struct fxt_reader *r;
	struct fxt_record rec;
	struct scan_walk *w;
	int ret;

	memset(s, 0, sizeof(*s));
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	r = fxt_reader_open(path);
	if (!r) {
		free(w);
		return -errno;
	}
	fxt_reader_set_diag(r, scan_diag, s);
	while ((ret = fxt_reader_next(r, &rec)) == 1) {
		struct scan_prov *p;
		unsigned int cpu = rec.provider;
		uint64_t lto, lrecords;
		uint32_t lcpu;

		if (rec.flags & (FXT_RF_MALFORMED | FXT_RF_UNKNOWN))
			continue;
		if (rec.type == FXT_REC_METADATA &&
		    rec.subtype == FXT_META_PROVIDER_EVENT) {
			if (rec.u.meta.provider_id < MAX_CPUS &&
			    rec.u.meta.event == FXT_PROVIDER_EVENT_BUFFER_FULL)
				s->prov[rec.u.meta.provider_id].buffer_full++;
			continue;
		}
		if (cpu >= MAX_CPUS)
			continue;
		p = &s->prov[cpu];
		p->seen = true;
		if (rec.ts_ns > p->last_ns)
			p->last_ns = rec.ts_ns;
		if (rec.type == FXT_REC_THREAD) {
			uint8_t ix = rec.u.thread.index;

			if (w->thread_set[cpu][ix] &&
			    w->thread_koid[cpu][ix] != rec.u.thread.tid) {
				if (p->thread_reassigned++ < 3)
					printf("# cpu%u: thread index %u: koid %llu, then %llu\n",
					       cpu, ix,
					       (unsigned long long)w->thread_koid[cpu][ix],
					       (unsigned long long)rec.u.thread.tid);
			}
			w->thread_set[cpu][ix] = true;
			w->thread_koid[cpu][ix] = rec.u.thread.tid;
			continue;
		}
		if (rec.type == FXT_REC_KERNEL_OBJ && scan_kobj_prefix &&
		    rec.u.kobj.name.data &&
		    rec.u.kobj.name.len >= strlen(scan_kobj_prefix) &&
		    !memcmp(rec.u.kobj.name.data, scan_kobj_prefix,
			    strlen(scan_kobj_prefix)))
			s->kobj_prefixed++;
		if (rec.type == FXT_REC_KERNEL_OBJ &&
		    fxtread_is_tid(tids, ntids, rec.u.kobj.koid))
			s->kobj_watched++;
		if (rec.type == FXT_REC_STRING && rec.u.string.index < 0x8000) {
			uint16_t ix = rec.u.string.index;
			uint64_t h = 1469598103934665603ull;

			for (unsigned int k = 0; rec.u.string.str.data &&
			     k < rec.u.string.str.len; k++)
				h = (h ^ (uint8_t)rec.u.string.str.data[k]) *
				    1099511628211ull;
			h |= 1;	/* 0 = unset */
			if (w->str_hash[cpu][ix] && w->str_hash[cpu][ix] != h)
				p->string_reassigned++;
			w->str_hash[cpu][ix] = h;
			continue;
		}
		if (rec.type == FXT_REC_SCHED &&
		    rec.subtype == FXT_SCHED_CONTEXT_SWITCH) {
			const struct fxt_thread *o = &rec.u.sw.out, *i = &rec.u.sw.in;
			struct scan_sw sw = { rec.ts, o->tid, i->tid };

			p->undefined_refs += !o->defined + !i->defined;
			if (p->gaps && p->gaps <= SCAN_GAPS &&
			    !p->gap[p->gaps - 1].have_after) {
				p->gap[p->gaps - 1].after = sw;
				p->gap[p->gaps - 1].have_after = true;
			}
			if (p->switches && o->defined && i->defined &&
			    p->last.in != sw.out && !p->gap_since_switch) {
				if (!p->unexplained_breaks) {
					p->break_before = p->last;
					p->break_after = sw;
				}
				p->unexplained_breaks++;
			}
			p->gap_since_switch = false;
			if (!p->switches)
				p->first = sw;
			p->last = sw;
			p->switches++;
			if ((o->defined && fxtread_is_tid(tids, ntids, o->tid)) ||
			    (i->defined && fxtread_is_tid(tids, ntids, i->tid)))
				p->tid_switches++;
		} else if (rec.type == FXT_REC_EVENT) {
			if (!rec.u.event.thread.defined)
				p->undefined_refs++;
			if (!rec.u.event.category.data || !rec.u.event.name.data)
				s->undefined_strs++;
			if (fxt_lost_event(&rec, &lcpu, &lto, &lrecords)) {
				if (lcpu != cpu)
					p->gap_wrong_cpu++;
				p->gap_since_switch = true;
				if (p->gaps < SCAN_GAPS)
					p->gap[p->gaps] = (struct scan_gap){
						.from = rec.ts, .to = lto,
						.records = lrecords,
						.have_before = p->switches != 0,
						.before = p->last,
					};
				p->gaps++;
			} else if (rec.subtype == FXT_EVENT_COUNTER &&
			    fxtread_str_is(&rec.u.event.category, "fxt") &&
			    fxtread_str_is(&rec.u.event.name, "dropped")) {
				for (int a = 0; a < rec.nargs; a++)
					if (fxtread_str_is(&rec.args[a].name, "records")) {
						p->have_dropped = true;
						p->dropped_last = rec.args[a].v.u64;
					}
			} else if (rec.subtype == FXT_EVENT_DURATION_BEGIN ||
				   rec.subtype == FXT_EVENT_DURATION_END) {
				scan_irq(w, p, cpu, &rec);
			}
		}
	}
	s->records = fxt_reader_records(r);
	s->read_error = ret < 0;
	for (int c = 0; c < MAX_CPUS; c++)
		for (int ix = 0; ix < 256; ix++)
			s->prov[c].thread_indices += w->thread_set[c][ix];
	fxt_reader_close(r);
	free(w);
	return 0;
}

uint64_t scan_undefined_refs(const struct scan *s)
{
	uint64_t n = 0;

	for (int c = 0; c < MAX_CPUS; c++)
		n += s->prov[c].undefined_refs;
	return n;
}

uint64_t scan_tid_switches(const struct scan *s)
{
	uint64_t n = 0;

	for (int c = 0; c < MAX_CPUS; c++)
		n += s->prov[c].tid_switches;
	return n;
}

uint64_t scan_reassigned(const struct scan *s)
{
	uint64_t n = 0;

	for (int c = 0; c < MAX_CPUS; c++)
		n += s->prov[c].thread_reassigned + s->prov[c].string_reassigned;
	return n;
}
