/* SPDX-License-Identifier: MIT */
/*
 * progress.h - the progress indicator of the tools (fxt-dump, fxt-report).
 *
 * One line on a terminal, "\rPROG:  42% (430 of 1024 MiB)", redrawn at
 * most four times a second and cleared at the end. It is only ever written
 * to the file descriptor given (standard error), and only when that is a
 * terminal and the archive is larger than PROGRESS_MIN_BYTES: a log file or
 * a pipe never gets it, and standard output never does.
 */
#ifndef LIBFXT_PROGRESS_H
#define LIBFXT_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

#define PROGRESS_MIN_BYTES	(64ull << 20)	/* smaller archives: no indicator */
#define PROGRESS_STEP		(1ull << 20)	/* look at the clock every MiB */

struct progress {
	bool on;		/* fd is a terminal and the archive is large */
	bool shown;		/* a line is on the terminal */
	int fd;
	const char *prog;
	uint64_t total;		/* archive bytes */
	uint64_t next;		/* look at the clock again from this many bytes */
	double next_tick;	/* redraw from this time (CLOCK_MONOTONIC s) */
};

/*
 * On when fd is a terminal, total > min_bytes and allowed (the caller's
 * own condition, e.g. "standard output is not the same terminal"). Draws
 * the 0% line at once when on.
 */
void fxt_progress_init(struct progress *p, const char *prog, int fd, uint64_t total,
		   uint64_t min_bytes, bool allowed);
void fxt_progress_show(struct progress *p, uint64_t done);
/* Erase the line (before writing something else to the terminal). */
void fxt_progress_clear(struct progress *p);
/* The end: erase the line and stay off. */
void fxt_progress_end(struct progress *p);

/* done bytes of total are read: redraw if it is time. Cheap when off. */
static inline void fxt_progress_update(struct progress *p, uint64_t done)
{
	if (__builtin_expect(p->on && done >= p->next, 0))
		fxt_progress_show(p, done);
}

#endif /* LIBFXT_PROGRESS_H */
