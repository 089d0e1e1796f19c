// SPDX-License-Identifier: GPL-2.0
/*
 * fxtread.c - shared pieces of the readers through libfxt (fxtread.h).
 */
#include <stdio.h>
#include <string.h>

#include "fxtread.h"

void fxtread_str_copy(char *dst, size_t size, const struct fxt_str *s)
{
	size_t n = s->data ? s->len : 0;

	if (n >= size)
		n = size - 1;
	if (n)
		memcpy(dst, s->data, n);
	dst[n] = '\0';
}

bool fxtread_str_is(const struct fxt_str *s, const char *lit)
{
	size_t n = strlen(lit);

	return s->data && s->len == n && !memcmp(s->data, lit, n);
}

void fxtread_diag_print(uint64_t offset, enum fxt_diag_id id,
			const char *message)
{
	printf("# libfxt: offset %llu: %s: %s\n", (unsigned long long)offset,
	       fxt_diag_name(id), message);
}

int fxtread_diag_first10(void *ctx, uint64_t offset, enum fxt_diag_id id,
			 const char *message)
{
	unsigned int *shown = ctx;

	if ((*shown)++ < 10)
		fxtread_diag_print(offset, id, message);
	return 0;
}

bool fxtread_is_tid(const uint64_t *tids, int ntids, uint64_t koid)
{
	for (int i = 0; i < ntids; i++)
		if (tids[i] == koid)
			return true;
	return false;
}
