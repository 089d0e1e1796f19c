// SPDX-License-Identifier: MIT
/*
 * writer_args.c - the writer's arguments: their sizes and encoding, and
 * the constructors (fxt_arg_*()) programs build them with.
 */
#include <string.h>

#include "writer_internal.h"

/* Value words of an argument type beyond its header and name. */
static size_t arg_value_words(const struct fxt_arg *a)
{
	switch (a->type) {
	case FXT_ARG_INT64:
	case FXT_ARG_UINT64:
	case FXT_ARG_DOUBLE:
	case FXT_ARG_POINTER:
	case FXT_ARG_KOID:
		return 1;
	case FXT_ARG_STRING:
		return fxt_w_str_words(a->v.str);
	default:
		return 0;
	}
}

static size_t arg_words(const struct fxt_arg *a)
{
	return 1 + fxt_w_str_words(a->name) + arg_value_words(a);
}

/* Check args and return their total size in words, or 0 if invalid. */
size_t fxt_w_args_words(const struct fxt_arg *args, unsigned int nargs, int *ok)
{
	size_t total = 0;
	unsigned int i;

	*ok = nargs <= FXT_MAX_ARGS && (nargs == 0 || args);
	for (i = 0; *ok && i < nargs; i++) {
		const struct fxt_arg *a = &args[i];

		if (a->type > FXT_ARG_BOOL || !fxt_w_str_ok(a->name) ||
		    (a->type == FXT_ARG_STRING && !fxt_w_str_ok(a->v.str))) {
			*ok = 0;
			break;
		}
		total += arg_words(a);
	}
	return total;
}

size_t fxt_w_put_args(uint64_t *p, const struct fxt_arg *args, unsigned int nargs)
{
	size_t used = 0;
	unsigned int i;

	for (i = 0; i < nargs; i++) {
		const struct fxt_arg *a = &args[i];
		size_t words = arg_words(a);
		uint64_t *q = p + used;
		uint32_t value32 = 0;
		size_t k = 1;

		switch (a->type) {
		case FXT_ARG_INT32:
			value32 = (uint32_t)a->v.i32;
			break;
		case FXT_ARG_UINT32:
			value32 = a->v.u32;
			break;
		case FXT_ARG_STRING:
			value32 = fxt_w_str_ref(a->v.str);
			break;
		case FXT_ARG_BOOL:
			value32 = a->v.b ? 1 : 0;
			break;
		default:
			break;
		}
		q[0] = fxt_arg_header(a->type, (unsigned int)words,
				      fxt_w_str_ref(a->name), value32);
		k += fxt_w_put_str(q + k, a->name);
		switch (a->type) {
		case FXT_ARG_INT64:
			q[k++] = (uint64_t)a->v.i64;
			break;
		case FXT_ARG_UINT64:
			q[k++] = a->v.u64;
			break;
		case FXT_ARG_DOUBLE:
			memcpy(&q[k++], &a->v.f64, 8);
			break;
		case FXT_ARG_POINTER:
			q[k++] = a->v.ptr;
			break;
		case FXT_ARG_KOID:
			q[k++] = a->v.koid;
			break;
		case FXT_ARG_STRING:
			k += fxt_w_put_str(q + k, a->v.str);
			break;
		default:
			break;
		}
		used += words;
	}
	return used;
}



/* ------------------------------------------------------------------ */
/* Argument constructors.                                               */

#define ARG_CTOR(fn, atype, ctype, field)				\
	struct fxt_arg fn(struct fxt_str name, ctype v)			\
	{								\
		struct fxt_arg a;					\
									\
		memset(&a, 0, sizeof(a));				\
		a.type = atype;						\
		a.name = name;						\
		a.v.field = v;						\
		return a;						\
	}

ARG_CTOR(fxt_arg_i32, FXT_ARG_INT32, int32_t, i32)
ARG_CTOR(fxt_arg_u32, FXT_ARG_UINT32, uint32_t, u32)
ARG_CTOR(fxt_arg_i64, FXT_ARG_INT64, int64_t, i64)
ARG_CTOR(fxt_arg_u64, FXT_ARG_UINT64, uint64_t, u64)
ARG_CTOR(fxt_arg_f64, FXT_ARG_DOUBLE, double, f64)
ARG_CTOR(fxt_arg_string, FXT_ARG_STRING, struct fxt_str, str)
ARG_CTOR(fxt_arg_ptr, FXT_ARG_POINTER, uint64_t, ptr)
ARG_CTOR(fxt_arg_koid, FXT_ARG_KOID, uint64_t, koid)
ARG_CTOR(fxt_arg_bool, FXT_ARG_BOOL, bool, b)

struct fxt_arg fxt_arg_null(struct fxt_str name)
{
	struct fxt_arg a;

	memset(&a, 0, sizeof(a));
	a.type = FXT_ARG_NULL;
	a.name = name;
	return a;
}

