// SPDX-License-Identifier: MIT
/* hist.c - percentiles of hist.h histograms. */
#include <math.h>

#include "hist.h"

static uint64_t bucket_high(unsigned int i)
{
	unsigned int k, e;
	uint64_t sub;

	if (i < HIST_SUB)
		return i;
	if (i == HIST_BUCKETS - 1)
		return UINT64_MAX;
	k = i - HIST_SUB;
	e = k / HIST_HALF + 1;
	sub = k % HIST_HALF + HIST_HALF;
	return ((sub + 1) << e) - 1;
}

uint64_t hist_percentile(const struct hist *h, double p)
{
	uint64_t rank, seen = 0, v;
	unsigned int i;

	if (!h->count)
		return 0;
	if (p >= 100)
		return h->max;
	rank = (uint64_t)ceil(p / 100.0 * (double)h->count);
	if (rank < 1)
		rank = 1;
	for (i = 0; i < HIST_BUCKETS; i++) {
		seen += h->b[i];
		if (seen >= rank)
			break;
	}
	v = bucket_high(i < HIST_BUCKETS ? i : HIST_BUCKETS - 1);
	if (v > h->max)
		v = h->max;
	if (v < h->min)
		v = h->min;
	return v;
}
