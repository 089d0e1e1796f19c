/* SPDX-License-Identifier: MIT */
/*
 * writer_internal.h - what the writer's three files share, and nobody
 * else: the buffer's reserve and commit (writer.c), the pieces records are
 * made of (strings and threads here, arguments in writer_args.c), for the
 * record writers (writer_records.c).
 */
#ifndef LIBFXT_WRITER_INTERNAL_H
#define LIBFXT_WRITER_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <fxt/format.h>

#include "libfxt_records.h"
#include "libfxt_writer.h"

/* Room for words 8-byte words, zeroed, or NULL with *err set. */
uint64_t *fxt_w_reserve(struct fxt_writer *w, size_t words, int *err);
/* The words reserved last are a whole record: keep them. */
void fxt_w_commit(struct fxt_writer *w, size_t words);

/* The ref a struct fxt_str is written as. */
static inline uint16_t fxt_w_str_ref(struct fxt_str s)
{
	if (s.ref & FXT_STRING_REF_INLINE)	/* inline, even of length 0 */
		return fxt_inline_string_ref(s.len);
	if (s.ref)
		return s.ref;
	if (!s.len)
		return 0;
	return fxt_inline_string_ref(s.len);
}

static inline int fxt_w_str_ok(struct fxt_str s)
{
	if (s.ref && !(s.ref & FXT_STRING_REF_INLINE))
		return 1;
	return s.len <= FXT_STRING_MAX_LEN && (s.len == 0 || s.data);
}

/* Words of the inline stream of s (0 for empty or indexed). */
static inline size_t fxt_w_str_words(struct fxt_str s)
{
	return fxt_string_ref_words(fxt_w_str_ref(s));
}

/* Copy s's inline stream (if any) at p; returns the words used. */
static inline size_t fxt_w_put_str(uint64_t *p, struct fxt_str s)
{
	size_t n = fxt_w_str_words(s);

	if (n)
		memcpy(p, s.data, s.len);	/* p is zeroed: padding is 0 */
	return n;
}

static inline size_t fxt_w_put_bytes(uint64_t *p, const void *data, size_t len)
{
	if (len)
		memcpy(p, data, len);
	return FXT_WORDS(len);
}

static inline size_t fxt_w_thread_words(struct fxt_thread t)
{
	return t.ref ? 0 : 2;
}

static inline size_t fxt_w_put_thread(uint64_t *p, struct fxt_thread t)
{
	if (t.ref)
		return 0;
	p[0] = t.pid;
	p[1] = t.tid;
	return 2;
}

/* Check args and return their total size in words, or 0 if invalid. */
size_t fxt_w_args_words(const struct fxt_arg *args, unsigned int nargs, int *ok);
/* Encode args at p (zeroed, of fxt_w_args_words() words); the words used. */
size_t fxt_w_put_args(uint64_t *p, const struct fxt_arg *args, unsigned int nargs);

#endif /* LIBFXT_WRITER_INTERNAL_H */
