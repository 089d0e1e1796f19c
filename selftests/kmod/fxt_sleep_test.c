// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_sleep_test.ko - selftest helper for fxt_states, loaded only in the
 * qemu guest: it puts the writing thread into uninterruptible sleep (D)
 * in functions the test can name, so that the sleep events' "blocked_in"
 * can be checked against them and against /proc/PID/wchan.
 *
 * /proc/fxt_sleep_test, write-only (root), one command per write:
 *   "msleep MS": msleep(MS): D in msleep().
 *   "hold MS":   take the test's mutex, msleep(MS), release it.
 *   "take":      take the test's mutex in fxt_sleep_test_take() and
 *                release it: D there while another writer holds it.
 */
#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/proc_fs.h>
#include <linux/uaccess.h>

static DEFINE_MUTEX(fxt_sleep_test_mutex);
static struct proc_dir_entry *fxt_sleep_test_entry;

/* Not inlined: the function a blocked taker's wchan names. */
static noinline void fxt_sleep_test_take(void)
{
	mutex_lock(&fxt_sleep_test_mutex);
	mutex_unlock(&fxt_sleep_test_mutex);
}

static ssize_t fxt_sleep_test_write(struct file *file, const char __user *ubuf,
				    size_t len, loff_t *pos)
{
	char buf[32];
	unsigned int ms;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (sscanf(buf, "msleep %u", &ms) == 1 && ms <= 10000) {
		msleep(ms);
	} else if (sscanf(buf, "hold %u", &ms) == 1 && ms <= 10000) {
		mutex_lock(&fxt_sleep_test_mutex);
		msleep(ms);
		mutex_unlock(&fxt_sleep_test_mutex);
	} else if (!strncmp(buf, "take", 4)) {
		fxt_sleep_test_take();
	} else {
		return -EINVAL;
	}
	return len;
}

static const struct proc_ops fxt_sleep_test_ops = {
	.proc_write = fxt_sleep_test_write,
	.proc_lseek = noop_llseek,
};

static int __init fxt_sleep_test_init(void)
{
	fxt_sleep_test_entry = proc_create("fxt_sleep_test", 0200, NULL,
					   &fxt_sleep_test_ops);
	return fxt_sleep_test_entry ? 0 : -ENOMEM;
}

static void __exit fxt_sleep_test_exit(void)
{
	proc_remove(fxt_sleep_test_entry);
}

module_init(fxt_sleep_test_init);
module_exit(fxt_sleep_test_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("fxt selftest helper: uninterruptible sleeps on demand");
