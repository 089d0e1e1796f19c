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
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/sched/signal.h>
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

/*
 * What a session allocates is charged to the memory cgroup of the task
 * that asks (as perf and ftrace charge their buffers), and fails with
 * ENOMEM at the cgroup's limit (__GFP_RETRY_MAYFAIL, as ftrace's ring
 * buffer allocates) instead of waking the cgroup's OOM killer, which would
 * kill the collector or its neighbours for a request that can simply be
 * refused.
 */
#define FXT_GFP		(GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL)

/*
 * Zeroed memory that needs no physically contiguous block: kmalloc() when
 * one is at hand (__GFP_NORETRY: no reclaim or compaction for it, and at
 * a cgroup's limit no OOM killer either), else vmalloc() with FXT_GFP.
 * Not kvmalloc(): with __GFP_RETRY_MAYFAIL it would press for the block
 * (compaction, reclaim) before it falls back, a stall on a fragmented
 * machine for the 2 MiB page array of a 1 GiB region.
 */
static void *fxt_kvzalloc_node(size_t size, int node)
{
	void *p = kmalloc_node(size, GFP_KERNEL_ACCOUNT | __GFP_ZERO |
			       __GFP_NORETRY | __GFP_NOWARN, node);

	return p ? p : __vmalloc(size, FXT_GFP | __GFP_ZERO | __GFP_NOWARN);
}

/**
 * fxt_kvcalloc() - kvcalloc(), counted and charged
 * @n: elements
 * @size: bytes each
 *
 * Return: the zeroed array, or NULL.
 */
void *fxt_kvcalloc(size_t n, size_t size)
{
	void *p;

	if (size && n > SIZE_MAX / size)
		return NULL;
	p = fxt_kvzalloc_node(n * size, NUMA_NO_NODE);

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
 * fxt_cpu_alloc() - a CPU's bookkeeping, counted and charged
 * @cpu: the CPU: it comes from the CPU's NUMA node
 *
 * About 10 KiB: fxt_kvzalloc_node(), so that a fragmented machine is not
 * pressed for an order-2 block it may not have.
 *
 * Return: the zeroed struct, or NULL.
 */
struct fxt_cpu *fxt_cpu_alloc(unsigned int cpu)
{
	struct fxt_cpu *c = fxt_kvzalloc_node(sizeof(*c), cpu_to_node(cpu));

	if (c)
		fxt_mem_account(sizeof(*c));
	return c;
}

/**
 * fxt_cpu_free() - free what fxt_cpu_alloc() gave
 * @c: the struct, or NULL
 */
void fxt_cpu_free(struct fxt_cpu *c)
{
	if (c) {
		kvfree(c);
		fxt_mem_account(-(long)sizeof(*c));
	}
}

/**
 * fxt_mem_affordable() - may the buffers take @bytes?
 * @bytes: what they would take in all
 *
 * Not more than half the memory available now: asking the page allocator
 * for more would wake the OOM killer on the way to failing, and a tracer
 * must not take a machine's last memory.
 *
 * Return: whether they may.
 */
bool fxt_mem_affordable(u64 bytes)
{
	return bytes <= ((u64)si_mem_available() << PAGE_SHIFT) / 2;
}

/**
 * fxt_region_alloc() - a CPU's buffer region, counted
 * @cpu: the CPU it is for: its pages come from the CPU's NUMA node
 * @bytes: the size, a multiple of the page size
 * @pages: set to the region's pages, for the mapping and for freeing
 *
 * Zeroed pages, charged to the caller's memory cgroup (FXT_GFP), mapped
 * contiguously for the kernel (vmap()). A gigabyte takes seconds: the
 * caller may be killed meanwhile, and then gets NULL at once (its caller
 * tells that from ENOMEM by fatal_signal_pending()).
 *
 * Return: the region's kernel address, or NULL.
 */
void *fxt_region_alloc(unsigned int cpu, unsigned long bytes,
		       struct page ***pages)
{
	unsigned long i, n = bytes >> PAGE_SHIFT;
	gfp_t gfp = FXT_GFP | __GFP_ZERO | __GFP_NOWARN;
	int node = cpu_to_node(cpu);
	struct page **p;
	void *addr;

	p = fxt_kvzalloc_node(n * sizeof(*p), node);
	if (!p)
		return NULL;
	for (i = 0; i < n; i++) {
		if (!(i % 256)) {
			if (fatal_signal_pending(current))
				goto fail;
			cond_resched();
		}
		p[i] = alloc_pages_node(node, gfp, 0);
		if (!p[i])
			goto fail;
	}
	addr = vmap(p, n, VM_MAP, PAGE_KERNEL);
	if (!addr)
		goto fail;
	fxt_mem_account(bytes + n * sizeof(*p));
	*pages = p;
	return addr;
fail:
	while (i--)
		__free_page(p[i]);
	kvfree(p);
	return NULL;
}

/**
 * fxt_region_free() - free what fxt_region_alloc() gave
 * @addr: the region, or NULL
 * @pages: its pages
 * @bytes: its size
 */
void fxt_region_free(void *addr, struct page **pages, unsigned long bytes)
{
	unsigned long i, n = bytes >> PAGE_SHIFT;

	if (!addr)
		return;
	vunmap(addr);
	for (i = 0; i < n; i++)
		__free_page(pages[i]);
	kvfree(pages);
	fxt_mem_account(-(long)(bytes + n * sizeof(*pages)));
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
