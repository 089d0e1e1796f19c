/* SPDX-License-Identifier: MIT */
/*
 * merge_order.h - the order of a k-way merge by time: which of n sources,
 * each in time order, holds the earliest item (the lowest index on a tie).
 *
 * One merge for two consumers: lib/merge.c orders its cursors' records
 * with it, fxt-report (report/report_events.c) the queues of events it
 * decodes from those cursors. The consumer's hook, advance(ctx, i, &key),
 * moves source i on to its next item and returns true, setting key to the
 * item's time (or leaving it: the source's previous time), or returns
 * false when the source has none left. It is called for every source on
 * the first merge_order_next(), then for the source handed out last on
 * each later call. Inline, so that the hook is too: it runs once per item.
 *
 * Few sources: a branch-free tournament over an array of keys (which one
 * is next is anybody's guess); more: a binary heap.
 */
#ifndef LIBFXT_MERGE_ORDER_H
#define LIBFXT_MERGE_ORDER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#define ORDER_SCAN	8	/* more sources: a heap */

typedef bool (*merge_advance_fn)(void *ctx, unsigned int i, uint64_t *key);

struct merge_order {
	size_t n;
	uint64_t *keys;		/* time of each source's item, at least ORDER_SCAN; */
				/* scan: UINT64_MAX when done (also the extra ones) */
	bool *done;		/* the source has no item left */
	unsigned int *heap;	/* heap: sources with an item, by (key, index) */
	size_t nheap;
	unsigned int top;	/* the source handed out last, UINT32_MAX: none */
	bool started;
};

static inline void merge_order_free(struct merge_order *o)
{
	free(o->keys);
	free(o->done);
	free(o->heap);
	o->keys = NULL;
	o->done = NULL;
	o->heap = NULL;
}

/* n sources; -1 without memory. */
static inline int merge_order_init(struct merge_order *o, size_t n)
{
	size_t i, nk = n > ORDER_SCAN ? n : ORDER_SCAN;

	o->n = n;
	o->keys = malloc(nk * sizeof(*o->keys));
	o->done = calloc(n ? n : 1, sizeof(*o->done));
	o->heap = n > ORDER_SCAN ? malloc(n * sizeof(*o->heap)) : NULL;
	o->nheap = 0;
	o->top = UINT32_MAX;
	o->started = false;
	if (!o->keys || !o->done || (n > ORDER_SCAN && !o->heap)) {
		merge_order_free(o);
		return -1;
	}
	for (i = 0; i < nk; i++)
		o->keys[i] = i < n ? 0 : UINT64_MAX;
	return 0;
}

/* cond ? a : b, computed: GCC may still turn ?: into a branch. */
static inline unsigned int merge_select(bool cond, unsigned int a, unsigned int b)
{
	return b ^ ((a ^ b) & -(unsigned int)cond);
}

/* The earliest of keys[base..base+3], the lowest index on a tie: a tournament. */
static inline unsigned int merge_min4(const uint64_t *keys, unsigned int base)
{
	unsigned int a = base + (keys[base + 1] < keys[base]);
	unsigned int b = base + 2 + (keys[base + 3] < keys[base + 2]);

	return merge_select(keys[b] < keys[a], b, a);
}

static inline bool merge_before(const struct merge_order *o, unsigned int a, unsigned int b)
{
	return o->keys[a] < o->keys[b] || (o->keys[a] == o->keys[b] && a < b);
}

static inline void merge_sift_down(struct merge_order *o, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, min = i;
		unsigned int t;

		if (l < o->nheap && merge_before(o, o->heap[l], o->heap[min]))
			min = l;
		if (r < o->nheap && merge_before(o, o->heap[r], o->heap[min]))
			min = r;
		if (min == i)
			return;
		t = o->heap[i];
		o->heap[i] = o->heap[min];
		o->heap[min] = t;
		i = min;
	}
}

/* Move source i on; false (and done) when it has no item left. */
static inline bool merge_advance(struct merge_order *o, unsigned int i,
				 merge_advance_fn advance, void *ctx)
{
	if (advance(ctx, i, &o->keys[i]))
		return true;
	o->done[i] = true;
	return false;
}

static inline void merge_start(struct merge_order *o, merge_advance_fn advance, void *ctx)
{
	unsigned int i;

	o->started = true;
	for (i = 0; i < o->n; i++) {
		bool more = merge_advance(o, i, advance, ctx);

		if (!o->heap && !more)
			o->keys[i] = UINT64_MAX;
		else if (o->heap && more)
			o->heap[o->nheap++] = i;
	}
	for (i = (unsigned int)(o->nheap / 2 + 1); i-- > 0;)
		merge_sift_down(o, i);
}

/* The source whose item is next, after moving the last one on; -1 at the end. */
static inline int merge_order_next(struct merge_order *o, merge_advance_fn advance, void *ctx)
{
	unsigned int best, i, top = o->top;

	if (!o->started) {
		merge_start(o, advance, ctx);
	} else if (o->heap) {
		if (top != UINT32_MAX && !merge_advance(o, top, advance, ctx))
			o->heap[0] = o->heap[--o->nheap];
		merge_sift_down(o, 0);
	} else if (top != UINT32_MAX && !merge_advance(o, top, advance, ctx)) {
		o->keys[top] = UINT64_MAX;
	}
	if (o->heap) {
		if (!o->nheap) {
			o->top = UINT32_MAX;
			return -1;
		}
		o->top = o->heap[0];
		return (int)o->top;
	}
	best = merge_min4(o->keys, 0);
	if (o->n > 4) {
		unsigned int hi = merge_min4(o->keys, 4);

		best = merge_select(o->keys[hi] < o->keys[best], hi, best);
	}
	/* UINT64_MAX marks the sources done, but an item may have it too. */
	if (o->keys[best] == UINT64_MAX) {
		for (i = 0; i < o->n && o->done[i]; i++)
			;
		if (i == o->n) {
			o->top = UINT32_MAX;
			return -1;
		}
		best = i;
	}
	o->top = best;
	return (int)best;
}

#endif /* LIBFXT_MERGE_ORDER_H */
