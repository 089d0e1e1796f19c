/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kfile.h - the kernel's files under /proc and /sys: a value read or
 * written as one line, the memory and module counters the fault and stress
 * selftests watch.
 */
#ifndef FXT_SELFTESTS_KFILE_H
#define FXT_SELFTESTS_KFILE_H

#include <stddef.h>

/* Read path's first line (no newline) into buf. Return: 0 or -errno. */
int kfile_read(const char *path, char *buf, size_t size);
/* Write s to path in one write(). Return: 0, or -errno (-EIO: short write). */
int kfile_write(const char *path, const char *s);

/* The number a file holds (its first), -1 if unreadable or none. */
long kfile_long(const char *path);
/*
 * Raise a /proc/sys limit to at least want (in the guest only; a higher
 * value stays). Return: 0 or -errno.
 */
int kfile_raise(const char *path, unsigned long want);
/*
 * The first line of /proc/interrupts with a virtio handler and a ", "
 * (two handlers: scripts/vm/run gives the guest two virtio-rng devices on
 * one line), -1 if none.
 */
int kfile_shared_virtio_irq(void);
/* A /proc/meminfo value in kB, -1 if absent. */
long kfile_meminfo_kb(const char *key);
/* One cache of /proc/slabinfo: objects in use and their size. */
struct kfile_slab {
	char name[64];
	long active, objsize;
};

/*
 * Read /proc/slabinfo (root only) into at most max caches.
 * Return: caches read, or -errno.
 */
int kfile_slabinfo(struct kfile_slab *caches, int max);
/* /sys/module/fxt/parameters/mem_bytes: what the module holds; -1 if unreadable. */
long kfile_module_mem_bytes(void);
/* /sys/module/fxt/refcnt, -1 if unreadable. */
int kfile_module_refcnt(void);

#endif /* FXT_SELFTESTS_KFILE_H */
