// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_irqname_test.ko - selftest helper for fxt_irqname, loaded only in the
 * qemu guest: an interrupt handler whose name changes while the name's
 * address does not, as after a driver reload that allocates the new name
 * where the old one was.
 *
 * insmod with irq=N (a shared line that fires: the guest's virtio-rng
 * line) adds a handler named "fxtq-old" to the line; the name lives in a
 * buffer this module allocated. Writing 1 to the parameter "swap" removes
 * the handler, writes "fxtq-new" into the same buffer and adds the handler
 * again: a new action whose name is at the old name's address. Writing 1
 * to "remove" removes it for good. The handler claims no interrupt
 * (IRQ_NONE: the line's device driver handles them); reading the
 * parameter "calls" gives how many times it ran under each name, "OLD
 * NEW": the number of irq_handler_entry events fxt must have written with
 * each name.
 */
#include <linux/atomic.h>
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

#define FXTQ_NAME_LEN	16

static int irq = -1;
module_param(irq, int, 0444);
MODULE_PARM_DESC(irq, "the shared interrupt line to add a handler to");

static DEFINE_MUTEX(fxtq_lock);
static char *fxtq_name;		/* the handler's name, one buffer throughout */
static int fxtq_phase;		/* 0: "fxtq-old", 1: "fxtq-new", 2: removed */
static atomic_t fxtq_calls[2];
static int fxtq_cookie;		/* dev_id: shared lines need a unique one */

static irqreturn_t fxtq_handler(int line, void *dev_id)
{
	atomic_inc(&fxtq_calls[READ_ONCE(fxtq_phase)]);
	return IRQ_NONE;
}

static int fxtq_swap_set(const char *val, const struct kernel_param *kp)
{
	int ret;

	mutex_lock(&fxtq_lock);
	if (fxtq_phase) {
		ret = -EALREADY;
		goto out;
	}
	/* The handler has run for the last time under the old name. */
	free_irq(irq, &fxtq_cookie);
	strscpy(fxtq_name, "fxtq-new", FXTQ_NAME_LEN);
	WRITE_ONCE(fxtq_phase, 1);
	ret = request_irq(irq, fxtq_handler, IRQF_SHARED, fxtq_name,
			  &fxtq_cookie);
	if (ret)
		fxtq_phase = 2;		/* no handler on the line now */
out:
	mutex_unlock(&fxtq_lock);
	return ret;
}

static const struct kernel_param_ops fxtq_swap_ops = {
	.set = fxtq_swap_set,
};

module_param_cb(swap, &fxtq_swap_ops, NULL, 0200);
MODULE_PARM_DESC(swap, "write 1: re-add the handler renamed, same address");

static int fxtq_remove_set(const char *val, const struct kernel_param *kp)
{
	mutex_lock(&fxtq_lock);
	if (fxtq_phase < 2)
		free_irq(irq, &fxtq_cookie);
	fxtq_phase = 2;
	mutex_unlock(&fxtq_lock);
	return 0;
}

static const struct kernel_param_ops fxtq_remove_ops = {
	.set = fxtq_remove_set,
};

module_param_cb(remove, &fxtq_remove_ops, NULL, 0200);
MODULE_PARM_DESC(remove, "write 1: remove the handler (calls are final)");

static int fxtq_calls_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d %d\n", atomic_read(&fxtq_calls[0]),
			  atomic_read(&fxtq_calls[1]));
}

static const struct kernel_param_ops fxtq_calls_ops = {
	.get = fxtq_calls_get,
};

module_param_cb(calls, &fxtq_calls_ops, NULL, 0444);
MODULE_PARM_DESC(calls, "handler runs as \"fxtq-old\" and as \"fxtq-new\"");

static int __init fxtq_init(void)
{
	int ret;

	if (irq < 0)
		return -EINVAL;
	fxtq_name = kmalloc(FXTQ_NAME_LEN, GFP_KERNEL);
	if (!fxtq_name)
		return -ENOMEM;
	strscpy(fxtq_name, "fxtq-old", FXTQ_NAME_LEN);
	ret = request_irq(irq, fxtq_handler, IRQF_SHARED, fxtq_name,
			  &fxtq_cookie);
	if (ret)
		kfree(fxtq_name);
	return ret;
}

static void __exit fxtq_exit(void)
{
	if (fxtq_phase < 2)
		free_irq(irq, &fxtq_cookie);
	kfree(fxtq_name);
}

module_init(fxtq_init);
module_exit(fxtq_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("fxt selftest: an IRQ handler renamed at the same address");
