/* SPDX-License-Identifier: GPL-2.0 */
/*
 * direct.h - /dev/fxt driven directly by a scenario, with the collector's
 * read side (userspace/lib/device.c), whose final save writes the
 * archives: open and initialize, every CPU's statistics, and threads that
 * rename themselves on one CPU (kernel object records on demand) for
 * fxt_modes, fxt_durable and fxt_restart.
 */
#ifndef FXT_SELFTESTS_DIRECT_H
#define FXT_SELFTESTS_DIRECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/fxt.h>

#include "device.h"

/*
 * Open FXT_DEVICE_PATH and initialize it. 0, or -errno with why ("open: "
 * or "initialize: " and the error) said, d closed again, and *failed set
 * when open() worked (the error is the module's: the scenario broke) and
 * left alone when not (the scenario could not start).
 */
int dev_init(struct fxt_device *d, char *why, size_t why_size, bool *failed,
	     uint32_t mode, uint64_t size, uint64_t durable, uint32_t cats);

/*
 * dev_init(), then START with FXT_START_CLEAR_ENTIRE: 0, or -errno with
 * why said and, when START failed, d closed and *failed set.
 */
int dev_start(struct fxt_device *d, char *why, size_t why_size, bool *failed,
	      uint32_t mode, uint64_t size, uint64_t durable, uint32_t cats);

/* Every possible CPU's statistics into st (indexed by CPU). 0 or -errno. */
int get_stats(struct fxt_device *d, struct fxt_cpu_stats *st);
/* The statistics of the CPUs in CPUS (scenario.h), as # lines. */
void print_stats(const char *what, const struct fxt_cpu_stats *st);
/* One of the CPUs in CPUS has flag in st's flags. */
bool any_cpu_flag(const struct fxt_cpu_stats *st, uint32_t flag);

/*
 * On each CPU of CPUS at once, a thread pinned there renames itself n
 * times ("f<tag><cpu>-<i>"), then forks and reaps forks children (kernel
 * object records on demand); returns when every one is done.
 */
void rename_on_every_cpu(int n, int forks, char tag);

#endif /* FXT_SELFTESTS_DIRECT_H */
