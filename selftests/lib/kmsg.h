/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmsg.h - the kernel log (/dev/kmsg) from a point on: what the kernel
 * logged while a test ran.
 */
#ifndef FXT_SELFTESTS_KMSG_H
#define FXT_SELFTESTS_KMSG_H

#include <stddef.h>

/* Open /dev/kmsg at its end, non-blocking. Return: fd or -errno. */
int kmsg_open_end(void);
/*
 * Read what was logged since fd was opened (an overwritten record is
 * passed over). Return: how many messages contain needle; the first one,
 * up to its line end, in first (when size > 0).
 */
unsigned long kmsg_count(int fd, const char *needle, char *first, size_t size);

#endif /* FXT_SELFTESTS_KMSG_H */
