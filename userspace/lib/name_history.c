// SPDX-License-Identifier: MIT
/*
 * name_history.c - the names each thread koid had over time (see the
 * header). Runs are kept sorted by named_at and merged: two neighbours
 * with the same name and process are one run, starting at the earlier.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "name_history.h"

static bool same_run(const struct fxt_kobj_info *a, const struct fxt_kobj_info *b)
{
	return a->process == b->process && a->name_len == b->name_len &&
	       !memcmp(a->name, b->name, a->name_len);
}

static struct name_runs *runs_of(struct name_history *h, uint64_t koid)
{
	int64_t i = fxt_u64map_get(&h->map, koid);
	size_t old_cap = h->map.cap;

	if (i >= 0)
		return &h->runs[i];
	if (h->n == h->cap) {
		size_t n = h->cap ? h->cap * 2 : 64;
		struct name_runs *r = realloc(h->runs, n * sizeof(*r));

		if (!r)
			return NULL;
		h->bytes += (n - h->cap) * sizeof(*r);
		h->runs = r;
		h->cap = n;
	}
	if (fxt_u64map_put(&h->map, koid, (uint32_t)h->n))
		return NULL;
	h->bytes += (h->map.cap - old_cap) * (sizeof(uint64_t) + sizeof(uint32_t));
	memset(&h->runs[h->n], 0, sizeof(h->runs[h->n]));
	return &h->runs[h->n++];
}

static void run_remove(struct name_runs *r, uint32_t i)
{
	memmove(&r->v[i], &r->v[i + 1], (r->n - i - 1) * sizeof(r->v[0]));
	r->n--;
}

int fxt_name_history_add(struct name_history *h, const struct fxt_kobj_info *k)
{
	struct name_runs *r = runs_of(h, k->koid);
	uint32_t i;

	if (!r)
		return -ENOMEM;
	/* i: the first run named after k */
	for (i = r->n; i && r->v[i - 1].named_at > k->named_at; i--)
		;
	if (i && r->v[i - 1].named_at == k->named_at) {
		/* the same time: the last record read wins, as in the koid table */
		r->v[--i] = *k;
		if (i && same_run(&r->v[i - 1], &r->v[i]))
			run_remove(r, i);
		else if (i + 1 < r->n && same_run(&r->v[i], &r->v[i + 1]))
			run_remove(r, i + 1);
		return 0;
	}
	if (i && same_run(&r->v[i - 1], k))
		return 0;		/* a restatement within its run */
	if (i < r->n && same_run(&r->v[i], k)) {
		r->v[i].named_at = k->named_at;	/* the run began earlier */
		return 0;
	}
	if (r->n == r->cap) {
		uint32_t n = r->cap ? r->cap * 2 : 1;
		struct fxt_kobj_info *v = realloc(r->v, n * sizeof(*v));

		if (!v)
			return -ENOMEM;
		h->bytes += (n - r->cap) * sizeof(*v);
		r->v = v;
		r->cap = n;
	}
	memmove(&r->v[i + 1], &r->v[i], (r->n - i) * sizeof(r->v[0]));
	r->v[i] = *k;
	r->n++;
	return 0;
}

const struct fxt_kobj_info *fxt_name_history_at(const struct name_history *h,
					    uint64_t koid, uint64_t ns)
{
	int64_t idx = fxt_u64map_get(&h->map, koid);
	const struct name_runs *r;
	uint32_t i;

	if (idx < 0)
		return NULL;
	r = &h->runs[idx];
	if (!r->n)
		return NULL;
	for (i = r->n; i > 1 && r->v[i - 1].named_at > ns; i--)
		;
	return &r->v[i - 1];
}

void fxt_name_history_free(struct name_history *h)
{
	for (size_t i = 0; i < h->n; i++)
		free(h->runs[i].v);
	free(h->runs);
	fxt_u64map_free(&h->map);
	memset(h, 0, sizeof(*h));
}
