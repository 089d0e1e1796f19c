// SPDX-License-Identifier: MIT
/*
 * reader_cursor.c - the parts of reading a record's content that are not
 * needed for every record (reader_cursor.h has those): failures, string
 * references to the table, arguments.
 */
#include <stdio.h>
#include <string.h>

#include "reader_cursor.h"

COLD void fxt_rd_need_fail(struct cur *c, const char *what)
{
	if (!c->bad) {
		if (c->arg >= 0)
			REPORT(c, ARG_SIZE, "%d (%s does not fit)", c->arg, what);
		else
			REPORT(c, SIZE_MISMATCH, "%s does not fit in %llu words",
			       what, (unsigned long long)c->rec->nwords);
	}
	c->bad = true;
}

const char fxt_rd_empty_string[1] = "";

struct fxt_str fxt_rd_get_str_slow(struct cur *c, uint16_t ref, const char *what)
{
	struct fxt_str s = { ref, 0, fxt_rd_empty_string };
	const struct str_slot *slot;

	if (!ref || (ref & FXT_STRING_REF_INLINE))
		return get_str_untabled(c, ref, what);
	slot = fxt_rd_str_slot(c->prov, ref);
	if (slot && slot->defined) {
		s.len = slot->len;
		s.data = slot->data ? slot->data : fxt_rd_empty_string;
	} else {
		s.data = NULL;
		REPORT(c, STRING_UNDEFINED, "%u (%s)", ref, what);
	}
	return s;
}

COLD void fxt_rd_arg_words_fail(struct cur *c, unsigned int i, unsigned int nargs)
{
	unsigned int words = c->p < c->end ? (unsigned int)FXT_G(*c->p, FXT_ARG_WORDS_FIELD) : 0;

	if (c->p >= c->end)
		REPORT(c, ARG_OVERFLOW, "argument %u of %u starts past the end", i, nargs);
	else if (!words)
		REPORT(c, ARG_SIZE, "%u (size 0)", i);
	else
		REPORT(c, ARG_OVERFLOW, "argument %u is %u words, %u remain", i,
		       words, (unsigned int)(c->end - c->p));
	c->bad = true;
}

/* Decode nargs arguments into rec->args (those that fit and decode). */
void fxt_rd_get_args(struct cur *c, unsigned int nargs)
{
	struct fxt_record *rec = c->rec;
	unsigned int i;

	rec->nargs = 0;
	for (i = 0; i < nargs; i++) {
		struct fxt_arg *a = &rec->args[rec->nargs];
		unsigned int words, type;
		struct cur sub;
		uint64_t h, expect;

		words = next_arg(c, i, nargs, &h, &sub);
		if (!words)
			return;
		type = (unsigned int)FXT_G(h, FXT_ARG_TYPE_FIELD);

		a->type = (uint8_t)type;
		a->words = (uint16_t)words;
		if (type > FXT_ARG_BOOL) {
			REPORT(c, ARG_UNKNOWN, "%u (argument %u)", type, i);
			continue;
		}
		a->name = get_str(&sub, (uint16_t)FXT_G(h, FXT_ARG_NAME_FIELD), "argument name");
		switch (type) {
		case FXT_ARG_INT32:
			a->v.i32 = (int32_t)(uint32_t)FXT_G(h, FXT_ARG_VALUE32_FIELD);
			break;
		case FXT_ARG_UINT32:
			a->v.u32 = (uint32_t)FXT_G(h, FXT_ARG_VALUE32_FIELD);
			break;
		case FXT_ARG_BOOL:
			a->v.b = FXT_G(h, FXT_ARG_BOOL_FIELD);
			if (FXT_G(h, FXT_ARG_BOOL_RESERVED_FIELD))
				REPORT(c, ARG_RESERVED, "%u (bool [33..63])", i);
			break;
		case FXT_ARG_STRING:
			if (FXT_G(h, FXT_ARG_STRING_RESERVED_FIELD))
				REPORT(c, ARG_RESERVED, "%u (string [48..63])", i);
			a->v.str = get_str(&sub, (uint16_t)FXT_G(h, FXT_ARG_STRING_FIELD),
					   "argument value");
			break;
		default:
			if (FXT_G(h, FXT_ARG_VALUE32_FIELD))
				REPORT(c, ARG_RESERVED, "%u (%s [32..63])", i,
				       fxt_arg_type_name(type));
			if (type != FXT_ARG_NULL)
				a->v.u64 = take(&sub, "argument value");
			break;
		}
		if (sub.bad)
			continue;	/* reported; the argument is not kept */
		if (sub.p != sub.end) {
			expect = (uint64_t)(sub.p - (sub.end - words));
			REPORT(c, ARG_SIZE, "%u (%s, %u words, content is %llu)", i,
			       fxt_arg_type_name(type), words, (unsigned long long)expect);
		}
		rec->nargs++;
	}
}

const struct fxt_arg *fxt_rd_find_arg(const struct fxt_record *rec, const char *name)
{
	size_t n = strlen(name);
	unsigned int i;

	for (i = 0; i < rec->nargs; i++) {
		const struct fxt_arg *a = &rec->args[i];

		if (a->name.data && a->name.len == n && !memcmp(a->name.data, name, n))
			return a;
	}
	return NULL;
}

/* Arguments named name1/name2 must have type1/type2 (one pass, no lookups). */
void fxt_rd_check_arg_types(struct cur *c, const char *name1, size_t n1, unsigned int type1,
			    const char *name2, size_t n2, unsigned int type2)
{
	const struct fxt_record *rec = c->rec;
	unsigned int i;

	for (i = 0; i < rec->nargs; i++) {
		const struct fxt_arg *a = &rec->args[i];

		if (a->type != type1 && name_is(a->name, name1, n1))
			REPORT(c, SCHED_ARGS, "\"%s\" is %s, not %s", name1,
			       fxt_arg_type_name(a->type), fxt_arg_type_name(type1));
		else if (a->type != type2 && name_is(a->name, name2, n2))
			REPORT(c, SCHED_ARGS, "\"%s\" is %s, not %s", name2,
			       fxt_arg_type_name(a->type), fxt_arg_type_name(type2));
	}
}

/*
 * fxt-collect names the provider of CPU c "cpu<c>" (Documentation/records.rst):
 * a provider whose name is exactly "cpu" and its own id in decimal (no
 * leading zero, id below FXT_MAX_CPUS) is a per-CPU provider, and its
 * scheduling records happened on CPU id.
 */
bool fxt_rd_per_cpu_name(const char *name, uint32_t id)
{
	char want[16];

	if (id >= FXT_MAX_CPUS)
		return false;
	snprintf(want, sizeof(want), FXT_CPU_PROVIDER_NAME_FORMAT, id);
	return !strcmp(name, want);
}
