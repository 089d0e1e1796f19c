// SPDX-License-Identifier: MIT
/*
 * fxtcount FILE: count the records of an FXT archive by kind, without any
 * library (bench/ must not depend on readers others are still writing).
 * Prints "bytes=B records=R switches=S wakeups=W events=E other=O
 * sw_bytes=.. wk_bytes=.. ev_bytes=.. other_bytes=.." (events: record type
 * 4, i.e. IRQ/softirq begin/end and counters; other: metadata, strings,
 * threads, kernel objects (names), ...; *_bytes: those records' bytes).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	uint64_t bytes = 0, recs = 0, sw = 0, wk = 0, ev = 0, other = 0;
	uint64_t swb = 0, wkb = 0, evb = 0, otherb = 0;
	static uint64_t buf[1 << 16];
	size_t have = 0, pos = 0;
	FILE *f;

	if (argc != 2 || !(f = fopen(argv[1], "rb"))) {
		fprintf(stderr, "usage: fxtcount FILE\n");
		return 1;
	}
	for (;;) {
		uint64_t h, words, type;

		if (pos == have) {
			have = fread(buf, 8, sizeof(buf) / 8, f);
			pos = 0;
			if (!have)
				break;
		}
		h = buf[pos];
		type = h & 15;
		words = type == 15 ? (h >> 4) & 0xffffffffULL : (h >> 4) & 0xfff;
		if (!words) {
			fprintf(stderr, "fxtcount: record of size 0 at byte %llu\n",
				(unsigned long long)bytes);
			return 1;
		}
		recs++;
		if (type == 8 && (h >> 60) <= 1)
			sw++, swb += words * 8;
		else if (type == 8 && (h >> 60) == 2)
			wk++, wkb += words * 8;
		else if (type == 4)
			ev++, evb += words * 8;
		else
			other++, otherb += words * 8;
		bytes += words * 8;
		/* skip the record: it may span reads */
		while (words) {
			size_t n = have - pos < words ? have - pos : words;

			pos += n;
			words -= n;
			if (words) {
				have = fread(buf, 8, sizeof(buf) / 8, f);
				pos = 0;
				if (!have) {
					fprintf(stderr, "fxtcount: truncated\n");
					return 1;
				}
			}
		}
	}
	printf("bytes=%llu records=%llu switches=%llu wakeups=%llu events=%llu other=%llu "
	       "sw_bytes=%llu wk_bytes=%llu ev_bytes=%llu other_bytes=%llu\n",
	       (unsigned long long)bytes, (unsigned long long)recs,
	       (unsigned long long)sw, (unsigned long long)wk,
	       (unsigned long long)ev, (unsigned long long)other,
	       (unsigned long long)swb, (unsigned long long)wkb,
	       (unsigned long long)evb, (unsigned long long)otherb);
	return 0;
}
