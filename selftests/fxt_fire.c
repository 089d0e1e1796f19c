// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_fire - interrupt records and START failures that real interrupts and
 * a healthy kernel do not produce on demand, driven by the test module
 * selftests/kmod/fxt_fire_test.ko (see its header), on one CPU.
 *
 * Under fxt-collect -m streaming -b 32M (a 4 MiB durable buffer: room for
 * every string index), pinned to one CPU:
 *   - nesting: softirqs IRQ_POLL, HI, BLOCK begin, IRQ_POLL ends first (as
 *     on PREEMPT_RT, where softirqs are preemptible), then BLOCK, then HI.
 *     The records must still nest, every end closing the innermost begin:
 *     the levels above IRQ_POLL end, IRQ_POLL ends, they begin again.
 *   - eviction: 2000 handler names on one made-up line, twice: more than
 *     the 256-slot name cache holds, so names are evicted and get new
 *     indices; every begin and end must carry the name fired, and no
 *     string index may be defined twice.
 *   - exhaustion: 33,000 more names: the CPU's string indices run out
 *     (the last one, 0x7fff, is defined) and the rest are written inline,
 *     each still with the name fired.
 * Then, without a collector, on /dev/fxt: START with the registration of
 * irq_handler_entry made to fail (ENOMEM) must return that errno, leave
 * nothing hooked (no record written however many interrupts fire), make
 * STOP return ECANCELED, and a START once the failure is gone must work.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/fxt.h>

#include "kselftest_harness.h"
#include "collector.h"
#include "env.h"
#include "kmod.h"
#include "need_archive.h"
#include "records.h"
#include "libfxt.h"

#define MODNAME		"fxt_fire_test"
#define NEST_SEQUENCE	"+5 +0 +4 -5 -4 -0"
#define EVICT_NAMES	2000
#define EVICT_IRQ	4001
#define EXHAUST_FIRST	100000
#define EXHAUST_NAMES	33000
#define EXHAUST_IRQ	4002
#define FAIL_HOOK	"irq_handler_entry"

static struct {
	bool ran, loaded;
	char why[512];
	struct collector coll;
	struct records a;
	int cpu;			/* the CPU every sequence ran on */
	/* the failed start */
	bool start_ran;
	char start_why[512];
	int start_errno, stop_errno, failed;
	unsigned long long written_after_fail, written_after_ok;
	int restart_ret, restart_errno;
} R;

static const struct { int type; const char *name; } nest_expected[] = {
	{ FXT_EVENT_DURATION_BEGIN, "IRQ_POLL" },
	{ FXT_EVENT_DURATION_BEGIN, "HI" },
	{ FXT_EVENT_DURATION_BEGIN, "BLOCK" },
	{ FXT_EVENT_DURATION_END, "BLOCK" },	/* cut around IRQ_POLL's end */
	{ FXT_EVENT_DURATION_END, "HI" },
	{ FXT_EVENT_DURATION_END, "IRQ_POLL" },
	{ FXT_EVENT_DURATION_BEGIN, "HI" },	/* and begun again */
	{ FXT_EVENT_DURATION_BEGIN, "BLOCK" },
	{ FXT_EVENT_DURATION_END, "BLOCK" },
	{ FXT_EVENT_DURATION_END, "HI" },
};

static int pin_self(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static int fire(const char *param, const char *what)
{
	char buf[32];
	int err = kmod_param_write(MODNAME, param, what);

	if (err) {
		snprintf(R.why, sizeof(R.why), "writing \"%s\" to %s: %s",
			 what, param, strerror(-err));
		return -1;
	}
	if (kmod_param_read(MODNAME, "cpu", buf, sizeof(buf)) ||
	    atoi(buf) != R.cpu) {
		snprintf(R.why, sizeof(R.why), "%s ran on CPU %s, not %d",
			 param, buf, R.cpu);
		return -1;
	}
	return 0;
}

static void run_records(const char *path)
{
	/* a 4 MiB durable buffer: room for every string index */
	const char *const extra[] = { "-b", "32M", NULL };
	char arg[64], buf[64];
	bool loaded = false;

	R.cpu = sysconf(_SC_NPROCESSORS_ONLN) > 1;
	if (pin_self(R.cpu)) {
		snprintf(R.why, sizeof(R.why), "cannot pin to CPU %d", R.cpu);
		return;
	}
	snprintf(R.coll.archive, sizeof(R.coll.archive), "%s/fire.fxt",
		 env_tmpdir());
	snprintf(R.coll.log, sizeof(R.coll.log), "%s/fire-collect.log",
		 env_tmpdir());
	R.coll.pid = collector_start(R.coll.archive, "streaming", extra,
				     R.coll.log, R.why, sizeof(R.why));
	if (R.coll.pid < 0)
		return;
	if (kmod_load(path, NULL, R.why, sizeof(R.why)))
		goto stop;
	loaded = true;
	if (fire("softirqs", NEST_SEQUENCE))
		goto stop;
	snprintf(arg, sizeof(arg), "0 %d %d", EVICT_NAMES, EVICT_IRQ);
	if (fire("handlers", arg) || fire("handlers", arg))
		goto stop;
	snprintf(arg, sizeof(arg), "%d %d %d", EXHAUST_FIRST, EXHAUST_NAMES,
		 EXHAUST_IRQ);
	if (fire("handlers", arg))
		goto stop;
	loaded = false;
	if (kmod_unload(MODNAME, R.why, sizeof(R.why)))
		goto stop;
	R.ran = true;
stop:
	if (loaded)
		kmod_unload(MODNAME, buf, sizeof(buf));
	if (collector_stop(&R.coll, R.ran ? R.why : buf,
			    R.ran ? sizeof(R.why) : sizeof(buf)))
		R.ran = false;
	if (!R.ran)
		return;
	if (records_read(R.coll.archive, &R.a, R.why, sizeof(R.why)))
		return;
	R.loaded = true;
}

static unsigned long long written(int fd)
{
	struct fxt_layout l;
	unsigned long long sum = 0;

	if (ioctl(fd, FXT_IOC_GET_LAYOUT, &l))
		return ~0ULL;
	for (unsigned int cpu = 0; cpu < l.nr_cpus; cpu++) {
		struct fxt_cpu_stats st = { .cpu = cpu };

		if (!ioctl(fd, FXT_IOC_GET_STATS, &st))
			sum += st.records_written + st.durable_records;
	}
	return sum;
}

/* Interrupts of every kind fxt hooks, and context switches. */
static int activity(void)
{
	for (int i = 0; i < 20; i++)
		usleep(1000);
	return fire("softirqs", "+5 -5") || fire("handlers", "0 10 4003");
}

static void run_failed_start(const char *path)
{
	struct fxt_config cfg = { .buffer_size = 1 << 20,
				  .mode = FXT_MODE_STREAMING };
	struct fxt_start_options start = {
		.disposition = FXT_START_CLEAR_ENTIRE };
	struct fxt_stop_options stop = { .flags = 0 };
	unsigned long long before;
	char buf[32];
	int fd;

	if (kmod_load(path, NULL, R.start_why, sizeof(R.start_why)))
		return;
	fd = open("/dev/fxt", O_RDWR | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, FXT_IOC_INITIALIZE, &cfg)) {
		snprintf(R.start_why, sizeof(R.start_why),
			 "/dev/fxt: open or INITIALIZE: %s", strerror(errno));
		goto out;
	}
	if (kmod_param_write(MODNAME, "fail_hook", FAIL_HOOK)) {
		snprintf(R.start_why, sizeof(R.start_why),
			 "cannot arm fail_hook (kprobes?)");
		goto out;
	}
	R.start_errno = ioctl(fd, FXT_IOC_START, &start) ? errno : 0;
	if (!kmod_param_read(MODNAME, "failed", buf, sizeof(buf)))
		R.failed = atoi(buf);
	kmod_param_write(MODNAME, "fail_hook", "\n");
	before = written(fd);
	if (activity())
		goto out;
	R.written_after_fail = written(fd) - before;
	R.stop_errno = ioctl(fd, FXT_IOC_STOP, &stop) ? errno : 0;
	R.restart_ret = ioctl(fd, FXT_IOC_START, &start);
	R.restart_errno = R.restart_ret ? errno : 0;
	before = written(fd);
	if (activity())
		goto out;
	R.written_after_ok = written(fd) - before;
	ioctl(fd, FXT_IOC_STOP, &stop);
	R.start_ran = true;
out:
	if (!R.start_ran && !R.start_why[0])
		snprintf(R.start_why, sizeof(R.start_why), "%s", R.why);
	if (fd >= 0)
		close(fd);
	kmod_unload(MODNAME, buf, sizeof(buf));
}

/* This CPU's events, from the first one named first_name on. */
static size_t cpu_events(const struct records_event **out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < R.a.nev && n < max; i++)
		if ((int)R.a.ev[i].provider == R.cpu &&
		    (R.a.ev[i].event_type == FXT_EVENT_DURATION_BEGIN ||
		     R.a.ev[i].event_type == FXT_EVENT_DURATION_END))
			out[n++] = &R.a.ev[i];
	return n;
}

SCENARIO_AND_ARCHIVE_CASES()

TEST(out_of_order_softirq_end_still_nests)
{
	const struct records_event **ev;
	size_t n, i, k = 0;

	NEED_ARCHIVE();
	ev = calloc(R.a.nev + 1, sizeof(*ev));
	ASSERT_NE(NULL, ev);
	n = cpu_events(ev, R.a.nev);
	for (i = 0; i < n; i++)
		if (ev[i]->event_type == FXT_EVENT_DURATION_END &&
		    !strcmp(ev[i]->name, "fxtf-start"))
			break;
	for (i++; i < n && strcmp(ev[i]->name, "fxtf-stop"); i++, k++) {
		if (k >= ARRAY_SIZE(nest_expected))
			break;
		EXPECT_EQ(nest_expected[k].type, ev[i]->event_type)
			TH_LOG("record %zu after fxtf-start (%s)", k, ev[i]->name);
		EXPECT_STREQ(nest_expected[k].name, ev[i]->name)
			TH_LOG("record %zu after fxtf-start", k);
	}
	EXPECT_EQ(ARRAY_SIZE(nest_expected), k)
		TH_LOG("records between fxtf-start and fxtf-stop");
	free(ev);
}

/*
 * The begins (argument irq) on line irq, each followed by its end, name
 * for name: fxtf-first, fxtf-first+1, ... count names, rounds times over.
 */
static void expect_handler_names(struct __test_metadata *_metadata, int irq,
				 int first, int count, int rounds)
{
	const struct records_event **ev = calloc(R.a.nev + 1, sizeof(*ev));
	size_t n, i;
	long k = 0, wrong = 0;
	char want[32];

	ASSERT_NE(NULL, ev);
	n = cpu_events(ev, R.a.nev);
	for (i = 0; i + 1 < n; i++) {
		if (ev[i]->event_type != FXT_EVENT_DURATION_BEGIN ||
		    strcmp(ev[i]->arg_name, "irq") || ev[i]->arg_value != irq)
			continue;
		snprintf(want, sizeof(want), "fxtf-%ld", first + k % count);
		if (strcmp(want, ev[i]->name) ||
		    ev[i + 1]->event_type != FXT_EVENT_DURATION_END ||
		    strcmp(want, ev[i + 1]->name)) {
			if (!wrong++)
				TH_LOG("handler %ld: %s/%s, want %s", k,
				       ev[i]->name, ev[i + 1]->name, want);
		}
		k++;
	}
	EXPECT_EQ(0, wrong);
	EXPECT_EQ((long)count * rounds, k);
	free(ev);
}

/* String records of this CPU: texts fxtf-<first..first+count-1>, max index. */
static long strings_of(int first, int count, unsigned int *max_index,
		       long *redefined)
{
	static unsigned char seen[0x8000];
	long n = 0;
	int v;

	memset(seen, 0, sizeof(seen));
	*max_index = 0;
	*redefined = 0;
	for (size_t i = 0; i < R.a.nstr; i++) {
		const struct records_string *s = &R.a.str[i];

		if ((int)s->provider != R.cpu)
			continue;
		*redefined += seen[s->index & 0x7fff]++ != 0;
		if (s->index > *max_index)
			*max_index = s->index;
		if (sscanf(s->text, "fxtf-%d", &v) == 1 && v >= first &&
		    v < first + count)
			n++;
	}
	return n;
}

TEST(evicted_handler_names_stay_right)
{
	unsigned int max;
	long defs, redefined;

	NEED_ARCHIVE();
	expect_handler_names(_metadata, EVICT_IRQ, 0, EVICT_NAMES, 2);
	defs = strings_of(0, EVICT_NAMES, &max, &redefined);
	/* Some names were evicted and got a second index. */
	EXPECT_LT(EVICT_NAMES, defs);
	EXPECT_EQ(0, redefined) TH_LOG("a string index was defined twice");
}

TEST(string_indices_run_out_then_names_go_inline)
{
	unsigned int max;
	long defs, redefined;

	NEED_ARCHIVE();
	expect_handler_names(_metadata, EXHAUST_IRQ, EXHAUST_FIRST,
			     EXHAUST_NAMES, 1);
	defs = strings_of(EXHAUST_FIRST, EXHAUST_NAMES, &max, &redefined);
	EXPECT_EQ(0x7fff, max) TH_LOG("the last string index is not used");
	EXPECT_GT(EXHAUST_NAMES, defs) TH_LOG("no name went inline");
	EXPECT_EQ(0, redefined);
}

TEST(failed_start_scenario_ran)
{
	ASSERT_TRUE(R.start_ran) TH_LOG("%s", R.start_why);
	ASSERT_EQ(1, R.failed) TH_LOG("the registration was not made to fail");
}

TEST(failed_start_returns_the_hook_errno)
{
	if (!R.start_ran)
		SKIP(return, "%s", R.start_why);
	EXPECT_EQ(ENOMEM, R.start_errno);
}

TEST(failed_start_leaves_nothing_hooked)
{
	if (!R.start_ran)
		SKIP(return, "%s", R.start_why);
	EXPECT_EQ(0, R.written_after_fail);
}

TEST(stop_after_failed_start_is_ecanceled)
{
	if (!R.start_ran)
		SKIP(return, "%s", R.start_why);
	EXPECT_EQ(ECANCELED, R.stop_errno);
}

TEST(start_works_once_hooks_do)
{
	if (!R.start_ran)
		SKIP(return, "%s", R.start_why);
	EXPECT_EQ(0, R.restart_ret) TH_LOG("errno %d", R.restart_errno);
	EXPECT_LT(0, R.written_after_ok);
}

int main(int argc, char **argv)
{
	char path[PATH_MAX];

	if (geteuid()) {
		snprintf(R.why, sizeof(R.why), "needs root");
	} else if (!kmod_path(MODNAME, path, sizeof(path), R.why,
			      sizeof(R.why))) {
		run_records(path);
		run_failed_start(path);
	}
	if (!R.start_ran && !R.start_why[0])
		snprintf(R.start_why, sizeof(R.start_why), "%s", R.why);
	if (R.loaded)
		printf("# %s: %zu events, %zu strings; CPU %d\n",
		       R.coll.archive, R.a.nev, R.a.nstr, R.cpu);
	else
		printf("# records: %s\n", R.why);
	printf("# failed start: errno %d (fail_hook hit %d), stop errno %d, "
	       "records after it %llu, restart %d, records after %llu\n",
	       R.start_errno, R.failed, R.stop_errno, R.written_after_fail,
	       R.restart_ret, R.written_after_ok);
	fflush(stdout);
	return test_harness_run(argc, argv);
}
