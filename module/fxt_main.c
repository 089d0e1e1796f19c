// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_main.c - module entry: find the tracepoints, register /dev/fxt.
 *
 * fxt records what the scheduler does (context switches, wakeups, interrupts,
 * thread names) into per-CPU buffers in the Fuchsia Trace Format.
 * Documentation/ explains the buffers, the ABI and the records.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/miscdevice.h>
#include "fxt.h"
#include "fxt_tables.h"

struct fxt_session fxt_session;

static struct miscdevice fxt_miscdev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "fxt",
	.fops = &fxt_fops,
	.mode = 0600,
};

static int __init fxt_init(void)
{
	int ret;

	ret = fxt_probes_find();
	if (ret)
		return ret;
	fxt_tables_init();
	ret = fxt_sleep_init();
	if (ret)
		return ret;
	ret = fxt_session_init(&fxt_session);
	if (ret)
		goto err_sleep;
	ret = fxt_hotplug_init();
	if (ret)
		goto err_session;
	ret = misc_register(&fxt_miscdev);
	if (ret)
		goto err_hotplug;
	return 0;

err_hotplug:
	fxt_hotplug_exit();
err_session:
	fxt_session_exit(&fxt_session);
err_sleep:
	fxt_sleep_exit();
	return ret;
}

static void __exit fxt_exit(void)
{
	/* No opener is left (the file pins the module): nothing is hooked. */
	misc_deregister(&fxt_miscdev);
	fxt_hotplug_exit();
	fxt_session_exit(&fxt_session);
	fxt_sleep_exit();
}

module_init(fxt_init);
module_exit(fxt_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("fxt developers");
MODULE_DESCRIPTION("Scheduler tracer writing the Fuchsia Trace Format");
