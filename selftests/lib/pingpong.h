/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pingpong.h - the scenario shared by fxt_pingpong and fxt_wakeup.
 *
 * 1. load the oracle (filter: this process minus the main thread);
 * 2. start userspace/fxt-collect -o ARCHIVE -m streaming as a child, with
 *    stdout and stderr in a log file, and wait for its line
 *    "fxt-collect: tracing started";
 * 3. attach the oracle;
 * 4. create two threads that ping-pong one byte over two pipes N times;
 * 5. join them, wait until /proc/self/task/<tid> is gone and the oracle saw
 *    both final switches (prev_state TASK_DEAD): neither thread can switch
 *    or be woken again, so the two windows hold all of their events;
 * 6. detach the oracle, SIGINT the collector and wait for it;
 * 7. count the archive (archive.h) and run userspace/fxt-dump --check on it.
 *
 * Nothing else runs in this process meanwhile (no helper threads), so
 * "threads of this process except the main thread" are exactly the two.
 *
 * Environment: FXT_PINGPONG_N (round trips, default 20000), FXT_COLLECT and
 * FXT_DUMP (tool paths, default userspace/fxt-collect and userspace/fxt-dump
 * next to this binary's selftests/), FXT_COLLECT_ARGS (extra arguments,
 * split on spaces), FXT_COLLECT_TIMEOUT (seconds to start and to finish,
 * default 120), FXT_SELFTEST_TMP (directory for archives and logs, /tmp).
 */
#ifndef FXT_SELFTESTS_PINGPONG_H
#define FXT_SELFTESTS_PINGPONG_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "archive.h"
#include "collector.h"

enum pingpong_pin {
	PINGPONG_PIN_NONE,		/* let the scheduler place and migrate them */
	PINGPONG_PIN_SPREAD,		/* thread A on the first CPU, B on the last */
};

struct pingpong_config {
	const char *name;		/* names the archive and log files */
	unsigned long rounds;		/* round trips */
	enum pingpong_pin pin;
};

struct pingpong_result {
	/* How far the scenario got; why says what stopped it. */
	bool ran;			/* threads ran inside both windows */
	bool have_archive;		/* the archive was counted */
	bool dump_ran;			/* fxt-dump --check ran */
	char why[512];

	unsigned long rounds;		/* round trips asked for */
	pid_t tid[2];
	double seconds;			/* ping-pong wall time */
	int nr_cpus;			/* oracle CPU slots */

	/* Oracle, per CPU (index < nr_cpus) and in total. */
	uint64_t or_switches[ARCHIVE_MAX_PROVIDERS], or_switches_total;
	uint64_t or_wakeups[ARCHIVE_MAX_PROVIDERS], or_wakeups_total;
	uint64_t or_digest[ARCHIVE_MAX_PROVIDERS];	/* switch order (oracle.bpf.h) */
	uint64_t or_all_total;
	uint64_t or_exits;
	uint64_t or_misses;

	int collector_status;		/* wait status of fxt-collect */
	int dump_status;		/* wait status of fxt-dump --check */
	struct archive_counts arc;
	bool have_lib;			/* libfxt counted the archive too */
	struct archive_lib_counts lib;

	char archive[PATH_MAX];
	char collect_log[PATH_MAX];
	char dump_log[PATH_MAX];
};

/* Read the environment into cfg (name and pin stay as given). */
void pingpong_config_from_env(struct pingpong_config *cfg);

/* Run the scenario; r says how far it got. Return: r->ran && r->have_archive. */
bool pingpong_run(const struct pingpong_config *cfg, struct pingpong_result *r);

/* Print r as "# " TAP diagnostics. */
void pingpong_print(const struct pingpong_result *r);

#endif /* FXT_SELFTESTS_PINGPONG_H */
