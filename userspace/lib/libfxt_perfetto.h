/* SPDX-License-Identifier: MIT */
/*
 * libfxt: Perfetto's packets embedded in blob records (lib/perfetto_blob.c):
 * the loss report the collector writes, the power events fxt.ko writes.
 */
#ifndef LIBFXT_PERFETTO_H
#define LIBFXT_PERFETTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libfxt_writer.h"

/*
 * Perfetto's embedded packets (lib/perfetto_blob.c): a blob of
 * FXT_BLOB_TYPE_PERFETTO that tells Perfetto CPU cpu lost events (its
 * stats' ftrace_cpu_has_data_loss). fxt_perfetto_lost_events() lays out
 * the payload in buf: its size, 0 when cap < FXT_PERFETTO_LOST_EVENTS_MAX.
 */
#define FXT_PERFETTO_LOST_EVENTS_MAX	32
size_t fxt_perfetto_lost_events(uint32_t cpu, uint8_t *buf, size_t cap);
int fxt_write_perfetto_lost_events(struct fxt_writer *w, uint32_t cpu);

/* A power event of an embedded packet (include/fxt/perfetto_blob.h). */
struct fxt_power_event {
	uint32_t cpu;		/* the bundle's CPU */
	uint32_t cpu_id;	/* the event's cpu_id: the CPU it is about */
	uint64_t ts;		/* ns */
	uint32_t pid;
	unsigned int event;	/* FXT_PB_EVENT_CPU_IDLE or _CPU_FREQUENCY */
	uint32_t state;		/* idle state (FXT_PB_IDLE_EXIT: out), or kHz */
};

/*
 * The cpu_idle and cpu_frequency events of a blob of FXT_BLOB_TYPE_PERFETTO
 * (serialized perfetto.protos.Trace), in order: the first max of them in
 * out. Other packets and events are skipped.
 * Return: how many there are, or -1 when the payload is malformed.
 */
int fxt_perfetto_power_events(const void *payload, size_t size,
			      struct fxt_power_event *out, size_t max);

/*
 * The time of a blob of FXT_BLOB_TYPE_PERFETTO: its first power event's
 * (a blob record has no timestamp word; fxt.ko writes one event per blob,
 * reserved at that time). False when it holds none (a loss report).
 */
bool fxt_perfetto_blob_time(const void *payload, size_t size, uint64_t *ts_ns);

#endif /* LIBFXT_PERFETTO_H */
