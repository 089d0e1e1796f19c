/* SPDX-License-Identifier: MIT */
/*
 * session.h - one recording run of fxt-collect (collect/session.c): the
 * device prepared and started, the packets answered until the run ends
 * (-t, the command's exit, a signal) or a trigger's --post has passed,
 * then stop, drain, final save and trailer; with triggers, window after
 * window into "-k" archives (fxt_window_path()).
 *
 * The caller fills the options, the signal flags and the status hook
 * after fxt_session_init(). Every function returns 0 (or what it says) on
 * success and -errno on failure, with a message fit for the user in
 * s->dev.err (the tool prefixes its name). Progress lines and warnings go
 * to stderr as "PROG: ..." and "PROG: warning: ...".
 */
#ifndef LIBFXT_SESSION_H
#define LIBFXT_SESSION_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include <linux/fxt.h>
#include "command.h"
#include "device.h"
#include "libfxt.h"

#define FXT_SESSION_POST_DEFAULT_NS	100000000ull	/* --post */
/* After --post: every CPU has stopped writing by then. */
#define FXT_SESSION_POST_MARGIN_NS	20000000ull
/* Koids whose newest name the trailer can restore: about 80 bytes each. */
#define FXT_SESSION_NEWEST_MAX_KOIDS	(1u << 21)

enum fxt_session_end {
	FXT_SESSION_END_RUN,	/* -t, the command's exit or a signal: no more windows */
	FXT_SESSION_END_WINDOW,	/* a trigger fired and --post has passed */
};

/* What the status hook is told, from fxt_session_trace(). */
enum fxt_session_event {
	FXT_SESSION_BEGIN,	/* the loop starts */
	FXT_SESSION_TICK,	/* a turn of the loop: redraw if it is time */
	FXT_SESSION_LINE,	/* a line is about to be printed */
	FXT_SESSION_DONE,	/* the loop ended */
};

struct fxt_session {
	/* Options, set by the caller (fxt_session_init() gives defaults). */
	const char *prog;		/* names the tool in messages */
	const char *output;
	const char *device;
	const char *category_list;	/* NULL: all */
	uint32_t mode;
	uint64_t buffer_size;
	double seconds;			/* -t, or 0 */
	char **command;			/* NULL: none */
	struct fxt_trigger_set triggers;
	const char *trigger_spec[FXT_MAX_TRIGGERS];
	unsigned int windows;		/* to save; 0: as many as fire */
	/*
	 * The flight recorder's directory (window_dir.h), instead of output:
	 * each window is saved there under the time it was saved, and the
	 * oldest go first past keep_windows (0: any number) or keep_bytes
	 * (0: any size).
	 */
	const char *output_dir;
	unsigned int keep_windows;
	uint64_t keep_bytes;
	/*
	 * Circular mode: keep each CPU's whole window, from before the
	 * others' records begin (--window-start per-cpu), instead of the
	 * common start (Documentation/buffers.rst, "Window edges").
	 */
	bool per_cpu_window_start;

	/* Set by the caller's signal handlers. */
	volatile sig_atomic_t *stop_requested;
	volatile sig_atomic_t *child_exited;
	/* The caller's status line, or NULL. */
	void (*status)(struct fxt_session *s, enum fxt_session_event ev);

	/* What happened. */
	unsigned int window;		/* the one being recorded, from 1 */
	char *window_path;		/* its archive, when not output */
	uint64_t trigger_missed;	/* over all windows */
	uint64_t deadline;		/* -t: the end of the run, or 0 */
	bool announced;			/* this window's firing was printed */
	uint64_t archive_bytes;		/* of the last archive saved */
	int renamed;			/* names its trailer restated */
	unsigned int windows_lost;	/* output_dir: not saved, the disk full */
	bool disk_full_said;		/* since the last window saved */
	bool discarding;		/* this window goes to /dev/null */

	struct fxt_device dev;
	int out;
	struct fxt_writer w;
	struct fxt_command cmd;
	struct fxt_newest *names;	/* NULL: no trailer */
};

void fxt_session_init(struct fxt_session *s, const char *prog);
/* The archive of the window being recorded. */
const char *fxt_session_path(const struct fxt_session *s);
/* Open, initialize (triggers set), map, and begin the first archive. */
int fxt_session_prepare(struct fxt_session *s);
/* Start tracing, then the command, which waits for it. */
int fxt_session_start(struct fxt_session *s);
/* Answer packets until the run or the window ends: enum fxt_session_end. */
int fxt_session_trace(struct fxt_session *s);
/* Stop, save what is left and the trailer, close the archive, say so. */
int fxt_session_finish(struct fxt_session *s);
/* -t is up, the command exited or a signal came: no other window. */
bool fxt_session_run_ended(struct fxt_session *s);
/* The next window: its own archive, the buffers emptied, triggers armed. */
int fxt_session_next_window(struct fxt_session *s);
/* Trace and finish window after window until the run is over. */
int fxt_session_run(struct fxt_session *s);
/* The end of a run: per-CPU table and totals (unless quiet), warnings. */
int fxt_session_report(struct fxt_session *s, bool quiet);
/* Free the names and the path, close the device (the command is left). */
int fxt_session_close(struct fxt_session *s);

#endif /* LIBFXT_SESSION_H */
