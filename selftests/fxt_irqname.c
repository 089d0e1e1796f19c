// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_irqname - an interrupt handler's name is its text, not its address.
 *
 * A driver unloaded and another one loaded (or the same one, for another
 * device) can put a different handler name at the address of the old one,
 * on the same line. fxt caches each CPU's handler name strings; a cache
 * keyed on the name's address would give the new handler the old name.
 *
 * Scenario, under fxt-collect -m streaming: the shared virtio-rng line of
 * scripts/vm/run's guest, pinned to CPU 0, gets a second handler from the
 * test module selftests/kmod/fxt_irqname_test.ko (built by `make module`
 * for the same kernel as fxt.ko), named "fxtq-old"; /dev/hwrng is read so
 * that the line fires; the module then removes its handler, writes
 * "fxtq-new" into the same buffer and adds it again; /dev/hwrng is read
 * again, and the handler removed. The module counts its handler's runs
 * under each name, and the
 * archive must hold exactly as many irq begin events named "fxtq-old" and
 * "fxtq-new" (the tracepoint fires once per run). The handler returns
 * IRQ_NONE, so each of its ends must say "handled" false: the one end
 * argument fxt writes (records.rst).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "collector.h"
#include "kfile.h"
#include "kmod.h"
#include "need_archive.h"
#include "records.h"
#include "libfxt.h"

#define NAME		"irqname"
#define MODNAME		"fxt_irqname_test"
#define NR_RNG_READS	100
#define MAX_PROV	256

static struct {
	bool ran, loaded;
	char why[512];
	struct collector coll;
	struct records a;
	int irq;
	char affinity[64];		/* the line's smp_affinity_list before */
	bool pinned;
	long calls[2];			/* the module's count, old and new name */
	int reads[2];
} R;

static const char *const names[2] = { "fxtq-old", "fxtq-new" };

static int rng_reads(void)
{
	char buf[64];
	int fd = open("/dev/hwrng", O_RDONLY | O_CLOEXEC), n = 0;

	if (fd < 0)
		return -errno;
	for (int i = 0; i < NR_RNG_READS; i++)
		n += read(fd, buf, sizeof(buf)) > 0;
	close(fd);
	return n;
}

static void run(void)
{
	char *modprobe[] = { "/sbin/modprobe", "virtio_rng", NULL };
	char *unload_rng[] = { "/sbin/modprobe", "-r", "virtio_rng", NULL };
	char path[PATH_MAX], arg[32], log[PATH_MAX], file[96], buf[64];
	bool rng_loaded, mod_loaded = false;
	int ret = -1;

	R.irq = -1;
	if (geteuid()) {
		snprintf(R.why, sizeof(R.why), "needs root");
		return;
	}
	if (kmod_path(MODNAME, path, sizeof(path), R.why, sizeof(R.why)))
		return;
	snprintf(log, sizeof(log), "%s/irqname-modprobe.log", env_tmpdir());
	rng_loaded = access("/sys/module/virtio_rng", F_OK) &&
		     child_run(modprobe, log, 60) == 0;
	R.irq = kfile_shared_virtio_irq();
	if (R.irq < 0) {
		snprintf(R.why, sizeof(R.why),
			 "no virtio line with two handlers in /proc/interrupts "
			 "(scripts/vm/run gives the guest one: virtio-rng x2)");
		goto out;
	}
	/* One CPU sees both names: the one whose cache could confuse them. */
	snprintf(file, sizeof(file), "/proc/irq/%d/smp_affinity_list", R.irq);
	if (!kfile_read(file, R.affinity, sizeof(R.affinity)))
		R.pinned = !kfile_write(file, "0");
	if (collector_start_named(&R.coll, NAME, R.why, sizeof(R.why)))
		goto out;
	snprintf(arg, sizeof(arg), "irq=%d", R.irq);
	if (kmod_load(path, arg, R.why, sizeof(R.why))) {
		collector_stop(&R.coll, buf, sizeof(buf));
		goto out;
	}
	mod_loaded = true;
	R.reads[0] = rng_reads();
	if (kmod_param_write(MODNAME, "swap", "1")) {
		snprintf(R.why, sizeof(R.why), "writing " MODNAME "'s swap failed");
		collector_stop(&R.coll, buf, sizeof(buf));
		goto out;
	}
	R.reads[1] = rng_reads();
	/* The handler is gone before it is counted: no run left uncounted. */
	if (kmod_param_write(MODNAME, "remove", "1") ||
	    kmod_param_read(MODNAME, "calls", buf, sizeof(buf)) ||
	    sscanf(buf, "%ld %ld", &R.calls[0], &R.calls[1]) != 2) {
		snprintf(R.why, sizeof(R.why), "cannot remove the handler or read " MODNAME "'s calls");
		collector_stop(&R.coll, buf, sizeof(buf));
		goto out;
	}
	mod_loaded = kmod_unload(MODNAME, R.why, sizeof(R.why)) != 0;
	if (mod_loaded) {
		collector_stop(&R.coll, buf, sizeof(buf));
		goto out;
	}
	R.ran = true;
	ret = collector_stop(&R.coll, R.why, sizeof(R.why));
out:
	if (mod_loaded)
		kmod_unload(MODNAME, buf, sizeof(buf));
	if (R.pinned)
		kfile_write(file, R.affinity);
	if (rng_loaded)
		child_run(unload_rng, log, 60);
	if (!R.ran || ret)
		return;
	ret = records_read(R.coll.archive, &R.a, R.why, sizeof(R.why));
	if (ret)
		return;
	R.loaded = true;
}

/* irq begin events named name (on provider cpu, or any when cpu < 0). */
static long begins_named(const char *name, int cpu)
{
	long n = 0;

	for (size_t i = 0; i < R.a.nev; i++) {
		const struct records_event *e = &R.a.ev[i];

		n += e->event_type == FXT_EVENT_DURATION_BEGIN &&
		     !strcmp(e->category, "irq") && !strcmp(e->name, name) &&
		     (cpu < 0 || (int)e->provider == cpu);
	}
	return n;
}

/*
 * irq end events named name that say "handled" false, the one argument an
 * end carries (records.rst), and those that say nothing.
 */
static void ends_named(const char *name, long *unhandled, long *plain)
{
	*unhandled = *plain = 0;
	for (size_t i = 0; i < R.a.nev; i++) {
		const struct records_event *e = &R.a.ev[i];

		if (e->event_type != FXT_EVENT_DURATION_END ||
		    strcmp(e->category, "irq") || strcmp(e->name, name))
			continue;
		if (e->nargs == 1 && e->arg_type == FXT_ARG_BOOL &&
		    !strcmp(e->arg_name, "handled") && e->arg_value == 0)
			(*unhandled)++;
		else if (!e->nargs)
			(*plain)++;
	}
}

SCENARIO_AND_ARCHIVE_CASES()

/* The scenario did what it is for: the handler ran under both names. */
TEST(both_names_ran)
{
	NEED_ARCHIVE();
	ASSERT_LT(0, R.calls[0]);
	ASSERT_LT(0, R.calls[1]);
}

TEST(old_name_events_match_old_handler_runs)
{
	NEED_ARCHIVE();
	EXPECT_EQ(R.calls[0], begins_named(names[0], -1));
}

TEST(new_name_events_match_new_handler_runs)
{
	NEED_ARCHIVE();
	EXPECT_EQ(R.calls[1], begins_named(names[1], -1))
		TH_LOG("the new handler's events were named \"%s\"?", names[0]);
}

/*
 * Whether the kernel runs device interrupt handlers in threads: always on
 * PREEMPT_RT (/sys/kernel/realtime), with "threadirqs" elsewhere.
 */
static bool handlers_threaded(void)
{
	char cmdline[4096];

	if (kfile_long("/sys/kernel/realtime") == 1)
		return true;
	return !kfile_read("/proc/cmdline", cmdline, sizeof(cmdline)) &&
	       strstr(cmdline, "threadirqs");
}

/*
 * The test module's handler returns IRQ_NONE every time it runs: each of
 * its ends says "handled" false, and none goes without (a handled end has
 * no argument, so an end that lost its argument would read as handled).
 * Where handlers run in threads, the tracepoints time the primary handler
 * the kernel put in front of it, which only wakes the thread
 * (IRQ_WAKE_THREAD): handled, so every end goes without (records.rst).
 */
TEST(unhandled_ends_say_so)
{
	bool threaded = handlers_threaded();

	NEED_ARCHIVE();
	TH_LOG("interrupt handlers %s", threaded ? "threaded" : "in hard interrupt context");
	for (int k = 0; k < 2; k++) {
		long unhandled, plain;

		ends_named(names[k], &unhandled, &plain);
		EXPECT_EQ(threaded ? 0 : R.calls[k], unhandled)
			TH_LOG("%s: %ld runs, %ld ends with handled=false", names[k],
			       R.calls[k], unhandled);
		EXPECT_EQ(threaded ? begins_named(names[k], -1) : 0, plain)
			TH_LOG("%s: %ld ends without \"handled\"", names[k], plain);
	}
}

int main(int argc, char **argv)
{
	run();
	if (R.loaded) {
		printf("# %s: %zu events; irq %d (pinned to CPU 0: %s), reads %d/%d\n",
		       R.coll.archive, R.a.nev, R.irq, R.pinned ? "yes" : "no",
		       R.reads[0], R.reads[1]);
		printf("# handler runs: %ld as %s, %ld as %s; begin events: %ld, %ld\n",
		       R.calls[0], names[0], R.calls[1], names[1],
		       begins_named(names[0], -1), begins_named(names[1], -1));
	} else {
		printf("# scenario: %s\n", R.why);
	}
	fflush(stdout);
	return test_harness_run(argc, argv);
}
