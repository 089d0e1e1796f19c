// SPDX-License-Identifier: MIT
/*
 * reader.c - the streaming FXT reader.
 *
 * The archive is read through one fixed buffer (FXT_READER_BUFSIZE, kept
 * filled by lib/reader_input.c): a record is decoded in place, so the
 * buffer is the only copy of the data and memory does not grow with the
 * archive. What does grow is bounded by one
 * memory limit (FXT_READER_MEM_LIMIT):
 *
 *   providers	one struct provider per provider id (at most
 *		FXT_MAX_PROVIDERS): ticks per second, the 255-entry thread
 *		table, and the string table in chunks of 256 slots allocated
 *		when first used;
 *   strings	one allocation per string record, replaced in place;
 *   kernel	one open-addressing hash of koid -> name, type and process,
 *   objects	global as the specification says;
 *   duration	with fxt_reader_check_durations() only: per provider, one
 *   stacks	struct dur_thread per thread koid with duration events.
 *
 * Provider info metadata makes a fresh provider state current (announcing
 * an id again starts it over); provider section metadata switches to an
 * existing one. Before any of them provider 0 is current (as in Perfetto),
 * but a record read in a provider that was never announced is a defect.
 *
 * Every check of the specification happens while decoding and is reported
 * through the diagnostics callback (enum fxt_diag_id); decoding goes on
 * whenever the record's size still tells where the next one starts.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libfxt.h"
#include "internal.h"
#include "reader_input.h"
#include "name_history.h"
#include "u64map.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "libfxt reads FXT archives on little-endian hosts only"
#endif

#define STR_CHUNK	256				/* string slots per chunk */
#define STR_CHUNKS	((FXT_STRING_INDEX_MAX + 1) / STR_CHUNK)
#define PROV_BUCKETS	256				/* provider hash buckets */
#define MIN_BUFSIZE	(64u << 10)
#define NS_PER_SEC	1000000000ull
#define DUR_DEPTH	32		/* open duration levels kept per thread */
#define DUR_SEEN	16		/* names begun remembered per thread */

struct str_slot {
	char *data;		/* malloc'd copy, NULL for an empty string */
	uint16_t len;
	bool defined;
};

struct thread_slot {
	uint64_t pid, tid;
	bool defined;
};

/*
 * Duration begin/end nesting of one thread in one provider (a provider's
 * records are in time order, its threads' events nest in file order): the
 * open levels, innermost last, each a hash of its category and name; the
 * levels past DUR_DEPTH are only counted. seen: the names begun on the
 * thread so far (up to DUR_SEEN of them), to tell an end whose begin may
 * precede the archive from one whose begin cannot (see check_duration()).
 */
struct dur_thread {
	uint64_t tid;
	uint32_t depth;
	uint8_t nseen;		/* past DUR_SEEN names, the others are not kept */
	uint64_t open[DUR_DEPTH];
	uint64_t seen[DUR_SEEN];
};

/* Reader memory charged per dur_thread: itself and its u64map slots. */
#define DUR_THREAD_MEM	(sizeof(struct dur_thread) + 2 * (sizeof(uint64_t) + sizeof(uint32_t)))

struct provider {
	uint32_t id;
	bool announced;		/* by provider info metadata */
	bool warned;		/* PROVIDER_UNKNOWN reported for it */
	bool per_cpu;		/* named "cpu<id>": the provider is CPU id */
	uint64_t last_ts;	/* latest timestamp read in it */
	uint64_t ticks_per_second;
	struct provider *hnext;	/* hash chain */
	char name[256];
	struct thread_slot threads[256];
	struct str_slot *strs[STR_CHUNKS];
	/* duration nesting (fxt_reader_check_durations()) */
	struct u64map dur_map;		/* thread koid -> index in durs */
	struct dur_thread *durs;
	uint32_t ndurs, dur_cap;
};

enum mem_kind { MEM_STRINGS, MEM_KOBJS, MEM_PROVIDERS, MEM_DURATIONS, MEM_KINDS };

struct kobj_table {
	struct fxt_kobj_info *slots;
	size_t cap, count;
	struct name_history threads;	/* thread names over time */
};

struct fxt_reader {
	struct fxt_input in;		/* lib/reader_input.c */
	bool started;			/* first record seen */
	bool stopped;			/* cannot or must not continue */
	int end_rc;			/* what fxt_reader_next() returns once stopped */

	/* diagnostics */
	fxt_diag_fn diag;
	void *diag_ctx;
	uint64_t ndiags;
	uint64_t diag_counts[FXT_D_COUNT];

	/* memory */
	size_t mem_limit, mem_used;
	bool mem_warned[MEM_KINDS];

	/* providers */
	struct provider *cur;
	struct provider *buckets[PROV_BUCKETS];
	struct provider *spare;		/* used when no more providers fit */
	unsigned int nproviders;

	unsigned int skip_args;		/* FXT_SKIP_* */
	bool check_durations;		/* DURATION_UNMATCHED, DURATION_MISMATCH */

	/* kernel objects: kt is &own_kt, or a table shared by merge cursors */
	bool track_kobjs;
	struct kobj_table own_kt, *kt;

	uint64_t nrecords, nbytes;	/* records read, and their size */
};

/* Decoding cursor over one record. */
struct cur {
	struct fxt_reader *r;
	struct provider *prov;	/* r->cur when the record started */
	struct fxt_record *rec;
	const uint64_t *p, *end;
	int arg;		/* argument being decoded, -1 outside arguments */
	bool bad;		/* content overflowed: record is malformed */
};

/* ------------------------------------------------------------------ */
/* Diagnostics.                                                         */

/* Stop reading: fxt_reader_next() returns rc from now on (0 end, -1 error). */
static void stop(struct fxt_reader *r, int rc)
{
	if (!r->stopped)
		r->end_rc = rc;
	r->stopped = true;
}

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define COLD		__attribute__((cold, noinline))

static COLD uint64_t ticks_to_ns_slow(uint64_t ticks, uint64_t tps)
{
	__extension__ typedef unsigned __int128 u128;
	u128 ns = (u128)ticks * NS_PER_SEC / tps;

	return ns > UINT64_MAX ? UINT64_MAX : (uint64_t)ns;
}

static inline uint64_t ticks_to_ns(const struct fxt_reader *r, uint64_t ticks)
{
	uint64_t tps = r->cur->ticks_per_second;

	return likely(tps == NS_PER_SEC) ? ticks : ticks_to_ns_slow(ticks, tps);
}

static void report(struct fxt_reader *r, uint64_t offset, enum fxt_diag_id id,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5))) COLD;

static void report(struct fxt_reader *r, uint64_t offset, enum fxt_diag_id id,
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
		stop(r, -1);
}

#define REPORT(c, id, ...) report((c)->r, (c)->rec->offset, FXT_D_##id, __VA_ARGS__)

/* ------------------------------------------------------------------ */
/* Memory.                                                              */

static bool mem_take(struct fxt_reader *r, size_t bytes, enum mem_kind kind,
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
		report(r, offset, FXT_D_MEMORY_LIMIT, "%s", what[kind]);
	}
	return false;
}

static void mem_give(struct fxt_reader *r, size_t bytes)
{
	r->mem_used -= bytes;
}

/* ------------------------------------------------------------------ */
/* Providers.                                                           */

static void provider_clear(struct fxt_reader *r, struct provider *p)
{
	unsigned int i, j;

	for (i = 0; i < STR_CHUNKS; i++) {
		struct str_slot *c = p->strs[i];

		if (!c)
			continue;
		for (j = 0; j < STR_CHUNK; j++) {
			if (c[j].data)
				mem_give(r, c[j].len);
			free(c[j].data);
		}
		free(c);
		mem_give(r, sizeof(struct str_slot) * STR_CHUNK);
		p->strs[i] = NULL;
	}
	memset(p->threads, 0, sizeof(p->threads));
	mem_give(r, p->ndurs * DUR_THREAD_MEM);
	free(p->durs);
	p->durs = NULL;
	p->ndurs = p->dur_cap = 0;
	fxt_u64map_free(&p->dur_map);
	p->ticks_per_second = NS_PER_SEC;
	p->last_ts = 0;
	p->name[0] = 0;
	p->per_cpu = false;
}

static struct provider *provider_find(const struct fxt_reader *r, uint32_t id)
{
	struct provider *p = r->buckets[id % PROV_BUCKETS];

	while (p && p->id != id)
		p = p->hnext;
	return p;
}

/* Find or create provider id; falls back to the spare one at the limit. */
static struct provider *provider_get(struct fxt_reader *r, uint32_t id,
				     uint64_t offset)
{
	struct provider *p = provider_find(r, id);

	if (p)
		return p;
	if (r->nproviders >= FXT_MAX_PROVIDERS ||
	    !mem_take(r, sizeof(*p), MEM_PROVIDERS, offset)) {
		if (r->nproviders >= FXT_MAX_PROVIDERS && !r->mem_warned[MEM_PROVIDERS]) {
			r->mem_warned[MEM_PROVIDERS] = true;
			report(r, offset, FXT_D_MEMORY_LIMIT, "providers");
		}
		p = r->spare;
		provider_clear(r, p);
		p->id = id;
		p->announced = false;
		p->warned = false;
		return p;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		mem_give(r, sizeof(*p));
		p = r->spare;
		provider_clear(r, p);
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

static struct str_slot *str_slot(const struct provider *p, unsigned int index)
{
	const struct str_slot *c = p->strs[index / STR_CHUNK];

	return c ? (struct str_slot *)&c[index % STR_CHUNK] : NULL;
}

static void string_define(struct fxt_reader *r, struct provider *p, unsigned int index,
			  const char *data, size_t len, uint64_t offset)
{
	struct str_slot *c = p->strs[index / STR_CHUNK], *s;
	char *copy = NULL;

	if (!c) {
		if (!mem_take(r, sizeof(*c) * STR_CHUNK, MEM_STRINGS, offset))
			return;
		c = calloc(STR_CHUNK, sizeof(*c));
		if (!c) {
			mem_give(r, sizeof(*c) * STR_CHUNK);
			return;
		}
		p->strs[index / STR_CHUNK] = c;
	}
	s = &c[index % STR_CHUNK];
	if (len) {
		if (!mem_take(r, len, MEM_STRINGS, offset))
			return;
		copy = malloc(len);
		if (!copy) {
			mem_give(r, len);
			return;
		}
		memcpy(copy, data, len);
	}
	if (s->data)
		mem_give(r, s->len);
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

	if (!mem_take(r, ncap * sizeof(*n), MEM_KOBJS, offset))
		return false;
	n = calloc(ncap, sizeof(*n));
	if (!n) {
		mem_give(r, ncap * sizeof(*n));
		return false;
	}
	kt->slots = n;
	kt->cap = ncap;
	for (i = 0; i < ocap; i++)
		if (old[i].valid)
			*kobj_slot(kt, old[i].koid, old[i].obj_type) = old[i];
	free(old);
	if (ocap && kt == &r->own_kt)	/* a shared table was charged elsewhere */
		mem_give(r, ocap * sizeof(*n));
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

	if (!mem_take(r, 0, MEM_KOBJS, offset))
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

static void kobj_set(struct fxt_reader *r, uint64_t koid, unsigned int type,
		     struct fxt_str name, uint64_t process, uint64_t named_at,
		     uint64_t offset)
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
		return;		/* an older name than the one we have */
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

/* ------------------------------------------------------------------ */
/* Decoding pieces.                                                     */

static COLD void need_fail(struct cur *c, const char *what)
{
	if (!c->bad) {
		if (c->arg >= 0)
			REPORT(c, ARG_SIZE, "%d (%s does not fit)", c->arg, what);
		else
			REPORT(c, SIZE_MISMATCH, "%s does not fit in %llu words",
			       what, (unsigned long long)c->rec->nwords);
	}
	c->bad = true;
}

static inline bool need(struct cur *c, size_t words, const char *what)
{
	if (likely((size_t)(c->end - c->p) >= words))
		return true;
	need_fail(c, what);
	return false;
}

static inline uint64_t take(struct cur *c, const char *what)
{
	if (!need(c, 1, what))
		return 0;
	return *c->p++;
}

/* A stream of len bytes: returns its start, checks the zero padding. */
static inline const char *take_stream(struct cur *c, size_t len, const char *what)
{
	size_t words = FXT_WORDS(len);
	const char *s;

	if (!need(c, words, what))
		return NULL;
	s = (const char *)c->p;
	if ((len & 7) && (c->p[words - 1] >> ((len & 7) * 8)))
		REPORT(c, PADDING, "%s", what);
	c->p += words;
	return s;
}

static const char empty_string[1] = "";

static struct fxt_str get_str_slow(struct cur *c, uint16_t ref, const char *what)
{
	struct fxt_str s = { ref, 0, empty_string };

	if (!ref)
		return s;
	if (ref & FXT_STRING_REF_INLINE) {
		s.len = ref & FXT_STRING_INDEX_MAX;
		if (s.len > FXT_STRING_MAX_LEN)
			REPORT(c, STRING_TOO_LONG, "%s of %u bytes", what, s.len);
		s.data = take_stream(c, s.len, what);
		if (!s.data)
			s.len = 0;
		return s;
	} else {
		const struct str_slot *slot = str_slot(c->prov, ref);

		if (slot && slot->defined) {
			s.len = slot->len;
			s.data = slot->data ? slot->data : empty_string;
		} else {
			s.data = NULL;
			REPORT(c, STRING_UNDEFINED, "%u (%s)", ref, what);
		}
		return s;
	}
}

/* A string ref: most are indices of defined strings, looked up inline. */
static inline struct fxt_str get_str(struct cur *c, uint16_t ref, const char *what)
{
	if (likely(ref && !(ref & FXT_STRING_REF_INLINE))) {
		const struct str_slot *slot = str_slot(c->prov, ref);

		if (likely(slot && slot->defined)) {
			struct fxt_str s = { ref, slot->len, slot->data ? slot->data : empty_string };

			return s;
		}
	}
	return get_str_slow(c, ref, what);
}

/* Thread ref into *t: inline koids, or an index of the provider's table. */
static inline void get_thread(struct cur *c, uint8_t ref, struct fxt_thread *t)
{
	t->ref = ref;
	t->defined = true;
	if (!ref) {
		if (need(c, 2, "inline thread koids")) {
			t->pid = c->p[0];
			t->tid = c->p[1];
			c->p += 2;
			return;
		}
	} else {
		const struct thread_slot *s = &c->prov->threads[ref];

		if (likely(s->defined)) {
			t->pid = s->pid;
			t->tid = s->tid;
			return;
		}
		REPORT(c, THREAD_UNDEFINED, "%u", ref);
	}
	t->defined = false;
	t->pid = t->tid = 0;
}

static inline void reserved_bits(struct cur *c, uint64_t word, unsigned int lo, unsigned int hi,
				 const char *what)
{
	if (unlikely(FXT_G(word, FXT_FIELD(lo, hi))))
		REPORT(c, RESERVED_BITS, "%s [%u..%u]", what, lo, hi);
}

/* A reserved field, one of format.h's *_RESERVED_FIELDs, must be zero. */
#define reserved(cur, word, field, what) \
	reserved_bits(cur, word, FXT_FIELD_LO(field), FXT_FIELD_HI(field), what)

static COLD void arg_words_fail(struct cur *c, unsigned int i, unsigned int nargs)
{
	unsigned int words = c->p < c->end ? (unsigned int)FXT_G(*c->p, FXT_ARG_WORDS_FIELD) : 0;

	if (c->p >= c->end)
		REPORT(c, ARG_OVERFLOW, "argument %u of %u starts past the end", i, nargs);
	else if (!words)
		REPORT(c, ARG_SIZE, "%u (size 0)", i);
	else
		REPORT(c, ARG_OVERFLOW, "argument %u is %u words, %u remain", i,
		       words, (unsigned int)(c->end - c->p));
	c->bad = true;
}

/*
 * The size in words of argument i of nargs, which starts at c->p; 0 when
 * it does not fit the record (reported, c->bad).
 */
static inline unsigned int arg_words(struct cur *c, unsigned int i, unsigned int nargs)
{
	unsigned int words = c->p < c->end ? (unsigned int)FXT_G(*c->p, FXT_ARG_WORDS_FIELD) : 0;

	if (likely(words && words <= (size_t)(c->end - c->p)))
		return words;
	arg_words_fail(c, i, nargs);
	return 0;
}

/* Decode nargs arguments into rec->args (those that fit and decode). */
static void get_args(struct cur *c, unsigned int nargs)
{
	struct fxt_record *rec = c->rec;
	unsigned int i;

	rec->nargs = 0;
	for (i = 0; i < nargs; i++) {
		struct fxt_arg *a = &rec->args[rec->nargs];
		unsigned int words = arg_words(c, i, nargs), type;
		struct cur sub;
		uint64_t h, expect;

		if (!words)
			return;
		h = *c->p;
		type = (unsigned int)FXT_G(h, FXT_ARG_TYPE_FIELD);
		sub = *c;
		sub.p = c->p + 1;
		sub.end = c->p + words;
		sub.arg = (int)i;
		sub.bad = false;
		c->p += words;

		a->type = (uint8_t)type;
		a->words = (uint16_t)words;
		if (type > FXT_ARG_BOOL) {
			REPORT(c, ARG_UNKNOWN, "%u (argument %u)", type, i);
			continue;
		}
		a->name = get_str(&sub, (uint16_t)FXT_G(h, FXT_ARG_NAME_FIELD), "argument name");
		switch (type) {
		case FXT_ARG_INT32:
			a->v.i32 = (int32_t)(uint32_t)FXT_G(h, FXT_ARG_VALUE32_FIELD);
			break;
		case FXT_ARG_UINT32:
			a->v.u32 = (uint32_t)FXT_G(h, FXT_ARG_VALUE32_FIELD);
			break;
		case FXT_ARG_BOOL:
			a->v.b = FXT_G(h, FXT_ARG_BOOL_FIELD);
			if (FXT_G(h, FXT_ARG_BOOL_RESERVED_FIELD))
				REPORT(c, ARG_RESERVED, "%u (bool [33..63])", i);
			break;
		case FXT_ARG_STRING:
			if (FXT_G(h, FXT_ARG_STRING_RESERVED_FIELD))
				REPORT(c, ARG_RESERVED, "%u (string [48..63])", i);
			a->v.str = get_str(&sub, (uint16_t)FXT_G(h, FXT_ARG_STRING_FIELD),
					   "argument value");
			break;
		default:
			if (FXT_G(h, FXT_ARG_VALUE32_FIELD))
				REPORT(c, ARG_RESERVED, "%u (%s [32..63])", i,
				       fxt_arg_type_name(type));
			if (type != FXT_ARG_NULL)
				a->v.u64 = take(&sub, "argument value");
			break;
		}
		if (sub.bad)
			continue;	/* reported; the argument is not kept */
		if (sub.p != sub.end) {
			expect = (uint64_t)(sub.p - (sub.end - words));
			REPORT(c, ARG_SIZE, "%u (%s, %u words, content is %llu)", i,
			       fxt_arg_type_name(type), words, (unsigned long long)expect);
		}
		rec->nargs++;
	}
}

/* Step over arguments nobody asked for, checking only their sizes. */
static inline void skip_args(struct cur *c, unsigned int nargs)
{
	unsigned int i, words;

	c->rec->nargs = 0;
	for (i = 0; i < nargs; i++) {
		words = arg_words(c, i, nargs);
		if (!words)
			return;
		c->p += words;
	}
}

static const struct fxt_arg *find_arg(const struct fxt_record *rec, const char *name)
{
	size_t n = strlen(name);
	unsigned int i;

	for (i = 0; i < rec->nargs; i++) {
		const struct fxt_arg *a = &rec->args[i];

		if (a->name.data && a->name.len == n && !memcmp(a->name.data, name, n))
			return a;
	}
	return NULL;
}

static inline bool name_is(struct fxt_str s, const char *lit, size_t n)
{
	return s.len == n && s.data && !memcmp(s.data, lit, n);
}

/* Arguments named name1/name2 must have type1/type2 (one pass, no lookups). */
static void check_arg_types(struct cur *c, const char *name1, size_t n1, unsigned int type1,
			    const char *name2, size_t n2, unsigned int type2)
{
	const struct fxt_record *rec = c->rec;
	unsigned int i;

	for (i = 0; i < rec->nargs; i++) {
		const struct fxt_arg *a = &rec->args[i];

		if (a->type != type1 && name_is(a->name, name1, n1))
			REPORT(c, SCHED_ARGS, "\"%s\" is %s, not %s", name1,
			       fxt_arg_type_name(a->type), fxt_arg_type_name(type1));
		else if (a->type != type2 && name_is(a->name, name2, n2))
			REPORT(c, SCHED_ARGS, "\"%s\" is %s, not %s", name2,
			       fxt_arg_type_name(a->type), fxt_arg_type_name(type2));
	}
}

static inline void check_ts(struct cur *c, uint64_t ts)
{
	struct provider *p = c->prov;

	if (unlikely(ts < p->last_ts))
		REPORT(c, TIME_BACKWARDS, "%u: %llu after %llu", p->id,
		       (unsigned long long)ts, (unsigned long long)p->last_ts);
	p->last_ts = ts;
}

/* A data record in a provider nobody announced. */
static inline void check_provider(struct cur *c)
{
	struct provider *p = c->prov;

	if (unlikely(!p->announced && !p->warned)) {
		p->warned = true;
		REPORT(c, PROVIDER_UNKNOWN, "%u", p->id);
	}
}

/*
 * fxt-collect names the provider of CPU c "cpu<c>" (Documentation/records.rst):
 * a provider whose name is exactly "cpu" and its own id in decimal (no
 * leading zero, id below FXT_MAX_CPUS) is a per-CPU provider, and its
 * scheduling records happened on CPU id.
 */
static bool per_cpu_name(const char *name, uint32_t id)
{
	char want[16];

	if (id >= FXT_MAX_CPUS)
		return false;
	snprintf(want, sizeof(want), FXT_CPU_PROVIDER_NAME_FORMAT, id);
	return !strcmp(name, want);
}

/*
 * The CPU of a scheduling record whose cpu field has bits bits: the
 * provider's id for a per-CPU provider, where the field must hold the
 * id's low bits; else the field.
 */
static inline void sched_cpu(struct cur *c, unsigned int field, unsigned int bits,
			     const char *what)
{
	const struct provider *p = c->prov;
	unsigned int low = p->id & ((1u << bits) - 1);

	if (!p->per_cpu) {
		c->rec->cpu = (uint16_t)field;
		return;
	}
	c->rec->cpu = (uint16_t)p->id;
	if (unlikely(field != low))
		REPORT(c, CPU_MISMATCH, "%s cpu %u in provider \"%s\" (%u-bit field: expected %u)",
		       what, field, p->name, bits, low);
}

/* ------------------------------------------------------------------ */
/* Records.                                                             */

static void decode_metadata(struct cur *c, uint64_t h)
{
	struct fxt_reader *r = c->r;
	struct fxt_record *rec = c->rec;
	unsigned int type = (unsigned int)FXT_G(h, FXT_META_TYPE_FIELD);
	uint32_t id = (uint32_t)FXT_G(h, FXT_META_PROVIDER_FIELD);
	struct provider *p;

	rec->subtype = (uint8_t)type;
	rec->u.meta.provider_id = id;
	switch (type) {
	case FXT_META_PROVIDER_INFO: {
		unsigned int len = (unsigned int)FXT_G(h, FXT_PROVIDER_INFO_NAME_LEN_FIELD);
		const char *name;

		reserved(c, h, FXT_PROVIDER_INFO_RESERVED_FIELD, "provider info");
		name = take_stream(c, len, "provider name");
		rec->u.meta.name.ref = 0;
		rec->u.meta.name.len = name ? (uint16_t)len : 0;
		rec->u.meta.name.data = name ? name : empty_string;
		if (c->bad)
			return;
		p = provider_get(r, id, rec->offset);
		provider_clear(r, p);
		p->announced = true;
		p->warned = false;
		memcpy(p->name, rec->u.meta.name.data, rec->u.meta.name.len);
		p->name[rec->u.meta.name.len] = 0;
		p->per_cpu = per_cpu_name(p->name, id);
		r->cur = p;
		break;
	}
	case FXT_META_PROVIDER_SECTION:
		reserved(c, h, FXT_PROVIDER_SECTION_RESERVED_FIELD, "provider section");
		p = provider_find(r, id);
		if (!p || !p->announced) {
			p = provider_get(r, id, rec->offset);
			if (!p->warned) {
				p->warned = true;
				REPORT(c, PROVIDER_UNKNOWN, "%u", id);
			}
		}
		r->cur = p;
		break;
	case FXT_META_PROVIDER_EVENT:
		rec->u.meta.event = (uint8_t)FXT_G(h, FXT_PROVIDER_EVENT_FIELD);
		reserved(c, h, FXT_PROVIDER_EVENT_RESERVED_FIELD, "provider event");
		p = provider_find(r, id);
		if (!p || !p->announced)
			REPORT(c, PROVIDER_UNKNOWN, "%u", id);
		if (rec->u.meta.event != FXT_PROVIDER_EVENT_BUFFER_FULL) {
			REPORT(c, UNKNOWN_SUBTYPE, "provider event %u", rec->u.meta.event);
			rec->flags |= FXT_RF_UNKNOWN;
		}
		break;
	case FXT_META_TRACE_INFO:
		rec->u.meta.trace_info_type = (uint8_t)FXT_G(h, FXT_TRACE_INFO_TYPE_FIELD);
		rec->u.meta.provider_id = 0;
		if (rec->u.meta.trace_info_type != FXT_TRACE_INFO_MAGIC) {
			REPORT(c, UNKNOWN_SUBTYPE, "trace info type %u",
			       rec->u.meta.trace_info_type);
			rec->flags |= FXT_RF_UNKNOWN;
			c->p = c->end;
			return;
		}
		rec->u.meta.magic = (uint32_t)FXT_G(h, FXT_TRACE_INFO_MAGIC_FIELD);
		if (rec->u.meta.magic != FXT_MAGIC_NUMBER)
			REPORT(c, BAD_MAGIC_RECORD, "magic number 0x%x",
			       rec->u.meta.magic);
		if (FXT_G(h, FXT_TRACE_INFO_RESERVED_FIELD))
			REPORT(c, BAD_MAGIC_RECORD, "bits [56..63] set");
		if (rec->nwords != 1) {
			REPORT(c, BAD_MAGIC_RECORD, "%llu words, not 1",
			       (unsigned long long)rec->nwords);
			c->p = c->end;
		}
		break;
	default:
		REPORT(c, UNKNOWN_SUBTYPE, "metadata type %u", type);
		rec->flags |= FXT_RF_UNKNOWN;
		c->p = c->end;
		break;
	}
}

static void decode_kobj(struct cur *c, uint64_t h)
{
	struct fxt_record *rec = c->rec;
	const struct fxt_arg *proc, *at;
	uint64_t process = 0;

	rec->u.kobj.obj_type = (uint8_t)FXT_G(h, FXT_KOBJ_TYPE_FIELD);
	rec->u.kobj.named_at = 0;
	reserved(c, h, FXT_KOBJ_RESERVED_FIELD, "kernel object record");
	rec->u.kobj.koid = take(c, "koid");
	rec->u.kobj.name = get_str(c, (uint16_t)FXT_G(h, FXT_KOBJ_NAME_FIELD),
				   "kernel object name");
	get_args(c, (unsigned int)FXT_G(h, FXT_KOBJ_NARGS_FIELD));
	if (c->bad)
		return;
	if (!rec->u.kobj.name.len && rec->u.kobj.name.data)
		REPORT(c, KOBJ_NAME, "%llu", (unsigned long long)rec->u.kobj.koid);
	at = find_arg(rec, FXT_ARG_NAME_NAMED_AT);
	if (at && at->type == FXT_ARG_UINT64)
		rec->u.kobj.named_at = at->v.u64;
	if (rec->u.kobj.obj_type == FXT_OBJ_THREAD) {
		proc = find_arg(rec, FXT_ARG_NAME_PROCESS);
		if (!proc)
			REPORT(c, KOBJ_NO_PROCESS, "%llu has no \"process\" argument",
			       (unsigned long long)rec->u.kobj.koid);
		else if (proc->type != FXT_ARG_KOID)
			REPORT(c, KOBJ_NO_PROCESS, "%llu: \"process\" is %s, not koid",
			       (unsigned long long)rec->u.kobj.koid,
			       fxt_arg_type_name(proc->type));
		else
			process = proc->v.koid;
	}
	if (c->r->track_kobjs)
		kobj_set(c->r, rec->u.kobj.koid, rec->u.kobj.obj_type,
			 rec->u.kobj.name, process, rec->u.kobj.named_at,
			 rec->offset);
}

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
	    !mem_take(c->r, DUR_THREAD_MEM, MEM_DURATIONS, c->rec->offset))
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
	mem_give(c->r, DUR_THREAD_MEM);
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
 * not reported: its begin may precede the archive (a trace that starts
 * inside an interrupt, a circular buffer that wrapped), and it cannot be
 * told from a lost one; nor is one whose name is past the DUR_SEEN kept. A begin left open at the end of the archive is
 * not reported either (a trace may stop inside an interrupt). Levels past
 * DUR_DEPTH are counted, not checked.
 */
static void check_duration(struct cur *c, unsigned int type)
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

static void decode_event(struct cur *c, uint64_t h)
{
	struct fxt_record *rec = c->rec;
	unsigned int type = (unsigned int)FXT_G(h, FXT_EVENT_TYPE_FIELD);

	rec->subtype = (uint8_t)type;
	check_provider(c);
	if (type > FXT_EVENT_FLOW_END) {
		REPORT(c, UNKNOWN_SUBTYPE, "event type %u", type);
		rec->flags |= FXT_RF_UNKNOWN;
		c->p = c->end;
		return;
	}
	rec->ts = take(c, "timestamp");
	get_thread(c, (uint8_t)FXT_G(h, FXT_EVENT_THREAD_FIELD), &rec->u.event.thread);
	rec->u.event.category = get_str(c, (uint16_t)FXT_G(h, FXT_EVENT_CATEGORY_FIELD),
					"category");
	rec->u.event.name = get_str(c, (uint16_t)FXT_G(h, FXT_EVENT_NAME_FIELD), "event name");
	if ((c->r->skip_args & FXT_SKIP_SPAN_ARGS) &&
	    type >= FXT_EVENT_DURATION_BEGIN && type <= FXT_EVENT_DURATION_COMPLETE)
		skip_args(c, (unsigned int)FXT_G(h, FXT_EVENT_NARGS_FIELD));
	else
		get_args(c, (unsigned int)FXT_G(h, FXT_EVENT_NARGS_FIELD));
	rec->u.event.data = 0;
	if (type != FXT_EVENT_INSTANT && type != FXT_EVENT_DURATION_BEGIN &&
	    type != FXT_EVENT_DURATION_END)
		rec->u.event.data = take(c, type == FXT_EVENT_COUNTER ? "counter id" :
					 type == FXT_EVENT_DURATION_COMPLETE ? "end time" :
					 "correlation id");
	if (c->bad)
		return;
	check_ts(c, rec->ts);
	if (type == FXT_EVENT_DURATION_COMPLETE && rec->u.event.data < rec->ts)
		REPORT(c, DURATION_END, "%llu < %llu",
		       (unsigned long long)rec->u.event.data, (unsigned long long)rec->ts);
	if (c->r->check_durations && rec->u.event.thread.defined &&
	    (type == FXT_EVENT_DURATION_BEGIN || type == FXT_EVENT_DURATION_END))
		check_duration(c, type);
}

static void decode_sched(struct cur *c, uint64_t h)
{
	struct fxt_record *rec = c->rec;
	unsigned int sub = fxt_sched_subtype(h), state;

	rec->subtype = (uint8_t)sub;
	rec->cpu = 0;
	check_provider(c);
	switch (sub) {
	case FXT_SCHED_CONTEXT_SWITCH:
		rec->u.sw.cpu = (uint16_t)FXT_G(h, FXT_SWITCH_CPU_FIELD);
		sched_cpu(c, rec->u.sw.cpu, 8, "context switch");
		state = (unsigned int)FXT_G(h, FXT_SWITCH_OUT_STATE_FIELD);
		rec->u.sw.out_prio = (uint8_t)FXT_G(h, FXT_SWITCH_OUT_PRIO_FIELD);
		rec->u.sw.in_prio = (uint8_t)FXT_G(h, FXT_SWITCH_IN_PRIO_FIELD);
		rec->ts = take(c, "timestamp");
		get_thread(c, (uint8_t)FXT_G(h, FXT_SWITCH_OUT_THREAD_FIELD), &rec->u.sw.out);
		get_thread(c, (uint8_t)FXT_G(h, FXT_SWITCH_IN_THREAD_FIELD), &rec->u.sw.in);
		rec->nargs = 0;
		break;
	case FXT_SCHED_CONTEXT_SWITCH_V2:
		rec->u.sw.cpu = (uint16_t)FXT_G(h, FXT_SWITCH_V2_CPU_FIELD);
		sched_cpu(c, rec->u.sw.cpu, 16, "context switch");
		state = (unsigned int)FXT_G(h, FXT_SWITCH_V2_OUT_STATE_FIELD);
		reserved(c, h, FXT_SWITCH_V2_RESERVED_FIELD, "context switch");
		rec->u.sw.out_prio = rec->u.sw.in_prio = 0;
		rec->ts = take(c, "timestamp");
		memset(&rec->u.sw.out, 0, sizeof(rec->u.sw.out));
		memset(&rec->u.sw.in, 0, sizeof(rec->u.sw.in));
		rec->u.sw.out.defined = rec->u.sw.in.defined = true;
		rec->u.sw.out.tid = take(c, "outgoing thread koid");
		rec->u.sw.in.tid = take(c, "incoming thread koid");
		if (c->r->skip_args & FXT_SKIP_SCHED_ARGS) {
			skip_args(c, (unsigned int)FXT_G(h, FXT_SWITCH_V2_NARGS_FIELD));
		} else {
			get_args(c, (unsigned int)FXT_G(h, FXT_SWITCH_V2_NARGS_FIELD));
			check_arg_types(c, FXT_ARG_NAME_OUTGOING_WEIGHT,
					sizeof(FXT_ARG_NAME_OUTGOING_WEIGHT) - 1, FXT_ARG_INT32,
					FXT_ARG_NAME_INCOMING_WEIGHT,
					sizeof(FXT_ARG_NAME_INCOMING_WEIGHT) - 1, FXT_ARG_INT32);
		}
		break;
	case FXT_SCHED_THREAD_WAKEUP:
		rec->u.wakeup.cpu = (uint16_t)FXT_G(h, FXT_WAKEUP_CPU_FIELD);
		sched_cpu(c, rec->u.wakeup.cpu, 16, "thread wakeup");
		reserved(c, h, FXT_WAKEUP_RESERVED_FIELD, "thread wakeup");
		rec->ts = take(c, "timestamp");
		rec->u.wakeup.tid = take(c, "woken thread koid");
		if (c->r->skip_args & FXT_SKIP_SCHED_ARGS) {
			skip_args(c, (unsigned int)FXT_G(h, FXT_WAKEUP_NARGS_FIELD));
		} else {
			get_args(c, (unsigned int)FXT_G(h, FXT_WAKEUP_NARGS_FIELD));
			check_arg_types(c, FXT_ARG_NAME_WEIGHT, sizeof(FXT_ARG_NAME_WEIGHT) - 1,
					FXT_ARG_INT32, FXT_ARG_NAME_WAKER,
					sizeof(FXT_ARG_NAME_WAKER) - 1, FXT_ARG_KOID);
		}
		if (!c->bad)
			check_ts(c, rec->ts);
		return;
	default:
		REPORT(c, UNKNOWN_SUBTYPE, "scheduling record subtype %u", sub);
		rec->flags |= FXT_RF_UNKNOWN;
		c->p = c->end;
		return;
	}
	rec->u.sw.out_state = (uint8_t)state;
	if (state == FXT_THREAD_RUNNING || state > FXT_THREAD_DEAD)
		REPORT(c, SWITCH_STATE, "%u (%s)", state, fxt_thread_state_name(state));
	if (!c->bad)
		check_ts(c, rec->ts);
}

static void decode_large(struct cur *c, uint64_t h)
{
	struct fxt_record *rec = c->rec;
	unsigned int ltype = (unsigned int)FXT_G(h, FXT_LARGE_TYPE_FIELD);
	unsigned int format = (unsigned int)FXT_G(h, FXT_LBLOB_FORMAT_FIELD);
	uint64_t f, size;

	rec->subtype = (uint8_t)ltype;
	if (ltype != FXT_LARGE_BLOB) {
		REPORT(c, UNKNOWN_SUBTYPE, "large record type %u", ltype);
		rec->flags |= FXT_RF_UNKNOWN;
		c->p = c->end;
		return;
	}
	rec->u.lblob.format = (uint8_t)format;
	if (format > FXT_LARGE_BLOB_NO_METADATA) {
		REPORT(c, UNKNOWN_SUBTYPE, "large blob format %u", format);
		rec->flags |= FXT_RF_UNKNOWN;
		c->p = c->end;
		return;
	}
	reserved(c, h, FXT_LBLOB_RESERVED_FIELD, "large blob");
	f = take(c, "format header");
	if (format == FXT_LARGE_BLOB_WITH_METADATA)
		reserved(c, f, FXT_LBLOB_META_RESERVED_FIELD, "large blob format header");
	else
		reserved(c, f, FXT_LBLOB_NO_META_RESERVED_FIELD, "large blob format header");
	rec->u.lblob.category = get_str(c, (uint16_t)FXT_G(f, FXT_LBLOB_CATEGORY_FIELD),
					"category");
	rec->u.lblob.name = get_str(c, (uint16_t)FXT_G(f, FXT_LBLOB_NAME_FIELD), "blob name");
	rec->nargs = 0;
	memset(&rec->u.lblob.thread, 0, sizeof(rec->u.lblob.thread));
	rec->ts = 0;
	if (format == FXT_LARGE_BLOB_WITH_METADATA) {
		check_provider(c);
		rec->ts = take(c, "timestamp");
		get_thread(c, (uint8_t)FXT_G(f, FXT_LBLOB_THREAD_FIELD), &rec->u.lblob.thread);
		get_args(c, (unsigned int)FXT_G(f, FXT_LBLOB_NARGS_FIELD));
	}
	size = take(c, "blob size");
	rec->u.lblob.size = size;
	rec->u.lblob.payload = NULL;
	if (c->bad)
		return;
	if (size > (uint64_t)(c->end - c->p) * 8 || FXT_WORDS(size) != (uint64_t)(c->end - c->p)) {
		REPORT(c, BLOB_SIZE, "%llu", (unsigned long long)size);
		if (size > (uint64_t)(c->end - c->p) * 8) {
			c->bad = true;
			return;
		}
	}
	rec->u.lblob.payload = take_stream(c, (size_t)size, "blob payload");
	c->p = c->end;	/* a size mismatch was reported as BLOB_SIZE */
}

static void decode(struct fxt_reader *r, struct fxt_record *rec)
{
	struct cur c = { r, r->cur, rec, rec->words + 1, rec->words + rec->nwords, -1, false };
	uint64_t h = rec->words[0];

	switch (fxt_record_type(h)) {	/* rec->type, known to be below 16 */
	case FXT_REC_METADATA:
		decode_metadata(&c, h);
		break;
	case FXT_REC_INIT:
		reserved(&c, h, FXT_INIT_RESERVED_FIELD, "initialization record");
		check_provider(&c);
		rec->u.init.ticks_per_second = take(&c, "ticks per second");
		if (c.bad)
			break;
		if (!rec->u.init.ticks_per_second)
			REPORT(&c, INIT_ZERO, NULL);
		else
			r->cur->ticks_per_second = rec->u.init.ticks_per_second;
		break;
	case FXT_REC_STRING: {
		unsigned int index = (unsigned int)FXT_G(h, FXT_STRING_INDEX_FIELD);
		unsigned int len = (unsigned int)FXT_G(h, FXT_STRING_LEN_FIELD);

		reserved(&c, h, FXT_STRING_RESERVED1_FIELD, "string record");
		reserved(&c, h, FXT_STRING_RESERVED2_FIELD, "string record");
		check_provider(&c);
		rec->u.string.index = (uint16_t)index;
		rec->u.string.str.ref = (uint16_t)index;
		rec->u.string.str.len = (uint16_t)len;
		if (len > FXT_STRING_MAX_LEN)
			REPORT(&c, STRING_TOO_LONG, "string record of %u bytes", len);
		rec->u.string.str.data = take_stream(&c, len, "string");
		if (c.bad) {
			rec->u.string.str.len = 0;
			break;
		}
		if (!index)
			REPORT(&c, STRING_INDEX_0, NULL);
		else
			string_define(r, r->cur, index, rec->u.string.str.data, len,
				      rec->offset);
		break;
	}
	case FXT_REC_THREAD: {
		unsigned int index = (unsigned int)FXT_G(h, FXT_THREAD_INDEX_FIELD);

		reserved(&c, h, FXT_THREAD_RESERVED_FIELD, "thread record");
		check_provider(&c);
		rec->u.thread.index = (uint8_t)index;
		rec->u.thread.pid = take(&c, "process koid");
		rec->u.thread.tid = take(&c, "thread koid");
		if (c.bad)
			break;
		if (!index) {
			REPORT(&c, THREAD_INDEX_0, NULL);
		} else {
			struct thread_slot *t = &r->cur->threads[index];

			t->pid = rec->u.thread.pid;
			t->tid = rec->u.thread.tid;
			t->defined = true;
		}
		break;
	}
	case FXT_REC_EVENT:
		decode_event(&c, h);
		break;
	case FXT_REC_BLOB: {
		unsigned int size = (unsigned int)FXT_G(h, FXT_BLOB_SIZE_FIELD);

		reserved(&c, h, FXT_BLOB_RESERVED1_FIELD, "blob record");
		reserved(&c, h, FXT_BLOB_RESERVED2_FIELD, "blob record");
		check_provider(&c);
		rec->u.blob.blob_type = (uint8_t)FXT_G(h, FXT_BLOB_TYPE_FIELD);
		rec->u.blob.name = get_str(&c, (uint16_t)FXT_G(h, FXT_BLOB_NAME_FIELD),
					   "blob name");
		rec->u.blob.size = size;
		if (!c.bad && FXT_WORDS(size) != (size_t)(c.end - c.p)) {
			REPORT(&c, BLOB_SIZE, "%u", size);
			if (FXT_WORDS(size) > (size_t)(c.end - c.p)) {
				c.bad = true;
				break;
			}
		}
		rec->u.blob.payload = take_stream(&c, size, "blob payload");
		c.p = c.end;	/* a size mismatch was reported as BLOB_SIZE */
		break;
	}
	case FXT_REC_USERSPACE_OBJ: {
		uint8_t ref = (uint8_t)FXT_G(h, FXT_UOBJ_PROCESS_FIELD);

		reserved(&c, h, FXT_UOBJ_RESERVED_FIELD, "userspace object record");
		check_provider(&c);
		rec->u.uobj.pointer = take(&c, "pointer");
		rec->u.uobj.process.ref = ref;
		rec->u.uobj.process.defined = true;
		rec->u.uobj.process.tid = 0;
		if (!ref) {
			rec->u.uobj.process.pid = take(&c, "process koid");
		} else if (r->cur->threads[ref].defined) {
			rec->u.uobj.process.pid = r->cur->threads[ref].pid;
		} else {
			rec->u.uobj.process.pid = 0;
			rec->u.uobj.process.defined = false;
			REPORT(&c, THREAD_UNDEFINED, "%u", ref);
		}
		rec->u.uobj.name = get_str(&c, (uint16_t)FXT_G(h, FXT_UOBJ_NAME_FIELD),
					   "object name");
		get_args(&c, (unsigned int)FXT_G(h, FXT_UOBJ_NARGS_FIELD));
		break;
	}
	case FXT_REC_KERNEL_OBJ:
		decode_kobj(&c, h);
		break;
	case FXT_REC_SCHED:
		decode_sched(&c, h);
		break;
	case FXT_REC_LOG: {
		unsigned int len = (unsigned int)FXT_G(h, FXT_LOG_LEN_FIELD);

		reserved(&c, h, FXT_LOG_RESERVED1_FIELD, "log record");
		reserved(&c, h, FXT_LOG_RESERVED2_FIELD, "log record");
		check_provider(&c);
		rec->ts = take(&c, "timestamp");
		get_thread(&c, (uint8_t)FXT_G(h, FXT_LOG_THREAD_FIELD), &rec->u.log.thread);
		rec->u.log.msg.ref = 0;
		rec->u.log.msg.len = (uint16_t)len;
		rec->u.log.msg.data = take_stream(&c, len, "log message");
		if (!rec->u.log.msg.data)
			rec->u.log.msg.len = 0;
		break;
	}
	case FXT_REC_LARGE:
		decode_large(&c, h);
		break;
	default:
		REPORT(&c, UNKNOWN_RECORD, "%u", rec->type);
		rec->flags |= FXT_RF_UNKNOWN;
		c.p = c.end;
		break;
	}
	if (c.bad) {
		rec->flags |= FXT_RF_MALFORMED;
	} else if (c.p != c.end) {
		REPORT(&c, SIZE_MISMATCH, "%llu words, content is %llu",
		       (unsigned long long)rec->nwords,
		       (unsigned long long)(c.p - rec->words));
	}
}

/* A read of the input failed (lib/reader_input.c): say so once, and stop. */
static COLD void read_failed(struct fxt_reader *r)
{
	report(r, r->in.error_off, FXT_D_IO_ERROR, "%s", strerror(r->in.error));
	r->in.error = 0;
	stop(r, -1);
}

static void truncated(struct fxt_reader *r, uint64_t offset, uint64_t need,
		      uint64_t have)
{
	report(r, offset, FXT_D_TRUNCATED,
	       "0x%llx: the record is %llu bytes, the archive ends after %llu",
	       (unsigned long long)offset, (unsigned long long)need,
	       (unsigned long long)have);
	stop(r, 0);
}

/* The first record (the buffer holds 8 bytes of it) must be the magic number. */
static int first_record(struct fxt_reader *r)
{
	uint64_t h;

	memcpy(&h, r->in.buf + r->in.pos, 8);
	r->started = true;
	if (h == __builtin_bswap64(FXT_MAGIC_RECORD)) {
		report(r, r->in.buf_off + r->in.pos, FXT_D_BIG_ENDIAN, NULL);
		stop(r, -1);
		return -1;
	}
	if (h != FXT_MAGIC_RECORD)
		report(r, r->in.buf_off + r->in.pos, FXT_D_NO_MAGIC, NULL);
	return 0;
}

int fxt_reader_next(struct fxt_reader *r, struct fxt_record *rec)
{
	uint64_t h, words, bytes;
	size_t avail;

	if (r->stopped)
		return r->end_rc;
	avail = r->in.len - r->in.pos;
	if (avail < 8) {	/* also before the first record: no buffer yet */
		if (!r->in.buf && fxt_input_alloc(&r->in)) {
			report(r, 0, FXT_D_IO_ERROR, "%s", strerror(ENOMEM));
			stop(r, -1);
			return -1;
		}
		fxt_input_fill(&r->in, 8);
		if (unlikely(r->in.error))
			read_failed(r);
		avail = r->in.len - r->in.pos;
		if (r->stopped)
			return r->end_rc;
		if (avail == 0) {
			/* Every FXT archive starts with the magic number record. */
			if (!r->started) {
				r->started = true;
				report(r, r->in.buf_off, FXT_D_NO_MAGIC, NULL);
			}
			return 0;
		}
		if (avail < 8) {
			truncated(r, r->in.buf_off + r->in.pos, 8, avail);
			return 0;
		}
		if (!r->started && first_record(r))
			return -1;
	}
	memcpy(&h, r->in.buf + r->in.pos, 8);
	rec->offset = r->in.buf_off + r->in.pos;
	rec->type = (uint8_t)fxt_record_type(h);
	words = rec->type == FXT_REC_LARGE ? fxt_large_record_words(h) :
		fxt_record_words(h);
	rec->nwords = words;
	rec->flags = 0;
	rec->nargs = 0;
	rec->subtype = 0;
	rec->ts = 0;
	rec->ts_ns = 0;

	if (!words) {
		report(r, rec->offset, FXT_D_SIZE_ZERO, NULL);
		stop(r, -1);
		return -1;
	}
	bytes = words * 8;
	if (bytes > avail) {
		if (bytes <= r->in.cap) {
			fxt_input_fill(&r->in, (size_t)bytes);
			if (unlikely(r->in.error))
				read_failed(r);
			avail = r->in.len - r->in.pos;
			if (r->stopped)
				return r->end_rc;
			if (bytes > avail) {
				truncated(r, rec->offset, bytes, avail);
				return 0;
			}
		} else {
			uint64_t got = avail + fxt_input_skip(&r->in, bytes - avail);

			if (r->in.error)
				read_failed(r);
			if (got < bytes) {
				truncated(r, rec->offset, bytes, got);
				return 0;
			}
			report(r, rec->offset, FXT_D_TOO_LARGE, "%llu",
			       (unsigned long long)bytes);
			rec->words = NULL;
			rec->flags = FXT_RF_NO_PAYLOAD;
			rec->provider = r->cur->id;
			r->nrecords++;
			r->nbytes += bytes;
			return 1;
		}
	}
	rec->words = (const uint64_t *)(const void *)(r->in.buf + r->in.pos);
	rec->provider = r->cur->id;
	r->in.pos += (size_t)bytes;
	r->nrecords++;
	r->nbytes += bytes;
	decode(r, rec);
	rec->ts_ns = rec->ts ? ticks_to_ns(r, rec->ts) : 0;
	return 1;
}

/* ------------------------------------------------------------------ */
/* Setup.                                                               */

static struct fxt_reader *reader_new(void)
{
	struct fxt_reader *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	fxt_input_init(&r->in, FXT_READER_BUFSIZE);
	r->mem_limit = FXT_READER_MEM_LIMIT;
	r->track_kobjs = true;
	r->kt = &r->own_kt;
	r->spare = calloc(1, sizeof(*r->spare));
	if (!r->spare) {
		free(r);
		errno = ENOMEM;
		return NULL;
	}
	r->spare->ticks_per_second = NS_PER_SEC;
	r->cur = provider_get(r, 0, 0);
	return r;
}

struct fxt_reader *fxt_reader_open_fd(int fd)
{
	struct fxt_reader *r = reader_new();

	if (!r)
		return NULL;
	fxt_input_set_fd(&r->in, fd);
	return r;
}

struct fxt_reader *fxt_reader_open_segments(int fd, const struct fxt_segment *segs,
					    size_t nsegs, bool at_start)
{
	struct fxt_reader *r;

	if (!nsegs)
		return NULL;
	r = reader_new();
	if (!r)
		return NULL;
	fxt_input_set_segments(&r->in, fd, segs, nsegs, FXT_MERGE_BUFSIZE);
	r->started = !at_start;		/* only offset 0 holds the magic number */
	return r;
}

void fxt_reader_share_kobjs(struct fxt_reader *r, struct fxt_reader *owner)
{
	r->kt = owner->kt;
}

bool fxt_reader_failed(const struct fxt_reader *r)
{
	return r->stopped && r->end_rc < 0;
}

struct fxt_reader *fxt_reader_open(const char *path)
{
	struct fxt_reader *r;
	int fd;

	if (!strcmp(path, "-"))
		return fxt_reader_open_fd(0);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	r = fxt_reader_open_fd(fd);
	if (!r) {
		int e = errno;

		close(fd);
		errno = e;
		return NULL;
	}
	r->in.own_fd = true;
	return r;
}

struct fxt_reader *fxt_reader_open_mem(const void *data, size_t len)
{
	struct fxt_reader *r = reader_new();

	if (!r)
		return NULL;
	fxt_input_set_mem(&r->in, data ? data : (const void *)empty_string, data ? len : 0);
	return r;
}

void fxt_reader_close(struct fxt_reader *r)
{
	unsigned int i;

	if (!r)
		return;
	for (i = 0; i < PROV_BUCKETS; i++) {
		struct provider *p = r->buckets[i], *n;

		for (; p; p = n) {
			n = p->hnext;
			provider_clear(r, p);
			free(p);
		}
	}
	provider_clear(r, r->spare);
	free(r->spare);
	free(r->own_kt.slots);
	fxt_name_history_free(&r->own_kt.threads);
	fxt_input_close(&r->in);
	free(r);
}

int fxt_reader_set_buffer_size(struct fxt_reader *r, size_t bytes)
{
	if (r->in.buf || bytes < MIN_BUFSIZE || bytes % 8)
		return -EINVAL;
	r->in.cap = bytes;
	return 0;
}

void fxt_reader_set_diag(struct fxt_reader *r, fxt_diag_fn fn, void *ctx)
{
	r->diag = fn;
	r->diag_ctx = ctx;
}

void fxt_reader_set_mem_limit(struct fxt_reader *r, size_t bytes)
{
	r->mem_limit = bytes ? bytes : FXT_READER_MEM_LIMIT;
}

void fxt_reader_skip_args(struct fxt_reader *r, unsigned int what)
{
	r->skip_args = what;
}

void fxt_reader_set_track_kobjs(struct fxt_reader *r, bool on)
{
	r->track_kobjs = on;
}

void fxt_reader_check_durations(struct fxt_reader *r, bool on)
{
	r->check_durations = on;
}

uint64_t fxt_reader_offset(const struct fxt_reader *r)
{
	return r->in.buf_off + r->in.pos;
}

uint64_t fxt_reader_size(const struct fxt_reader *r)
{
	return r->in.size;
}

uint64_t fxt_reader_diag_count(const struct fxt_reader *r)
{
	return r->ndiags;
}

uint64_t fxt_reader_diag_count_id(const struct fxt_reader *r, enum fxt_diag_id id)
{
	return (unsigned int)id < FXT_D_COUNT ? r->diag_counts[id] : 0;
}

uint64_t fxt_reader_records(const struct fxt_reader *r)
{
	return r->nrecords;
}

uint64_t fxt_reader_bytes(const struct fxt_reader *r)
{
	return r->nbytes;
}

uint32_t fxt_reader_provider(const struct fxt_reader *r)
{
	return r->cur->id;
}

const char *fxt_reader_provider_name(const struct fxt_reader *r, uint32_t id)
{
	const struct provider *p = provider_find(r, id);

	if (!p && r->cur->id == id)
		p = r->cur;
	return p ? p->name : NULL;
}

uint64_t fxt_reader_ticks_per_second(const struct fxt_reader *r)
{
	return r->cur->ticks_per_second;
}

uint64_t fxt_reader_ticks_to_ns(const struct fxt_reader *r, uint64_t ticks)
{
	return ticks_to_ns(r, ticks);
}
