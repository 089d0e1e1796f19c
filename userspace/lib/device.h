/* SPDX-License-Identifier: MIT */
/*
 * device.h - the read side of /dev/fxt (lib/device.c; the drain, lib/drain.c): open, initialize,
 * map, answer the streaming hand-shake, save what is left, in the order
 * Documentation/buffers.rst gives, into an archive written with a
 * struct fxt_writer.
 *
 * Every function returns 0 (or a count) on success and -errno on failure,
 * with a message fit for the user in d->err (the tool prefixes its name).
 * Warnings the session can live with go to stderr as "PROG: warning: ...".
 */
#ifndef LIBFXT_DEVICE_H
#define LIBFXT_DEVICE_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/fxt.h>
#include "libfxt.h"

/* How long to wait for a writer to finish a record it reserved. */
#define FXT_DEVICE_COMMIT_WAIT_NS	2000000000ull

struct fxt_device_cpu;

struct fxt_device {
	int fd;
	const char *prog;		/* names the tool in messages */
	struct fxt_layout layout;
	uint64_t *traced;		/* CPUs with a region (GET_CPUS), nr_cpus bits */
	const uint8_t *map;		/* NULL until fxt_device_map() */
	struct fxt_device_cpu *cpus;

	/* The archive, from fxt_device_begin_archive() on. */
	struct fxt_writer *w;
	const char *output;		/* its name, for messages */
	struct fxt_newest *names;	/* NULL: no trailer */
	uint32_t current_provider;
	bool have_provider;

	/*
	 * The FXT_PKT_TRIGGERED of the current START, once read: a latency
	 * trigger opened the window, and every CPU stops writing post_ns
	 * after the firing (fxt_device_set_triggers()).
	 */
	struct fxt_device_trigger {
		bool fired;
		uint32_t cpu;		/* where it fired */
		uint32_t index;		/* in the fxt_trigger_set */
		uint32_t tid;		/* the thread; 0 for irq-duration */
		uint64_t latency_ns;
		uint64_t read_ns;	/* fxt_monotonic_ns() when it was read */
	} triggered;

	bool results_stop;		/* the last stop was FXT_STOP_WRITE_RESULTS */
	uint64_t saves;			/* SAVE_BUFFER requests answered */
	bool truncated_chunk;		/* a chunk was cut at a bad record */
	/*
	 * The last fxt_device_save_final(): the common start of a circular
	 * window's CPUs (0: none), and the timed records left out before it.
	 */
	uint64_t clip_ns, clipped;
	/* CLOCK_BOOTTIME ns before the START that cleared the buffers, after the STOP */
	uint64_t start_ns, stop_ns;
	/* The last STOPPED's instant the recording ended at (0: not said) */
	uint64_t ended_ns;
	bool per_cpu_window_start;	/* set by the caller: no clipping */
	char err[512];			/* what the last failure was */
};

/* Records written (events: the rolling ones) and dropped, over all CPUs. */
struct fxt_device_totals {
	uint64_t written, dropped, events;
};

uint64_t fxt_monotonic_ns(void);
uint64_t fxt_boottime_ns(void);	/* the clock of fxt.ko's timestamps */

/* Opening and configuring: the session states of Documentation/abi.rst. */
int fxt_device_open(struct fxt_device *d, const char *path, const char *prog);
int fxt_device_categories(struct fxt_device *d, const char *list,
			  uint32_t *bits);
int fxt_device_init(struct fxt_device *d, const struct fxt_config *cfg);
int fxt_device_map(struct fxt_device *d);
/* Latency triggers every later START arms (circular mode; count 0: none). */
int fxt_device_set_triggers(struct fxt_device *d, const struct fxt_trigger_set *set);
/*
 * Start; forgets the last START's trigger firing. After CLEAR_ENTIRE
 * (forced after a stop that wrote results), begin a new archive: the
 * buffers start from empty again.
 */
int fxt_device_start(struct fxt_device *d, uint32_t disposition);
int fxt_device_stop(struct fxt_device *d, uint32_t flags);
int fxt_device_close(struct fxt_device *d);	/* unmap, TERMINATE, close */

/* CPUs and their statistics. */
bool fxt_device_cpu_possible(const struct fxt_device *d, uint32_t cpu);
int fxt_device_cpu_stats(struct fxt_device *d, uint32_t cpu,
			 struct fxt_cpu_stats *st);
/* cpu's statistics into st when it is possible and traced (has buffers). */
bool fxt_device_traced_stats(struct fxt_device *d, uint32_t cpu,
			     struct fxt_cpu_stats *st);
void fxt_device_totals(const struct fxt_device *d, struct fxt_device_totals *t);
/*
 * Warn when CPUs added after INITIALIZE (no buffers, not traced) lost
 * events: how many CPUs, the first, and the events.
 */
void fxt_device_warn_untraced(struct fxt_device *d);

/*
 * The archive: magic and one provider per CPU (after fxt_device_map()),
 * then the saves, then the trailer. names may be NULL.
 */
int fxt_device_begin_archive(struct fxt_device *d, struct fxt_writer *w,
			     const char *output, struct fxt_newest *names);
/* Read and answer the packets waiting: 1 once STOPPED was read, else 0. */
int fxt_device_handle_packets(struct fxt_device *d);
/* After fxt_device_stop(): answer every request up to STOPPED. */
int fxt_device_drain(struct fxt_device *d);
/* What is left after the stop, per CPU, oldest first. */
int fxt_device_save_final(struct fxt_device *d);
/* The newest-name trailer: the names restated (0 without names). */
int fxt_device_write_trailer(struct fxt_device *d);
/* All of it at once into a new file at path, after a stop. */
int fxt_device_save_file(struct fxt_device *d, const char *path);

/*
 * For the layers over a device (collect/session.c): a failure's message into
 * d->err, returning err; a warning on stderr as "PROG: warning: ...".
 */
int fxt_device_fail(struct fxt_device *d, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void fxt_device_warn(struct fxt_device *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* LIBFXT_DEVICE_H */
