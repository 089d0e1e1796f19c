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
 *     (no counter at all when both are 0).
 *
 * A small buffer (FXT_STRESS_BUFFER, default 64K) makes the hand-shake
 * busy and lets drops happen. FXT_STRESS_SECONDS sets its length (default 180: "several minutes").
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

#include "ft_util.h"
#include "libfxt.h"
#include "kselftest_harness.h"

struct arc_acct {
	uint64_t rolling[FT_MAX_CPUS];		/* type 4 + 8, counters excluded */
	uint64_t last_dropped[FT_MAX_CPUS];	/* last fxt/dropped value */
	bool have_dropped[FT_MAX_CPUS];
	uint64_t counters, diags, records;
};

static bool str_is(const struct fxt_str *s, const char *want)
{
	size_t n = strlen(want);

	return s->data && s->len == n && !memcmp(s->data, want, n);
}

static int count_archive(const char *path, struct arc_acct *a)
{
	struct fxt_reader *r = fxt_reader_open(path);
	struct fxt_record *rec = calloc(1, sizeof(*rec));

	memset(a, 0, sizeof(*a));
	if (!r || !rec) {
		free(rec);
		return -1;
	}
	while (fxt_reader_next(r, rec) == 1) {
		a->records++;
		if (rec->provider >= FT_MAX_CPUS ||
		    (rec->flags & (FXT_RF_MALFORMED | FXT_RF_UNKNOWN)))
			continue;
		if (rec->type == FXT_REC_EVENT && rec->subtype == FXT_EVENT_COUNTER &&
		    str_is(&rec->u.event.category, "fxt") &&
		    str_is(&rec->u.event.name, "dropped")) {
			a->counters++;
			if (rec->nargs >= 1) {
				a->last_dropped[rec->provider] = rec->args[0].v.u64;
				a->have_dropped[rec->provider] = true;
			}
			continue;
		}
		if (rec->type == FXT_REC_EVENT || rec->type == FXT_REC_SCHED)
			a->rolling[rec->provider]++;
	}
	a->diags = fxt_reader_diag_count(r);
	fxt_reader_close(r);
	free(rec);
	return 0;
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

TEST_F_TIMEOUT(st, sustained_all_categories, 1800)
{
	unsigned long secs = col_env_ulong("FXT_STRESS_SECONDS", 180);
	const char *bufsz = getenv("FXT_STRESS_BUFFER");
	const char *args[] = { "-m", "streaming", "-c", "all", "-b",
			       bufsz && *bufsz ? bufsz : "64K", NULL };
	char archive[PATH_MAX], clog[PATH_MAX], dlog[PATH_MAX];
	struct ft_stats_row rows[FT_MAX_CPUS];
	struct arc_acct *a = calloc(1, sizeof(*a));
	int ncpus = sysconf(_SC_NPROCESSORS_ONLN), nrows, status;
	pid_t pid, load;

	ASSERT_NE(NULL, a);
	snprintf(archive, sizeof(archive), "%s/stress.fxt", col_tmpdir());
	snprintf(clog, sizeof(clog), "%s/stress-collect.log", col_tmpdir());
	snprintf(dlog, sizeof(dlog), "%s/stress-dump.log", col_tmpdir());
	printf("# stress: %lu s, %d CPUs, buffer %s\n", secs, ncpus, args[5]);
	fflush(stdout);
	pid = col_collect_spawn(archive, clog, args);
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, col_wait_line(pid, clog, COL_STARTED_LINE, 60, &status));
	load = load_start(ncpus);
	ASSERT_LT(0, load);
	sleep(secs);
	load_stop(load);
	kill(pid, SIGINT);
	ASSERT_TRUE(col_wait_child(pid, 300, &status))
		col_kill_reap(pid, &status);
	col_print_file("fxt-collect", clog, 12);
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));

	status = col_dump_check(archive, dlog, 120);
	EXPECT_EQ(0, status) col_print_file("fxt-dump --check", dlog, 10);

	nrows = ft_collect_stats(clog, rows, FT_MAX_CPUS);
	ASSERT_LT(0, nrows) TH_LOG("no statistics table in %s", clog);
	ASSERT_EQ(0, count_archive(archive, a));
	printf("# archive: %llu records, %llu drop counters, %llu diagnostics\n",
	       (unsigned long long)a->records, (unsigned long long)a->counters,
	       (unsigned long long)a->diags);
	EXPECT_EQ(0, a->diags);
	for (int i = 0; i < nrows; i++) {
		const struct ft_stats_row *r = &rows[i];
		unsigned int c = r->cpu;

		if (c >= FT_MAX_CPUS)
			continue;
		printf("# cpu %u: collector records %llu dropped %llu durable %llu d.dropped %llu; archive rolling %llu, last drop counter %llu%s\n",
		       c, (unsigned long long)r->records,
		       (unsigned long long)r->dropped,
		       (unsigned long long)r->durable,
		       (unsigned long long)r->d_dropped,
		       (unsigned long long)a->rolling[c],
		       (unsigned long long)a->last_dropped[c],
		       a->have_dropped[c] ? "" : " (none)");
		EXPECT_EQ(r->records, a->rolling[c])
			TH_LOG("cpu %u: records column vs rolling records in the archive", c);
		EXPECT_EQ(r->dropped + r->d_dropped, a->last_dropped[c])
			TH_LOG("cpu %u: dropped + d.dropped vs the last fxt/dropped counter", c);
		if (r->dropped + r->d_dropped)
			EXPECT_TRUE(a->have_dropped[c]);
	}
	fflush(stdout);
	free(a);
}

TEST_HARNESS_MAIN
