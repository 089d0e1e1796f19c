// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_window - what a latency trigger's window keeps once it has closed.
 *
 *  frozen_window_never_rolls
 *	A circular CPU whose window closed must keep both rolling buffers:
 *	the older one is the context before the trigger. It used to roll
 *	on its next switch or wakeup when its buffer had less than
 *	FXT_NAMED_RECORD_MAX bytes left (fxt_rolling_make_room() did not
 *	look at the freeze), which emptied the older buffer and left the
 *	current one empty, losing the first half of the window uncounted.
 *	With rolling buffers of 4 KiB, about one CPU window in thirty
 *	freezes with less than that left: the test fires triggers until
 *	AT_RISK_WANTED windows were at risk, and none may have rolled. A
 *	CPU that rolled after the freeze is one whose reserve word points
 *	at the start of a buffer it has rolled into (wrapped_count > 0,
 *	rolling_bytes 0): a roll before the freeze is followed by the
 *	record it made room for.
 *
 *  retain_after_trigger_ends_last_slice
 *	A RETAIN start after a run whose trigger fired ends, on every CPU,
 *	the slice of the thread the last run left running there (the
 *	synthetic switch to idle, stamped at the start). START used to
 *	write it before it re-armed the triggers, while the last run's
 *	freeze still refused every record: it was lost uncounted, and the
 *	thread seemed to run through the stopped interval.
 *
 * Environment: FXT_WINDOW_ROUNDS (most firings, default 400).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <linux/fxt.h>

#include "device.h"
#include "env.h"
#include "kselftest_harness.h"
#include "records.h"

#define MS		1000000ull
#define MAX_LOAD	64
/* 64 KiB region: a header page, 52 KiB durable, two rolling of 4 KiB. */
#define SMALL_SIZE	(64u << 10)
#define ROLLING		4096u
#define SMALL_DURABLE	(SMALL_SIZE - 4096 - 2 * ROLLING)
/* The room a circular switch or wakeup makes (FXT_NAMED_RECORD_MAX). */
#define NAMED_RECORD_MAX 512u
#define AT_RISK_WANTED	5u

/*
 * One thread per CPU that sleeps and wakes: switches, wakeups, timers. Or,
 * to spin, two per CPU that yield to each other: a lone yielder never
 * switches, and a CPU with no switch before the freeze says nothing.
 */
struct load {
	pthread_t th[MAX_LOAD];
	int n;
	atomic_bool stop;
	bool spin;		/* never idle: the CPU always switches tasks */
};

static void *load_main(void *arg)
{
	struct load *l = arg;

	while (!atomic_load(&l->stop)) {
		if (l->spin)
			sched_yield();
		else
			usleep(100);
	}
	return NULL;
}

static int load_start(struct load *l, bool spin)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN) * (spin ? 2 : 1);

	memset(l, 0, sizeof(*l));
	l->spin = spin;
	for (l->n = 0; l->n < n && l->n < MAX_LOAD; l->n++)
		if (pthread_create(&l->th[l->n], NULL, load_main, l))
			return -1;
	return 0;
}

static void load_stop(struct load *l)
{
	atomic_store(&l->stop, true);
	for (int i = 0; i < l->n; i++)
		pthread_join(l->th[i], NULL);
	l->n = 0;
}

/*
 * An interrupt-duration trigger of 1 ns: fires at the first interrupt, and
 * the window closes @post_ns later.
 */
static void first_irq_trigger(struct fxt_trigger_set *set, uint64_t post_ns)
{
	memset(set, 0, sizeof(*set));
	set->count = 1;
	set->post_ns = post_ns;
	set->trigger[0].kind = FXT_TRIGGER_IRQ_DURATION;
	set->trigger[0].threshold_ns = 1;
}

/* Wait up to 3 s for this START's FXT_PKT_TRIGGERED: 0, or -ETIMEDOUT. */
static int wait_triggered(int fd)
{
	struct fxt_packet pkts[16];

	for (int i = 0; i < 300; i++) {
		ssize_t n = read(fd, pkts, sizeof(pkts));

		for (ssize_t k = 0; k < n / (ssize_t)sizeof(pkts[0]); k++)
			if (pkts[k].request == FXT_PKT_TRIGGERED)
				return 0;
		usleep(10000);
	}
	return -ETIMEDOUT;
}

/* post_ns of NO_TRIGGER: no trigger is set. */
#define NO_TRIGGER	UINT64_MAX

static int open_circular(struct fxt_device *d, uint64_t size,
			 uint64_t durable, uint64_t post_ns)
{
	struct fxt_config cfg = { .buffer_size = size, .durable_size = durable,
				  .mode = FXT_MODE_CIRCULAR,
				  .categories = FXT_CAT_ALL };
	struct fxt_trigger_set set;
	int err;

	err = fxt_device_open(d, FXT_DEVICE_PATH, "fxt_window");
	if (err)
		return err;
	err = fxt_device_init(d, &cfg);
	if (!err && post_ns != NO_TRIGGER) {
		first_irq_trigger(&set, post_ns);
		err = fxt_device_set_triggers(d, &set);
	}
	if (!err && fcntl(d->fd, F_SETFL, O_NONBLOCK))
		err = -errno;
	return err;
}

FIXTURE(w) {
	struct load load;
	struct fxt_device d;
	bool opened;
};

FIXTURE_SETUP(w)
{
	memset(&self->d, 0, sizeof(self->d));
	self->d.fd = -1;
	self->opened = false;
}

FIXTURE_TEARDOWN(w)
{
	if (self->load.n)
		load_stop(&self->load);
	if (self->opened)
		fxt_device_close(&self->d);
}

TEST_F_TIMEOUT(w, frozen_window_never_rolls, 600)
{
	unsigned long rounds = env_ulong("FXT_WINDOW_ROUNDS", 400);
	unsigned int rolled = 0, checked = 0, at_risk = 0;
	unsigned long r;

	ASSERT_EQ(0, load_start(&self->load, false));
	/* Until enough windows were at risk: about one in thirty is. */
	for (r = 0; r < rounds && at_risk + rolled < AT_RISK_WANTED; r++) {
		/* 20 ms of load after the firing: windows roll, then freeze. */
		int err = open_circular(&self->d, SMALL_SIZE, SMALL_DURABLE,
					20 * MS);

		ASSERT_EQ(0, err) TH_LOG("round %lu: %s: %s", r, self->d.err,
					 strerror(-err));
		self->opened = true;
		ASSERT_EQ(0, fxt_device_start(&self->d, FXT_START_CLEAR_ENTIRE))
			TH_LOG("start: %s", self->d.err);
		ASSERT_EQ(0, wait_triggered(self->d.fd))
			TH_LOG("round %lu: the trigger never fired", r);
		/* Every CPU switches and wakes many times after the freeze. */
		usleep(80000);
		for (uint32_t cpu = 0; cpu < self->d.layout.nr_cpus; cpu++) {
			struct fxt_cpu_stats st;

			if (!fxt_device_traced_stats(&self->d, cpu, &st))
				continue;
			checked++;
			/* Its next switch or wakeup needs more room. */
			at_risk += st.rolling_bytes > ROLLING - NAMED_RECORD_MAX;
			if (st.wrapped_count && !st.rolling_bytes) {
				rolled++;
				TH_LOG("round %lu, CPU %u: rolled after the freeze (wrapped %llu)",
				       r, cpu,
				       (unsigned long long)st.wrapped_count);
			}
		}
		ASSERT_EQ(0, fxt_device_stop(&self->d, 0));
		fxt_device_close(&self->d);
		self->opened = false;
	}
	printf("# %lu firings: %u CPU windows; %u frozen with less than %u bytes left and kept, %u rolled after the freeze\n",
	       r, checked, at_risk, NAMED_RECORD_MAX, rolled);
	fflush(stdout);
	/* The test saw windows the defect would have rolled. */
	EXPECT_LE(AT_RISK_WANTED, at_risk + rolled);
	EXPECT_EQ(0, rolled);
}

/* Per CPU: the last switch before @before, and the synthetic one after. */
struct cpu_ends {
	bool have_last;
	uint64_t last_in_tid, last_ts;
	bool ended;		/* a switch from last_in_tid to idle in range */
};

TEST_F_TIMEOUT(w, retain_after_trigger_ends_last_slice, 120)
{
	char path[PATH_MAX];
	struct fxt_trigger_set none = { 0 };
	struct cpu_ends ends[MAX_LOAD] = { 0 };
	unsigned int running = 0, ended = 0;
	uint64_t t0, t1;
	struct records a;
	int err;

	snprintf(path, sizeof(path), "%s/fxt_window-retain.fxt",
		 env_tmpdir());
	/* Every CPU busy: the last switch before the freeze is to a task. */
	ASSERT_EQ(0, load_start(&self->load, true));
	err = open_circular(&self->d, 1u << 20, 0, 0);
	ASSERT_EQ(0, err) TH_LOG("%s: %s", self->d.err, strerror(-err));
	self->opened = true;
	ASSERT_EQ(0, fxt_device_start(&self->d, FXT_START_CLEAR_ENTIRE));
	ASSERT_EQ(0, wait_triggered(self->d.fd));
	usleep(20000);
	ASSERT_EQ(0, fxt_device_stop(&self->d, 0));
	load_stop(&self->load);
	/* No trigger this time: only START's own switches matter. */
	ASSERT_EQ(0, fxt_device_set_triggers(&self->d, &none));
	t0 = env_boottime_ns();
	ASSERT_EQ(0, fxt_device_start(&self->d, FXT_START_RETAIN))
		TH_LOG("start: %s", self->d.err);
	t1 = env_boottime_ns();
	ASSERT_EQ(0, fxt_device_stop(&self->d, FXT_STOP_WRITE_RESULTS));
	ASSERT_EQ(0, fxt_device_save_file(&self->d, path))
		TH_LOG("save: %s", self->d.err);

	ASSERT_EQ(0, records_load(path, &a));
	EXPECT_STREQ("", a.error);
	/* Each CPU's last switch of the first run, then its synthetic end. */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < a.nsw; i++) {
			const struct records_switch *s = &a.sw[i];
			struct cpu_ends *e = &ends[s->cpu % MAX_LOAD];

			if (!pass && s->ts < t0 &&
			    (!e->have_last || s->ts >= e->last_ts)) {
				e->have_last = true;
				e->last_ts = s->ts;
				e->last_in_tid = s->in_tid;
			} else if (pass && e->have_last && e->last_in_tid &&
				   s->ts >= t0 && s->ts <= t1 &&
				   s->out_tid == e->last_in_tid && !s->in_tid) {
				e->ended = true;
			}
		}
	}
	records_free(&a);
	for (int cpu = 0; cpu < MAX_LOAD; cpu++) {
		if (!ends[cpu].have_last || !ends[cpu].last_in_tid)
			continue;
		running++;
		ended += ends[cpu].ended;
		if (!ends[cpu].ended)
			TH_LOG("CPU %d: thread %llu, last switched in at %llu, never switched out",
			       cpu, (unsigned long long)ends[cpu].last_in_tid,
			       (unsigned long long)ends[cpu].last_ts);
	}
	printf("# %u CPUs left a thread running at the triggered stop; %u slices ended at the RETAIN start\n",
	       running, ended);
	fflush(stdout);
	EXPECT_LT(0, running);
	EXPECT_EQ(running, ended);
}

/*
 * STOP closes a circular window before it unhooks the probes (buffers.rst,
 * "STOP closes a circular window"): with every CPU switching all the time,
 * no switch is kept from the second half of the STOP call, which waits for
 * a grace period; before, the window ran on until the probes were gone,
 * and on a KASAN kernel rolled past what the user stopped for. What the
 * stop refused is not counted as dropped.
 */
TEST_F_TIMEOUT(w, stop_ends_the_window, 120)
{
	char path[PATH_MAX];
	uint64_t t0, t1, last = 0;
	unsigned long long dropped = 0;
	struct records a;
	int err;

	snprintf(path, sizeof(path), "%s/fxt_window-stop.fxt", env_tmpdir());
	ASSERT_EQ(0, load_start(&self->load, true));
	err = open_circular(&self->d, 1u << 20, 0, NO_TRIGGER);
	ASSERT_EQ(0, err) TH_LOG("%s: %s", self->d.err, strerror(-err));
	self->opened = true;
	ASSERT_EQ(0, fxt_device_start(&self->d, FXT_START_CLEAR_ENTIRE));
	usleep(50000);
	t0 = env_boottime_ns();
	ASSERT_EQ(0, fxt_device_stop(&self->d, FXT_STOP_WRITE_RESULTS));
	t1 = env_boottime_ns();
	load_stop(&self->load);
	for (uint32_t cpu = 0; cpu < self->d.layout.nr_cpus; cpu++) {
		struct fxt_cpu_stats st;

		if (fxt_device_traced_stats(&self->d, cpu, &st))
			dropped += st.records_dropped;
	}
	ASSERT_EQ(0, fxt_device_save_file(&self->d, path))
		TH_LOG("save: %s", self->d.err);
	ASSERT_EQ(0, records_load(path, &a));
	EXPECT_STREQ("", a.error);
	for (size_t i = 0; i < a.nsw; i++)
		if (a.sw[i].ts > last)
			last = a.sw[i].ts;
	records_free(&a);
	unlink(path);
	printf("# STOP took %.3f ms; the last switch kept is %.3f ms into it; %llu dropped\n",
	       (double)(t1 - t0) / 1e6,
	       last > t0 ? (double)(last - t0) / 1e6 : 0.0, dropped);
	fflush(stdout);
	EXPECT_LT(t0 - 50 * MS, last) TH_LOG("no switch in the last 50 ms");
	EXPECT_GE(t0 + (t1 - t0) / 2, last);
	EXPECT_EQ(0, dropped);
}

TEST_HARNESS_MAIN
