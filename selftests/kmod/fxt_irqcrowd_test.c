// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_irqcrowd_test.ko - selftest helper for fxt_irqchurn, loaded only in
 * the qemu guest: a crowd of interrupt handlers, each with its own name,
 * on one shared line, so that every interrupt on the line runs more
 * (irq, name) pairs than a CPU's handler-name cache has slots, as tens of
 * MSI-X queues affined to one CPU do on a real machine.
 *
 * insmod with irq=N (a shared line that fires: the guest's virtio-rng
 * line) and count=K adds K handlers named "fxtc-000" .. "fxtc-K-1". They
 * claim no interrupt (IRQ_NONE: the line's device driver handles them);
 * reading the parameter "calls" gives how many times they ran in all.
 */
#include <linux/atomic.h>
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>

#define FXTC_NAME_LEN	16
#define FXTC_MAX	1024

static int irq = -1;
module_param(irq, int, 0444);
MODULE_PARM_DESC(irq, "the shared interrupt line to crowd");

static int count = 300;
module_param(count, int, 0444);
MODULE_PARM_DESC(count, "handlers to add (1..1024)");

static char (*fxtc_names)[FXTC_NAME_LEN];
static int fxtc_added;
static atomic_long_t fxtc_calls;

static irqreturn_t fxtc_handler(int line, void *dev_id)
{
	atomic_long_inc(&fxtc_calls);
	return IRQ_NONE;
}

static int fxtc_calls_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%ld\n", atomic_long_read(&fxtc_calls));
}

static const struct kernel_param_ops fxtc_calls_ops = {
	.get = fxtc_calls_get,
};

module_param_cb(calls, &fxtc_calls_ops, NULL, 0444);
MODULE_PARM_DESC(calls, "runs of all the crowd's handlers");

static void fxtc_remove(void)
{
	/* dev_id: each handler's own name buffer, unique on the line. */
	while (fxtc_added)
		free_irq(irq, fxtc_names[--fxtc_added]);
	kfree(fxtc_names);
}

static int __init fxtc_init(void)
{
	int ret = 0;

	if (irq < 0 || count < 1 || count > FXTC_MAX)
		return -EINVAL;
	fxtc_names = kcalloc(count, FXTC_NAME_LEN, GFP_KERNEL);
	if (!fxtc_names)
		return -ENOMEM;
	while (fxtc_added < count) {
		char *name = fxtc_names[fxtc_added];

		snprintf(name, FXTC_NAME_LEN, "fxtc-%03d", fxtc_added);
		ret = request_irq(irq, fxtc_handler, IRQF_SHARED, name, name);
		if (ret)
			break;
		fxtc_added++;
	}
	if (ret)
		fxtc_remove();
	return ret;
}

static void __exit fxtc_exit(void)
{
	fxtc_remove();
}

module_init(fxtc_init);
module_exit(fxtc_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("fxt selftest: many named handlers on one shared line");
