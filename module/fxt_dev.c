// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_dev.c - /dev/fxt: one opener, ioctls for control, a read-only
 * mapping of the buffers, and the packet hand-shake over read/write/poll.
 *
 * Only CAP_PERFMON or CAP_SYS_ADMIN may open the device (node mode 0600).
 * The file pins the module (fops.owner) and every mapping pins the file, so
 * the module cannot go away while the buffers are open or mapped.
 */
#include <linux/kernel.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/vmalloc.h>
#include <linux/poll.h>
#include <linux/uaccess.h>
#include <linux/capability.h>
#include <linux/nospec.h>
#include "fxt.h"
#include "fxt_buffer.h"

static atomic_t fxt_opened = ATOMIC_INIT(0);

/*
 * The mapping never becomes writable (VM_MAYWRITE cleared: mprotect() cannot
 * add PROT_WRITE), and a fork() does not copy it (VM_DONTCOPY): the
 * collector forks after mapping, and a child must not inherit the buffers
 * (nor keep the session's map_count up). vm_flags is written through
 * vm_flags_set()/vm_flags_clear() from 6.3 (Kbuild probes).
 */
static void fxt_vma_set_flags(struct vm_area_struct *vma)
{
#ifdef FXT_HAVE_VM_FLAGS_CLEAR
	vm_flags_set(vma, VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP);
	vm_flags_clear(vma, VM_MAYWRITE);
#else
	vma->vm_flags |= VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP;
	vma->vm_flags &= ~VM_MAYWRITE;
#endif
}

static int fxt_open(struct inode *inode, struct file *file)
{
	if (!perfmon_capable())
		return -EPERM;
	if (atomic_cmpxchg(&fxt_opened, 0, 1))
		return -EBUSY;
	file->private_data = &fxt_session;
	/* No .llseek: nonseekable_open() makes lseek() fail with ESPIPE. */
	return nonseekable_open(inode, file);
}

static int fxt_release(struct inode *inode, struct file *file)
{
	fxt_session_release(file->private_data);
	atomic_set(&fxt_opened, 0);
	return 0;
}

static long fxt_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	return fxt_session_ioctl(file->private_data, cmd, arg);
}

static void fxt_vm_open(struct vm_area_struct *vma)
{
	struct fxt_session *s = vma->vm_file->private_data;

	atomic_inc(&s->map_count);
}

static void fxt_vm_close(struct vm_area_struct *vma)
{
	struct fxt_session *s = vma->vm_file->private_data;

	atomic_dec(&s->map_count);
}

static const struct vm_operations_struct fxt_vm_ops = {
	.open = fxt_vm_open,
	.close = fxt_vm_close,
};

/*
 * Insert the pages of the regions @vma covers: region c at c * cpu_stride.
 * A CPU without a region (not present at INITIALIZE) leaves a hole, and
 * touching it raises SIGBUS.
 */
static int fxt_map_regions(struct fxt_session *s, struct vm_area_struct *vma)
{
	unsigned long first = vma->vm_pgoff, n = vma_pages(vma);
	unsigned long total = s->map_size >> PAGE_SHIFT;
	unsigned long per_cpu = s->cpu_stride >> PAGE_SHIFT;
	unsigned long i, pg;
	struct fxt_cpu *c;
	int ret;

	if (first > total || n > total - first)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		pg = first + i;
		/* pg < total, from user space: no speculation past the bound. */
		c = s->cpus[array_index_nospec(pg / per_cpu, nr_cpu_ids)];
		if (!c)
			continue;
		ret = vm_insert_page(vma, vma->vm_start + i * PAGE_SIZE,
				     c->pages[pg % per_cpu]);
		if (ret)
			return ret;
		if (!(i % 1024))
			cond_resched();
	}
	return 0;
}

/*
 * Map the buffers read-only. Return: 0, -EBADFD before initialize, -EPERM
 * for a writable mapping, -EINVAL for a range outside the buffers.
 */
static int fxt_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct fxt_session *s = file->private_data;
	int ret;

	if (vma->vm_flags & VM_WRITE)
		return -EPERM;
	mutex_lock(&s->lock);
	if (!s->cpus) {
		ret = -EBADFD;
		goto out;
	}
	fxt_vma_set_flags(vma);
	ret = fxt_map_regions(s, vma);
	if (!ret) {
		vma->vm_ops = &fxt_vm_ops;
		atomic_inc(&s->map_count);
	}
out:
	mutex_unlock(&s->lock);
	return ret;
}

static ssize_t fxt_read(struct file *file, char __user *buf, size_t count,
			loff_t *ppos)
{
	return fxt_packets_read(file->private_data, buf, count,
				file->f_flags & O_NONBLOCK);
}

/* Packets fxt_write() copies in per batch, before it takes s->lock. */
#define FXT_WRITE_BATCH		16

/*
 * BUFFER_SAVED packets from the collector. Return: bytes consumed, -EINVAL
 * for a partial packet or one that answers no outstanding request, -EBADFD
 * when the session is not streaming or has no buffers, -EFAULT.
 *
 * Packets are copied from user space before s->lock is taken: fxt_mmap()
 * takes s->lock under mmap_lock, and a fault in copy_from_user() takes
 * mmap_lock, so copying under s->lock could deadlock against an mmap().
 */
static ssize_t fxt_write(struct file *file, const char __user *buf,
			 size_t count, loff_t *ppos)
{
	struct fxt_session *s = file->private_data;
	struct fxt_packet pkts[FXT_WRITE_BATCH];
	size_t done = 0;
	int ret = 0;

	if (!count || count % sizeof(pkts[0]))
		return -EINVAL;
	while (!ret && done < count) {
		size_t n = min_t(size_t, (count - done) / sizeof(pkts[0]),
				 FXT_WRITE_BATCH);
		size_t i;

		if (copy_from_user(pkts, buf + done, n * sizeof(pkts[0]))) {
			ret = -EFAULT;
			break;
		}
		mutex_lock(&s->lock);
		if (!s->cpus || s->mode != FXT_MODE_STREAMING)
			ret = -EBADFD;
		for (i = 0; !ret && i < n; i++) {
			ret = fxt_buffer_saved(s, &pkts[i]);
			if (!ret)
				done += sizeof(pkts[0]);
		}
		mutex_unlock(&s->lock);
	}
	return done ? done : ret;
}

static __poll_t fxt_poll(struct file *file, poll_table *wait)
{
	struct fxt_session *s = file->private_data;

	poll_wait(file, &s->pkt_wait, wait);
	return fxt_packets_pending(s) ? EPOLLIN | EPOLLRDNORM : 0;
}

const struct file_operations fxt_fops = {
	.owner = THIS_MODULE,
	.open = fxt_open,
	.release = fxt_release,
	.unlocked_ioctl = fxt_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.mmap = fxt_mmap,
	.read = fxt_read,
	.write = fxt_write,
	.poll = fxt_poll,
};
