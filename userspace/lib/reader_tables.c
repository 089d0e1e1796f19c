// SPDX-License-Identifier: MIT
/*
 * reader_tables.c - what an archive's records define for later ones: the
 * providers (reader.c's comment tells when one is current) with their
 * string and thread tables, the kernel objects and their names over
 * time; and the reader's diagnostics and memory limit, which they charge.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader_state.h"

/* ------------------------------------------------------------------ */
/* Diagnostics.                                                         */

/* Stop reading: fxt_reader_next() returns rc from now on (0 end, -1 error). */
void fxt_rd_stop(struct fxt_reader *r, int rc)
{
	if (!r->stopped)
		r->end_rc = rc;
	r->stopped = true;
}

COLD uint64_t fxt_rd_ticks_to_ns_slow(uint64_t ticks, uint64_t tps)
{
	__extension__ typedef unsigned __int128 u128;
	u128 ns = (u128)ticks * NS_PER_SEC / tps;

	return ns > UINT64_MAX ? UINT64_MAX : (uint64_t)ns;
}

void fxt_rd_report(struct fxt_reader *r, uint64_t offset, enum fxt_diag_id id,
		   const char *fmt, ...)
{
	char arg[256], msg[512];
	const char *t = fxt_diag_template(id), *s;
	size_t n = 0;
	va_list ap;

	r->ndiags++;
	r->diag_counts[id]++;
	if (!r->diag)
		return;
	arg[0] = 0;
	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(arg, sizeof(arg), fmt, ap);
		va_end(ap);
	}
	/* Fill the template's one %s with arg. */
	s = strstr(t, "%s");
	if (s) {
		n = (size_t)(s - t);
		if (n > sizeof(msg) - 1)
			n = sizeof(msg) - 1;
		memcpy(msg, t, n);
		snprintf(msg + n, sizeof(msg) - n, "%s%s", arg, s + 2);
	} else {
		snprintf(msg, sizeof(msg), "%s", t);
	}
	if (r->diag(r->diag_ctx, offset, id, msg))
		fxt_rd_stop(r, -1);
}

/* ------------------------------------------------------------------ */
/* Memory.                                                              */

bool fxt_rd_mem_take(struct fxt_reader *r, size_t bytes, enum mem_kind kind,
		     uint64_t offset)
{
	static const char *const what[MEM_KINDS] = {
		"strings", "kernel object names", "providers", "duration levels",
	};

	if (r->mem_used + bytes <= r->mem_limit) {
		r->mem_used += bytes;
		return true;
	}
	if (!r->mem_warned[kind]) {
		r->mem_warned[kind] = true;
		fxt_rd_report(r, offset, FXT_D_MEMORY_LIMIT, "%s", what[kind]);
	}
	return false;
}

void fxt_rd_mem_give(struct fxt_reader *r, size_t bytes)
{
	r->mem_used -= bytes;
}

/* ------------------------------------------------------------------ */
/* Providers.                                                           */

void fxt_rd_provider_clear(struct fxt_reader *r, struct provider *p)
{
	unsigned int i, j;

	for (i = 0; i < STR_CHUNKS; i++) {
		struct str_slot *c = p->strs[i];

		if (!c)
			continue;
		for (j = 0; j < STR_CHUNK; j++) {
			if (c[j].data)
				fxt_rd_mem_give(r, c[j].len);
			free(c[j].data);
		}
		free(c);
		fxt_rd_mem_give(r, sizeof(struct str_slot) * STR_CHUNK);
		p->strs[i] = NULL;
	}
	memset(p->threads, 0, sizeof(p->threads));
	fxt_rd_mem_give(r, p->ndurs * DUR_THREAD_MEM);
	free(p->durs);
	p->durs = NULL;
	p->ndurs = p->dur_cap = 0;
	fxt_u64map_free(&p->dur_map);
	p->ticks_per_second = NS_PER_SEC;
	p->last_ts = 0;
	p->sleep = 0;
	p->name[0] = 0;
	p->per_cpu = false;
}

struct provider *fxt_rd_provider_find(const struct fxt_reader *r, uint32_t id)
{
	struct provider *p = r->buckets[id % PROV_BUCKETS];

	while (p && p->id != id)
		p = p->hnext;
	return p;
}

/* Find or create provider id; falls back to the spare one at the limit. */
struct provider *fxt_rd_provider_get(struct fxt_reader *r, uint32_t id,
				     uint64_t offset)
{
	struct provider *p = fxt_rd_provider_find(r, id);

	if (p)
		return p;
	if (r->nproviders >= FXT_MAX_PROVIDERS ||
	    !fxt_rd_mem_take(r, sizeof(*p), MEM_PROVIDERS, offset)) {
		if (r->nproviders >= FXT_MAX_PROVIDERS && !r->mem_warned[MEM_PROVIDERS]) {
			r->mem_warned[MEM_PROVIDERS] = true;
			fxt_rd_report(r, offset, FXT_D_MEMORY_LIMIT, "providers");
		}
		p = r->spare;
		fxt_rd_provider_clear(r, p);
		p->id = id;
		p->announced = false;
		p->warned = false;
		return p;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		fxt_rd_mem_give(r, sizeof(*p));
		p = r->spare;
		fxt_rd_provider_clear(r, p);
		p->id = id;
		return p;
	}
	p->id = id;
	p->ticks_per_second = NS_PER_SEC;
	p->hnext = r->buckets[id % PROV_BUCKETS];
	r->buckets[id % PROV_BUCKETS] = p;
	r->nproviders++;
	return p;
}

void fxt_rd_string_define(struct fxt_reader *r, struct provider *p, unsigned int index,
			  const char *data, size_t len, uint64_t offset)
{
	struct str_slot *c = p->strs[index / STR_CHUNK], *s;
	char *copy = NULL;

	if (!c) {
		if (!fxt_rd_mem_take(r, sizeof(*c) * STR_CHUNK, MEM_STRINGS, offset))
			return;
		c = calloc(STR_CHUNK, sizeof(*c));
		if (!c) {
			fxt_rd_mem_give(r, sizeof(*c) * STR_CHUNK);
			return;
		}
		p->strs[index / STR_CHUNK] = c;
	}
	s = &c[index % STR_CHUNK];
	if (len) {
		if (!fxt_rd_mem_take(r, len, MEM_STRINGS, offset))
			return;
		copy = malloc(len);
		if (!copy) {
			fxt_rd_mem_give(r, len);
			return;
		}
		memcpy(copy, data, len);
	}
	if (s->data)
		fxt_rd_mem_give(r, s->len);
	free(s->data);
	s->data = copy;
	s->len = (uint16_t)len;
	s->defined = true;
}

/* ------------------------------------------------------------------ */
/* Kernel objects.                                                      */

/*
 * Keyed by (object type, koid): fxt.ko's koids are pids, so a process and
 * its main thread share one, and each keeps its own newest name.
 */
static size_t kobj_hash(uint64_t koid, unsigned int type, size_t cap)
{
	return (size_t)(((koid ^ ((uint64_t)type << 56)) * 0x9e3779b97f4a7c15ull) >> 32) &
	       (cap - 1);
}

static struct fxt_kobj_info *kobj_slot(const struct kobj_table *kt, uint64_t koid,
				       unsigned int type)
{
	size_t i;

	if (!kt->cap)
		return NULL;
	for (i = kobj_hash(koid, type, kt->cap);; i = (i + 1) & (kt->cap - 1)) {
		struct fxt_kobj_info *k = &kt->slots[i];

		if (!k->valid || (k->koid == koid && k->obj_type == type))
			return k;
	}
}

const struct fxt_kobj_info *fxt_reader_kobj(const struct fxt_reader *r, unsigned int type,
					    uint64_t koid)
{
	const struct fxt_kobj_info *k = kobj_slot(r->kt, koid, type);

	return k && k->valid ? k : NULL;
}

static bool kobj_grow(struct fxt_reader *r, uint64_t offset)
{
	struct kobj_table *kt = r->kt;
	size_t ncap = kt->cap ? kt->cap * 2 : 64, i;
	struct fxt_kobj_info *old = kt->slots, *n;
	size_t ocap = kt->cap;

	if (!fxt_rd_mem_take(r, ncap * sizeof(*n), MEM_KOBJS, offset))
		return false;
	n = calloc(ncap, sizeof(*n));
	if (!n) {
		fxt_rd_mem_give(r, ncap * sizeof(*n));
		return false;
	}
	kt->slots = n;
	kt->cap = ncap;
	for (i = 0; i < ocap; i++)
		if (old[i].valid)
			*kobj_slot(kt, old[i].koid, old[i].obj_type) = old[i];
	free(old);
	if (ocap && kt == &r->own_kt)	/* a shared table was charged elsewhere */
		fxt_rd_mem_give(r, ocap * sizeof(*n));
	return true;
}

/*
 * Keep k's name, as of named_at, in the thread name history. Its memory
 * counts against the limit as it grows; past the limit the history stops
 * growing (each koid's newest name stays in the table).
 */
static void thread_history_add(struct fxt_reader *r, uint64_t koid, struct fxt_str name,
			       uint64_t process, uint64_t named_at, uint64_t offset)
{
	struct name_history *h = &r->kt->threads;
	struct fxt_kobj_info run = {
		.koid = koid, .process = process, .named_at = named_at,
		.obj_type = FXT_OBJ_THREAD, .valid = true,
	};
	size_t before = h->bytes, n = name.data ? name.len : 0;

	if (!fxt_rd_mem_take(r, 0, MEM_KOBJS, offset))
		return;		/* past the limit (reported once) */
	if (n > sizeof(run.name) - 1)
		n = sizeof(run.name) - 1;
	if (n)
		memcpy(run.name, name.data, n);
	run.name_len = (uint8_t)n;
	fxt_name_history_add(h, &run);
	r->mem_used += h->bytes - before;
}

const struct fxt_kobj_info *fxt_reader_thread_at(const struct fxt_reader *r,
						 uint64_t koid, uint64_t ns)
{
	const struct fxt_kobj_info *k = fxt_name_history_at(&r->kt->threads, koid, ns);

	return k ? k : fxt_reader_kobj(r, FXT_OBJ_THREAD, koid);
}

void fxt_rd_kobj_set(struct fxt_reader *r, uint64_t koid, unsigned int type,
		     struct fxt_str name, uint64_t process, uint64_t parent,
		     uint64_t named_at, uint64_t offset)
{
	struct kobj_table *kt = r->kt;
	struct fxt_kobj_info *k;
	size_t n;

	if (type == FXT_OBJ_THREAD)
		thread_history_add(r, koid, name, process, named_at, offset);
	if ((kt->count + 1) * 2 > kt->cap && !kobj_grow(r, offset)) {
		k = kobj_slot(kt, koid, type);
		if (!k || !k->valid)	/* full: only update known ones */
			return;
	}
	k = kobj_slot(kt, koid, type);
	if (!k->valid) {
		kt->count++;
		k->valid = true;
		k->koid = koid;
	} else if (named_at < k->named_at) {
		/* An older name than the one we have; a parent if none yet. */
		if (parent != FXT_KOID_NONE && !k->has_parent) {
			k->parent = parent;
			k->has_parent = true;
		}
		return;
	}
	/* Records without one (the trailer's) keep the parent known. */
	if (parent != FXT_KOID_NONE) {
		k->parent = parent;
		k->has_parent = true;
	}
	k->named_at = named_at;
	k->obj_type = (uint8_t)type;
	k->process = process;
	n = name.data ? name.len : 0;
	if (n > sizeof(k->name) - 1)
		n = sizeof(k->name) - 1;
	if (n)
		memcpy(k->name, name.data, n);
	k->name[n] = 0;
	k->name_len = (uint8_t)n;
}
