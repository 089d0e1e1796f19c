/* SPDX-License-Identifier: MIT */
/*
 * trigger_note.h - a latency trigger's firing in words, as fxt-collect
 * prints it (collect/trigger_note.c).
 */
#ifndef LIBFXT_TRIGGER_NOTE_H
#define LIBFXT_TRIGGER_NOTE_H

#include <stddef.h>
#include <stdint.h>

#include "device.h"

/*
 * What the firing t of a trigger of kind (FXT_TRIGGER_*, 0 if unknown)
 * measured, into buf: "tid 42 (name) waited 12.345 ms from its wakeup to
 * running", the name from /proc while the thread is alive.
 */
void fxt_trigger_note(const struct fxt_device_trigger *t, uint32_t kind,
		      char *buf, size_t size);

#endif /* LIBFXT_TRIGGER_NOTE_H */
