// SPDX-License-Identifier: MIT
/* u64map.c - growing the hash of u64map.h. */
#include <errno.h>
#include <stdlib.h>

#include "u64map.h"

static int grow(struct u64map *m)
{
	struct u64map n = { NULL, NULL, m->cap ? m->cap * 2 : 256, 0 };
	size_t i;

	n.keys = malloc(n.cap * sizeof(*n.keys));
	n.vals = calloc(n.cap, sizeof(*n.vals));
	if (!n.keys || !n.vals) {
		free(n.keys);
		free(n.vals);
		return -ENOMEM;
	}
	for (i = 0; i < m->cap; i++) {
		if (m->vals[i]) {
			size_t j = fxt_u64map_slot(&n, m->keys[i]);

			n.keys[j] = m->keys[i];
			n.vals[j] = m->vals[i];
		}
	}
	n.count = m->count;
	free(m->keys);
	free(m->vals);
	*m = n;
	return 0;
}

int fxt_u64map_put(struct u64map *m, uint64_t key, uint32_t index)
{
	size_t i;

	if ((m->count + 1) * 2 > m->cap && grow(m))
		return -ENOMEM;
	i = fxt_u64map_slot(m, key);
	if (!m->vals[i]) {
		m->keys[i] = key;
		m->count++;
	}
	m->vals[i] = index + 1;
	return 0;
}

void fxt_u64map_free(struct u64map *m)
{
	free(m->keys);
	free(m->vals);
	m->keys = NULL;
	m->vals = NULL;
	m->cap = m->count = 0;
}
