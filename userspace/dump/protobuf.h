/* SPDX-License-Identifier: MIT */
/*
 * protobuf.h - the protocol buffers wire format, as much as fxt-dump
 * --perfetto writes: varint and length-delimited fields, into growable
 * byte buffers. A nested message is built in a buffer of its own, then
 * appended to its parent with its length (pb_msg()).
 */
#ifndef FXT_DUMP_PROTOBUF_H
#define FXT_DUMP_PROTOBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pbuf {
	uint8_t *p;
	size_t len, cap;
	bool failed;		/* out of memory: everything after is dropped */
};

void pb_varint_field(struct pbuf *b, unsigned int field, uint64_t v);
/* A signed (int32/int64, not sint) field: two's complement, 10 bytes if < 0 */
void pb_int_field(struct pbuf *b, unsigned int field, int64_t v);
void pb_bytes_field(struct pbuf *b, unsigned int field, const void *data, size_t len);
/* bytes already in the wire format (fields), appended as they are */
void pb_raw(struct pbuf *b, const void *data, size_t len);
/* child, a whole message, as field of b; child is emptied */
void pb_msg(struct pbuf *b, unsigned int field, struct pbuf *child);
void pb_reset(struct pbuf *b);
void pb_free(struct pbuf *b);

#endif /* FXT_DUMP_PROTOBUF_H */
