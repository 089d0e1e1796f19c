/* SPDX-License-Identifier: MIT */
/*
 * u64map.h - a small open-addressing hash from a 64-bit key (a koid, a
 * tid) to an index into the caller's own array of per-thread state.
 * Memory grows with the number of distinct keys, never with the archive.
 */
#ifndef LIBFXT_U64MAP_H
#define LIBFXT_U64MAP_H

#include <stddef.h>
#include <stdint.h>

struct u64map {
	uint64_t *keys;
	uint32_t *vals;		/* index + 1; 0 marks an empty slot */
	size_t cap;		/* power of two, or 0 */
	size_t count;
};

static inline size_t fxt_u64map_slot(const struct u64map *m, uint64_t key)
{
	size_t i = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 29) & (m->cap - 1);

	while (m->vals[i] && m->keys[i] != key)
		i = (i + 1) & (m->cap - 1);
	return i;
}

/* Index stored for key, or -1. */
static inline int64_t fxt_u64map_get(const struct u64map *m, uint64_t key)
{
	size_t i;

	if (!m->cap)
		return -1;
	i = fxt_u64map_slot(m, key);
	return m->vals[i] ? (int64_t)m->vals[i] - 1 : -1;
}

/* Store key -> index (replacing); 0 or -ENOMEM. */
int fxt_u64map_put(struct u64map *m, uint64_t key, uint32_t index);
void fxt_u64map_free(struct u64map *m);

#endif /* LIBFXT_U64MAP_H */
