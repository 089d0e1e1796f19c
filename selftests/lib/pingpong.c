// SPDX-License-Identifier: GPL-2.0
/*
 * pingpong.c - the ping-pong scenario of fxt_pingpong and fxt_wakeup
 * (pingpong.h describes the steps and the environment).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/fxt.h>

#include "collector.h"
#include "dump.h"
#include "oracle.h"
#include "pingpong.h"

#define PINGPONG_MAX_ARGS	32

struct pingpong_thread {
	pthread_t th;
	bool leader;		/* writes first */
	int rfd, wfd;
	unsigned long rounds;
	pid_t tid;
	int err;		/* errno of a failed read/write, -1 for EOF */
};

static void fail(struct pingpong_result *r, const char *fmt, ...)
{
	va_list ap;

	if (r->why[0])
		return;
	va_start(ap, fmt);
	vsnprintf(r->why, sizeof(r->why), fmt, ap);
	va_end(ap);
}

void pingpong_config_from_env(struct pingpong_config *cfg)
{
	cfg->rounds = env_ulong("FXT_PINGPONG_N", 20000);
}

static void *pingpong_thread_main(void *arg)
{
	struct pingpong_thread *t = arg;
	char b = 0;

	t->tid = gettid();
	for (unsigned long i = 0; i < t->rounds && !t->err; i++) {
		for (int step = 0; step < 2; step++) {
			bool wr = (step == 0) == t->leader;
			ssize_t n = wr ? write(t->wfd, &b, 1) : read(t->rfd, &b, 1);

			if (n != 1) {
				t->err = n < 0 ? errno : -1;
				break;
			}
		}
	}
	if (t->err) {
		/* Unblock the peer: its read sees end of file. */
		close(t->wfd);
		t->wfd = -1;
	}
	return NULL;
}

/* CPUs this process may use: the first and the last. */
static void cpu_range(int *first, int *last)
{
	cpu_set_t set;

	*first = *last = 0;
	if (sched_getaffinity(0, sizeof(set), &set))
		return;
	*first = -1;
	for (int c = 0; c < CPU_SETSIZE; c++) {
		if (!CPU_ISSET(c, &set))
			continue;
		if (*first < 0)
			*first = c;
		*last = c;
	}
	if (*first < 0)
		*first = 0;
}

static int pingpong_threads(const struct pingpong_config *cfg, struct pingpong_result *r)
{
	struct pingpong_thread t[2];
	int p1[2], p2[2], first, last, err = 0, started = 0;

	if (pipe2(p1, O_CLOEXEC) || pipe2(p2, O_CLOEXEC))
		return -errno;
	memset(t, 0, sizeof(t));
	t[0] = (struct pingpong_thread){ .leader = true, .wfd = p1[1], .rfd = p2[0],
				   .rounds = cfg->rounds };
	t[1] = (struct pingpong_thread){ .leader = false, .wfd = p2[1], .rfd = p1[0],
				   .rounds = cfg->rounds };
	cpu_range(&first, &last);

	double start = env_now();

	for (int i = 0; i < 2; i++) {
		pthread_attr_t attr;
		cpu_set_t set;

		pthread_attr_init(&attr);
		if (cfg->pin == PINGPONG_PIN_SPREAD) {
			CPU_ZERO(&set);
			CPU_SET(i ? last : first, &set);
			pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
		}
		err = pthread_create(&t[i].th, &attr, pingpong_thread_main, &t[i]);
		pthread_attr_destroy(&attr);
		if (err)
			break;
		started++;
	}
	if (err && started == 1) {
		/* The leader waits for a peer that will never come. */
		close(t[0].rfd);
		close(p2[1]);
		t[1].wfd = -1;
	}
	for (int i = 0; i < started; i++)
		pthread_join(t[i].th, NULL);
	r->seconds = env_now() - start;
	for (int i = 0; i < 2; i++) {
		r->tid[i] = t[i].tid;
		if (t[i].wfd >= 0)
			close(t[i].wfd);
		if (!err && t[i].err)
			fail(r, "ping-pong thread %d: %s", i,
			     t[i].err < 0 ? "peer gone" : strerror(t[i].err));
	}
	close(p1[0]);
	close(p2[0]);
	return err ? -err : 0;
}

/* Wait until both threads are gone for good (pingpong.h, step 5). */
static void pingpong_wait_exited(struct oracle *o, struct pingpong_result *r)
{
	double end = env_now() + 10;

	for (int i = 0; i < 2; i++) {
		char path[64];

		snprintf(path, sizeof(path), "/proc/self/task/%d", r->tid[i]);
		while (access(path, F_OK) == 0 && env_now() < end)
			usleep(1000);
	}
	while (oracle_exits(o, -1) < 2 && env_now() < end)
		usleep(10000);
}

static bool pingpong_dump_check(struct pingpong_result *r, double timeout)
{
	char tool[PATH_MAX];
	int st;

	env_tool_path(tool, sizeof(tool), "FXT_DUMP", "userspace/fxt-dump");
	if (access(tool, X_OK)) {
		fail(r, "%s: %s (build userspace first)", tool, strerror(errno));
		return false;
	}
	st = dump_check(r->archive, r->dump_log, timeout);
	if (st == -ETIMEDOUT) {
		r->dump_status = st;
		fail(r, "fxt-dump --check did not finish in %.0f s", timeout);
	} else if (st < 0) {
		fail(r, "fork: %s", strerror(-st));
		return false;
	}
	r->dump_status = st;
	return true;
}

bool pingpong_run(const struct pingpong_config *cfg, struct pingpong_result *r)
{
	const char *tmp = env_tmpdir();
	double timeout = collector_timeout();
	const char *args[PINGPONG_MAX_ARGS];
	char why[256], *extra = NULL;
	struct oracle *o = NULL;
	pid_t collector = -1;
	int n = 0, err;

	memset(r, 0, sizeof(*r));
	r->rounds = cfg->rounds;
	snprintf(r->archive, sizeof(r->archive), "%s/%s.fxt", tmp, cfg->name);
	snprintf(r->collect_log, sizeof(r->collect_log), "%s/%s-collect.log",
		 tmp, cfg->name);
	snprintf(r->dump_log, sizeof(r->dump_log), "%s/%s-dump.log", tmp,
		 cfg->name);
	unlink(r->archive);

	if (geteuid() != 0) {
		fail(r, "needs root (BPF oracle, /dev/fxt)");
		return false;
	}
	if (access(FXT_DEVICE_PATH, F_OK)) {
		fail(r, "%s: %s (is fxt.ko loaded?)", FXT_DEVICE_PATH,
		     strerror(errno));
		return false;
	}

	/* 1. Load the oracle before anything starts: loading takes a while. */
	o = oracle_open(getpid(), gettid());
	if (!o) {
		fail(r, "oracle_open: %s", strerror(errno));
		return false;
	}
	r->nr_cpus = oracle_nr_cpus(o);
	if (r->nr_cpus > ARCHIVE_MAX_PROVIDERS)
		r->nr_cpus = ARCHIVE_MAX_PROVIDERS;

	/* 2. The collector. */
	if (getenv("FXT_COLLECT_ARGS")) {
		extra = strdup(getenv("FXT_COLLECT_ARGS"));
		for (char *s = strtok(extra, " \t"); s && n < PINGPONG_MAX_ARGS - 1;
		     s = strtok(NULL, " \t"))
			args[n++] = s;
	}
	args[n] = NULL;
	collector = collector_start(r->archive, "streaming", args,
				    r->collect_log, why, sizeof(why));
	if (collector < 0) {
		fail(r, "%s", why);
		goto out;
	}

	/* 3. The oracle's window opens inside the collector's. */
	err = oracle_start(o);
	if (err) {
		fail(r, "oracle_start: %s", strerror(-err));
		goto out;
	}

	/* 4, 5. The threads live and die inside both windows. */
	err = pingpong_threads(cfg, r);
	if (err)
		fail(r, "pthread_create: %s", strerror(-err));
	pingpong_wait_exited(o, r);

	/* 6. */
	oracle_stop(o);
	for (int c = 0; c < r->nr_cpus; c++) {
		r->or_switches[c] = oracle_switches(o, c);
		r->or_wakeups[c] = oracle_wakeups(o, c);
		r->or_digest[c] = oracle_switch_digest(o, c);
	}
	r->or_switches_total = oracle_switches(o, -1);
	r->or_wakeups_total = oracle_wakeups(o, -1);
	r->or_all_total = oracle_all_switches(o, -1);
	r->or_exits = oracle_exits(o, -1);
	r->or_misses = oracle_misses(o);
	r->ran = !err && !r->why[0];

	if (!child_stop(collector, timeout, &r->collector_status))
		fail(r, "fxt-collect did not exit %.0f s after SIGINT", timeout);
	collector = -1;

	/* 7. */
	{
		uint64_t tids[2] = { r->tid[0], r->tid[1] };

		err = archive_count(r->archive, tids, 2, &r->arc);
		if (err)
			fail(r, "%s: %s", r->archive, strerror(-err));
		else
			r->have_archive = true;
		if (r->have_archive)
			r->have_lib = !archive_count_libfxt(r->archive, tids, 2,
							 &r->lib);
	}
	if (r->have_archive)
		r->dump_ran = pingpong_dump_check(r, timeout);
out:
	if (collector > 0)
		child_stop(collector, 10, &r->collector_status);
	oracle_close(o);
	free(extra);
	return r->ran && r->have_archive;
}

static uint64_t lib_sum(const uint64_t *v)
{
	uint64_t s = 0;

	for (int i = 0; i < ARCHIVE_MAX_PROVIDERS; i++)
		s += v[i];
	return s;
}

static void print_status(const char *what, int status)
{
	if (WIFEXITED(status))
		printf("# %s: exit status %d\n", what, WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		printf("# %s: killed by signal %d\n", what, WTERMSIG(status));
}

void pingpong_print(const struct pingpong_result *r)
{
	const struct archive_counts *a = &r->arc;

	if (r->why[0])
		printf("# scenario: %s\n", r->why);
	if (!r->ran && !r->have_archive)
		return;
	printf("# ping-pong: threads %d and %d, %.2f s\n", r->tid[0], r->tid[1],
	       r->seconds);
	printf("# oracle: switches %llu, wakeups %llu, all switches %llu, final switches %llu, missed runs %llu\n",
	       (unsigned long long)r->or_switches_total,
	       (unsigned long long)r->or_wakeups_total,
	       (unsigned long long)r->or_all_total,
	       (unsigned long long)r->or_exits,
	       (unsigned long long)r->or_misses);
	for (int c = 0; c < r->nr_cpus; c++)
		if (r->or_switches[c] || r->or_wakeups[c])
			printf("# oracle cpu%d: switches %llu, wakeups %llu\n", c,
			       (unsigned long long)r->or_switches[c],
			       (unsigned long long)r->or_wakeups[c]);
	print_status("fxt-collect", r->collector_status);
	if (!r->have_archive)
		return;
	printf("# archive %s: %llu bytes, %llu records, magic %s, providers up to %d%s%s\n",
	       r->archive, (unsigned long long)a->bytes,
	       (unsigned long long)a->records, a->magic_ok ? "ok" : "MISSING",
	       a->max_provider, a->error[0] ? ", error: " : "", a->error);
	for (int c = 0; c <= a->max_provider; c++) {
		const struct archive_provider *p = &a->prov[c];

		if (!p->seen)
			continue;
		printf("# archive cpu%d: switches %llu (of %llu; refs inline %llu, indexed %llu, unresolved %llu), wakeups %llu, backwards %llu, cpu mismatch %llu, buffer full %llu\n",
		       c, (unsigned long long)p->switches,
		       (unsigned long long)p->all_switches,
		       (unsigned long long)p->inline_refs,
		       (unsigned long long)p->indexed_refs,
		       (unsigned long long)p->unresolved,
		       (unsigned long long)p->wakeups,
		       (unsigned long long)p->backwards,
		       (unsigned long long)p->cpu_mismatch,
		       (unsigned long long)p->buffer_full);
	}
	if (a->outside_provider || a->other_sched)
		printf("# archive: %llu records outside a provider, %llu other scheduling records\n",
		       (unsigned long long)a->outside_provider,
		       (unsigned long long)a->other_sched);
	if (r->have_lib)
		printf("# libfxt: %llu records, switches %llu, wakeups %llu, %llu diagnostics, %llu unresolved thread refs\n",
		       (unsigned long long)r->lib.records,
		       (unsigned long long)lib_sum(r->lib.switches),
		       (unsigned long long)lib_sum(r->lib.wakeups),
		       (unsigned long long)r->lib.diags,
		       (unsigned long long)r->lib.undefined_refs);
	if (r->dump_ran)
		print_status("fxt-dump --check", r->dump_status);
}
