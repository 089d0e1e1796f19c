// SPDX-License-Identifier: MIT
/*
 * options.c - values of the tools' command-line options.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/fxt.h>
#include "options.h"

int fxt_parse_size(const char *s, uint64_t *bytes)
{
	char *end;
	double v = strtod(s, &end);
	uint64_t mul = 1;

	if (end == s || v <= 0)
		return -EINVAL;
	switch (*end | 0x20) {	/* either case */
	case 'k':
		mul = 1ull << 10;
		break;
	case 'm':
		mul = 1ull << 20;
		break;
	case 'g':
		mul = 1ull << 30;
		break;
	}
	if (mul > 1)
		end++;
	if (*end == 'i' || *end == 'B')
		end += (*end == 'i' && end[1] == 'B') ? 2 : 1;
	if (*end)
		return -EINVAL;
	*bytes = (uint64_t)(v * (double)mul);
	return 0;
}

int fxt_parse_mode(const char *s)
{
	if (!strcmp(s, "oneshot"))
		return FXT_MODE_ONESHOT;
	if (!strcmp(s, "circular"))
		return FXT_MODE_CIRCULAR;
	if (!strcmp(s, "streaming"))
		return FXT_MODE_STREAMING;
	return -EINVAL;
}
