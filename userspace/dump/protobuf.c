// SPDX-License-Identifier: MIT
/*
 * protobuf.c - the protocol buffers wire format ("Encoding", in the
 * Protocol Buffers documentation): a field is a varint key (field number
 * << 3 | wire type), then a varint (wire type 0) or a varint length and
 * that many bytes (wire type 2).
 */
#include <stdlib.h>
#include <string.h>

#include "protobuf.h"

enum { PB_VARINT = 0, PB_LEN = 2 };

static bool pb_room(struct pbuf *b, size_t n)
{
	uint8_t *p;
	size_t cap;

	if (b->failed)
		return false;
	if (b->len + n <= b->cap)
		return true;
	cap = b->cap ? b->cap : 256;
	while (cap < b->len + n)
		cap *= 2;
	p = realloc(b->p, cap);
	if (!p) {
		b->failed = true;
		return false;
	}
	b->p = p;
	b->cap = cap;
	return true;
}

static void pb_varint(struct pbuf *b, uint64_t v)
{
	if (!pb_room(b, 10))
		return;
	while (v >= 0x80) {
		b->p[b->len++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	b->p[b->len++] = (uint8_t)v;
}

void pb_varint_field(struct pbuf *b, unsigned int field, uint64_t v)
{
	pb_varint(b, (uint64_t)field << 3 | PB_VARINT);
	pb_varint(b, v);
}

void pb_int_field(struct pbuf *b, unsigned int field, int64_t v)
{
	pb_varint_field(b, field, (uint64_t)v);
}

void pb_bytes_field(struct pbuf *b, unsigned int field, const void *data, size_t len)
{
	pb_varint(b, (uint64_t)field << 3 | PB_LEN);
	pb_varint(b, len);
	pb_raw(b, data, len);
}

void pb_raw(struct pbuf *b, const void *data, size_t len)
{
	if (len && pb_room(b, len)) {
		memcpy(b->p + b->len, data, len);
		b->len += len;
	}
}

void pb_msg(struct pbuf *b, unsigned int field, struct pbuf *child)
{
	if (child->failed)
		b->failed = true;
	pb_bytes_field(b, field, child->p, child->len);
	pb_reset(child);
}

void pb_reset(struct pbuf *b)
{
	b->len = 0;
	b->failed = false;
}

void pb_free(struct pbuf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}
