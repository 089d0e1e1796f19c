// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_mem.c - every byte the module allocates, counted.
 *
 * A session's allocations (the per-CPU bookkeeping, the buffers, the FIFO
 * and its delivery bitmap) go through these wrappers, which add what they
 * allocate to one counter and take away what they free. Root reads it as
 * /sys/module/fxt/parameters/mem_bytes: with no session open it is the
 * FIFO's few bytes (allocated at load), so a leaked allocation shows as a
 * count that never returns to that, whatever allocator (slab, pages,
 * vmalloc) held it.
 */
#include <linux/atomic.h>
#include <linux/bitmap.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/vmalloc.h>
#include "fxt.h"

static atomic_long_t fxt_mem_bytes = ATOMIC_LONG_INIT(0);

static int fxt_mem_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%ld\n", atomic_long_read(&fxt_mem_bytes));
}

static const struct kernel_param_ops fxt_mem_ops = {
	.get = fxt_mem_get,
};

module_param_cb(mem_bytes, &fxt_mem_ops, NULL, 0400);
MODULE_PARM_DESC(mem_bytes, "Bytes the module holds now (read-only)");

/**
 * fxt_mem_account() - count @bytes as held (> 0) or given back (< 0)
 * @bytes: the change
 */
void fxt_mem_account(long bytes)
{
	atomic_long_add(bytes, &fxt_mem_bytes);
}

/**
 * fxt_kvcalloc() - kvcalloc(), counted
 * @n: elements
 * @size: bytes each
 *
 * Return: the zeroed array, or NULL.
 */
void *fxt_kvcalloc(size_t n, size_t size)
{
	void *p = kvcalloc(n, size, GFP_KERNEL);

	if (p)
		fxt_mem_account(n * size);
	return p;
}

/**
 * fxt_kvfree() - kvfree() of what fxt_kvcalloc() gave
 * @p: the array, or NULL
 * @bytes: its n * size
 */
void fxt_kvfree(void *p, size_t bytes)
{
	if (p) {
		kvfree(p);
		fxt_mem_account(-(long)bytes);
	}
}

/**
 * fxt_vmalloc_user() - vmalloc_user(), counted
 * @bytes: the size
 *
 * A request for more than half the memory available now is refused
 * without trying: vmalloc would warn with a call trace (a splat any
 * caller of INITIALIZE could provoke) or wake the OOM killer on the way
 * to failing, and a tracer must not take a machine's last memory.
 *
 * Return: the zeroed area, mappable to user space, or NULL.
 */
void *fxt_vmalloc_user(unsigned long bytes)
{
	void *p;

	if (bytes > (si_mem_available() << PAGE_SHIFT) / 2)
		return NULL;
	p = vmalloc_user(bytes);

	if (p)
		fxt_mem_account(bytes);
	return p;
}

/**
 * fxt_vfree() - vfree() of what fxt_vmalloc_user() gave
 * @p: the area, or NULL
 * @bytes: its size
 */
void fxt_vfree(void *p, unsigned long bytes)
{
	if (p) {
		vfree(p);
		fxt_mem_account(-(long)bytes);
	}
}

/**
 * fxt_bitmap_zalloc() - bitmap_zalloc(), counted
 * @nbits: bits
 *
 * Return: the bitmap, or NULL.
 */
unsigned long *fxt_bitmap_zalloc(unsigned int nbits)
{
	unsigned long *p = bitmap_zalloc(nbits, GFP_KERNEL);

	if (p)
		fxt_mem_account(BITS_TO_LONGS(nbits) * sizeof(long));
	return p;
}

/**
 * fxt_bitmap_free() - bitmap_free() of what fxt_bitmap_zalloc() gave
 * @p: the bitmap, or NULL
 * @nbits: its bits
 */
void fxt_bitmap_free(unsigned long *p, unsigned int nbits)
{
	if (p) {
		bitmap_free(p);
		fxt_mem_account(-(long)(BITS_TO_LONGS(nbits) * sizeof(long)));
	}
}
