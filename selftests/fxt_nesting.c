// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_nesting - interrupt begin/end events nest per CPU:
 *
 *  nesting_*    all categories under timer and IPI load, streaming through
 *               fxt-collect: begin/end events on the irq pseudo-thread
 *               nest per CPU;
 *  hook_*       short traces started and stopped while every CPU spends
 *               most of its time in NET_RX softirqs (UDP over loopback):
 *               while exit probes are hooked before their entries (and
 *               unhooked after them), the end of an interrupt whose begin
 *               was not seen must not close the softirq it interrupted.
 *
 * Every scenario runs once in main(), before the harness forks the cases;
 * each case checks one property of those runs. scenarios_ran fails when
 * any scenario could not start (its cases then skip) or broke (a failed
 * ioctl, a hung collector: its cases then fail too): lib/scenario.h. Knob: FXT_MODES_N (round
 * trips of the nesting ping-pong: a quarter of it, default 20000).
 */
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/fxt.h>

#include "kselftest_harness.h"
#include "collector.h"
#include "cpu.h"
#include "env.h"
#include "scan.h"
#include "scenario.h"
#include "workload.h"

SCENARIOS_RAN_CASE();

static unsigned long ROUNDS;

/* ------------------------------------------------------------------ */
/* Interrupt events nest under timer and IPI load.                     */

static struct crun NEST;

static void run_nesting(void)
{
	const char *extra[] = { "-b", "256K", NULL };
	struct workload_bg *bg;
	pid_t pid;

	pid = crun_start(&NEST, "modes-nesting", "streaming", extra);
	if (pid < 0)
		return;
	/* Cross-CPU wakeups: reschedule IPIs; sleepers: timer interrupts. */
	bg = workload_pingpong_bg(ROUNDS / 4, CPUS[0], CPUS[NCPUS - 1]);
	workload_sleepers(16, 200, 50000, CPUS, NCPUS);
	workload_bg_join(bg, NULL);
	crun_finish(&NEST, pid, NULL, 0);
	crun_print("nesting", &NEST);
}

TEST(nesting_collector_exit_0)	{ EXPECT_COLLECTOR_EXIT0(NEST); }

TEST(nesting_dump_check)	{ EXPECT_DUMP_CHECK(NEST); }

TEST(nesting_irq_events_seen)
{
	NEED(NEST);
	ASSERT_TRUE(NEST.scanned);
	for (int i = 0; i < NCPUS; i++) {
		EXPECT_LT(0, NEST.scan.prov[CPUS[i]].irq_begin)
			TH_LOG("cpu %d: no interrupt begin events", CPUS[i]);
	}
}

TEST(nesting_begin_end_nest)
{
	NEED(NEST);
	ASSERT_TRUE(NEST.scanned);
	for (int c = 0; c < MAX_CPUS; c++) {
		const struct scan_prov *p = &NEST.scan.prov[c];
		const struct stats_row *s = &NEST.rows[c];

		EXPECT_EQ(0, p->other_thread_irq)
			TH_LOG("cpu %d: duration events off the irq pseudo-thread", c);
		if (s->dropped) {
			/* Lost records break pairs legitimately: report only. */
			if (p->nest_mismatch || p->orphan_late)
				TH_LOG("cpu %d dropped %llu records: %llu mismatches not counted",
				       c, (unsigned long long)s->dropped,
				       (unsigned long long)(p->nest_mismatch + p->orphan_late));
			continue;
		}
		EXPECT_EQ(0, p->nest_mismatch)
			TH_LOG("cpu %d: end does not match the innermost begin", c);
		EXPECT_EQ(0, p->orphan_late)
			TH_LOG("cpu %d: end without a begin after the start", c);
	}
}

/* ------------------------------------------------------------------ */
/* Interrupts nest while the probes are hooked and unhooked.           */

#define HOOK_CYCLES	3
static struct crun HOOK[HOOK_CYCLES];
static char HOOK_WHY[128];
static atomic_int hook_stop;

/* UDP to itself over loopback, pinned to cpu: mostly in NET_RX softirqs. */
static void *flood_main(void *arg)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	char buf[64] = { 0 };
	int r, s;

	cpu_pin(0, (int)(long)arg);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	r = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (r >= 0 && s >= 0 && !bind(r, (struct sockaddr *)&a, sizeof(a)) &&
	    !getsockname(r, (struct sockaddr *)&a, &len)) {
		while (!atomic_load(&hook_stop)) {
			sendto(s, buf, sizeof(buf), 0, (struct sockaddr *)&a,
			       sizeof(a));
			while (recv(r, buf, sizeof(buf), 0) > 0)
				;
		}
	}
	if (r >= 0)
		close(r);
	if (s >= 0)
		close(s);
	return NULL;
}

static int loopback_up(void)
{
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), ret = 0;

	if (fd < 0)
		return -errno;
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	if (ioctl(fd, SIOCGIFFLAGS, &ifr))
		ret = -errno;
	ifr.ifr_flags |= IFF_UP;
	if (!ret && ioctl(fd, SIOCSIFFLAGS, &ifr))
		ret = -errno;
	close(fd);
	return ret;
}

static void run_hook_cycles(void)
{
	const char *extra[] = { "-b", "8M", "-c", "irq,softirq", NULL };
	pthread_t th[MAX_CPUS];
	int n = 0, ret;

	ret = loopback_up();
	if (ret) {
		snprintf(HOOK_WHY, sizeof(HOOK_WHY), "lo up: %s", strerror(-ret));
		return;
	}
	for (int i = 0; i < NCPUS; i++)
		if (!pthread_create(&th[n], NULL, flood_main,
				    (void *)(long)CPUS[i]))
			n++;
	usleep(200000);
	for (int c = 0; c < HOOK_CYCLES; c++) {
		char name[32];
		pid_t pid;

		snprintf(name, sizeof(name), "modes-hook-%d", c);
		pid = crun_start(&HOOK[c], name, "streaming", extra);
		if (pid < 0)
			continue;
		usleep(300000);
		crun_stop(&HOOK[c], pid);
	}
	atomic_store(&hook_stop, 1);
	while (n--)
		pthread_join(th[n], NULL);
	for (int c = 0; c < HOOK_CYCLES; c++) {
		char name[32];

		crun_check(&HOOK[c], NULL, 0);
		snprintf(name, sizeof(name), "hook-%d", c);
		crun_print(name, &HOOK[c]);
	}
}

/*
 * Every cycle hooked and unhooked the interrupt probes while softirqs ran:
 * each end closes the innermost begin of its CPU, and none comes after a
 * begin with nothing open.
 */
TEST(hook_cycles_nest)
{
	uint64_t softirqs = 0;

	/* Every skip before the first check (lib/kselftest_harness.h). */
	if (HOOK_WHY[0])
		SKIP(return, "%s", HOOK_WHY);
	for (int k = 0; k < HOOK_CYCLES; k++)
		if (!HOOK[k].ran && !HOOK[k].failed)
			SKIP(return, "cycle %d did not run: %s", k,
			     why_not(HOOK[k].why));
	for (int k = 0; k < HOOK_CYCLES; k++) {
		NEED(HOOK[k]);
		EXPECT_EXIT0(HOOK[k].status, "fxt-collect");
		ASSERT_TRUE(HOOK[k].scanned);
		for (int c = 0; c < MAX_CPUS; c++) {
			const struct scan_prov *p = &HOOK[k].scan.prov[c];

			softirqs += p->irq_begin;
			if (HOOK[k].rows[c].dropped) {
				TH_LOG("cycle %d cpu %d dropped records: not checked",
				       k, c);
				continue;
			}
			EXPECT_EQ(0, p->nest_mismatch + p->orphan_late)
				TH_LOG("cycle %d cpu %d: %llu ends not closing the innermost begin, %llu closing nothing",
				       k, c, (unsigned long long)p->nest_mismatch,
				       (unsigned long long)p->orphan_late);
		}
	}
	ASSERT_LT(0, softirqs) TH_LOG("no interrupt events at all");
}

/* scenarios_ran: every scenario of main() ran to its end. */
static void check_scenarios_ran(struct __test_metadata *_metadata)
{
	EXPECT_RAN("nesting", NEST.ran, NEST.failed, NEST.why);
	EXPECT_STREQ("", HOOK_WHY) TH_LOG("hook cycles did not run");
	for (int k = 0; k < HOOK_CYCLES; k++) {
		char name[32];

		snprintf(name, sizeof(name), "hook cycle %d", k);
		EXPECT_RAN(name, HOOK[k].ran, HOOK[k].failed, HOOK[k].why);
	}
}

static void run_scenarios(void)
{
	ROUNDS = env_ulong("FXT_MODES_N", 20000);

	run_nesting();
	run_hook_cycles();
}

SCENARIO_MAIN(run_scenarios)
