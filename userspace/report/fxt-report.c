// SPDX-License-Identifier: MIT
/*
 * fxt-report - scheduling statistics of an FXT archive, in time order.
 *
 * Per thread: run time, switches in, preemptions, runnable wait (time
 * preempted but runnable until it runs again), wakeups and the scheduling
 * delay from a wakeup to the next switch in (p50/p90/p99/max from a
 * log-linear histogram, report/hist.h). Per CPU: busy and idle time (idle is
 * thread koid 0), hard and soft interrupt time, switches, dropped records.
 * Per interrupt handler: count, time, average and maximum. Interrupt time
 * is exclusive: a hard interrupt nested in a softirq counts for the hard
 * interrupt only. Per thread, time blocked in S and in D, and per function
 * blocked in, the D sleeps (sleep events, lib/sleep_event.c). Per CPU,
 * idle residency by state and mean frequency, when the archive has
 * cpu_idle or cpu_frequency events. Per CPU, the gaps where it lost
 * records (fxt-collect's loss records), across which nothing is counted.
 * Latency triggers' events, when there are any.
 *
 * Memory is per thread, per CPU and per handler name; records stream
 * through libfxt's merge (lib/merge.c: a first pass over the record
 * headers of the whole file, then each record decoded once; once more
 * only when two providers hold interrupts or switches of the same CPU,
 * see report_early()).
 *
 * This file is the command line; the work is in lib/report_*.c:
 * report_events.c (records to events, in time order), report_stats.c (the
 * analysis), report_pipeline.c (--threads 2), report_print.c (tables),
 * report_processes.c (the Processes section), report_blocked.c (the
 * Blocked in section), report_power.c (the Power section),
 * report_losses.c (the Losses section) and report_triggers.c (the Triggers
 * section).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libfxt.h"
#include "outbuf.h"
#include "progress.h"
#include "report_stats.h"

static const char usage[] =
"Usage: fxt-report [OPTION]... FILE\n"
"Scheduling statistics of an FXT archive, computed while streaming it.\n"
"FILE may be - for standard input.\n"
"\n"
"  -n, --top N      rows per table (default 20, 0 for all; with --csv all\n"
"                   rows unless --top is given)\n"
"  -s, --sort KEY   order of the thread table, largest first:\n"
"                   run (default), switches, preempt, wait, wakeups,\n"
"                   delay (maximum scheduling delay), avg, p50, p90, p99,\n"
"                   s, d, dmax (time in S, in D, longest D);\n"
"                   or tid, comm (ascending)\n"
"  -c, --csv        machine-readable CSV: one block per table (threads,\n"
"                   cpus, irqs, processes; blocked, power, losses,\n"
"                   triggers), each with a header row, times in ns\n"
"  -j, --threads N  1 (default): decode and analyse on one thread; 2: the\n"
"                   analysis on a second thread, faster when a second CPU\n"
"                   is idle, slower when it is busy; same output\n"
"  -h, --help       show this help and exit\n"
"\n"
"Threads: RUN time on CPU, SWITCHES (times switched in), PREEMPT (switched\n"
"out still runnable), RUNNABLE (time preempted-but-runnable until it ran\n"
"again), WAKEUPS, and DELAY: from a wakeup record to the next switch in,\n"
"as average, p50, p90, p99 and maximum (percentiles within 3%); S and D:\n"
"time blocked, from the switch out to the next wakeup (or switch in), in\n"
"D when a sleep event D came before the switch, else in S (I and P, idle\n"
"sleeps, count as S), and the longest D. A tid reused by a later thread\n"
"has a row per thread, each with its own name.\n"
"CPUs: time observed from the CPU's first context switch, BUSY and IDLE\n"
"(idle = thread koid 0), IRQ and SOFTIRQ time, switches, dropped records.\n"
"Interrupts: per handler name, exclusive of nested interrupts.\n"
"Processes: per pid, its PPID (the parent fxt.ko recorded, - if none), its\n"
"name, the threads of it seen, and their RUN, S and D time summed.\n"
"Blocked in (only if the archive has D sleeps): per function a thread\n"
"blocked in (the D event's blocked_in, else \"(unknown)\"), the count of D\n"
"sleeps, their total, p99 and maximum time, and the top 3 threads by D time.\n"
"Power (only if the archive has cpu_idle or cpu_frequency events), per CPU\n"
"the events are about: the time in each idle state and active (after an\n"
"idle exit), with % and idle entries, from the CPU's first cpu_idle event;\n"
"the time-weighted mean frequency, its minimum, maximum and CHANGES (events\n"
"that changed it), from its first cpu_frequency event; both up to the last\n"
"timestamp, \"-\" when the CPU had no such event.\n"
"Losses (only if the archive has loss records, fxt/lost: where a CPU lost\n"
"records), per CPU: GAPS, RECORDS lost, the time they span (UNKNOWN) and the\n"
"LONGEST. Nothing is counted across a gap: the thread running on that CPU\n"
"stops running at its start, the CPU's busy and idle time stop until its\n"
"next switch, and every thread runnable or asleep then, or that becomes so\n"
"before its end, counts no wait, sleep or delay until it is next seen.\n"
"Triggers (only if the archive has any, all of them): each latency trigger's\n"
"event (fxt-collect --trigger): time from the archive's start, CPU, kind,\n"
"thread, latency, threshold, trigger number, and if it opened the window.\n"
"A progress indicator is shown on standard error when it is a terminal\n"
"and the archive is larger than 64 MiB.\n"
"Records are taken in time order across CPUs: a regular file is read twice\n"
"(first only for where each CPU's chunks are), a pipe once in file order.\n"
"Defects in the archive are summarised on standard error (fxt-dump --check\n"
"lists them); records that cannot be decoded are skipped.\n"
"Exit status: 0 success, 1 the archive could not be read to its end (the\n"
"report covers what was read), 2 usage error.\n";

static char out_mem[OUTBUF_SIZE + OUTBUF_SLACK];
static struct outbuf out;
static const char *prog = "fxt-report";
static struct progress pg;	/* standard error, on a terminal */

struct diag_ctx {
	uint64_t shown;
};

static int on_diag(void *ctx, uint64_t offset, enum fxt_diag_id id, const char *msg)
{
	struct diag_ctx *d = ctx;
	bool warning = fxt_diag_severity(id) == FXT_SEV_WARNING;

	fxt_progress_clear(&pg);
	if (id == FXT_D_TRUNCATED)
		fprintf(stderr, "%s: warning: %s\n", prog, msg);
	else if (warning || id == FXT_D_IO_ERROR || id == FXT_D_SIZE_ZERO ||
		 id == FXT_D_BIG_ENDIAN || d->shown++ < 5)
		fprintf(stderr, "%s: offset 0x%llx: %s%s\n", prog, (unsigned long long)offset,
			warning ? "warning: " : "", msg);
	return 0;
}

/*
 * A CPU's interrupts or switches came from two cursors (report_early()):
 * forget those figures of every CPU and apply those events again in time
 * order, from a second reading of the archive (silent: the first one
 * reported its defects).
 */
static int replay(struct report *rp, const char *path)
{
	struct fxt_merge *m = fxt_merge_open(path);
	int rc;

	if (!m)
		return -1;
	fxt_merge_skip_args(m, FXT_SKIP_SCHED_ARGS | FXT_SKIP_SPAN_ARGS);
	report_forget_mixed(rp);
	rc = report_drain(rp, m, NULL, false, true, &pg);
	fxt_merge_close(m);
	return rc;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "top", required_argument, NULL, 'n' },
		{ "threads", required_argument, NULL, 'j' },
		{ "sort", required_argument, NULL, 's' },
		{ "csv", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	/* Off the stack: no line shared with the reading thread's locals. */
	static _Alignas(64) struct report rp;
	struct pipeline *pipe = NULL;
	struct diag_ctx dc = { 0 };
	struct fxt_merge *m;
	struct outbuf *o;
	bool csv = false, top_given = false, one_thread = true;
	long top = 20;
	int c, sort = 0, rc = 0;
	char *end;

	while ((c = getopt_long(argc, argv, "n:s:cj:h", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			errno = 0;
			top = strtol(optarg, &end, 10);
			if (errno || *end || top < 0) {
				fprintf(stderr, "%s: --top: not a count: %s\n", prog, optarg);
				return 2;
			}
			top_given = true;
			break;
		case 's':
			sort = report_sort_key(optarg);
			if (sort < 0) {
				fprintf(stderr, "%s: --sort: unknown key %s (see --help)\n",
					prog, optarg);
				return 2;
			}
			break;
		case 'c':
			csv = true;
			break;
		case 'j':
			if (!strcmp(optarg, "1")) {
				one_thread = true;
			} else if (!strcmp(optarg, "2")) {
				one_thread = false;
			} else {
				fprintf(stderr, "%s: --threads: 1 or 2, not %s\n", prog, optarg);
				return 2;
			}
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "%s: expected one FILE (see --help)\n", prog);
		return 2;
	}
	if (csv && !top_given)
		top = 0;

	m = fxt_merge_open(argv[optind]);
	if (!m) {
		fprintf(stderr, "%s: %s: %s\n", prog, argv[optind], strerror(errno));
		return 1;
	}
	report_init(&rp, m);
	fxt_merge_set_diag(m, on_diag, &dc);
	fxt_merge_skip_args(m, FXT_SKIP_SCHED_ARGS | FXT_SKIP_SPAN_ARGS);
	o = &out;
	fxt_ob_init(o, STDOUT_FILENO, out_mem, OUTBUF_SIZE);
	/* The report is printed at the end: the terminal is free until then. */
	fxt_progress_init(&pg, prog, STDERR_FILENO, fxt_merge_size(m), PROGRESS_MIN_BYTES, true);

	if (!one_thread) {
		pipe = pipeline_start(&rp);
		if (!pipe) {
			fprintf(stderr, "%s: cannot start the analysis thread\n", prog);
			return 1;
		}
	}
	rp.early = one_thread;
	if (report_drain(&rp, m, pipe, one_thread, false, &pg)) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return 1;
	}
	if (pipe)
		pipeline_stop(pipe);
	if ((rp.irqs_mixed || rp.switches_mixed) && replay(&rp, argv[optind])) {
		fprintf(stderr, "%s: %s: cannot read it again: %s\n", prog, argv[optind],
			strerror(errno));
		rc = 1;
	}
	fxt_progress_end(&pg);
	if (fxt_merge_status(m) < 0)
		rc = 1;
	report_finish(&rp);
	report_print(&rp, o, argv[optind], sort, top, csv);
	if (fxt_ob_flush(o)) {
		fprintf(stderr, "%s: write error: %s\n", prog, strerror(-o->error));
		rc = 1;
	}
	report_free(&rp);
	fxt_merge_close(m);
	return rc;
}
