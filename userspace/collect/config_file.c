// SPDX-License-Identifier: MIT
/*
 * config_file.c - fxt-collect --config FILE (config_file.h).
 *
 * The whole file is read and every setting checked before the caller acts
 * on any: a line it cannot take stops the reading with its number and the
 * reason, and fxt-collect then exits without touching the device.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_file.h"

#define LINE_MAX_BYTES	4096	/* a setting is far shorter */

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

int fxt_config_file_read(const char *path, fxt_config_setting_fn set,
			 void *ctx, char *err, size_t errlen)
{
	char *line = NULL, why[512], where[4200];
	size_t cap = 0;
	unsigned int no = 0;
	ssize_t n;
	int ret = 0;
	FILE *f = fopen(path, "re");

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	errno = 0;
	while ((n = getline(&line, &cap, f)) >= 0) {
		char *s, *eq, *key, *value;

		no++;
		if (n > LINE_MAX_BYTES) {
			snprintf(err, errlen, "%s:%u: line longer than %d bytes", path, no,
				 LINE_MAX_BYTES);
			ret = -1;
			break;
		}
		if (strlen(line) != (size_t)n) {
			snprintf(err, errlen, "%s:%u: a NUL byte", path, no);
			ret = -1;
			break;
		}
		s = trim(line);
		if (!*s || *s == '#')
			continue;
		eq = strchr(s, '=');
		if (!eq) {
			snprintf(err, errlen, "%s:%u: not \"key = value\": %.80s", path, no, s);
			ret = -1;
			break;
		}
		*eq = '\0';
		key = trim(s);
		value = trim(eq + 1);
		if (!*key || !*value) {
			snprintf(err, errlen, "%s:%u: %s", path, no,
				 *key ? "no value" : "no key");
			ret = -1;
			break;
		}
		why[0] = '\0';
		snprintf(where, sizeof(where), "%s:%u", path, no);
		if (set(ctx, where, key, value, why, sizeof(why))) {
			snprintf(err, errlen, "%s:%u: %s: %s", path, no, key, why);
			ret = -1;
			break;
		}
		errno = 0;
	}
	if (!ret && ferror(f)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno ? errno : EIO));
		ret = -1;
	}
	free(line);
	fclose(f);
	return ret;
}
