// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_power - the power category (Documentation/records.rst, "Power"):
 * cpu_idle and cpu_frequency as embedded Perfetto packets, one blob record
 * of FXT_BLOB_TYPE_PERFETTO each (include/fxt/perfetto_blob.h).
 *
 * Scenario, once: fxt-collect -c sched,power records a second in which
 * this process sleeps (both CPUs go idle) and fxt_power_test.ko fires
 * cpu_frequency FIRES times for CPU 1 at FREQ_KHZ (the guest has no
 * cpufreq driver of its own).
 *
 *  idle_on_every_cpu
 *	each online CPU has cpu_idle events, and on each CPU they alternate
 *	between an entry (a state) and an exit (FXT_PB_IDLE_EXIT), in time
 *	order, as the idle loop fires them;
 *  frequency_as_fired
 *	exactly FIRES cpu_frequency events with the fired state and cpu_id;
 *  every_blob_decodes
 *	every blob of type 3 holds one power event libfxt decodes.
 */
#include <errno.h>
#include <sys/wait.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <fxt/format.h>
#include <fxt/perfetto_blob.h>

#include "child.h"
#include "collector.h"
#include "env.h"
#include "kmod.h"
#include "kselftest_harness.h"
#include "libfxt.h"

#define MODNAME		"fxt_power_test"
#define FREQ_KHZ	2345678u
#define FIRES		7
#define MAX_CPUS	64

static struct {
	bool ran;
	char why[256];
	long ncpus;
	unsigned long blobs, undecoded, freq, freq_wrong;
	unsigned long idle[MAX_CPUS], misordered[MAX_CPUS];
	uint64_t last_ts[MAX_CPUS];
	int last_exit[MAX_CPUS];	/* -1: none yet, 0: in, 1: out */
} R;

static void scan(const char *archive)
{
	struct fxt_reader *r = fxt_reader_open(archive);
	struct fxt_record *rec = calloc(1, sizeof(*rec));

	if (!r || !rec) {
		snprintf(R.why, sizeof(R.why), "cannot read %.200s", archive);
		free(rec);
		if (r)
			fxt_reader_close(r);
		return;
	}
	for (int c = 0; c < MAX_CPUS; c++)
		R.last_exit[c] = -1;
	while (fxt_reader_next(r, rec) == 1) {
		struct fxt_power_event e;
		uint32_t c;
		int exit;

		if (rec->type != FXT_REC_BLOB ||
		    rec->u.blob.blob_type != FXT_BLOB_TYPE_PERFETTO)
			continue;
		R.blobs++;
		if (fxt_perfetto_power_events(rec->u.blob.payload, rec->u.blob.size,
					      &e, 1) != 1) {
			R.undecoded++;
			continue;
		}
		if (e.event == FXT_PB_EVENT_CPU_FREQUENCY) {
			R.freq++;
			R.freq_wrong += e.state != FREQ_KHZ || e.cpu_id != 1;
			continue;
		}
		c = e.cpu;
		if (c >= MAX_CPUS)
			continue;
		exit = e.state == FXT_PB_IDLE_EXIT;
		R.idle[c]++;
		if (R.last_exit[c] == exit || e.ts < R.last_ts[c])
			R.misordered[c]++;
		R.last_exit[c] = exit;
		R.last_ts[c] = e.ts;
	}
	fxt_reader_close(r);
	free(rec);
	R.ran = true;
}

static void run(void)
{
	const char *extra[] = { "-c", "sched,power", NULL };
	char path[PATH_MAX], archive[PATH_MAX], log[PATH_MAX], arg[32], buf[64];
	int status;
	pid_t pid;

	R.ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (geteuid()) {
		snprintf(R.why, sizeof(R.why), "needs root");
		return;
	}
	if (kmod_path(MODNAME, path, sizeof(path), R.why, sizeof(R.why)) ||
	    kmod_load(path, NULL, R.why, sizeof(R.why)))
		return;
	snprintf(archive, sizeof(archive), "%s/power.fxt", env_tmpdir());
	snprintf(log, sizeof(log), "%s/power-collect.log", env_tmpdir());
	pid = collector_start(archive, "streaming", extra, log, R.why, sizeof(R.why));
	if (pid < 0) {
		kmod_unload(MODNAME, buf, sizeof(buf));
		return;
	}
	usleep(300000);
	snprintf(arg, sizeof(arg), "%u 1 %d", FREQ_KHZ, FIRES);
	if (kmod_param_write(MODNAME, "fire", arg))
		snprintf(R.why, sizeof(R.why), "writing " MODNAME "'s fire failed");
	usleep(700000);
	if (!child_stop(pid, 120, &status) || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		if (!R.why[0])
			snprintf(R.why, sizeof(R.why), "fxt-collect failed (0x%x)", status);
	}
	kmod_unload(MODNAME, buf, sizeof(buf));
	if (!R.why[0])
		scan(archive);
}

#define NEED() do {							\
	if (!R.ran)							\
		SKIP(return, "scenario did not run: %s", R.why);	\
} while (0)

TEST(scenario_ran)
{
	EXPECT_TRUE(R.ran) TH_LOG("%s", R.why);
}

TEST(idle_on_every_cpu)
{
	NEED();
	for (long c = 0; c < R.ncpus && c < MAX_CPUS; c++) {
		TH_LOG("CPU %ld: %lu cpu_idle events, %lu out of turn", c,
		       R.idle[c], R.misordered[c]);
		EXPECT_LT(0, R.idle[c]);
		EXPECT_EQ(0, R.misordered[c]);
	}
}

TEST(frequency_as_fired)
{
	NEED();
	EXPECT_EQ(FIRES, R.freq);
	EXPECT_EQ(0, R.freq_wrong);
}

TEST(every_blob_decodes)
{
	NEED();
	TH_LOG("%lu blobs", R.blobs);
	EXPECT_LT(0, R.blobs);
	EXPECT_EQ(0, R.undecoded);
}

int main(int argc, char **argv)
{
	run();
	return test_harness_run(argc, argv);
}
