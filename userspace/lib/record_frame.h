/* SPDX-License-Identifier: MIT */
/*
 * record_frame.h - the one framing rule for loops that walk records
 * without decoding them (merge.c's provider scan, drain.c's chunk check,
 * name_trailer.c's feed): a record starts with its 8-byte header, and its
 * span in words is the header's size field, or a large record's own
 * (fxt_record_span() of include/fxt/format.h). The reader (reader_decode.c)
 * frames the same way, with its diagnostics.
 */
#ifndef LIBFXT_RECORD_FRAME_H
#define LIBFXT_RECORD_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fxt/format.h"
#include "libfxt_perfetto.h"

/*
 * The record whose header is at byte at of buf (len bytes): its span in
 * words, with its header in *header. 0 when no whole header is there, when
 * the span is 0 (no reader can go past it), or, if whole, when the record
 * runs past len.
 */
static inline size_t fxt_frame(const void *buf, size_t len, size_t at, bool whole,
			       uint64_t *header)
{
	uint64_t h, words;

	if (at > len || len - at < 8)
		return 0;
	memcpy(&h, (const unsigned char *)buf + at, 8);
	words = fxt_record_span(h);
	if (!words || (whole && words > (len - at) / 8))
		return 0;
	*header = h;
	return (size_t)words;
}

/*
 * The time of a record fxt.ko writes, framed by fxt_frame() at byte at of
 * buf: events and scheduling records carry it in word 1, a power event's
 * Perfetto blob in its packet (fxt_perfetto_blob_time()). False for every
 * other record (strings, threads, names, metadata: they have no time).
 */
static inline bool fxt_frame_time(const void *buf, size_t at, uint64_t header,
				  size_t words, uint64_t *ts)
{
	const unsigned char *p = (const unsigned char *)buf + at;
	unsigned int type = fxt_record_type(header);
	size_t size;

	if (type == FXT_REC_BLOB &&
	    FXT_G(header, FXT_BLOB_TYPE_FIELD) == FXT_BLOB_TYPE_PERFETTO) {
		size = (size_t)FXT_G(header, FXT_BLOB_SIZE_FIELD);
		return size <= (words - 1) * 8 &&
		       fxt_perfetto_blob_time(p + 8, size, ts);
	}
	if ((type != FXT_REC_EVENT && type != FXT_REC_SCHED) || words < 2)
		return false;
	memcpy(ts, p + 8, 8);
	return true;
}

#endif /* LIBFXT_RECORD_FRAME_H */
