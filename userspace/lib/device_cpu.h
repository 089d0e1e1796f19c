/* SPDX-License-Identifier: MIT */
/*
 * device_cpu.h - what the device (lib/device.c) and the drain
 * (lib/drain.c) share of a session, and nobody else.
 */
#ifndef LIBFXT_DEVICE_CPU_H
#define LIBFXT_DEVICE_CPU_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "device.h"

/* Koids whose newest name fxt_device_save_file()'s trailer restores. */
#define SAVE_FILE_MAX_KOIDS	(1u << 20)

struct fxt_device_cpu {
	bool present;
	const volatile struct fxt_buffer_header *hdr;
	const uint8_t *base;
	uint64_t durable_saved;		/* durable bytes already in the archive */
	uint64_t dropped_reported;	/* drop count last written as a counter */
	uint64_t dropped_at_ack;	/* drop count at the last BUFFER_SAVED */
	uint64_t last_ts;		/* latest timestamp saved for this CPU */
	/*
	 * Rolling records lost, as gaps (drain.c, note_lost(), close_gap()):
	 * the count already in a gap, pending or before a circular window,
	 * and the gap not yet written: its records and its start.
	 */
	uint64_t lost_reported;
	uint64_t gap_records, gap_from;
};

/* Their short names in these two files. */
#define fail fxt_device_fail
#define warn fxt_device_warn

/* A writer's result, its failure named after the archive. */
static inline int fxt_device_check_write(struct fxt_device *d, int ret)
{
	if (ret)
		return fail(d, ret, "writing %s: %s", d->output, strerror(-ret));
	return 0;
}

#endif /* LIBFXT_DEVICE_CPU_H */
