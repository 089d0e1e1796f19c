/* SPDX-License-Identifier: MIT */
/*
 * config_file.h - fxt-collect --config FILE (config_file.c): lines of
 * "key = value", each key a long option of fxt-collect, blank lines and
 * lines starting with '#' ignored.
 */
#ifndef FXT_COLLECT_CONFIG_FILE_H
#define FXT_COLLECT_CONFIG_FILE_H

#include <stddef.h>

/*
 * Called for each setting, in file order, where being "PATH:LINE"; returns
 * 0, or -1 with a reason in err, which stops the reading.
 */
typedef int (*fxt_config_setting_fn)(void *ctx, const char *where,
				     const char *key, const char *value,
				     char *err, size_t errlen);

/*
 * Read path, calling set for each setting. Return: 0, or -1 with
 * "PATH:LINE: reason" (or "PATH: reason") in err.
 */
int fxt_config_file_read(const char *path, fxt_config_setting_fn set,
			 void *ctx, char *err, size_t errlen);

#endif /* FXT_COLLECT_CONFIG_FILE_H */
