// SPDX-License-Identifier: MIT
/*
 * name_trailer.c - each koid's newest name, for fxt-collect's trailer.
 *
 * Perfetto applies the last kernel object record it reads for a koid to
 * the whole trace, but fxt.ko writes name records into the durable buffer
 * of whichever CPU ran the fork or rename probe, and the archive holds the
 * CPUs in the collector's save order: the last record in the file need not
 * be the newest. The kernel stamps each name with "named_at" (the
 * CLOCK_BOOTTIME ns at which it took effect; records without one, the
 * start snapshot's, are the oldest). Fed every durable record in archive
 * order, this keeps per (object type, koid) the newest name and whether
 * the last record written carried it; the trailer then writes, for every
 * koid whose last record did not, one more record with the newest name
 * (Documentation/records.rst, "Archive layout").
 *
 * A process no record gave a "cmdline" (one that exec'd before the
 * recording or its window) can get one from a lookup the caller sets
 * (fxt_proc_cmdline(), /proc at save time): the trailer then writes its
 * record with it, newest name and parent, whether stale or not.
 *
 * Memory: one 40-byte slot per tracked koid in an open-addressing table
 * kept at most half full, so about 80 bytes a koid, up to max_objects koids
 * (records of further koids are counted, not tracked). Names longer than
 * NAME_MAX bytes (the kernel writes at most 15) are never rewritten.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <fxt/format.h>

#include "grow.h"
#include "libfxt_trailer.h"
#include "reader_cursor.h"
#include "record_frame.h"

#define NAME_MAX_	19
#define LEN_UNWRITABLE	0xff	/* the newest name is too long to keep */
#define MIN_SLOTS	1024
/* Longer string and kernel object records are not fxt.ko's names. */
#define REC_MAX_WORDS	64

struct slot {
	uint64_t named_at;	/* of the newest name */
	uint32_t koid;
	uint32_t process;	/* thread: its process koid; process: its parent */
	uint8_t type;		/* FXT_OBJ_*, 0: free */
	uint8_t has_process;	/* process: a "parent" argument was read */
	uint8_t stale;		/* the last record written is not the newest */
	uint8_t has_cmdline;	/* process: a record had a "cmdline" */
	uint8_t len;		/* of name, or LEN_UNWRITABLE */
	char name[NAME_MAX_];
};

/* Per provider: the string indices the kernel uses for the arg names. */
struct prov_strings {
	uint16_t process;
	uint16_t named_at;
	uint16_t parent;
	uint16_t cmdline;
};

struct fxt_newest {
	struct slot *slots;
	size_t cap;		/* power of two */
	size_t count;
	size_t max;		/* koids tracked at most */
	size_t stale;
	uint64_t untracked;	/* records not tracked */
	struct prov_strings *prov;
	size_t nprov;
	fxt_cmdline_lookup cmdline;	/* NULL: none */
	void *cmdline_ctx;
	size_t cmdlines;	/* the trailer's, from the lookup */
};

#define MAX_PROVIDERS_TRACKED	65536

struct fxt_newest *fxt_newest_new(size_t max_objects)
{
	struct fxt_newest *n = calloc(1, sizeof(*n));

	if (!n)
		return NULL;
	n->max = max_objects;
	return n;
}

void fxt_newest_free(struct fxt_newest *n)
{
	if (!n)
		return;
	free(n->slots);
	free(n->prov);
	free(n);
}

size_t fxt_newest_stale(const struct fxt_newest *n)
{
	return n->stale;
}

size_t fxt_newest_cmdlines(const struct fxt_newest *n)
{
	return n->cmdlines;
}

uint64_t fxt_newest_untracked(const struct fxt_newest *n)
{
	return n->untracked;
}

size_t fxt_newest_koids(const struct fxt_newest *n)
{
	return n->count;
}

static size_t slot_hash(uint32_t koid, uint8_t type, size_t cap)
{
	uint64_t k = ((uint64_t)koid << 8 | type) * 0x9e3779b97f4a7c15ull;

	return (size_t)(k >> 32) & (cap - 1);
}

/* The slot of (type, koid), or the free slot where it would go. */
static struct slot *slot_find(struct slot *slots, size_t cap, uint32_t koid,
			      uint8_t type)
{
	size_t i;

	for (i = slot_hash(koid, type, cap);; i = (i + 1) & (cap - 1))
		if (!slots[i].type ||
		    (slots[i].koid == koid && slots[i].type == type))
			return &slots[i];
}

static bool grow(struct fxt_newest *n)
{
	size_t ncap = n->cap ? n->cap * 2 : MIN_SLOTS, i;
	struct slot *ns = calloc(ncap, sizeof(*ns));

	if (!ns)
		return false;
	for (i = 0; i < n->cap; i++)
		if (n->slots[i].type)
			*slot_find(ns, ncap, n->slots[i].koid,
				   n->slots[i].type) = n->slots[i];
	free(n->slots);
	n->slots = ns;
	n->cap = ncap;
	return true;
}

static struct prov_strings *prov_strings(struct fxt_newest *n, uint32_t id)
{
	if (id >= MAX_PROVIDERS_TRACKED)
		return NULL;
	if (id >= n->nprov) {
		struct prov_strings *p = grow_zeroed(n->prov, &n->nprov, id, 16,
						     sizeof(*p));

		if (!p)
			return NULL;
		n->prov = p;
	}
	return &n->prov[id];
}

/* The string s is the text lit. */
#define IS(s, lit)	name_is(s, lit, sizeof(lit) - 1)

/* A string record: remember (or forget) the indices of the arg names. */
static void scan_string(struct fxt_newest *n, uint32_t provider,
			const uint64_t *rec, size_t words)
{
	struct prov_strings *ps = prov_strings(n, provider);
	uint16_t index = (uint16_t)FXT_G(rec[0], FXT_STRING_INDEX_FIELD);
	struct fxt_str str = { index, (uint16_t)FXT_G(rec[0], FXT_STRING_LEN_FIELD), NULL };
	struct cur c = raw_cur(rec, words);

	if (!ps || !(str.data = take_stream(&c, str.len, "string")))
		return;
	if (ps->process == index)
		ps->process = 0;
	if (ps->named_at == index)
		ps->named_at = 0;
	if (ps->parent == index)
		ps->parent = 0;
	if (ps->cmdline == index)
		ps->cmdline = 0;
	if (IS(str, FXT_ARG_NAME_PROCESS))
		ps->process = index;
	else if (IS(str, FXT_ARG_NAME_NAMED_AT))
		ps->named_at = index;
	else if (IS(str, FXT_ARG_NAME_PARENT))
		ps->parent = index;
	else if (IS(str, FXT_ARG_NAME_CMDLINE))
		ps->cmdline = index;
}

/*
 * Is the argument name s (get_str_untabled()) the text lit: inline,
 * or the index (0: none) the provider's string record gave lit?
 */
static inline bool arg_name_is(struct fxt_str s, uint16_t index, const char *lit)
{
	if (s.data)
		return name_is(s, lit, strlen(lit));
	return index && s.ref == index;
}

/*
 * process: a thread's process koid, or a process's parent koid
 * (has_process: whether the record had one; a thread's always counts).
 */
static void track(struct fxt_newest *n, uint8_t type, uint64_t koid,
		  const char *name, size_t len, uint64_t process,
		  bool has_process, bool has_cmdline, uint64_t named_at)
{
	struct slot *s = NULL;
	bool fits = len <= NAME_MAX_, same;

	if (koid > UINT32_MAX || process > UINT32_MAX) {
		n->untracked++;
		return;
	}
	if (n->cap)
		s = slot_find(n->slots, n->cap, (uint32_t)koid, type);
	if (!s || !s->type) {		/* a koid not seen before */
		if (n->count >= n->max ||
		    ((n->count + 1) * 2 > n->cap && !grow(n))) {
			n->untracked++;
			return;
		}
		s = slot_find(n->slots, n->cap, (uint32_t)koid, type);
		s->type = type;
		s->koid = (uint32_t)koid;
		s->stale = 0;
		s->has_cmdline = 0;
		n->count++;
	}
	s->has_cmdline |= has_cmdline;
	if (named_at < s->named_at) {	/* a new slot's is 0 */
		/* An older name written last: stale unless it is the same. */
		same = fits && s->len == len && !memcmp(s->name, name, len) &&
		       s->process == (uint32_t)process &&
		       s->has_process == has_process;
		if (!same && !s->stale)
			n->stale++;
		else if (same && s->stale)
			n->stale--;
		s->stale = !same;
		return;
	} else if (s->stale) {		/* the newest (or as new, and later) */
		s->stale = 0;
		n->stale--;
	}
	s->named_at = named_at;
	s->process = (uint32_t)process;
	s->has_process = has_process;
	if (fits) {
		s->len = (uint8_t)len;
		memcpy(s->name, name, len);
	} else {
		s->len = LEN_UNWRITABLE;
	}
}

/*
 * A kernel object record: its type, koid, inline name, process (a
 * thread's) or parent (a process's), named_at, and whether it has a
 * command line.
 */
static void scan_kobj(struct fxt_newest *n, uint32_t provider,
		      const uint64_t *rec, size_t words)
{
	static const struct prov_strings none;
	const struct prov_strings *ps = prov_strings(n, provider);
	uint8_t type = (uint8_t)FXT_G(rec[0], FXT_KOBJ_TYPE_FIELD);
	uint16_t name_ref = (uint16_t)FXT_G(rec[0], FXT_KOBJ_NAME_FIELD);
	unsigned int nargs = (unsigned int)FXT_G(rec[0], FXT_KOBJ_NARGS_FIELD), i;
	uint64_t koid, process = 0, named_at = 0, h, v;
	bool has_process = type == FXT_OBJ_THREAD, has_cmdline = false;
	struct cur c = raw_cur(rec, words), arg;
	struct fxt_str name, an;

	if (type != FXT_OBJ_PROCESS && type != FXT_OBJ_THREAD)
		return;
	if (!ps)
		ps = &none;
	if (name_ref && !(name_ref & FXT_STRING_REF_INLINE)) {
		n->untracked++;		/* an indexed name: not fxt.ko's */
		return;
	}
	koid = take(&c, "koid");
	name = get_str_untabled(&c, name_ref, "name");
	if (c.bad) {
		n->untracked++;
		return;
	}
	for (i = 0; i < nargs && next_arg(&c, i, nargs, &h, &arg); i++) {
		unsigned int at = (unsigned int)FXT_G(h, FXT_ARG_TYPE_FIELD);

		an = get_str_untabled(&arg, (uint16_t)FXT_G(h, FXT_ARG_NAME_FIELD),
					     "argument name");
		if (at == FXT_ARG_KOID || at == FXT_ARG_UINT64) {
			v = take(&arg, "argument value");
			if (arg.bad || arg.p != arg.end)
				continue;	/* not one word after the name */
			if (at == FXT_ARG_KOID &&
			    arg_name_is(an, ps->process, FXT_ARG_NAME_PROCESS)) {
				process = v;
			} else if (type == FXT_OBJ_PROCESS && at == FXT_ARG_KOID &&
				   arg_name_is(an, ps->parent, FXT_ARG_NAME_PARENT)) {
				process = v;
				has_process = true;
			} else if (at == FXT_ARG_UINT64 &&
				   arg_name_is(an, ps->named_at, FXT_ARG_NAME_NAMED_AT)) {
				named_at = v;
			}
		} else if (type == FXT_OBJ_PROCESS && at == FXT_ARG_STRING &&
			   arg_name_is(an, ps->cmdline, FXT_ARG_NAME_CMDLINE)) {
			has_cmdline = true;
		}
	}
	track(n, type, koid, name.data, name.len, process, has_process, has_cmdline,
	      named_at);
}

void fxt_newest_feed(struct fxt_newest *n, uint32_t provider, const void *data,
		     size_t len)
{
	const unsigned char *base = data;
	size_t at = 0;

	len &= ~(size_t)7;
	while (at < len) {
		const unsigned char *p = base + at;
		uint64_t rec[REC_MAX_WORDS];
		unsigned int type;
		uint64_t h;
		size_t words = fxt_frame(data, len, at, true, &h);

		if (!words)
			return;
		type = fxt_record_type(h);
		if (type == FXT_REC_STRING || type == FXT_REC_KERNEL_OBJ) {
			if (words > REC_MAX_WORDS) {
				n->untracked += type == FXT_REC_KERNEL_OBJ;
			} else {
				memcpy(rec, p, words * 8);	/* aligned copy */
				if (type == FXT_REC_STRING)
					scan_string(n, provider, rec, words);
				else
					scan_kobj(n, provider, rec, words);
			}
		}
		at += words * 8;
	}
}

void fxt_newest_lookup_cmdlines(struct fxt_newest *n, fxt_cmdline_lookup fn,
				void *ctx)
{
	n->cmdline = fn;
	n->cmdline_ctx = ctx;
}

/* A process the archive gave no command line: the lookup's, or 0. */
static size_t lookup_cmdline(const struct fxt_newest *n, const struct slot *s,
			     char *buf, size_t cap)
{
	struct fxt_str name = { 0, s->len, s->name };

	if (!n->cmdline || s->type != FXT_OBJ_PROCESS || s->has_cmdline ||
	    s->len == LEN_UNWRITABLE || !s->len)
		return 0;
	return n->cmdline(n->cmdline_ctx, s->koid, name,
			  s->has_process ? s->process : FXT_KOID_NONE, buf, cap);
}

int fxt_newest_write_trailer(struct fxt_newest *n, struct fxt_writer *w)
{
	char cmdline[FXT_TRAILER_CMDLINE_MAX];
	bool begun = false;
	size_t i;
	int written = 0, err = 0;

	if (!n->stale && !n->cmdline)
		return 0;
	for (i = 0; !err && i < n->cap; i++) {
		struct slot *s = &n->slots[i];
		struct fxt_arg args[3];
		struct fxt_str name = { 0, 0, s->name };
		unsigned int nargs = 0;
		size_t clen;

		if (!s->type)
			continue;
		clen = lookup_cmdline(n, s, cmdline, sizeof(cmdline));
		if (!s->stale && !clen)
			continue;
		if (s->stale) {
			s->stale = 0;
			n->stale--;
		}
		if (s->len == LEN_UNWRITABLE) {
			n->untracked++;
			continue;
		}
		if (!begun) {
			err = fxt_write_provider_info(w, FXT_NAMES_PROVIDER_ID,
						      FXT_NAMES_PROVIDER_NAME);
			if (!err)
				err = fxt_write_init(w, 1000000000ull);
			if (err)
				break;
			begun = true;
		}
		name.len = s->len;
		if (s->type == FXT_OBJ_THREAD)
			args[nargs++] = fxt_arg_koid(fxt_str(FXT_ARG_NAME_PROCESS), s->process);
		else if (s->has_process)
			args[nargs++] = fxt_arg_koid(fxt_str(FXT_ARG_NAME_PARENT), s->process);
		if (s->named_at)
			args[nargs++] = fxt_arg_u64(fxt_str(FXT_ARG_NAME_NAMED_AT), s->named_at);
		if (clen) {
			args[nargs++] = fxt_arg_string(fxt_str(FXT_ARG_NAME_CMDLINE),
						       (struct fxt_str){ 0, (uint16_t)clen, cmdline });
			s->has_cmdline = 1;
		}
		err = fxt_write_kobj(w, s->type, s->koid, name, args, nargs);
		if (!err) {
			written++;
			n->cmdlines += clen > 0;
		}
	}
	return err ? err : written;
}
