// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_stress - a sustained run with every category while both (all) CPUs
 * are busy with ping-pong, fork/exec and timers: fxt-collect exits 0, the
 * archive validates, the kernel log stays clean (run-all), and the
 * accounting is exact, per CPU:
 *
 *   - the collector's "records" column (rolling records written) equals
 *     the rolling records in that CPU's provider sections of the archive:
 *     events (type 4) and scheduling records (type 8), without the
 *     collector's own fxt/dropped counter events (streaming mode saves
 *     everything that was written);
 *   - the last fxt/dropped counter of that CPU equals dropped + d.dropped
 *     (no counter at all when both are 0);
 *   - against the event log (oracle/evlog.h, BPF programs on the same
 *     tracepoints, attached before the collector starts and detached after
 *     it exits), for each class of record, wakeups, hard interrupts (device
 *     handlers and x86 vectors) and softirqs: the window is the class's
 *     first and last record on that CPU, each found in the log by content
 *     (kind and number) and nearest timestamp (the same CLOCK_BOOTTIME
 *     clock); within it the archive's records are the log's in the same
 *     order, every one of them when the CPU dropped nothing, else a
 *     subsequence that misses no more than the CPU's drop counter says.
 *
 * sustained_all_categories: a small buffer (FXT_STRESS_BUFFER, default 64K)
 * makes the hand-shake busy and lets drops happen; FXT_STRESS_SECONDS sets
 * its length (default 180: "several minutes").
 * exact_wakeups_interrupts: the same load with a buffer large enough that
 * nothing may be dropped (FXT_STRESS_EXACT_BUFFER, default 8M, for
 * FXT_STRESS_EXACT_SECONDS, default 30), so that the log's count is
 * demanded for every class on every CPU.
 *
 * A wakeup written after its thread left another CPU (records.rst,
 * "Thread wakeup") is in the buffer of the CPU that completed it, timed
 * then, with the waking CPU in "waking_cpu": it is matched on the waking
 * CPU to the latest untaken entry of the same wakeup at or before its time.
 * In the sustained run a CPU may drop another CPU's deferred wakeup: its
 * miss is then counted against the waking CPU's drops (rare: some 0.1 % of
 * wakeups are deferred).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/fxt.h>

#include "evlog.h"
#include "collector.h"
#include "linux_names.h"
#include "fxtread.h"
#include "dump.h"
#include "kfile.h"
#include "scan.h"
#include "stats_table.h"
#include "libfxt.h"
#include "kselftest_harness.h"

/* The archive's records of one class on one CPU, as evlog entries. */
struct archive_seq {
	struct evlog_entry *e;
	size_t n, cap;
};

struct archive_acct {
	uint64_t rolling[STATS_MAX_CPUS];		/* type 4 + 8 and power blobs; counters, sleep events excluded */
	uint64_t last_dropped[STATS_MAX_CPUS];	/* last fxt/dropped value */
	bool have_dropped[STATS_MAX_CPUS];
	uint64_t lost[STATS_MAX_CPUS];		/* the loss records' "records", summed */
	uint64_t counters, diags, records;
	struct archive_seq seq[STATS_MAX_CPUS][EVLOG_NR_CLASSES];
	/*
	 * Wakeups written after their thread left another CPU, by waking
	 * CPU (records.rst, "Thread wakeup": "waking_cpu"): in another CPU's
	 * buffer, timed when the kernel completed them.
	 */
	struct archive_seq deferred[STATS_MAX_CPUS];
	uint64_t nr_deferred;
};

static int seq_add(struct archive_seq *s, uint64_t ts, uint32_t kind,
		   uint32_t what)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 4096;
		struct evlog_entry *e = realloc(s->e, cap * sizeof(*e));

		if (!e)
			return -1;
		s->e = e;
		s->cap = cap;
	}
	s->e[s->n++] = (struct evlog_entry){ ts, kind, what };
	return 0;
}

static void acct_free(struct archive_acct *a)
{
	for (int c = 0; c < STATS_MAX_CPUS; c++)
		for (int k = 0; k < EVLOG_NR_CLASSES; k++)
			free(a->seq[c][k].e);
	for (int c = 0; c < STATS_MAX_CPUS; c++)
		free(a->deferred[c].e);
	free(a);
}

/*
 * A softirq's vector: its begin's name (records.rst: named softirqs carry
 * no argument), else its "vector" argument. -1: neither.
 */
static int64_t softirq_vector(const struct fxt_record *rec)
{
	for (size_t v = 0; v < linux_nr_softirqs; v++)
		if (fxtread_str_is(&rec->u.event.name, linux_softirq_names[v]))
			return (int64_t)v;
	if (rec->nargs >= 1 && fxtread_str_is(&rec->args[0].name, "vector"))
		return rec->args[0].v.u32;
	return -1;
}

/*
 * The records the event log has a counterpart of (evlog.bpf.h): wakeups,
 * and the begins of interrupts (category "irq": argument "irq" for device
 * handlers, "vector" for x86 vectors) and softirqs (category "softirq",
 * by name: softirq_vector()).
 */
static int evlog_record(struct archive_acct *a, const struct fxt_record *rec)
{
	int64_t vec;
	uint32_t kind;

	if (rec->type == FXT_REC_SCHED &&
	    rec->subtype == FXT_SCHED_THREAD_WAKEUP) {
		for (unsigned int i = 0; i < rec->nargs; i++)
			if (rec->args[i].type == FXT_ARG_UINT32 &&
			    fxtread_str_is(&rec->args[i].name, FXT_ARG_NAME_WAKING_CPU) &&
			    rec->args[i].v.u32 < STATS_MAX_CPUS) {
				a->nr_deferred++;
				return seq_add(&a->deferred[rec->args[i].v.u32],
					       rec->ts_ns, EVLOG_WAKING,
					       (uint32_t)rec->u.wakeup.tid);
			}
		return seq_add(&a->seq[rec->provider][EVLOG_CLASS_WAKEUP],
			       rec->ts_ns, EVLOG_WAKING,
			       (uint32_t)rec->u.wakeup.tid);
	}
	if (rec->type != FXT_REC_EVENT ||
	    rec->subtype != FXT_EVENT_DURATION_BEGIN)
		return 0;
	if (fxtread_str_is(&rec->u.event.category, "softirq")) {
		vec = softirq_vector(rec);
		if (vec < 0)
			return 0;
		return seq_add(&a->seq[rec->provider][evlog_class_of(EVLOG_SOFTIRQ)],
			       rec->ts_ns, EVLOG_SOFTIRQ, (uint32_t)vec);
	}
	if (rec->nargs < 1)
		return 0;
	if (!fxtread_str_is(&rec->u.event.category, "irq"))
		return 0;
	else if (fxtread_str_is(&rec->args[0].name, "irq"))
		kind = EVLOG_IRQ;
	else if (fxtread_str_is(&rec->args[0].name, "vector"))
		kind = EVLOG_VECTOR;
	else
		return 0;
	return seq_add(&a->seq[rec->provider][evlog_class_of(kind)],
		       rec->ts_ns, kind, rec->args[0].v.u32);
}

static int count_archive(const char *path, struct archive_acct *a)
{
	struct fxt_reader *r = fxt_reader_open(path);
	struct fxt_record *rec = calloc(1, sizeof(*rec));
	int ret = 0;

	if (!r || !rec) {
		free(rec);
		return -1;
	}
	while (fxt_reader_next(r, rec) == 1) {
		a->records++;
		if (rec->provider >= STATS_MAX_CPUS ||
		    (rec->flags & (FXT_RF_MALFORMED | FXT_RF_UNKNOWN)))
			continue;
		if (rec->type == FXT_REC_EVENT && rec->subtype == FXT_EVENT_COUNTER &&
		    fxtread_str_is(&rec->u.event.category, "fxt") &&
		    fxtread_str_is(&rec->u.event.name, "dropped")) {
			a->counters++;
			if (rec->nargs >= 1) {
				a->last_dropped[rec->provider] = rec->args[0].v.u64;
				a->have_dropped[rec->provider] = true;
			}
			continue;
		}
		/* fxt-collect's loss record (records.rst "Loss"): not the kernel's */
		{
			uint64_t n;
			uint32_t cpu;

			if (fxt_lost_event(rec, &cpu, NULL, &n)) {
				if (cpu < STATS_MAX_CPUS)
					a->lost[cpu] += n;
				continue;
			}
		}
		/*
		 * A sleep event shares its switch's reservation and counts
		 * with it as one record written (buffers.rst, "Accounting").
		 */
		if ((rec->type == FXT_REC_EVENT || rec->type == FXT_REC_SCHED) &&
		    !fxt_sleep_event(rec, NULL))
			a->rolling[rec->provider]++;
		/* a power event (records.rst "Power"): a blob with a time */
		else if (rec->type == FXT_REC_BLOB && rec->ts_ns)
			a->rolling[rec->provider]++;
		if (evlog_record(a, rec))
			ret = -1;
	}
	a->diags = fxt_reader_diag_count(r);
	fxt_reader_close(r);
	free(rec);
	return ret;
}

/* Load: per CPU a ping-pong pair, plus fork/exec and timer processes. */
static pid_t load_start(int ncpus)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	setpgid(0, 0);
	for (int i = 0; i < ncpus; i++) {
		int p[2], q[2];
		char b = 0;

		if (pipe(p) || pipe(q))
			_exit(1);
		if (fork() == 0) {
			while (read(p[0], &b, 1) == 1 && write(q[1], &b, 1) == 1)
				;
			_exit(0);
		}
		if (fork() == 0) {
			while (write(p[1], &b, 1) == 1 && read(q[0], &b, 1) == 1)
				;
			_exit(0);
		}
	}
	if (fork() == 0) {	/* fork/exec */
		for (;;) {
			pid_t c = fork();

			if (c == 0) {
				execl("/bin/true", "true", (char *)NULL);
				_exit(127);
			}
			if (c > 0)
				waitpid(c, NULL, 0);
		}
	}
	if (fork() == 0) {	/* timers: 1 ms timerfd + short sleeps */
		struct itimerspec its = { { 0, 1000000 }, { 0, 1000000 } };
		int tfd = timerfd_create(CLOCK_MONOTONIC, 0);
		uint64_t n;

		timerfd_settime(tfd, 0, &its, NULL);
		for (;;) {
			struct timespec ts = { 0, 200000 };

			if (read(tfd, &n, sizeof(n)) < 0)
				nanosleep(&ts, NULL);
			nanosleep(&ts, NULL);
		}
	}
	for (;;)
		pause();
}

static void load_stop(pid_t pid)
{
	kill(-pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* What compare_class() found for one class of one CPU. */
struct cmp {
	size_t window;		/* log entries the archive must hold */
	size_t edge;		/* entries before/after their tracepoint's hook */
	size_t missed;		/* entries of the window the archive lacks */
	size_t unmatched;	/* archive records without their entry */
	const struct evlog_entry *miss;		/* first missed entry */
	const struct evlog_entry *stray;	/* first unmatched record */
};

/* One tracepoint: a kind, and for vectors the vector number too. */
static unsigned int source_of(const struct evlog_entry *e)
{
	return e->kind == EVLOG_VECTOR ? EVLOG_NR_KINDS + (e->what & 0xff) :
					 e->kind;
}

#define NR_SOURCES	(EVLOG_NR_KINDS + 256)

/*
 * CPU c's records of class cls (arc) against the log's entries of the
 * class on that CPU (evlog.h): the entry of a record is the last entry at
 * or before its timestamp, and must be the same event (kind, number),
 * taken by no earlier record. The window, the entries the archive must
 * hold: every entry logged while every probe was hooked (between t_on,
 * after the collector said tracing started, and t_off, before it was told
 * to stop), and, at the edges, where fxt hooks and unhooks its tracepoints
 * one by one, each tracepoint's entries between its first and last entry
 * that has a record.
 */
static void compare_class(struct evlog *l, int c, enum evlog_class cls,
			  const struct archive_seq *arc,
			  const struct archive_seq *deferred, uint64_t t_on,
			  uint64_t t_off, struct cmp *r)
{
	static long first[NR_SOURCES], last[NR_SOURCES];
	const struct evlog_entry *log;
	size_t nlog, p = 0;
	long prev = -1;
	bool *matched;

	memset(r, 0, sizeof(*r));
	log = evlog_cpu(l, c, cls, &nlog);
	matched = calloc(nlog + 1, sizeof(*matched));
	if (!matched) {
		r->unmatched = arc->n;
		return;
	}
	for (size_t q = 0; q < arc->n; q++) {
		const struct evlog_entry *a = &arc->e[q];

		while (p + 1 < nlog && log[p + 1].ts <= a->ts)
			p++;
		if (p < nlog && log[p].ts <= a->ts && (long)p != prev &&
		    evlog_same(&log[p], a)) {
			matched[p] = true;
			prev = p;
			continue;
		}
		if (!r->unmatched++)
			r->stray = a;
	}
	/*
	 * A deferred wakeup's entry is the latest one of the same wakeup at
	 * or before its time that no record took: it was logged on this CPU
	 * at sched_waking, before the record's sched_wakeup.
	 */
	for (size_t q = 0; deferred && q < deferred->n; q++) {
		const struct evlog_entry *a = &deferred->e[q];
		size_t i = nlog;

		while (i > 0 && log[i - 1].ts > a->ts)
			i--;
		while (i > 0 && (matched[i - 1] || !evlog_same(&log[i - 1], a)))
			i--;
		if (i > 0) {
			matched[i - 1] = true;
			continue;
		}
		if (!r->unmatched++)
			r->stray = a;
	}
	for (unsigned int s = 0; s < NR_SOURCES; s++) {
		first[s] = LONG_MAX;
		last[s] = -1;
	}
	for (size_t i = 0; i < nlog; i++) {
		unsigned int s = source_of(&log[i]);

		if (!matched[i])
			continue;
		if (first[s] == LONG_MAX)
			first[s] = i;
		last[s] = i;
	}
	for (size_t i = 0; i < nlog; i++) {
		unsigned int s = source_of(&log[i]);

		if (!(log[i].ts > t_on && log[i].ts < t_off) &&
		    !(first[s] <= (long)i && (long)i <= last[s])) {
			r->edge++;
			continue;
		}
		r->window++;
		if (matched[i])
			continue;
		if (!r->missed++)
			r->miss = &log[i];
	}
	free(matched);
}


static void run_stress(struct __test_metadata *_metadata, const char *name,
		       unsigned long secs, const char *bufsz, bool no_drops)
{
	const char *extra[] = { "-c", "all", "-b", bufsz, NULL };
	char archive[PATH_MAX], clog[PATH_MAX], dlog[PATH_MAX], why[256];
	struct stats_row rows[STATS_MAX_CPUS];
	struct archive_acct *a = calloc(1, sizeof(*a));
	struct scan *sc = NULL;
	int ncpus = sysconf(_SC_NPROCESSORS_ONLN), nrows, status;
	uint64_t t_on, t_off;
	struct evlog *l;
	pid_t pid, load;

	ASSERT_NE(NULL, a);
	snprintf(archive, sizeof(archive), "%s/%s.fxt", env_tmpdir(), name);
	snprintf(clog, sizeof(clog), "%s/%s-collect.log", env_tmpdir(), name);
	snprintf(dlog, sizeof(dlog), "%s/%s-dump.log", env_tmpdir(), name);
	printf("# %s: %lu s, %d CPUs, buffer %s\n", name, secs, ncpus, bufsz);
	fflush(stdout);
	/* Attached before fxt's probes are hooked, detached after unhooking. */
	l = evlog_open(1u << 24);
	ASSERT_NE(NULL, l) TH_LOG("evlog_open: %s", strerror(errno));
	ASSERT_EQ(0, evlog_start(l));
	pid = collector_start(archive, "streaming", extra, clog, why, sizeof(why));
	ASSERT_LT(0, pid) TH_LOG("%s", why);
	t_on = env_boottime_ns();	/* every probe hooked */
	load = load_start(ncpus);
	ASSERT_LT(0, load);
	sleep(secs);
	load_stop(load);
	t_off = env_boottime_ns();	/* none unhooked yet */
	kill(pid, SIGINT);
	ASSERT_TRUE(child_wait(pid, 300, &status))
		child_kill(pid, &status);
	ASSERT_EQ(0, evlog_stop(l));
	child_log_print("fxt-collect", clog, 12);
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));

	status = dump_check(archive, dlog, 120);
	EXPECT_EQ(0, status) child_log_print("fxt-dump --check", dlog, 10);

	nrows = stats_table_parse(clog, rows);
	ASSERT_LT(0, nrows) TH_LOG("no statistics table in %s", clog);
	ASSERT_EQ(0, count_archive(archive, a));
	sc = calloc(1, sizeof(*sc));
	ASSERT_NE(NULL, sc);
	ASSERT_EQ(0, scan_archive(archive, NULL, 0, sc));
	printf("# archive: %llu records, %llu drop counters, %llu diagnostics\n",
	       (unsigned long long)a->records, (unsigned long long)a->counters,
	       (unsigned long long)a->diags);
	EXPECT_EQ(0, a->diags);
	printf("# event log: %d vector tracepoints absent, %llu lost, %llu missed runs\n",
	       evlog_absent(l), (unsigned long long)evlog_lost(l),
	       (unsigned long long)evlog_misses(l));
	/* A log with holes cannot say what the archive should hold. */
	ASSERT_EQ(0, evlog_lost(l));
	ASSERT_EQ(0, evlog_misses(l));
	for (unsigned int c = 0; c < STATS_MAX_CPUS; c++) {
		const struct stats_row *r = &rows[c];
		uint64_t missed_all = 0;

		if (!r->present)
			continue;
		printf("# cpu %u: collector records %llu dropped %llu durable %llu d.dropped %llu; archive rolling %llu, last drop counter %llu%s, loss records %llu\n",
		       c, (unsigned long long)r->records,
		       (unsigned long long)r->dropped,
		       (unsigned long long)r->durable,
		       (unsigned long long)r->d_dropped,
		       (unsigned long long)a->rolling[c],
		       (unsigned long long)a->last_dropped[c],
		       a->have_dropped[c] ? "" : " (none)",
		       (unsigned long long)a->lost[c]);
		EXPECT_EQ(r->records, a->rolling[c])
			TH_LOG("cpu %u: records column vs rolling records in the archive", c);
		EXPECT_EQ(r->dropped + r->d_dropped, a->last_dropped[c])
			TH_LOG("cpu %u: dropped + d.dropped vs the last fxt/dropped counter", c);
		if (r->dropped + r->d_dropped)
			EXPECT_TRUE(a->have_dropped[c]);
		/* every rolling record lost is in a loss record of its CPU */
		EXPECT_EQ(r->dropped, a->lost[c])
			TH_LOG("cpu %u: dropped vs the loss records' counts", c);
		/* ... and where it was lost: no switch missing outside them */
		if (c < MAX_CPUS)
			EXPECT_EQ(0, sc->prov[c].unexplained_breaks)
				TH_LOG("cpu %u: the switch at %llu (out %llu) does not follow the one at %llu (in %llu), and no loss record is between them",
				       c, (unsigned long long)sc->prov[c].break_after.ts,
				       (unsigned long long)sc->prov[c].break_after.out,
				       (unsigned long long)sc->prov[c].break_before.ts,
				       (unsigned long long)sc->prov[c].break_before.in);
		if (no_drops)
			EXPECT_EQ(0, r->dropped)
				TH_LOG("cpu %u: drops at %s leave no exact count to compare", c, bufsz);

		for (int k = 0; k < EVLOG_NR_CLASSES; k++) {
			const struct archive_seq *arc = &a->seq[c][k];
			uint64_t seen = 0;
			struct cmp m;
			size_t nlog;

			/* The reader kept every event the programs logged. */
			evlog_cpu(l, c, k, &nlog);
			for (uint32_t kind = 0; kind < EVLOG_NR_KINDS; kind++)
				if (evlog_class_of(kind) == (enum evlog_class)k)
					seen += evlog_seen(l, c, kind);
			EXPECT_EQ(seen, nlog)
				TH_LOG("cpu %u %s: programs ran %llu times, log holds %zu",
				       c, evlog_class_name(k),
				       (unsigned long long)seen, nlog);
			compare_class(l, c, k, arc,
				      k == EVLOG_CLASS_WAKEUP ? &a->deferred[c] : NULL,
				      t_on, t_off, &m);
			printf("# cpu %u %s: log %zu (whole run), window %zu (edges %zu), archive %zu (deferred %zu), not in the archive %zu, archive records not in the log %zu\n",
			       c, evlog_class_name(k), nlog, m.window, m.edge,
			       arc->n, k == EVLOG_CLASS_WAKEUP ? a->deferred[c].n : 0,
			       m.missed, m.unmatched);
			/* Every CPU takes timer interrupts, softirqs, wakeups. */
			EXPECT_LT(0, arc->n)
				TH_LOG("cpu %u: no %s records to compare", c,
				       evlog_class_name(k));
			EXPECT_EQ(0, m.unmatched)
				TH_LOG("cpu %u %s: a record (kind %u, %u at %llu) the log has not at that point",
				       c, evlog_class_name(k),
				       m.stray ? m.stray->kind : 0,
				       m.stray ? m.stray->what : 0,
				       m.stray ? (unsigned long long)m.stray->ts : 0ULL);
			if (!r->dropped) {
				EXPECT_EQ(m.window, arc->n + (k == EVLOG_CLASS_WAKEUP ?
							      a->deferred[c].n : 0));
				EXPECT_EQ(0, m.missed)
					TH_LOG("cpu %u %s: nothing dropped, yet the log's kind %u, %u at %llu is missing",
					       c, evlog_class_name(k),
					       m.miss ? m.miss->kind : 0,
					       m.miss ? m.miss->what : 0,
					       m.miss ? (unsigned long long)m.miss->ts : 0ULL);
			}
			missed_all += m.missed;
		}
		/* Dropped records cover the switches and ends too: at most. */
		EXPECT_LE(missed_all, r->dropped)
			TH_LOG("cpu %u: %llu wakeups and interrupts missing, %llu records dropped",
			       c, (unsigned long long)missed_all,
			       (unsigned long long)r->dropped);
	}
	fflush(stdout);
	evlog_close(l);
	acct_free(a);
	free(sc);
}

FIXTURE(st) {
	int unused;
};

FIXTURE_SETUP(st)
{
	self->unused = 0;
}

FIXTURE_TEARDOWN(st)
{
}

static const char *env_or(const char *name, const char *dflt)
{
	const char *v = getenv(name);

	return v && *v ? v : dflt;
}

TEST_F_TIMEOUT(st, sustained_all_categories, 1800)
{
	run_stress(_metadata, "stress",
		   env_ulong("FXT_STRESS_SECONDS", 180),
		   env_or("FXT_STRESS_BUFFER", "64K"), false);
}

TEST_F_TIMEOUT(st, exact_wakeups_interrupts, 900)
{
	run_stress(_metadata, "stress-exact",
		   env_ulong("FXT_STRESS_EXACT_SECONDS", 30),
		   env_or("FXT_STRESS_EXACT_BUFFER", "8M"), true);
}

TEST_HARNESS_MAIN
