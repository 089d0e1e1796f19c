// SPDX-License-Identifier: MIT
/*
 * trigger_note.c - the words for a TRIGGERED packet: which thread (its
 * name read from /proc while it lives) and what the trigger measured.
 */
#include <stdio.h>
#include <string.h>

#include "trigger_note.h"

/* " (name)" of a thread still alive, from /proc; "" otherwise. */
static void thread_comm(uint32_t tid, char *buf, size_t size)
{
	char path[48], comm[32] = "";
	FILE *f;

	buf[0] = 0;
	snprintf(path, sizeof(path), "/proc/%u/comm", tid);
	f = tid ? fopen(path, "re") : NULL;
	if (!f)
		return;
	if (fgets(comm, sizeof(comm), f) && comm[0] != '\n') {
		comm[strcspn(comm, "\n")] = 0;
		snprintf(buf, size, " (%s)", comm);
	}
	fclose(f);
}

void fxt_trigger_note(const struct fxt_device_trigger *t, uint32_t kind,
		      char *buf, size_t size)
{
	char comm[40];

	thread_comm(t->tid, comm, sizeof(comm));
	switch (kind) {
	case FXT_TRIGGER_WAKEUP_LATENCY:
		snprintf(buf, size, "tid %u%s waited %.3f ms from its wakeup to running",
			 t->tid, comm, (double)t->latency_ns / 1e6);
		break;
	case FXT_TRIGGER_OFF_CPU:
		snprintf(buf, size, "tid %u%s was off CPU for %.3f ms",
			 t->tid, comm, (double)t->latency_ns / 1e6);
		break;
	case FXT_TRIGGER_IRQ_DURATION:
		snprintf(buf, size, "an interrupt ran for %.3f ms",
			 (double)t->latency_ns / 1e6);
		break;
	default:
		snprintf(buf, size, "tid %u%s, latency %.3f ms", t->tid, comm,
			 (double)t->latency_ns / 1e6);
		break;
	}
}
