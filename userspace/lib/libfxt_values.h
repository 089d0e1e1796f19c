/* SPDX-License-Identifier: MIT */
/*
 * libfxt: the decoded values the reader fills and the writer encodes:
 * string refs, thread refs, arguments, and their constructors.
 */
#ifndef LIBFXT_VALUES_H
#define LIBFXT_VALUES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A string ref and what it stands for. The writer encodes an index when
 * ref is 1..0x7fff, the empty string when ref is 0 and len is 0, and an
 * inline string of len bytes at data otherwise. The reader fills all three;
 * data is NULL when the ref names an index the provider never defined.
 * data is not NUL-terminated.
 */
struct fxt_str {
	uint16_t ref;		/* raw ref: 0, index, or 0x8000 | length */
	uint16_t len;		/* bytes at data */
	const char *data;	/* content; valid until the next fxt_reader_next() */
};

/*
 * A thread ref. The writer encodes index ref when it is non-zero and the
 * inline koids pid/tid when it is 0. The reader resolves an index through
 * the current provider's thread table (pid/tid 0 and defined false when the
 * index was never defined).
 */
struct fxt_thread {
	uint8_t ref;		/* 0 inline, 1..255 thread table index */
	bool defined;		/* reader: koids known */
	uint64_t pid;		/* process koid */
	uint64_t tid;		/* thread koid */
};

/* No koid: a process record without a "parent" argument. */
#define FXT_KOID_NONE		UINT64_MAX

#define FXT_MAX_ARGS	15

/* One argument. words is the encoded size (reader); the writer computes it. */
struct fxt_arg {
	uint8_t type;		/* enum fxt_arg_type, or an unknown type (reader) */
	uint16_t words;		/* argument size in words, header included */
	struct fxt_str name;
	union {
		int32_t i32;
		uint32_t u32;
		int64_t i64;
		uint64_t u64;
		double f64;
		uint64_t ptr;
		uint64_t koid;
		bool b;
		struct fxt_str str;
	} v;
};

/* Convenience constructors. */
static inline struct fxt_str fxt_str(const char *s)
{
	struct fxt_str r = { 0, 0, s };
	size_t n = 0;

	if (s)
		while (s[n])
			n++;
	r.len = (uint16_t)(n > 0xffff ? 0xffff : n);
	return r;
}
static inline struct fxt_str fxt_str_index(uint16_t index)
{
	struct fxt_str r = { index, 0, NULL };
	return r;
}

static inline struct fxt_thread fxt_thread_inline(uint64_t pid, uint64_t tid)
{
	struct fxt_thread t = { 0, true, pid, tid };
	return t;
}

static inline struct fxt_thread fxt_thread_index(uint8_t index)
{
	struct fxt_thread t = { index, true, 0, 0 };
	return t;
}

#endif /* LIBFXT_VALUES_H */
