/* SPDX-License-Identifier: GPL-2.0 */
/*
 * collector.h - fxt-collect as a child of a selftest: start it and wait for
 * its line "fxt-collect: tracing started" (every probe live), stop it with
 * SIGINT. The one copy of that dance for every selftest.
 *
 * Environment: FXT_COLLECT (tool path, default userspace/fxt-collect of the
 * repository this binary's selftests/ lives in), FXT_COLLECT_TIMEOUT
 * (seconds to start and to stop, default 120), FXT_SELFTEST_TMP (default
 * /tmp).
 */
#ifndef FXT_SELFTESTS_COLLECTOR_H
#define FXT_SELFTESTS_COLLECTOR_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>

#include "child.h"

/* fxt-collect's stderr line once every CPU is tracing. */
#define COLLECTOR_STARTED_LINE	"fxt-collect: tracing started"

/* $FXT_COLLECT_TIMEOUT: seconds to start and to stop, default 120. */
double collector_timeout(void);

/*
 * Start fxt-collect -o archive [args] (NULL-terminated list) with its output
 * in log, without waiting. Return: pid or -errno.
 */
pid_t collector_spawn(const char *archive, const char *log,
		      const char *const *args);

/*
 * Remove archive, start fxt-collect -o archive [-m mode] [extra...] (mode
 * NULL: no -m; extra a NULL-terminated list or NULL) with its output in
 * log and wait collector_timeout() for COLLECTOR_STARTED_LINE.
 * Return: pid, or -errno with why filled in and the collector not running
 * (-ECHILD: it exited first, its log printed; -ETIMEDOUT: killed).
 */
pid_t collector_start(const char *archive, const char *mode,
		      const char *const *extra, const char *log,
		      char *why, size_t why_size);

/* A collector whose archive and log are named after a test. */
struct collector {
	pid_t pid;			/* -1: not running */
	int status;			/* wait status after collector_stop() */
	char archive[PATH_MAX];		/* $FXT_SELFTEST_TMP/NAME.fxt */
	char log[PATH_MAX];		/* $FXT_SELFTEST_TMP/NAME-collect.log */
};

/*
 * collector_start() for c, named name, with -m streaming (and the extra
 * arguments, a NULL-terminated list, of collector_start_named_with()).
 * Return: 0, or -1 with why filled in (the collector is then not running).
 */
int collector_start_named_with(struct collector *c, const char *name,
				const char *const *extra, char *why, size_t why_size);
int collector_start_named(struct collector *c, const char *name, char *why,
			  size_t why_size);
/*
 * SIGINT, wait collector_timeout() (then SIGKILL).
 * Return: 0 when it exited 0, else -1 with why filled in.
 */
int collector_stop(struct collector *c, char *why, size_t why_size);

#endif /* FXT_SELFTESTS_COLLECTOR_H */
