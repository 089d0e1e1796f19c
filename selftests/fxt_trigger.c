// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_trigger - latency triggers (issue 14) as a user meets them: run
 * fxt-collect -m circular --trigger ..., make the latency happen, let the
 * collector stop on its own, read the archive(s) it wrote.
 *
 *   starved: a victim thread (comm "fxt_victim", SCHED_OTHER) blocked on
 *     a pipe on CPU 1; a SCHED_FIFO hog ("fxt_hog", CPU 1) writes to the
 *     pipe (the victim is woken but cannot run), spins 20 ms, blocks.
 *     --trigger wakeup-latency=10ms,comm=fxt_victim --post 50ms: the
 *     collector exits 0 by itself, saying it fired; one trigger event,
 *     first=true, kind wakeup-latency, latency >= 10 ms, threshold 10 ms,
 *     on the victim; the archive's wakeup of the victim and its switch in
 *     on CPU 1 are >= 10 ms apart and within 1 ms of latency_ns; the hog
 *     is named. With 50ms and -t 2: no event, "no trigger fired".
 *   off_cpu: the victim blocks 300 ms; off-cpu=200ms,pid=TID fires on it
 *     (>= 200 ms, as its switch out and in say); 1s with -t 2 does not.
 *   irq_duration: the test module's slow_tasklet, a real 20 ms TASKLET
 *     softirq on CPU 1; irq-duration=10ms,cpu=1 fires on CPU 1's interrupt
 *     pseudo-thread with >= 20 ms, and the archive has the >= 20 ms TASKLET
 *     slice on CPU 1; 50ms with -t 2 does not fire. irq_duration_hardirq:
 *     the same with the test module's hard irq_work (x86's irq_work
 *     vector, a self-IPI) instead of the tasklet: the irq_work slice.
 *   windows: --windows 3, the starvation repeated until the collector
 *     exits: three archives (NAME.fxt, NAME-2.fxt, NAME-3.fxt), each
 *     passing fxt-dump --check, each with exactly one first=true event,
 *     every switched thread named.
 *   concurrent: victims starved on CPU 0 and CPU 1 at once: one window,
 *     one first=true event; the other victim's firing, when its switch in
 *     came within the post time, is there with first=false.
 *   missed_counted: 6000 threads block once with off-cpu armed: at
 *     least 6000 - 4096 notes pushed out of the table, and the collector
 *     says how many latencies were not measured.
 *   rejected_*: FXT_IOC_SET_TRIGGERS on /dev/fxt itself: EBADFD in READY,
 *     EINVAL in oneshot mode, for a zero threshold, 9 triggers, an
 *     irq-duration trigger with a pid filter, EBUSY while STARTED (each
 *     beside a set that is accepted).
 *
 * The measured latencies are logged ("# ... latency ... ms") for quoting.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/fxt.h>

#include "kselftest_harness.h"
#include "child.h"
#include "collector.h"
#include "cpu.h"
#include "dump.h"
#include "env.h"
#include "fxtread.h"
#include "kmod.h"
#include "records.h"
#include "libfxt.h"

#define MS		1000000ull
#define VICTIM_COMM	"fxt_victim"
#define HOG_COMM	"fxt_hog"
/* Compile-time overridable, to see the cases fail (-DHOG_SPIN_MS=5). */
#ifndef HOG_SPIN_MS
#define HOG_SPIN_MS	20		/* the victim's starvation */
#endif
#ifndef OFF_CPU_MS
#define OFF_CPU_MS	300		/* the victim's block */
#endif
#ifndef TASKLET_MS
/*
 * The slow softirq: far above the threshold (10 ms), which is far above
 * what any other interrupt takes, even in a TCG guest whose host thread
 * is descheduled for a few ms now and then: only the cpu= filter applies
 * to an interrupt, and another's firing first would open the window.
 */
#define TASKLET_MS	20
#endif
#define HOG_PRIO	50
#define MODNAME		"fxt_fire_test"
#define FIRED_LINE	"fired on CPU"
#define NONE_LINE	"no trigger fired"
#define MAX_TRIG_EV	256

/* ------------------------------------------------------------------ */
/* The trigger events of an archive, every argument, through libfxt.   */

struct trig_ev {
	uint64_t offset, ts;
	uint32_t provider;
	uint8_t type;			/* FXT_EVENT_* */
	bool thread_defined;
	uint64_t pid, tid;
	char kind[32];			/* "" when missing or not a string */
	bool has_latency, has_threshold, has_index, has_first;
	uint64_t latency, threshold;
	uint32_t index;
	bool first;
};

struct trigs {
	struct trig_ev ev[MAX_TRIG_EV];
	size_t n;			/* events kept (<= MAX_TRIG_EV) */
	size_t total;			/* events seen */
};

static void trig_args(struct trig_ev *t, const struct fxt_record *rec)
{
	for (unsigned int i = 0; i < rec->nargs; i++) {
		const struct fxt_arg *arg = &rec->args[i];

		if (fxtread_str_is(&arg->name, FXT_TRIGGER_ARG_KIND) &&
		    arg->type == FXT_ARG_STRING)
			fxtread_str_copy(t->kind, sizeof(t->kind), &arg->v.str);
		else if (fxtread_str_is(&arg->name, FXT_TRIGGER_ARG_LATENCY) &&
			 arg->type == FXT_ARG_UINT64) {
			t->has_latency = true;
			t->latency = arg->v.u64;
		} else if (fxtread_str_is(&arg->name, FXT_TRIGGER_ARG_THRESHOLD) &&
			   arg->type == FXT_ARG_UINT64) {
			t->has_threshold = true;
			t->threshold = arg->v.u64;
		} else if (fxtread_str_is(&arg->name, FXT_TRIGGER_ARG_INDEX) &&
			   arg->type == FXT_ARG_UINT32) {
			t->has_index = true;
			t->index = arg->v.u32;
		} else if (fxtread_str_is(&arg->name, FXT_TRIGGER_ARG_FIRST) &&
			   arg->type == FXT_ARG_BOOL) {
			t->has_first = true;
			t->first = arg->v.b;
		}
	}
}

/* records_load_each()'s hook: keep every trigger event, all its arguments. */
static void trigs_each(const struct fxt_record *rec, void *ctx)
{
	struct trigs *tr = ctx;
	struct trig_ev *t;

	if (rec->type != FXT_REC_EVENT ||
	    !fxtread_str_is(&rec->u.event.category, FXT_TRIGGER_CATEGORY) ||
	    !fxtread_str_is(&rec->u.event.name, FXT_TRIGGER_EVENT_NAME))
		return;
	if (tr->total++ >= MAX_TRIG_EV)
		return;
	t = &tr->ev[tr->n++];
	t->offset = rec->offset;
	t->ts = rec->ts;
	t->provider = rec->provider;
	t->type = rec->subtype;
	t->thread_defined = rec->u.event.thread.defined;
	t->pid = rec->u.event.thread.pid;
	t->tid = rec->u.event.thread.tid;
	trig_args(t, rec);
}

static size_t trigs_first(const struct trigs *tr, const struct trig_ev **first)
{
	size_t n = 0;

	*first = NULL;
	for (size_t i = 0; i < tr->n; i++) {
		if (!tr->ev[i].first)
			continue;
		if (!n++)
			*first = &tr->ev[i];
	}
	return n;
}

static void trigs_log(const char *what, const struct trigs *tr)
{
	for (size_t i = 0; i < tr->n; i++) {
		const struct trig_ev *t = &tr->ev[i];

		printf("# %s: trigger event at 0x%llx cpu%u ts %llu: type %u tid %llu pid %llu kind \"%s\" latency %.3f ms threshold %.3f ms trigger %u first %d\n",
		       what, (unsigned long long)t->offset, t->provider,
		       (unsigned long long)t->ts, t->type,
		       (unsigned long long)t->tid, (unsigned long long)t->pid,
		       t->kind, t->latency / 1e6, t->threshold / 1e6, t->index,
		       t->first);
	}
	fflush(stdout);
}

/* ------------------------------------------------------------------ */
/* What the records say.                                                */

/*
 * The last wakeup of tid at or before ts (UINT64_MAX: any) and the first
 * switch in of tid on cpu after it. Return: whether both are there.
 */
static bool wakeup_to_switch_in(const struct records *a, uint64_t tid,
				int cpu, uint64_t ts, uint64_t *woken,
				uint64_t *in)
{
	const struct records_wakeup *w = NULL;

	for (size_t i = 0; i < a->nwk; i++)
		if (a->wk[i].tid == tid && a->wk[i].ts <= ts &&
		    (!w || a->wk[i].ts > w->ts))
			w = &a->wk[i];
	if (!w)
		return false;
	*woken = w->ts;
	*in = UINT64_MAX;
	for (size_t i = 0; i < a->nsw; i++)
		if (a->sw[i].in_tid == tid && (int)a->sw[i].provider == cpu &&
		    a->sw[i].ts >= w->ts && a->sw[i].ts < *in)
			*in = a->sw[i].ts;
	return *in != UINT64_MAX;
}

/* The longest time off CPU of tid: a switch out (blocked) to its next in. */
static uint64_t longest_off_cpu(const struct records *a, uint64_t tid,
				uint64_t *out_ts, uint64_t *in_ts)
{
	const struct records_switch *mine[1024];
	uint64_t best = 0;
	size_t n = 0;

	/* tid's few switches first: the archive holds many thousands */
	for (size_t i = 0; i < a->nsw && n < 1024; i++)
		if (a->sw[i].out_tid == tid || a->sw[i].in_tid == tid)
			mine[n++] = &a->sw[i];
	for (size_t i = 0; i < n; i++) {
		uint64_t next = UINT64_MAX;

		if (mine[i]->out_tid != tid ||
		    mine[i]->out_state != FXT_THREAD_BLOCKED)
			continue;
		for (size_t j = 0; j < n; j++)
			if (mine[j]->in_tid == tid && mine[j]->ts >= mine[i]->ts &&
			    mine[j]->ts < next)
				next = mine[j]->ts;
		if (next != UINT64_MAX && next - mine[i]->ts > best) {
			best = next - mine[i]->ts;
			*out_ts = mine[i]->ts;
			*in_ts = next;
		}
	}
	return best;
}

/* The longest softirq slice named name on cpu (begin to its next end). */
static uint64_t longest_slice(const struct records *a, int cpu,
			      const char *cat, const char *name)
{
	uint64_t best = 0;

	for (size_t i = 0; i < a->nev; i++) {
		const struct records_event *b = &a->ev[i];

		if ((int)b->provider != cpu ||
		    b->event_type != FXT_EVENT_DURATION_BEGIN ||
		    strcmp(b->category, cat) ||
		    strcmp(b->name, name))
			continue;
		for (size_t j = i + 1; j < a->nev; j++) {
			const struct records_event *e = &a->ev[j];

			if ((int)e->provider != cpu ||
			    e->event_type != FXT_EVENT_DURATION_END ||
			    strcmp(e->category, cat) ||
			    strcmp(e->name, name))
				continue;
			if (e->ts - b->ts > best)
				best = e->ts - b->ts;
			break;
		}
	}
	return best;
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

/*
 * Threads of switches with no named thread record. Return: how many
 * (switch sides), the first in *koid.
 */
static size_t unnamed_switched(const struct records *a, uint64_t *koid)
{
	uint64_t *named = calloc(a->nkobjs + 1, sizeof(*named));
	size_t n = 0, bad = 0;

	if (!named)
		return SIZE_MAX;
	for (size_t i = 0; i < a->nkobjs; i++)
		if (a->kobjs[i].obj_type == FXT_OBJ_THREAD && a->kobjs[i].name[0])
			named[n++] = a->kobjs[i].koid;
	qsort(named, n, sizeof(*named), cmp_u64);
	for (size_t i = 0; i < a->nsw; i++) {
		uint64_t t[2] = { a->sw[i].out_tid, a->sw[i].in_tid };

		for (int k = 0; k < 2; k++) {
			if (!t[k] || bsearch(&t[k], named, n, sizeof(*named),
					     cmp_u64))
				continue;
			if (!bad++)
				*koid = t[k];
		}
	}
	free(named);
	return bad;
}

/* ------------------------------------------------------------------ */
/* The threads: victims blocked on a pipe, SCHED_FIFO hogs.            */

struct victim {
	int cpu;
	uid_t uid;		/* 0: root's, else this thread's own (setresuid) */
	pid_t tid;
	int in[2], ack[2];
	pthread_t th;
	bool running;
};

struct hog {
	int cpu;
	pid_t tid;
	int in[2], ack[2];
	struct victim *v;
	pthread_t th;
	bool running;
	int err;
};

/* Wait up to timeout s for one byte on fd. Return: the byte or -1. */
static int read_byte(int fd, double timeout)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char c;

	if (poll(&p, 1, (int)(timeout * 1000)) != 1 || read(fd, &c, 1) != 1)
		return -1;
	return (unsigned char)c;
}

static void write_byte(int fd, char c)
{
	if (write(fd, &c, 1) != 1)
		perror("write");
}

static void *victim_fn(void *arg)
{
	struct victim *v = arg;
	char c;

	prctl(PR_SET_NAME, VICTIM_COMM);
	v->tid = gettid();
	if (cpu_pin(0, v->cpu) ||
	    /* The raw call: this thread only (glibc's would change all). */
	    (v->uid && syscall(SYS_setresuid, v->uid, v->uid, v->uid))) {
		write_byte(v->ack[1], 'E');
		return NULL;
	}
	write_byte(v->ack[1], 'r');
	while (read(v->in[0], &c, 1) == 1 && c != 'q')
		write_byte(v->ack[1], 'v');
	return NULL;
}

static void spin_ms(unsigned int ms)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do {
		clock_gettime(CLOCK_MONOTONIC, &b);
	} while ((b.tv_sec - a.tv_sec) * 1000000000ll + b.tv_nsec - a.tv_nsec <
		 (long long)ms * 1000000);
}

static void *hog_fn(void *arg)
{
	struct sched_param sp = { .sched_priority = HOG_PRIO };
	struct hog *h = arg;
	char c;

	prctl(PR_SET_NAME, HOG_COMM);
	h->tid = gettid();
	h->err = cpu_pin(0, h->cpu);
	if (!h->err && sched_setscheduler(0, SCHED_FIFO, &sp))
		h->err = -errno;
	write_byte(h->ack[1], h->err ? 'E' : 'r');
	while (read(h->in[0], &c, 1) == 1 && c != 'q') {
		write_byte(h->v->in[1], 'x');	/* woken, cannot run */
		spin_ms(HOG_SPIN_MS);
	}
	return NULL;
}

static int victim_start_as(struct victim *v, int cpu, uid_t uid)
{
	memset(v, 0, sizeof(*v));
	v->cpu = cpu;
	v->uid = uid;
	if (pipe(v->in) || pipe(v->ack))
		return -errno;
	if (pthread_create(&v->th, NULL, victim_fn, v))
		return -EAGAIN;
	v->running = true;
	return read_byte(v->ack[0], 10) == 'r' ? 0 : -EIO;
}

static int victim_start(struct victim *v, int cpu)
{
	return victim_start_as(v, cpu, 0);
}

static void victim_stop(struct victim *v)
{
	if (!v->running)
		return;
	write_byte(v->in[1], 'q');
	pthread_join(v->th, NULL);
	v->running = false;
	close(v->in[0]);
	close(v->in[1]);
	close(v->ack[0]);
	close(v->ack[1]);
}

static int hog_start(struct hog *h, int cpu, struct victim *v)
{
	memset(h, 0, sizeof(*h));
	h->cpu = cpu;
	h->v = v;
	if (pipe(h->in) || pipe(h->ack))
		return -errno;
	if (pthread_create(&h->th, NULL, hog_fn, h))
		return -EAGAIN;
	h->running = true;
	if (read_byte(h->ack[0], 10) != 'r')
		return h->err ? h->err : -EIO;
	return 0;
}

static void hog_stop(struct hog *h)
{
	if (!h->running)
		return;
	write_byte(h->in[1], 'q');
	pthread_join(h->th, NULL);
	h->running = false;
	close(h->in[0]);
	close(h->in[1]);
	close(h->ack[0]);
	close(h->ack[1]);
}

/* One starvation of each pair: every hog woken, every victim has run. */
static int starve(struct hog *h, struct victim *v, int n)
{
	for (int i = n - 1; i >= 0; i--)	/* the main thread's CPU last */
		write_byte(h[i].in[1], 'x');
	for (int i = 0; i < n; i++)
		if (read_byte(v[i].ack[0], 30) != 'v')
			return -1;
	return 0;
}

/* ------------------------------------------------------------------ */
/* A scenario: collector, workload, the collector's own exit, archives. */

struct run {
	char name[64];
	char archive[PATH_MAX], log[PATH_MAX];
	pid_t pid;
	int status;
	bool exited;			/* by itself, within the bound */
	bool ok;			/* exited 0 by itself */
	char why[512];
};

static void run_paths(struct run *r, const char *name)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	snprintf(r->archive, sizeof(r->archive), "%s/%s.fxt", env_tmpdir(),
		 name);
	snprintf(r->log, sizeof(r->log), "%s/%s-collect.log", env_tmpdir(),
		 name);
}

/* Window k's archive: NAME.fxt, NAME-k.fxt for k > 1. */
static void window_path(const struct run *r, int k, char *buf, size_t size)
{
	if (k <= 1)
		snprintf(buf, size, "%s", r->archive);
	else
		snprintf(buf, size, "%s/%s-%d.fxt", env_tmpdir(), r->name, k);
}

/* Start fxt-collect -m circular with args (NULL-terminated). */
static int run_start(struct run *r, const char *const *args)
{
	char path[PATH_MAX];

	for (int k = 2; k <= 5; k++) {
		window_path(r, k, path, sizeof(path));
		unlink(path);
	}
	r->pid = collector_start(r->archive, "circular", args, r->log, r->why,
				 sizeof(r->why));
	return r->pid < 0 ? -1 : 0;
}

/* Has the collector exited? Reap it if so. */
static bool run_done(struct run *r)
{
	if (r->pid > 0 && waitpid(r->pid, &r->status, WNOHANG) == r->pid) {
		r->pid = -1;
		r->exited = true;
	}
	return r->exited;
}

/* Wait for the collector to exit by itself (else stop it: a failure). */
static void run_wait(struct run *r, double timeout)
{
	if (!r->exited && r->pid > 0) {
		if (child_wait(r->pid, timeout, &r->status)) {
			r->exited = true;
		} else {
			child_stop(r->pid, collector_timeout(), &r->status);
			snprintf(r->why, sizeof(r->why),
				 "fxt-collect did not exit by itself in %.0f s (SIGINT sent)",
				 timeout);
		}
		r->pid = -1;
	}
	r->ok = r->exited && WIFEXITED(r->status) && !WEXITSTATUS(r->status);
	if (r->exited && !r->ok)
		snprintf(r->why, sizeof(r->why), "fxt-collect: wait status 0x%x",
			 r->status);
	if (!r->ok)
		child_log_print("fxt-collect output", r->log, 30);
}

static void run_log_lines(const struct run *r, const char *needle)
{
	char line[512];
	FILE *f = fopen(r->log, "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, needle))
			printf("# %s: %s", r->name, line);
	fclose(f);
	fflush(stdout);
}

static int count_lines(const char *path, const char *needle)
{
	char line[512];
	FILE *f = fopen(path, "r");
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		n += strstr(line, needle) != NULL;
	fclose(f);
	return n;
}

static bool have_cpus(int n)
{
	int cpus[MAX_CPUS];
	int got = cpu_list(cpus, MAX_CPUS);

	for (int c = 0; c < n; c++) {
		bool found = false;

		for (int i = 0; i < got; i++)
			found |= cpus[i] == c;
		if (!found)
			return false;
	}
	return true;
}

static const char *archive_of(const struct run *r, int k)
{
	static char path[PATH_MAX];

	window_path(r, k, path, sizeof(path));
	return path;
}

static bool exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

FIXTURE(trig) {
	struct run run;
	struct records a;
	struct trigs *tr;
	struct victim v[2];
	struct hog h[2];
	char why[512];
	const char *skip;		/* why every case skips */
	bool module;			/* the test module is loaded */
};

/*
 * The harness runs a case even when its setup skipped: setup says why in
 * self->skip and each case starts with NEED_SETUP().
 */
FIXTURE_SETUP(trig)
{
	memset(self, 0, sizeof(*self));
	if (geteuid())
		self->skip = "needs root";
	else if (!have_cpus(2))
		self->skip = "needs CPUs 0 and 1";
	if (self->skip)
		return;
	self->tr = calloc(1, sizeof(*self->tr));
	ASSERT_NE(NULL, self->tr);
	/* the main thread stays off CPU 1 */
	ASSERT_EQ(0, cpu_pin(0, 0));
}

#define NEED_SETUP() do {						\
	if (self->skip)							\
		SKIP(return, "%s", self->skip);				\
} while (0)

FIXTURE_TEARDOWN(trig)
{
	for (int i = 0; i < 2; i++) {
		hog_stop(&self->h[i]);
		victim_stop(&self->v[i]);
	}
	if (self->run.pid > 0)
		child_kill(self->run.pid, NULL);
	if (self->module)
		kmod_unload(MODNAME, self->why, sizeof(self->why));
	records_free(&self->a);
	free(self->tr);
}

/* Read window k of the run into self->a and self->tr. */
#define LOAD_WINDOW(k) do {						\
	records_free(&self->a);						\
	memset(self->tr, 0, sizeof(*self->tr));				\
	ASSERT_EQ(0, records_load_each(archive_of(&self->run, k), &self->a, \
				       trigs_each, self->tr))		\
		TH_LOG("%s: cannot open", archive_of(&self->run, k));	\
	EXPECT_STREQ("", self->a.error);				\
	trigs_log(self->run.name, self->tr);				\
} while (0)

/* The collector ran with args while body ran, and exited 0 by itself. */
#define RUN_COLLECTOR(name, args, body) do {				\
	run_paths(&self->run, name);					\
	ASSERT_EQ(0, run_start(&self->run, args))			\
		TH_LOG("%s", self->run.why);				\
	body;								\
	run_wait(&self->run, collector_timeout());			\
	run_log_lines(&self->run, "trigger");				\
	ASSERT_TRUE(self->run.ok) TH_LOG("%s", self->run.why);		\
} while (0)

/* One victim (of user uid, 0: root) and its hog on CPU cpu. */
#define PAIR_AS(i, cpu, uid) do {					\
	ASSERT_EQ(0, victim_start_as(&self->v[i], cpu, uid));		\
	ASSERT_EQ(0, hog_start(&self->h[i], cpu, &self->v[i]))		\
		TH_LOG("hog: %s", strerror(-self->h[i].err));		\
} while (0)

#define PAIR(i, cpu)	PAIR_AS(i, cpu, 0)

/* The single first=true event of a window: kind, threshold, index 0. */
#define ONE_FIRST(f, kind_name, thr) do {				\
	ASSERT_EQ(1, trigs_first(self->tr, &(f)))			\
		TH_LOG("%zu trigger events", self->tr->total);		\
	EXPECT_EQ(FXT_EVENT_INSTANT, (f)->type);			\
	EXPECT_STREQ(kind_name, (f)->kind);				\
	EXPECT_TRUE((f)->has_latency && (f)->has_threshold &&		\
		    (f)->has_index && (f)->has_first);			\
	EXPECT_EQ((uint64_t)(thr), (f)->threshold);			\
	EXPECT_EQ(0, (f)->index);					\
	EXPECT_TRUE((f)->thread_defined);				\
} while (0)

/* ------------------------------------------------------------------ */

TEST_F_TIMEOUT(trig, starved, 300)
{
	const char *const args[] = {
		"--trigger", "wakeup-latency=10ms,comm=" VICTIM_COMM,
		"--post", "50ms", NULL };
	const struct trig_ev *f;
	uint64_t woken, in;

	NEED_SETUP();
	PAIR(0, 1);
	RUN_COLLECTOR("trig-starved", args,
		      ASSERT_EQ(0, starve(self->h, self->v, 1)));
	EXPECT_TRUE(child_log_contains(self->run.log, FIRED_LINE))
		TH_LOG("no \"%s\" in %s", FIRED_LINE, self->run.log);
	LOAD_WINDOW(1);
	EXPECT_EQ(1, self->tr->total);
	ONE_FIRST(f, FXT_TRIGGER_NAME_WAKEUP_LATENCY, 10 * MS);
	EXPECT_LE(10 * MS, f->latency);
	EXPECT_EQ((uint64_t)self->v[0].tid, f->tid);
	EXPECT_EQ((uint64_t)getpid(), f->pid);
	EXPECT_EQ(1, (int)f->provider);
	ASSERT_TRUE(wakeup_to_switch_in(&self->a, self->v[0].tid, 1, f->ts,
					&woken, &in))
		TH_LOG("no wakeup of the victim (tid %d) then switch in on CPU 1",
		       self->v[0].tid);
	TH_LOG("starved: wakeup latency %.3f ms (trigger event), %.3f ms from the victim's wakeup to its switch in",
	       f->latency / 1e6, (in - woken) / 1e6);
	EXPECT_LE(10 * MS, in - woken);
	EXPECT_GE(1 * MS, (in - woken > f->latency ? in - woken - f->latency :
						     f->latency - (in - woken)));
	EXPECT_TRUE(records_has_kobj_named(&self->a, FXT_OBJ_THREAD,
					   self->h[0].tid, HOG_COMM))
		TH_LOG("hog tid %d not named %s", self->h[0].tid, HOG_COMM);
	EXPECT_TRUE(records_has_kobj_named(&self->a, FXT_OBJ_THREAD,
					   self->v[0].tid, VICTIM_COMM));
}

/*
 * A filter no other user can forge: the victim runs as nobody (65534), and
 * a uid= trigger fires on it by its uid alone.
 */
TEST_F_TIMEOUT(trig, starved_uid, 300)
{
	const char *const args[] = {
		"--trigger", "wakeup-latency=10ms,uid=65534",
		"--post", "50ms", NULL };
	const struct trig_ev *f;

	NEED_SETUP();
	PAIR_AS(0, 1, 65534);
	RUN_COLLECTOR("trig-starved-uid", args,
		      ASSERT_EQ(0, starve(self->h, self->v, 1)));
	EXPECT_TRUE(child_log_contains(self->run.log, FIRED_LINE))
		TH_LOG("no \"%s\" in %s", FIRED_LINE, self->run.log);
	LOAD_WINDOW(1);
	ONE_FIRST(f, FXT_TRIGGER_NAME_WAKEUP_LATENCY, 10 * MS);
	EXPECT_EQ((uint64_t)self->v[0].tid, f->tid);
}

/*
 * comm is anyone's to set: a thread of another user (nobody) named like
 * the one watched is starved, and a trigger that also asks for root's uid
 * does not fire on it (a comm-only trigger would, and spend its window).
 */
TEST_F_TIMEOUT(trig, forged_comm_other_uid_does_not_fire, 300)
{
	const char *const args[] = {
		"--trigger", "wakeup-latency=10ms,comm=" VICTIM_COMM ",uid=0",
		"--post", "50ms", "-t", "2", NULL };
	uint64_t woken, in;

	NEED_SETUP();
	PAIR_AS(0, 1, 65534);
	RUN_COLLECTOR("trig-forged-comm", args,
		      ASSERT_EQ(0, starve(self->h, self->v, 1)));
	EXPECT_TRUE(child_log_contains(self->run.log, NONE_LINE))
		TH_LOG("no \"%s\" in %s", NONE_LINE, self->run.log);
	EXPECT_FALSE(child_log_contains(self->run.log, FIRED_LINE));
	LOAD_WINDOW(1);
	EXPECT_EQ(0, self->tr->total);
	/* the starvation is there: comm alone would have fired */
	ASSERT_TRUE(wakeup_to_switch_in(&self->a, self->v[0].tid, 1,
					UINT64_MAX, &woken, &in));
	EXPECT_LE(10 * MS, in - woken);
}

TEST_F_TIMEOUT(trig, starved_below_threshold, 300)
{
	const char *const args[] = {
		"--trigger", "wakeup-latency=50ms,comm=" VICTIM_COMM,
		"--post", "50ms", "-t", "2", NULL };
	uint64_t woken, in;

	NEED_SETUP();
	PAIR(0, 1);
	RUN_COLLECTOR("trig-starved-50ms", args,
		      ASSERT_EQ(0, starve(self->h, self->v, 1)));
	EXPECT_TRUE(child_log_contains(self->run.log, NONE_LINE))
		TH_LOG("no \"%s\" in %s", NONE_LINE, self->run.log);
	EXPECT_FALSE(child_log_contains(self->run.log, FIRED_LINE));
	LOAD_WINDOW(1);
	EXPECT_EQ(0, self->tr->total);
	/* the starvation is there: 10ms would have fired */
	ASSERT_TRUE(wakeup_to_switch_in(&self->a, self->v[0].tid, 1,
					UINT64_MAX, &woken, &in));
	TH_LOG("below threshold: %.3f ms from the victim's wakeup to its switch in",
	       (in - woken) / 1e6);
	EXPECT_LE(10 * MS, in - woken);
	EXPECT_GT(50 * MS, in - woken);
}

/* The victim runs, blocks 300 ms, is woken. */
static int off_cpu_round(struct victim *v)
{
	write_byte(v->in[1], 'x');
	if (read_byte(v->ack[0], 30) != 'v')
		return -1;
	usleep(OFF_CPU_MS * 1000);
	write_byte(v->in[1], 'x');
	return read_byte(v->ack[0], 30) == 'v' ? 0 : -1;
}

TEST_F_TIMEOUT(trig, off_cpu, 300)
{
	char spec[96];
	const char *const args[] = { "--trigger", spec, "--post", "50ms", NULL };
	const struct trig_ev *f;
	uint64_t out = 0, in = 0, off;

	NEED_SETUP();
	ASSERT_EQ(0, victim_start(&self->v[0], 1));
	snprintf(spec, sizeof(spec), "off-cpu=200ms,pid=%d", self->v[0].tid);
	RUN_COLLECTOR("trig-off-cpu", args,
		      ASSERT_EQ(0, off_cpu_round(&self->v[0])));
	EXPECT_TRUE(child_log_contains(self->run.log, FIRED_LINE));
	LOAD_WINDOW(1);
	EXPECT_EQ(1, self->tr->total);
	ONE_FIRST(f, FXT_TRIGGER_NAME_OFF_CPU, 200 * MS);
	EXPECT_LE(200 * MS, f->latency);
	EXPECT_EQ((uint64_t)self->v[0].tid, f->tid);
	off = longest_off_cpu(&self->a, self->v[0].tid, &out, &in);
	TH_LOG("off-cpu: latency %.3f ms (trigger event), %.3f ms from the victim's switch out to its switch in",
	       f->latency / 1e6, off / 1e6);
	EXPECT_LE(200 * MS, off);
	EXPECT_GE(1 * MS, off > f->latency ? off - f->latency :
					     f->latency - off);
}

TEST_F_TIMEOUT(trig, off_cpu_below_threshold, 300)
{
	char spec[96];
	const char *const args[] = { "--trigger", spec, "--post", "50ms",
				     "-t", "2", NULL };
	uint64_t out = 0, in = 0, off;

	NEED_SETUP();
	ASSERT_EQ(0, victim_start(&self->v[0], 1));
	snprintf(spec, sizeof(spec), "off-cpu=1s,pid=%d", self->v[0].tid);
	RUN_COLLECTOR("trig-off-cpu-1s", args,
		      ASSERT_EQ(0, off_cpu_round(&self->v[0])));
	EXPECT_TRUE(child_log_contains(self->run.log, NONE_LINE));
	EXPECT_FALSE(child_log_contains(self->run.log, FIRED_LINE));
	LOAD_WINDOW(1);
	EXPECT_EQ(0, self->tr->total);
	off = longest_off_cpu(&self->a, self->v[0].tid, &out, &in);
	TH_LOG("below threshold: %.3f ms off CPU", off / 1e6);
	EXPECT_LE(200 * MS, off);
}

/*
 * The test module's TASKLET_MS long interrupt on CPU 1, its CPU checked:
 * param "slow_tasklet" (a softirq) or "slow_irq_work" (a hard interrupt).
 */
static int slow_interrupt(const char *param, char *why, size_t size)
{
	char buf[32] = "", arg[32];
	int err;

	snprintf(arg, sizeof(arg), "1 %d", TASKLET_MS);
	err = kmod_param_write(MODNAME, param, arg);

	if (err) {
		snprintf(why, size, "%s: %s", param, strerror(-err));
		return -1;
	}
	if (kmod_param_read(MODNAME, "cpu", buf, sizeof(buf)) || atoi(buf) != 1) {
		snprintf(why, size, "%s ran on CPU %s, not 1", param, buf);
		return -1;
	}
	return 0;
}

static int slow_tasklet(char *why, size_t size)
{
	return slow_interrupt("slow_tasklet", why, size);
}

#define WITH_MODULE(body) do {						\
	char path_[PATH_MAX], buf_[256];				\
	int ret_;							\
									\
	ASSERT_EQ(0, kmod_path(MODNAME, path_, sizeof(path_), self->why,\
			       sizeof(self->why))) TH_LOG("%s", self->why); \
	ASSERT_EQ(0, kmod_load(path_, NULL, self->why, sizeof(self->why)))\
		TH_LOG("%s", self->why);				\
	self->module = true;						\
	body;								\
	self->module = false;						\
	ret_ = kmod_unload(MODNAME, buf_, sizeof(buf_));		\
	EXPECT_EQ(0, ret_) TH_LOG("%s", buf_);				\
} while (0)

TEST_F_TIMEOUT(trig, irq_duration, 300)
{
	const char *const args[] = { "--trigger", "irq-duration=10ms,cpu=1",
				     "--post", "50ms", NULL };
	const struct trig_ev *f;
	uint64_t slice;
	int ret = 0;

	NEED_SETUP();
	WITH_MODULE(RUN_COLLECTOR("trig-irq", args,
				  ret = slow_tasklet(self->why,
						     sizeof(self->why))));
	ASSERT_EQ(0, ret) TH_LOG("%s", self->why);
	EXPECT_TRUE(child_log_contains(self->run.log, FIRED_LINE));
	LOAD_WINDOW(1);
	ONE_FIRST(f, FXT_TRIGGER_NAME_IRQ_DURATION, 10 * MS);
	EXPECT_EQ(FXT_KOID_IRQ_THREAD(1), f->tid);
	EXPECT_EQ(FXT_KOID_IRQ_PROCESS, f->pid);
	EXPECT_EQ(1, (int)f->provider);
	EXPECT_LE(TASKLET_MS * MS, f->latency);
	slice = longest_slice(&self->a, 1, FXT_CAT_NAME_SOFTIRQ, "TASKLET");
	TH_LOG("irq-duration: latency %.3f ms (trigger event), longest TASKLET slice on CPU 1 %.3f ms",
	       f->latency / 1e6, slice / 1e6);
	EXPECT_LE(TASKLET_MS * MS, slice);
	/* the firing is that slice's (interrupts nested in it included) */
	EXPECT_GE(1 * MS, slice > f->latency ? slice - f->latency :
					       f->latency - slice);
}

TEST_F_TIMEOUT(trig, irq_duration_below_threshold, 300)
{
	const char *const args[] = { "--trigger", "irq-duration=50ms,cpu=1",
				     "--post", "50ms", "-t", "2", NULL };
	uint64_t slice;
	int ret = 0;

	NEED_SETUP();
	WITH_MODULE(RUN_COLLECTOR("trig-irq-50ms", args,
				  ret = slow_tasklet(self->why,
						     sizeof(self->why))));
	ASSERT_EQ(0, ret) TH_LOG("%s", self->why);
	EXPECT_TRUE(child_log_contains(self->run.log, NONE_LINE));
	EXPECT_FALSE(child_log_contains(self->run.log, FIRED_LINE));
	LOAD_WINDOW(1);
	EXPECT_EQ(0, self->tr->total);
	slice = longest_slice(&self->a, 1, FXT_CAT_NAME_SOFTIRQ, "TASKLET");
	TH_LOG("below threshold: longest TASKLET slice on CPU 1 %.3f ms",
	       slice / 1e6);
	EXPECT_LE(TASKLET_MS * MS, slice);
}

/*
 * A hard interrupt: the test module's irq_work of TASKLET_MS ms on CPU 1,
 * raised by a self-IPI (x86's irq_work vector), fires the same trigger,
 * and the archive has the irq_work slice.
 */
TEST_F_TIMEOUT(trig, irq_duration_hardirq, 300)
{
	const char *const args[] = { "--trigger", "irq-duration=10ms,cpu=1",
				     "--post", "50ms", NULL };
	const struct trig_ev *f;
	uint64_t slice;
	int ret = 0;

	NEED_SETUP();
	WITH_MODULE(RUN_COLLECTOR("trig-hardirq", args,
				  ret = slow_interrupt("slow_irq_work", self->why,
						       sizeof(self->why))));
	ASSERT_EQ(0, ret) TH_LOG("%s", self->why);
	EXPECT_TRUE(child_log_contains(self->run.log, FIRED_LINE));
	LOAD_WINDOW(1);
	ONE_FIRST(f, FXT_TRIGGER_NAME_IRQ_DURATION, 10 * MS);
	EXPECT_EQ(FXT_KOID_IRQ_THREAD(1), f->tid);
	EXPECT_EQ(1, (int)f->provider);
	EXPECT_LE(TASKLET_MS * MS, f->latency);
	slice = longest_slice(&self->a, 1, FXT_CAT_NAME_IRQ, "irq_work");
	TH_LOG("irq-duration (hard): latency %.3f ms (trigger event), longest irq_work slice on CPU 1 %.3f ms",
	       f->latency / 1e6, slice / 1e6);
	EXPECT_LE(TASKLET_MS * MS, slice);
	EXPECT_GE(1 * MS, slice > f->latency ? slice - f->latency :
					       f->latency - slice);
}

/*
 * More blocked threads than a trigger table's 4096 slots: each blocking
 * switch out notes its thread for off-cpu, and a note that pushes out
 * another thread's is counted. CROWD threads each blocked once, none
 * switched in again before the stop: at least CROWD - 4096 notes pushed
 * out, which the collector must report (its warning line).
 */
#define CROWD		6000
#define TRIG_SLOTS	4096		/* module/fxt_triggers.c */
#define MISSED_LINE	"latencies were not measured"

static void *crowd_main(void *arg)
{
	char c;

	while (read(*(int *)arg, &c, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

/* The number the collector's warning gives, or -1 when it has none. */
static long long missed_reported(const char *log)
{
	char line[512], *at;
	long long n = -1;
	FILE *f = fopen(log, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		at = strstr(line, "warning: ");
		if (at && strstr(line, MISSED_LINE))
			n = strtoll(at + strlen("warning: "), NULL, 10);
	}
	fclose(f);
	return n;
}

TEST_F_TIMEOUT(trig, missed_counted, 300)
{
	const char *const args[] = { "--trigger", "off-cpu=100s", NULL };
	pthread_t *th = calloc(CROWD, sizeof(*th));
	pthread_attr_t at;
	size_t made = 0;
	long long missed;
	int p[2];

	NEED_SETUP();
	ASSERT_NE(NULL, th);
	ASSERT_EQ(0, pipe(p));
	pthread_attr_init(&at);
	pthread_attr_setstacksize(&at, 64 << 10);
	RUN_COLLECTOR("trig-missed", args, {
		while (made < CROWD &&
		       !pthread_create(&th[made], &at, crowd_main, &p[0]))
			made++;
		usleep(500 * 1000);	/* the last ones block */
		kill(self->run.pid, SIGINT);
	});
	close(p[1]);			/* every read returns 0 */
	for (size_t i = 0; i < made; i++)
		pthread_join(th[i], NULL);
	close(p[0]);
	pthread_attr_destroy(&at);
	free(th);
	ASSERT_EQ(CROWD, made);
	EXPECT_TRUE(child_log_contains(self->run.log, NONE_LINE));
	missed = missed_reported(self->run.log);
	TH_LOG("%d threads blocked once each: %lld latencies reported not measured",
	       CROWD, missed);
	EXPECT_LE(CROWD - TRIG_SLOTS, missed);
	EXPECT_GE(CROWD + 2000, missed);
}

/* Starve every 300 ms until the collector exits; bounded. */
static int starve_until_done(struct run *r, struct hog *h, struct victim *v,
			     int n, double timeout)
{
	double end = env_now() + timeout;
	int rounds = 0;

	while (!run_done(r) && env_now() < end) {
		if (starve(h, v, n))
			return -1;
		rounds++;
		usleep(300 * 1000);
	}
	return rounds;
}

TEST_F_TIMEOUT(trig, windows, 500)
{
	const char *const args[] = {
		"--trigger", "wakeup-latency=10ms,comm=" VICTIM_COMM,
		"--post", "50ms", "--windows", "3", NULL };
	const struct trig_ev *f;
	int rounds = 0;

	NEED_SETUP();
	PAIR(0, 1);
	RUN_COLLECTOR("trig-windows", args,
		      rounds = starve_until_done(&self->run, self->h, self->v,
						 1, 300));
	TH_LOG("windows: %d starvations", rounds);
	ASSERT_LT(0, rounds);
	EXPECT_EQ(3, count_lines(self->run.log, FIRED_LINE));
	EXPECT_FALSE(exists(archive_of(&self->run, 4)));
	for (int k = 1; k <= 3; k++) {
		char log[PATH_MAX];
		uint64_t koid = 0, woken = 0, in = 0;
		bool found;
		size_t bad;
		int st;

		TH_LOG("window %d: %s", k, archive_of(&self->run, k));
		ASSERT_TRUE(exists(archive_of(&self->run, k)));
		snprintf(log, sizeof(log), "%s/trig-windows-%d-dump.log",
			 env_tmpdir(), k);
		st = dump_check(archive_of(&self->run, k), log, 300);
		EXPECT_TRUE(st >= 0 && WIFEXITED(st) && !WEXITSTATUS(st))
			TH_LOG("fxt-dump --check %s: status 0x%x (%s)",
			       archive_of(&self->run, k), st, log);
		LOAD_WINDOW(k);
		ONE_FIRST(f, FXT_TRIGGER_NAME_WAKEUP_LATENCY, 10 * MS);
		EXPECT_EQ((uint64_t)self->v[0].tid, f->tid);
		EXPECT_LE(10 * MS, f->latency);
		found = wakeup_to_switch_in(&self->a, self->v[0].tid, 1, f->ts,
					    &woken, &in);
		EXPECT_TRUE(found) TH_LOG("window %d: no wakeup of the victim then switch in on CPU 1",
					  k);
		if (found) {
			TH_LOG("window %d: wakeup latency %.3f ms (trigger event), %.3f ms from wakeup to switch in",
			       k, f->latency / 1e6, (in - woken) / 1e6);
			EXPECT_GE(1 * MS, in - woken > f->latency ?
				  in - woken - f->latency :
				  f->latency - (in - woken));
		}
		bad = unnamed_switched(&self->a, &koid);
		EXPECT_EQ(0, bad) TH_LOG("window %d: %zu switch sides of unnamed threads, first tid %llu",
					 k, bad, (unsigned long long)koid);
	}
}

TEST_F_TIMEOUT(trig, concurrent, 300)
{
	const char *const args[] = {
		"--trigger", "wakeup-latency=10ms,comm=" VICTIM_COMM,
		"--post", "50ms", NULL };
	const struct trig_ev *f;
	uint64_t woken, in;
	int other;

	NEED_SETUP();
	PAIR(0, 0);
	PAIR(1, 1);
	RUN_COLLECTOR("trig-concurrent", args,
		      ASSERT_EQ(0, starve(self->h, self->v, 2)));
	EXPECT_EQ(1, count_lines(self->run.log, FIRED_LINE));
	EXPECT_FALSE(exists(archive_of(&self->run, 2)));
	LOAD_WINDOW(1);
	ONE_FIRST(f, FXT_TRIGGER_NAME_WAKEUP_LATENCY, 10 * MS);
	EXPECT_LE(10 * MS, f->latency);
	ASSERT_TRUE(f->tid == (uint64_t)self->v[0].tid ||
		    f->tid == (uint64_t)self->v[1].tid);
	other = f->tid == (uint64_t)self->v[0].tid;
	/* every other event: the other victim, once, first=false */
	for (size_t i = 0; i < self->tr->n; i++) {
		const struct trig_ev *t = &self->tr->ev[i];

		if (t == f)
			continue;
		EXPECT_FALSE(t->first);
		EXPECT_EQ((uint64_t)self->v[other].tid, t->tid);
		EXPECT_STREQ(FXT_TRIGGER_NAME_WAKEUP_LATENCY, t->kind);
		EXPECT_LE(10 * MS, t->latency);
		EXPECT_EQ(10 * MS, t->threshold);
	}
	EXPECT_GE(2, self->tr->total);
	if (wakeup_to_switch_in(&self->a, self->v[other].tid, other, UINT64_MAX,
				&woken, &in)) {
		TH_LOG("concurrent: first on CPU %u %.3f ms; the other victim (CPU %d): %.3f ms from wakeup to switch in, %.3f ms after the first firing, event %s",
		       f->provider, f->latency / 1e6, other, (in - woken) / 1e6,
		       ((double)in - (double)f->ts) / 1e6,
		       self->tr->total == 2 ? "present" : "absent");
		/* over the threshold, well inside the post time: an event */
		if (in - woken >= 11 * MS && in <= f->ts + 40 * MS)
			EXPECT_EQ(2, self->tr->total);
	} else {
		TH_LOG("concurrent: the other victim's switch in is not in the window (event %s)",
		       self->tr->total == 2 ? "present" : "absent");
	}
}

/* ------------------------------------------------------------------ */
/* SET_TRIGGERS refused, on /dev/fxt itself.                            */

static void valid_set(struct fxt_trigger_set *s)
{
	memset(s, 0, sizeof(*s));
	s->count = 1;
	s->post_ns = 50 * MS;
	s->trigger[0].kind = FXT_TRIGGER_WAKEUP_LATENCY;
	s->trigger[0].match = FXT_TRIGGER_MATCH_COMM;
	s->trigger[0].threshold_ns = 10 * MS;
	strcpy(s->trigger[0].comm, VICTIM_COMM);
}

static int set_triggers(int fd, const struct fxt_trigger_set *s)
{
	return ioctl(fd, FXT_IOC_SET_TRIGGERS, s) ? errno : 0;
}

FIXTURE(dev) {
	int fd;
	struct fxt_trigger_set set;
};

FIXTURE_SETUP(dev)
{
	self->fd = open("/dev/fxt", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd) TH_LOG("/dev/fxt: %s", strerror(errno));
	valid_set(&self->set);
}

FIXTURE_TEARDOWN(dev)
{
	struct fxt_stop_options stop = { 0 };

	if (self->fd >= 0) {
		ioctl(self->fd, FXT_IOC_STOP, &stop);
		close(self->fd);
	}
}

static int init_mode(int fd, unsigned int mode)
{
	struct fxt_config cfg = { .buffer_size = 1 << 20, .mode = mode };

	return ioctl(fd, FXT_IOC_INITIALIZE, &cfg) ? errno : 0;
}

TEST_F(dev, rejected_in_ready)
{
	EXPECT_EQ(EBADFD, set_triggers(self->fd, &self->set));
	ASSERT_EQ(0, init_mode(self->fd, FXT_MODE_CIRCULAR));
	EXPECT_EQ(0, set_triggers(self->fd, &self->set));
}

TEST_F(dev, rejected_oneshot)
{
	ASSERT_EQ(0, init_mode(self->fd, FXT_MODE_ONESHOT));
	EXPECT_EQ(EINVAL, set_triggers(self->fd, &self->set));
	ASSERT_EQ(0, ioctl(self->fd, FXT_IOC_TERMINATE));
	ASSERT_EQ(0, init_mode(self->fd, FXT_MODE_CIRCULAR));
	EXPECT_EQ(0, set_triggers(self->fd, &self->set));
}

TEST_F(dev, rejected_threshold_zero)
{
	ASSERT_EQ(0, init_mode(self->fd, FXT_MODE_CIRCULAR));
	EXPECT_EQ(0, set_triggers(self->fd, &self->set));
	self->set.trigger[0].threshold_ns = 0;
	EXPECT_EQ(EINVAL, set_triggers(self->fd, &self->set));
}

TEST_F(dev, rejected_nine_triggers)
{
	ASSERT_EQ(0, init_mode(self->fd, FXT_MODE_CIRCULAR));
	for (int i = 1; i < FXT_MAX_TRIGGERS; i++)
		self->set.trigger[i] = self->set.trigger[0];
	self->set.count = FXT_MAX_TRIGGERS;
	EXPECT_EQ(0, set_triggers(self->fd, &self->set));
	self->set.count = FXT_MAX_TRIGGERS + 1;
	EXPECT_EQ(EINVAL, set_triggers(self->fd, &self->set));
}

TEST_F(dev, rejected_uid_without_its_filter)
{
	struct fxt_trigger *t = &self->set.trigger[0];

	ASSERT_EQ(0, init_mode(self->fd, FXT_MODE_CIRCULAR));
	t->uid = 1000;
	EXPECT_EQ(EINVAL, set_triggers(self->fd, &self->set));
	t->match |= FXT_TRIGGER_MATCH_UID;
	EXPECT_EQ(0, set_triggers(self->fd, &self->set));
	t->match |= 1u << 5;	/* no such filter */
	EXPECT_EQ(EINVAL, set_triggers(self->fd, &self->set));
}

TEST_F(dev, rejected_irq_duration_with_pid)
{
	struct fxt_trigger *t = &self->set.trigger[0];

	ASSERT_EQ(0, init_mode(self->fd, FXT_MODE_CIRCULAR));
	memset(t, 0, sizeof(*t));
	t->kind = FXT_TRIGGER_IRQ_DURATION;
	t->threshold_ns = 2 * MS;
	t->match = FXT_TRIGGER_MATCH_CPU;
	t->cpu = 1;
	EXPECT_EQ(0, set_triggers(self->fd, &self->set));
	t->match |= FXT_TRIGGER_MATCH_PID;
	t->pid = getpid();
	EXPECT_EQ(EINVAL, set_triggers(self->fd, &self->set));
}

TEST_F(dev, rejected_while_started)
{
	struct fxt_start_options start = {
		.disposition = FXT_START_CLEAR_ENTIRE };
	struct fxt_stop_options stop = { 0 };

	ASSERT_EQ(0, init_mode(self->fd, FXT_MODE_CIRCULAR));
	ASSERT_EQ(0, set_triggers(self->fd, &self->set));
	ASSERT_EQ(0, ioctl(self->fd, FXT_IOC_START, &start))
		TH_LOG("START: %s", strerror(errno));
	EXPECT_EQ(EBUSY, set_triggers(self->fd, &self->set));
	ASSERT_EQ(0, ioctl(self->fd, FXT_IOC_STOP, &stop))
		TH_LOG("STOP: %s", strerror(errno));
	EXPECT_EQ(0, set_triggers(self->fd, &self->set));	/* STOPPED */
}

/*
 * A trigger that fires while START is still hooking tracepoints (slow on a
 * debug kernel, or with many CPUs) must keep its TRIGGERED packet. START
 * used to drop the control packets waiting after it had hooked them, and
 * with them this run's TRIGGERED: on make check-debug's kernel,
 * trig.windows' collector waited 120 s for a window that had fired. The
 * test module delays fxt's hooking of local_timer_entry (an x86 vector,
 * hooked after the softirq and handler tracepoints) by 200 ms, and an
 * irq-duration trigger of 1 ns fires at the first interrupt that ends on
 * another CPU meanwhile.
 */
TEST_F_TIMEOUT(dev, triggered_during_slow_start_is_kept, 120)
{
	struct fxt_start_options start = {
		.disposition = FXT_START_CLEAR_ENTIRE };
	struct fxt_config cfg = { .buffer_size = 1 << 20,
				  .mode = FXT_MODE_CIRCULAR,
				  .categories = FXT_CAT_ALL };
	struct fxt_stop_options stop = { 0 };
	struct fxt_trigger *t = &self->set.trigger[0];
	char path[PATH_MAX], why[256];
	struct fxt_packet pkts[16];
	int armed, started = -1, triggered = 0;

	ASSERT_EQ(0, kmod_path(MODNAME, path, sizeof(path), why, sizeof(why)))
		TH_LOG("%s", why);
	ASSERT_EQ(0, kmod_load(path, NULL, why, sizeof(why))) TH_LOG("%s", why);
	ASSERT_EQ(0, ioctl(self->fd, FXT_IOC_INITIALIZE, &cfg));
	memset(t, 0, sizeof(*t));
	t->kind = FXT_TRIGGER_IRQ_DURATION;
	t->threshold_ns = 1;
	self->set.count = 1;
	ASSERT_EQ(0, set_triggers(self->fd, &self->set));
	armed = kmod_param_write(MODNAME, "fail_hook", "local_timer_entry 200");
	if (!armed)
		started = ioctl(self->fd, FXT_IOC_START, &start) ? errno : 0;
	kmod_param_write(MODNAME, "fail_hook", "\n");
	ASSERT_EQ(0, armed) TH_LOG("cannot arm fail_hook's delay (kprobes?)");
	ASSERT_EQ(0, started) TH_LOG("START: %s", strerror(started));
	ASSERT_EQ(0, fcntl(self->fd, F_SETFL, O_NONBLOCK));
	for (int i = 0; i < 300 && !triggered; i++) {
		ssize_t n = read(self->fd, pkts, sizeof(pkts));

		for (ssize_t k = 0; k < n / (ssize_t)sizeof(pkts[0]); k++)
			triggered += pkts[k].request == FXT_PKT_TRIGGERED;
		if (!triggered)
			usleep(10000);
	}
	EXPECT_EQ(0, ioctl(self->fd, FXT_IOC_STOP, &stop));
	EXPECT_EQ(1, triggered)
		TH_LOG("no TRIGGERED packet for a trigger that fired during START");
	EXPECT_EQ(0, kmod_unload(MODNAME, why, sizeof(why))) TH_LOG("%s", why);
}

TEST_HARNESS_MAIN
