/* SPDX-License-Identifier: MIT */
/*
 * name_intern.h - intern byte strings (a function name, a handler name):
 * each distinct string, cut at the caller's maximum length, gets a dense
 * id (0, 1, 2, ... in the order first seen), which indexes the caller's
 * own per-name arrays. Strings are compared byte for byte: two different
 * strings never share an id, one string never gets two. A zeroed struct
 * is an empty table.
 */
#ifndef LIBFXT_NAME_INTERN_H
#define LIBFXT_NAME_INTERN_H

#include <stddef.h>
#include <stdint.h>

#define NAME_INTERN_NONE	UINT32_MAX	/* no id: out of memory */

struct fxt_name_intern_entry {
	char *text;		/* a NUL-terminated copy */
	uint32_t len;
	uint32_t hash;
};

struct fxt_name_intern {
	struct fxt_name_intern_entry *names;	/* by id */
	size_t count, cap;
	uint32_t *slot;		/* open-addressing hash: id + 1, 0 empty */
	size_t nslots;		/* power of two, or 0; at least twice count */
};

/* 32-bit FNV-1a (exposed for the unit tests' collisions). */
uint32_t fxt_name_intern_hash(const char *s, size_t n);

/* The id of s[0..min(n, max)) (s may be NULL when n is 0); NAME_INTERN_NONE without memory. */
uint32_t fxt_name_intern(struct fxt_name_intern *t, const char *s, size_t n, size_t max);

/* The text of id (its length in *len if len): NULL if there is no such id. */
static inline const char *fxt_name_intern_text(const struct fxt_name_intern *t, uint32_t id, size_t *len)
{
	if (id >= t->count)
		return NULL;
	if (len)
		*len = t->names[id].len;
	return t->names[id].text;
}

void fxt_name_intern_free(struct fxt_name_intern *t);

#endif /* LIBFXT_NAME_INTERN_H */
