// SPDX-License-Identifier: MIT
/* name_intern.c - the string-to-id table of name_intern.h. */
#include <stdlib.h>
#include <string.h>

#include "name_intern.h"

#define MAX_SLOTS	(1u << 24)

uint32_t fxt_name_intern_hash(const char *s, size_t n)
{
	uint32_t h = 0x811c9dc5u;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x01000193u;
	return h;
}

/* The empty slot for hash in slots (ns of them, at least one empty). */
static size_t free_slot(const uint32_t *slots, size_t ns, uint32_t hash)
{
	size_t i = hash & (ns - 1);

	while (slots[i])
		i = (i + 1) & (ns - 1);
	return i;
}

/* Room for one more string: the hash kept at most half full, the array. */
static int make_room(struct fxt_name_intern *t)
{
	if ((t->count + 1) * 2 > t->nslots) {
		size_t ns = t->nslots ? t->nslots * 2 : 64, k;
		uint32_t *slots;

		if (ns > MAX_SLOTS)
			return -1;
		slots = calloc(ns, sizeof(*slots));
		if (!slots)
			return -1;
		for (k = 0; k < t->count; k++)
			slots[free_slot(slots, ns, t->names[k].hash)] = (uint32_t)k + 1;
		free(t->slot);
		t->slot = slots;
		t->nslots = ns;
	}
	if (t->count == t->cap) {
		size_t c = t->cap ? t->cap * 2 : 16;
		struct fxt_name_intern_entry *a = realloc(t->names, c * sizeof(*a));

		if (!a)
			return -1;
		t->names = a;
		t->cap = c;
	}
	return 0;
}

uint32_t fxt_name_intern(struct fxt_name_intern *t, const char *s, size_t n, size_t max)
{
	struct fxt_name_intern_entry *e;
	uint32_t hash;
	size_t i;

	if (n > max)
		n = max;
	if (!n)
		s = "";
	hash = fxt_name_intern_hash(s, n);
	for (i = t->nslots ? hash & (t->nslots - 1) : 0; t->nslots && t->slot[i];
	     i = (i + 1) & (t->nslots - 1)) {
		e = &t->names[t->slot[i] - 1];
		if (e->hash == hash && e->len == n && !memcmp(e->text, s, n))
			return t->slot[i] - 1;
	}
	if (make_room(t))
		return NAME_INTERN_NONE;
	e = &t->names[t->count];
	e->text = malloc(n + 1);
	if (!e->text)
		return NAME_INTERN_NONE;
	memcpy(e->text, s, n);
	e->text[n] = 0;
	e->len = (uint32_t)n;
	e->hash = hash;
	t->slot[free_slot(t->slot, t->nslots, hash)] = (uint32_t)t->count + 1;
	return (uint32_t)t->count++;
}

void fxt_name_intern_free(struct fxt_name_intern *t)
{
	size_t i;

	for (i = 0; i < t->count; i++)
		free(t->names[i].text);
	free(t->names);
	free(t->slot);
	memset(t, 0, sizeof(*t));
}
