/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmod.h - the selftests' test modules (selftests/kmod/NAME.ko, built by
 * `make module` for fxt.ko's kernel): find one, load it, unload it. Only
 * ever run inside the qemu guest.
 */
#ifndef FXT_SELFTESTS_KMOD_H
#define FXT_SELFTESTS_KMOD_H

#include <stddef.h>

/*
 * path = <dir of this binary>/kmod/<name>.ko, checked to be built for the
 * running kernel. Return: 0, or -1 with why filled in.
 */
int kmod_path(const char *name, char *path, size_t size, char *why,
	      size_t why_len);
/* insmod path [arg]. Return: 0, or -1 with why filled in. */
int kmod_load(const char *path, const char *arg, char *why, size_t why_len);
/* rmmod name. Return: 0, or -1 with why filled in. */
int kmod_unload(const char *name, char *why, size_t why_len);
/* Write s to /sys/module/<name>/parameters/<param>. Return: 0 or -errno. */
int kmod_param_write(const char *name, const char *param, const char *s);
/* Read it (first line, no newline). Return: 0 or -errno. */
int kmod_param_read(const char *name, const char *param, char *buf,
		    size_t size);

#endif /* FXT_SELFTESTS_KMOD_H */
