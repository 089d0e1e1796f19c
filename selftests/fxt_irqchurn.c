// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_irqchurn - a circular CPU never stops on interrupt handler names.
 *
 * A CPU's handler-name cache has FXT_IRQ_NAME_SLOTS slots. When more
 * (irq, name) pairs fire on one CPU than fit, names give way to each other
 * on every interrupt, and each used to be written again as a new string
 * in the durable buffer. In circular mode a full durable buffer stops the
 * CPU for good: tens of MSI-X queues affined to one CPU did it on a real
 * machine, at any buffer size.
 *
 * Scenario: the shared virtio-rng line of scripts/vm/run's guest, pinned
 * to CPU 0, gets CROWD handlers of its own name each from the test module
 * selftests/kmod/fxt_irqcrowd_test.ko; /dev/hwrng is read for
 * FXT_IRQCHURN_SECONDS (default 20) while fxt records in circular mode at
 * 1 MiB per CPU. Then no CPU may have stopped (FXT_CPU_DURABLE_FULL) or
 * lost a durable record, and the archive's last window must name every
 * handler's slices: each of the crowd's names appears, and no irq begin
 * is nameless.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include <linux/fxt.h>

#include "kselftest_harness.h"
#include "child.h"
#include "device.h"
#include "env.h"
#include "kfile.h"
#include "kmod.h"
#include "records.h"

#define MODNAME		"fxt_irqcrowd_test"
#define CROWD		300	/* more than FXT_IRQ_NAME_SLOTS (256) */

/* Read /dev/hwrng for @seconds: how many reads returned data. */
static long rng_reads_for(double seconds)
{
	double end = env_now() + seconds;
	char buf[64];
	long n = 0;
	int fd = open("/dev/hwrng", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	while (env_now() < end)
		n += read(fd, buf, sizeof(buf)) > 0;
	close(fd);
	return n;
}

FIXTURE(churn) {
	struct fxt_device d;
	bool opened, mod_loaded, rng_loaded, pinned;
	bool rt;			/* PREEMPT_RT: the case skips */
	int irq;
	char affinity[64], affinity_file[96], log[PATH_MAX];
};

FIXTURE_SETUP(churn)
{
	char *modprobe[] = { "/sbin/modprobe", "virtio_rng", NULL };
	struct utsname un;
	char rt[8];

	memset(&self->d, 0, sizeof(self->d));
	self->d.fd = -1;
	/*
	 * PREEMPT_RT threads every handler, and a line's threaded handlers
	 * share one IRQF_ONESHOT mask of BITS_PER_LONG bits: request_irq()
	 * says EBUSY past 64 on the line, short of the CROWD names that
	 * overflow the cache. The kernels without it cover the case.
	 */
	self->rt = (kfile_read("/sys/kernel/realtime", rt, sizeof(rt)) == 0 &&
		    rt[0] == '1') ||
		   (uname(&un) == 0 && strstr(un.version, "PREEMPT_RT"));
	if (self->rt)
		return;		/* the case skips: nothing to set up */

	snprintf(self->log, sizeof(self->log), "%s/irqchurn-modprobe.log",
		 env_tmpdir());
	self->rng_loaded = access("/sys/module/virtio_rng", F_OK) &&
			   child_run(modprobe, self->log, 60) == 0;
	self->irq = kfile_shared_virtio_irq();
	ASSERT_LE(0, self->irq)
		TH_LOG("no virtio line with two handlers in /proc/interrupts (scripts/vm/run gives the guest one: virtio-rng x2)");
	snprintf(self->affinity_file, sizeof(self->affinity_file),
		 "/proc/irq/%d/smp_affinity_list", self->irq);
	if (!kfile_read(self->affinity_file, self->affinity,
			sizeof(self->affinity)))
		self->pinned = !kfile_write(self->affinity_file, "0");
}

FIXTURE_TEARDOWN(churn)
{
	char *unload_rng[] = { "/sbin/modprobe", "-r", "virtio_rng", NULL };
	char why[256];

	if (self->opened)
		fxt_device_close(&self->d);
	if (self->mod_loaded)
		kmod_unload(MODNAME, why, sizeof(why));
	if (self->pinned)
		kfile_write(self->affinity_file, self->affinity);
	if (self->rng_loaded)
		child_run(unload_rng, self->log, 60);
}

TEST_F_TIMEOUT(churn, circular_cpu_never_stops_on_names, 300)
{
	struct fxt_config cfg = { .buffer_size = 1u << 20,
				  .mode = FXT_MODE_CIRCULAR,
				  .categories = FXT_CAT_IRQ };
	double seconds = env_seconds("FXT_IRQCHURN_SECONDS", 20);
	char path[PATH_MAX], arg[64], why[256], file[PATH_MAX];
	static bool seen[CROWD];
	unsigned int named = 0, stopped = 0;
	uint64_t nameless = 0, crowd_begins = 0, durable_dropped = 0;
	struct records a;
	long reads;
	int err;

	if (self->rt)
		SKIP(return, "PREEMPT_RT: a shared line takes at most %d threaded handlers, fewer than %d",
		     (int)(8 * sizeof(long)), CROWD);
	ASSERT_EQ(0, kmod_path(MODNAME, path, sizeof(path), why, sizeof(why)))
		TH_LOG("%s", why);
	err = fxt_device_open(&self->d, FXT_DEVICE_PATH, "fxt_irqchurn");
	ASSERT_EQ(0, err) TH_LOG("%s", self->d.err);
	self->opened = true;
	ASSERT_EQ(0, fxt_device_init(&self->d, &cfg)) TH_LOG("%s", self->d.err);
	ASSERT_EQ(0, fxt_device_start(&self->d, FXT_START_CLEAR_ENTIRE))
		TH_LOG("%s", self->d.err);
	snprintf(arg, sizeof(arg), "irq=%d count=%d", self->irq, CROWD);
	ASSERT_EQ(0, kmod_load(path, arg, why, sizeof(why))) TH_LOG("%s", why);
	self->mod_loaded = true;
	reads = rng_reads_for(seconds);
	for (uint32_t cpu = 0; cpu < self->d.layout.nr_cpus; cpu++) {
		struct fxt_cpu_stats st;

		if (!fxt_device_traced_stats(&self->d, cpu, &st))
			continue;
		stopped += !!(st.flags & FXT_CPU_DURABLE_FULL);
		durable_dropped += st.durable_dropped;
		if (st.flags & FXT_CPU_DURABLE_FULL)
			TH_LOG("CPU %u stopped: durable buffer full (%llu bytes, %llu records)",
			       cpu, (unsigned long long)st.durable_bytes,
			       (unsigned long long)st.durable_records);
	}
	ASSERT_EQ(0, fxt_device_stop(&self->d, FXT_STOP_WRITE_RESULTS));
	EXPECT_EQ(0, kmod_unload(MODNAME, why, sizeof(why))) TH_LOG("%s", why);
	self->mod_loaded = false;
	snprintf(file, sizeof(file), "%s/fxt_irqchurn.fxt", env_tmpdir());
	ASSERT_EQ(0, fxt_device_save_file(&self->d, file))
		TH_LOG("%s", self->d.err);

	ASSERT_EQ(0, records_load(file, &a));
	EXPECT_STREQ("", a.error);
	for (size_t i = 0; i < a.nev; i++) {
		const struct records_event *e = &a.ev[i];
		int k;

		if (e->event_type != FXT_EVENT_DURATION_BEGIN ||
		    strcmp(e->category, "irq"))
			continue;
		if (!e->name[0]) {
			nameless++;
			continue;
		}
		if (sscanf(e->name, "fxtc-%d", &k) == 1 && k >= 0 &&
		    k < CROWD) {
			crowd_begins++;
			seen[k] = true;
		}
	}
	records_free(&a);
	for (int k = 0; k < CROWD; k++)
		named += seen[k];
	printf("# %ld rng reads in %.0f s; %u CPUs stopped, %llu durable records lost; last window: %llu crowd begins, %u of %d names, %llu nameless begins\n",
	       reads, seconds, stopped, (unsigned long long)durable_dropped,
	       (unsigned long long)crowd_begins, named, CROWD,
	       (unsigned long long)nameless);
	fflush(stdout);
	EXPECT_LT(0, reads);
	EXPECT_EQ(0, stopped);
	EXPECT_EQ(0, durable_dropped);
	EXPECT_EQ(CROWD, named);
	EXPECT_EQ(0, nameless);
}

TEST_HARNESS_MAIN
