/* SPDX-License-Identifier: MIT */
/*
 * reader_cursor.h - reading one record's content (struct cur): words,
 * zero-padded streams, string and thread references, arguments, reserved
 * bits. The checks of every read are here; what is needed for every
 * record is inline, the rest in reader_cursor.c.
 */
#ifndef LIBFXT_READER_CURSOR_H
#define LIBFXT_READER_CURSOR_H

#include "reader_state.h"

/* The record's content ran out before what: reported, c->bad. */
COLD void fxt_rd_need_fail(struct cur *c, const char *what);
/* What an empty string reference reads as. */
extern const char fxt_rd_empty_string[1];
struct fxt_str fxt_rd_get_str_slow(struct cur *c, uint16_t ref, const char *what);
COLD void fxt_rd_arg_words_fail(struct cur *c, unsigned int i, unsigned int nargs);
/* Decode nargs arguments into rec->args (those that fit and decode). */
void fxt_rd_get_args(struct cur *c, unsigned int nargs);
const struct fxt_arg *fxt_rd_find_arg(const struct fxt_record *rec, const char *name);
void fxt_rd_check_arg_types(struct cur *c, const char *name1, size_t n1, unsigned int type1,
			    const char *name2, size_t n2, unsigned int type2);
bool fxt_rd_per_cpu_name(const char *name, uint32_t id);

/* ------------------------------------------------------------------ */
/* Decoding pieces.                                                     */

/*
 * A raw cursor over the content of the record rec of words words (its
 * header is rec[0]), for code that reads records no reader frames
 * (name_trailer.c): take(), take_stream(), get_str_untabled() and
 * next_arg() work; a read that does not fit sets bad, nothing is reported.
 */
static inline struct cur raw_cur(const uint64_t *rec, size_t words)
{
	struct cur c = { NULL, NULL, NULL, rec + 1, rec + words, -1, false };

	return c;
}

static inline bool need(struct cur *c, size_t words, const char *what)
{
	if (likely((size_t)(c->end - c->p) >= words))
		return true;
	fxt_rd_need_fail(c, what);
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

/*
 * A string ref read without the string table (all a raw cursor can): the
 * empty string, an inline string, or for an index the ref alone (data
 * NULL, len 0).
 */
static inline struct fxt_str get_str_untabled(struct cur *c, uint16_t ref, const char *what)
{
	struct fxt_str s = { ref, 0, NULL };

	if (!ref) {
		s.data = fxt_rd_empty_string;
	} else if (ref & FXT_STRING_REF_INLINE) {
		s.len = ref & FXT_STRING_INDEX_MAX;
		if (s.len > FXT_STRING_MAX_LEN)
			REPORT(c, STRING_TOO_LONG, "%s of %u bytes", what, s.len);
		s.data = take_stream(c, s.len, what);
		if (!s.data)
			s.len = 0;
	}
	return s;
}

/* A string ref: most are indices of defined strings, looked up inline. */
static inline struct fxt_str get_str(struct cur *c, uint16_t ref, const char *what)
{
	if (likely(ref && !(ref & FXT_STRING_REF_INLINE))) {
		const struct str_slot *slot = fxt_rd_str_slot(c->prov, ref);

		if (likely(slot && slot->defined)) {
			struct fxt_str s = { ref, slot->len, slot->data ? slot->data : fxt_rd_empty_string };

			return s;
		}
	}
	return fxt_rd_get_str_slow(c, ref, what);
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

/*
 * The size in words of argument i of nargs, which starts at c->p; 0 when
 * it does not fit the record (reported, c->bad).
 */
static inline unsigned int arg_words(struct cur *c, unsigned int i, unsigned int nargs)
{
	unsigned int words = c->p < c->end ? (unsigned int)FXT_G(*c->p, FXT_ARG_WORDS_FIELD) : 0;

	if (likely(words && words <= (size_t)(c->end - c->p)))
		return words;
	fxt_rd_arg_words_fail(c, i, nargs);
	return 0;
}

/*
 * Argument i of nargs, which starts at c->p: its size in words, its header
 * in *h and a cursor over the rest of it in *arg; c steps over it. 0 when
 * it does not fit the record (reported, c->bad).
 */
static inline unsigned int next_arg(struct cur *c, unsigned int i, unsigned int nargs,
				    uint64_t *h, struct cur *arg)
{
	unsigned int words = arg_words(c, i, nargs);

	if (!words)
		return 0;
	*h = *c->p;
	*arg = *c;
	arg->p = c->p + 1;
	arg->end = c->p + words;
	arg->arg = (int)i;
	arg->bad = false;
	c->p += words;
	return words;
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

static inline bool name_is(struct fxt_str s, const char *lit, size_t n)
{
	return s.len == n && s.data && !memcmp(s.data, lit, n);
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

#endif /* LIBFXT_READER_CURSOR_H */
