// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_power_test.ko - selftest helper for fxt_power, loaded only in the
 * qemu guest, whose CPUs have no cpufreq driver: it fires the
 * cpu_frequency tracepoint itself, as a cpufreq driver does when it
 * changes a policy's frequency.
 *
 * Writing "KHZ CPU COUNT" to the parameter "fire" fires cpu_frequency
 * COUNT times (at most 1000) with state KHZ and cpu_id CPU, from the
 * writer's context; reading "fired" gives how many it fired in all.
 */
#include <linux/atomic.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <trace/events/power.h>

#define FXTP_MAX_COUNT	1000

static atomic_t fxtp_fired;

static int fxtp_fire_set(const char *val, const struct kernel_param *kp)
{
	unsigned int khz, cpu, count, i;

	if (sscanf(val, "%u %u %u", &khz, &cpu, &count) != 3 ||
	    count > FXTP_MAX_COUNT)
		return -EINVAL;
	for (i = 0; i < count; i++) {
		trace_cpu_frequency(khz, cpu);
		atomic_inc(&fxtp_fired);
	}
	return 0;
}

static const struct kernel_param_ops fxtp_fire_ops = {
	.set = fxtp_fire_set,
};
module_param_cb(fire, &fxtp_fire_ops, NULL, 0200);
MODULE_PARM_DESC(fire, "\"KHZ CPU COUNT\": fire cpu_frequency COUNT times");

static int fxtp_fired_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&fxtp_fired));
}

static const struct kernel_param_ops fxtp_fired_ops = {
	.get = fxtp_fired_get,
};
module_param_cb(fired, &fxtp_fired_ops, NULL, 0444);
MODULE_PARM_DESC(fired, "cpu_frequency events fired so far");

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("fxt selftest: fire cpu_frequency");
