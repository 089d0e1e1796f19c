/* SPDX-License-Identifier: MIT */
/*
 * options.h - values of the tools' command-line options (lib/options.c).
 */
#ifndef LIBFXT_OPTIONS_H
#define LIBFXT_OPTIONS_H

#include <stdint.h>

/* "8M", "64K", "1.5GiB", "65536": 0, or -EINVAL. */
int fxt_parse_size(const char *s, uint64_t *bytes);
/* "oneshot", "circular", "streaming": FXT_MODE_*, or -EINVAL. */
int fxt_parse_mode(const char *s);

#endif /* LIBFXT_OPTIONS_H */
