/* SPDX-License-Identifier: MIT */
/*
 * hist.h - a fixed-size log-linear latency histogram, HdrHistogram style.
 *
 * Values below 64 have a bucket each; above, every power of two is split
 * into 32 buckets, so a bucket is at most 1/32 (3%) of its value wide.
 * Values of 2^44 ns (4.9 hours) and more share the last bucket; min, max
 * and sum are exact. 5 KiB per histogram, whatever the number of samples.
 */
#ifndef LIBFXT_HIST_H
#define LIBFXT_HIST_H

#include <stdint.h>
#include <string.h>

#define HIST_SUB_BITS	6
#define HIST_SUB	(1u << HIST_SUB_BITS)		/* exact buckets below this */
#define HIST_HALF	(HIST_SUB / 2)			/* buckets per power of two */
#define HIST_MAX_BITS	44				/* values >= 2^44 clamp */
#define HIST_BUCKETS	(HIST_SUB + (HIST_MAX_BITS - HIST_SUB_BITS) * HIST_HALF)

struct hist {
	uint64_t count, min, max, sum;
	uint32_t b[HIST_BUCKETS];
};

static inline void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

static inline unsigned int hist_index(uint64_t v)
{
	unsigned int msb, e;

	if (v < HIST_SUB)
		return (unsigned int)v;
	msb = 63u - (unsigned int)__builtin_clzll(v);
	if (msb >= HIST_MAX_BITS)
		return HIST_BUCKETS - 1;
	e = msb - (HIST_SUB_BITS - 1);
	return HIST_SUB + (e - 1) * HIST_HALF + (unsigned int)(v >> e) - HIST_HALF;
}

static inline void hist_add(struct hist *h, uint64_t v)
{
	uint32_t *c = &h->b[hist_index(v)];

	if (*c != UINT32_MAX)
		(*c)++;
	h->count++;
	h->sum += v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

/* The value at percentile p (0..100): the upper end of its bucket, within [min, max]. */
uint64_t hist_percentile(const struct hist *h, double p);

#endif /* LIBFXT_HIST_H */
