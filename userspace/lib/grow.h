/* SPDX-License-Identifier: MIT */
/*
 * grow.h - grow an array indexed by a small number (a CPU, a handler id)
 * to hold index i: its capacity doubles from min, the new elements zeroed.
 */
#ifndef LIBFXT_GROW_H
#define LIBFXT_GROW_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/*
 * arr (of *n elements of size bytes) grown to more than i elements: the
 * new array, *n updated; NULL without memory (arr and *n unchanged).
 */
static inline void *grow_zeroed(void *arr, size_t *n, size_t i, size_t min, size_t size)
{
	size_t nn = *n ? *n : min;
	unsigned char *a;

	while (nn <= i)
		nn *= 2;
	a = realloc(arr, nn * size);
	if (!a)
		return NULL;
	memset(a + *n * size, 0, (nn - *n) * size);
	*n = nn;
	return a;
}

#endif /* LIBFXT_GROW_H */
