// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_hotplug - CPU hotplug under a streaming trace: the ping-pong scenario
 * of fxt_pingpong (lib/pingpong.h: fxt-collect -m streaming -c sched, the
 * BPF oracle, two unpinned threads) while another process takes every CPU
 * but CPU 0 offline and back online, again and again. The archive must
 * validate, the collector exit 0, the kernel log stay clean (run-all), and
 * the ping-pong threads' context switches on CPU 0, which never goes
 * offline, must equal the oracle's exactly; the other CPUs and the total
 * are compared too.
 *
 * With 2 vCPUs CPU 1 toggles; scripts/vm/run --smp 4 toggles CPUs 1-3.
 *
 * Then offline.stop_while_cpu_offline: rounds of START, CPU 1 unplugged, STOP, on
 * a session of its own with 4 KiB rolling buffers that a pipe ping-pong
 * pinned to CPU 1 fills quickly (a reader thread answers every
 * SAVE_BUFFER). A roll CPU 1 makes on its way down queues its save
 * notification there; STOP must not wait for it until the CPU is back
 * (it did on PREEMPT_RT, where a plain irq_work runs from a per-CPU
 * thread that is parked before the CPU dies: Documentation/buffers.rst).
 *
 * Environment: FXT_HOTPLUG_DELAY_MS (pause after each toggle, default 30),
 * FXT_PINGPONG_N (default here 50000), FXT_COLLECT_ARGS (default
 * "-c sched"), FXT_HOTPLUG_STOP_ROUNDS (default 50), FXT_HOTPLUG_SEED (the
 * unplug delays of stop_while_cpu_offline; default from the time, printed
 * for a replay), and the knobs of lib/pingpong.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/fxt.h>

#include "collector.h"
#include "cpu.h"
#include "dump.h"
#include "kfile.h"
#include "pingpong.h"
#include "kselftest_harness.h"

static struct pingpong_result R;
static int ncpus;
static long cycles = -1;	/* complete offline+online rounds */
static long toggle_errors;
static bool all_online_after;

static volatile sig_atomic_t hp_stop;

static void on_term(int sig)
{
	(void)sig;
	hp_stop = 1;
}

static int is_online(int cpu)
{
	char path[96], c = '?';
	int fd;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return cpu == 0;	/* cpu0 often has no online file */
	if (read(fd, &c, 1) != 1)
		c = '?';
	close(fd);
	return c == '1';
}

/* The hotplug process: report complete rounds and errors in its exit pipe. */
static void hotplug_child(int wfd)
{
	long rounds = 0, errors = 0, delay = env_ulong("FXT_HOTPLUG_DELAY_MS", 30);
	struct sigaction sa = { .sa_handler = on_term };

	sigaction(SIGTERM, &sa, NULL);
	while (!hp_stop) {
		for (int c = 1; c < ncpus; c++)
			if (cpu_set_online(c, 0))
				errors++;
		usleep(delay * 1000);
		for (int c = 1; c < ncpus; c++)
			if (cpu_set_online(c, 1))
				errors++;
		usleep(delay * 1000);
		rounds++;
	}
	for (int c = 1; c < ncpus; c++)
		if (!is_online(c))
			cpu_set_online(c, 1);
	if (write(wfd, &rounds, sizeof(rounds)) < 0 ||
	    write(wfd, &errors, sizeof(errors)) < 0)
		_exit(1);
	_exit(0);
}

TEST(scenario_ran)
{
	ASSERT_TRUE(R.ran && R.have_archive) TH_LOG("%s", R.why);
}

TEST(cpus_toggled)
{
	ASSERT_LT(1, ncpus) TH_LOG("one CPU: nothing to unplug (vm/run --smp >= 2)");
	EXPECT_EQ(0, toggle_errors);
	ASSERT_LE(3, cycles) TH_LOG("only %ld offline/online rounds", cycles);
	EXPECT_TRUE(all_online_after);
}

TEST(collector_exit_status)
{
	ASSERT_TRUE(R.ran);
	ASSERT_TRUE(WIFEXITED(R.collector_status))
		TH_LOG("wait status 0x%x", R.collector_status);
	ASSERT_EQ(0, WEXITSTATUS(R.collector_status));
}

TEST(archive_valid)
{
	ASSERT_TRUE(R.have_archive);
	EXPECT_TRUE(R.arc.magic_ok);
	EXPECT_STREQ("", R.arc.error);
	EXPECT_EQ(0, archive_sum(&R.arc, unresolved));
	EXPECT_EQ(0, archive_sum(&R.arc, cpu_mismatch));
	EXPECT_EQ(0, archive_sum(&R.arc, buffer_full));
	for (int cpu = 0; cpu <= R.arc.max_provider; cpu++) {
		EXPECT_EQ(0, R.arc.prov[cpu].backwards) TH_LOG("cpu %d", cpu);
	}
	ASSERT_TRUE(R.dump_ran);
	if (!WIFEXITED(R.dump_status) || WEXITSTATUS(R.dump_status))
		child_log_print("fxt-dump --check", R.dump_log, 20);
	EXPECT_TRUE(WIFEXITED(R.dump_status) && WEXITSTATUS(R.dump_status) == 0);
}

TEST(cpu0_switches_equal_oracle)
{
	ASSERT_TRUE(R.ran && R.have_archive);
	ASSERT_LT(0, R.or_switches[0]) TH_LOG("no switch on CPU 0");
	ASSERT_EQ(R.or_switches[0], R.arc.prov[0].switches);
}

TEST(switches_equal_oracle_every_cpu)
{
	ASSERT_TRUE(R.ran && R.have_archive);
	for (int cpu = 1; cpu < R.nr_cpus && cpu < ARCHIVE_MAX_PROVIDERS; cpu++) {
		EXPECT_EQ(R.or_switches[cpu], R.arc.prov[cpu].switches)
			TH_LOG("cpu %d (toggled)", cpu);
	}
	EXPECT_EQ(R.or_switches_total, archive_sum(&R.arc, switches));
}

/* stop_while_cpu_offline: the session, its reader, and the STOP call. */
static int so_fd = -1;
static volatile int so_quit, so_stopped;
static volatile long so_saves;

/* Answer every SAVE_BUFFER, so that the CPUs keep rolling. */
static void *so_reader(void *arg)
{
	struct fxt_packet p[32];
	struct pollfd pfd = { .fd = so_fd, .events = POLLIN };

	(void)arg;
	while (!so_quit) {
		ssize_t n;

		if (poll(&pfd, 1, 100) <= 0)
			continue;
		n = read(so_fd, p, sizeof(p));
		for (ssize_t i = 0; i < n / (ssize_t)sizeof(p[0]); i++) {
			if (p[i].request != FXT_PKT_SAVE_BUFFER)
				continue;
			p[i].request = FXT_PKT_BUFFER_SAVED;
			/* A request of an earlier round is refused: fine. */
			if (write(so_fd, &p[i], sizeof(p[i])) == sizeof(p[i]))
				so_saves++;
		}
	}
	return NULL;
}

static void *so_stop(void *arg)
{
	struct fxt_stop_options o = { 0 };

	(void)arg;
	if (!ioctl(so_fd, FXT_IOC_STOP, &o))
		so_stopped = 1;
	else
		so_stopped = -errno;
	return NULL;
}

/* Wait up to ms for the STOP thread. Return: its result, 0 if still in STOP. */
static int so_wait_stop(int ms)
{
	for (int t = 0; t < ms / 10 && !so_stopped; t++)
		usleep(10000);
	return so_stopped;
}

/* A fixture only for the timeout: the rounds can outlast the default 30 s. */
FIXTURE(offline) {
	int unused;
};

FIXTURE_SETUP(offline)
{
	self->unused = 0;
}

FIXTURE_TEARDOWN(offline)
{
}

TEST_F_TIMEOUT(offline, stop_while_cpu_offline, 180)
{
	struct fxt_config c = {
		.buffer_size = 64u << 10, .mode = FXT_MODE_STREAMING,
		/* all but two 4 KiB rolling buffers: a roll every few ms */
		.durable_size = (60u << 10) - 8192,
	};
	struct fxt_start_options o = { .disposition = FXT_START_CLEAR_ENTIRE };
	long rounds = env_ulong("FXT_HOTPLUG_STOP_ROUNDS", 50), done = 0;
	int pp[2][2], stuck_round = -1, stop_err = 0;
	pid_t kids[2] = { -1, -1 };
	unsigned long seed;
	pthread_t reader;
	char b = 0;

	ASSERT_TRUE(env_seed("FXT_HOTPLUG_SEED", UINT_MAX, &seed))
		TH_LOG("FXT_HOTPLUG_SEED=%s is not a seed <= %u",
		       getenv("FXT_HOTPLUG_SEED"), UINT_MAX);
	printf("# seed %lu (replay: FXT_HOTPLUG_SEED=%lu)\n", seed, seed);
	fflush(stdout);
	ASSERT_LT(1, ncpus) TH_LOG("one CPU: nothing to unplug (vm/run --smp >= 2)");
	so_fd = open(FXT_DEVICE_PATH, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, so_fd) TH_LOG("open: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(so_fd, FXT_IOC_INITIALIZE, &c)) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, pipe(pp[0]));
	ASSERT_EQ(0, pipe(pp[1]));
	for (int k = 0; k < 2; k++) {
		kids[k] = fork();
		if (kids[k] == 0) {
			for (;;) {
				if (k == 0 && (write(pp[0][1], &b, 1) != 1 ||
					       read(pp[1][0], &b, 1) != 1))
					_exit(1);
				if (k == 1 && (read(pp[0][0], &b, 1) != 1 ||
					       write(pp[1][1], &b, 1) != 1))
					_exit(1);
			}
		}
	}
	ASSERT_EQ(0, pthread_create(&reader, NULL, so_reader, NULL));
	srand(seed);	/* the unplug delays */
	for (done = 0; done < rounds; done++) {
		pthread_t st;

		if (ioctl(so_fd, FXT_IOC_START, &o)) {
			stop_err = -errno;
			break;
		}
		cpu_set_online(1, 1);
		cpu_pin(kids[0], 1);
		cpu_pin(kids[1], 1);
		usleep(20000 + rand() % 30000);
		cpu_set_online(1, 0);
		so_stopped = 0;
		if (pthread_create(&st, NULL, so_stop, NULL)) {
			stop_err = -EAGAIN;
			break;
		}
		if (!so_wait_stop(3000)) {
			/* Still in STOP with CPU 1 offline: bring it back. */
			stuck_round = done;
			cpu_set_online(1, 1);
			so_wait_stop(10000);
		}
		pthread_join(st, NULL);
		if (so_stopped < 0 || stuck_round >= 0) {
			stop_err = so_stopped < 0 ? so_stopped : 0;
			break;
		}
	}
	cpu_set_online(1, 1);
	so_quit = 1;
	pthread_join(reader, NULL);
	for (int k = 0; k < 2; k++) {
		if (kids[k] > 0) {
			kill(kids[k], SIGKILL);
			waitpid(kids[k], NULL, 0);
		}
	}
	close(so_fd);
	printf("# stop_while_cpu_offline: %ld of %ld rounds, %ld saves answered\n",
	       done, rounds, (long)so_saves);
	fflush(stdout);
	EXPECT_EQ(-1, stuck_round)
		TH_LOG("round %d: STOP still waiting 3 s after CPU 1 went offline (it returned once the CPU was back: %s)",
		       stuck_round, so_stopped > 0 ? "yes" : "no");
	EXPECT_EQ(0, stop_err) TH_LOG("START/STOP: %s", strerror(-stop_err));
	EXPECT_EQ(rounds, done);
	EXPECT_LT(0, so_saves) TH_LOG("CPU 1 never rolled: the test tested nothing");
	EXPECT_TRUE(is_online(1));
}

static sigjmp_buf bus_jmp;

static void on_bus(int sig __attribute__((unused)))
{
	siglongjmp(bus_jmp, 1);
}

/* Does reading p raise SIGBUS? */
static bool read_faults(const volatile uint8_t *p)
{
	struct sigaction sa = { .sa_handler = on_bus }, old;
	volatile bool bus = false;

	sigaction(SIGBUS, &sa, &old);
	if (!sigsetjmp(bus_jmp, 1))
		(void)*p;
	else
		bus = true;
	sigaction(SIGBUS, &old, NULL);
	return bus;
}

/* CPUs of a sysfs CPU list ("0-3,6"), as a mask of the first 1024. */
static int cpulist(const char *path, bool set[1024])
{
	char buf[256], *p = buf;
	int n = 0, lo, hi, len;

	memset(set, 0, 1024 * sizeof(bool));
	if (kfile_read(path, buf, sizeof(buf)))
		return -1;
	while (sscanf(p, "%d%n", &lo, &len) == 1) {
		p += len;
		hi = lo;
		if (*p == '-' && sscanf(p + 1, "%d%n", &hi, &len) == 1)
			p += 1 + len;
		for (int c = lo; c <= hi && c < 1024; c++, n++)
			set[c] = true;
		if (*p != ',')
			break;
		p++;
	}
	return n;
}

/* Bytes the module holds while a 1 MiB session is initialized on fd. */
static long init_1m(int fd, long idle)
{
	struct fxt_config c = { .buffer_size = 1u << 20,
				.mode = FXT_MODE_STREAMING };

	if (ioctl(fd, FXT_IOC_INITIALIZE, &c))
		return -1;
	return kfile_module_mem_bytes() - idle;
}

/*
 * A CPU offline at INITIALIZE, but present, has its buffers: once it comes
 * online during the session it is traced like the others.
 */
TEST(cpu_offline_at_initialize_is_traced_once_online)
{
	struct fxt_start_options o = { .disposition = FXT_START_CLEAR_ENTIRE };
	struct fxt_stop_options so = { 0 };
	struct fxt_cpu_stats st1 = { .cpu = 1 };
	struct fxt_layout l;
	long idle, held;
	int fd;

	ASSERT_LT(1, ncpus) TH_LOG("one CPU: nothing to unplug (vm-run --smp >= 2)");
	idle = kfile_module_mem_bytes();
	ASSERT_EQ(0, cpu_set_online(1, 0));
	fd = open(FXT_DEVICE_PATH, O_RDWR | O_CLOEXEC);
	held = fd < 0 ? -1 : init_1m(fd, idle);
	ASSERT_EQ(0, cpu_set_online(1, 1));
	ASSERT_LE(0, fd);
	ASSERT_LE(0, held) TH_LOG("INITIALIZE: %s", strerror(errno));
	EXPECT_LE((long)ncpus << 20, held) TH_LOG("a present CPU got no buffers");
	ASSERT_EQ(0, ioctl(fd, FXT_IOC_GET_LAYOUT, &l));
	EXPECT_TRUE(l.possible_cpus[0] & 2) TH_LOG("CPU 1 has no region");
	ASSERT_EQ(0, ioctl(fd, FXT_IOC_START, &o));
	cpu_pin(0, 1);
	for (int i = 0; i < 20; i++)
		usleep(1000);
	cpu_pin(0, 0);
	EXPECT_EQ(0, ioctl(fd, FXT_IOC_STOP, &so));
	ASSERT_EQ(0, ioctl(fd, FXT_IOC_GET_STATS, &st1));
	EXPECT_FALSE(st1.flags & FXT_CPU_NOT_TRACED);
	EXPECT_LT(0, st1.records_written) TH_LOG("CPU 1 not traced");
	close(fd);
	EXPECT_EQ(idle, kfile_module_mem_bytes());
}

/*
 * Buffers for the present CPUs only, not for every possible one (a guest
 * booted with possible_cpus= above its vCPUs; make vmtest's 4-vCPU run):
 * memory for the present ones, no region in the layout or the mapping for
 * the others (reading a slot raises SIGBUS), and GET_STATS says
 * FXT_CPU_NOT_TRACED for them.
 */
TEST(cpus_not_present_have_no_region)
{
	static bool possible[1024], present[1024];
	struct fxt_cpu_stats st = { 0 };
	struct fxt_layout l;
	int npossible, npresent, absent = -1, fd;
	long idle, held;
	uint8_t *map;

	npossible = cpulist("/sys/devices/system/cpu/possible", possible);
	npresent = cpulist("/sys/devices/system/cpu/present", present);
	for (int c = 0; c < 256 && absent < 0; c++)
		if (possible[c] && !present[c])
			absent = c;
	if (absent < 0)
		SKIP(return, "every possible CPU is present (%d): boot with possible_cpus=", npossible);
	TH_LOG("%d possible CPUs, %d present; CPU %d absent", npossible,
	       npresent, absent);
	idle = kfile_module_mem_bytes();
	fd = open(FXT_DEVICE_PATH, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	held = init_1m(fd, idle);
	ASSERT_LE(0, held) TH_LOG("INITIALIZE: %s", strerror(errno));
	TH_LOG("%ld bytes held for 1 MiB per CPU", held);
	EXPECT_LE((long)npresent << 20, held);
	EXPECT_GT((long)npresent * ((1 << 20) + (64 << 10)), held)
		TH_LOG("CPUs that are not present got buffers");
	ASSERT_EQ(0, ioctl(fd, FXT_IOC_GET_LAYOUT, &l));
	EXPECT_EQ(npossible, (int)l.nr_cpus);
	EXPECT_FALSE(l.possible_cpus[absent / 64] >> (absent % 64) & 1);
	map = mmap(NULL, l.map_size, PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, map);
	EXPECT_EQ(FXT_BUFFER_MAGIC, ((const struct fxt_buffer_header *)map)->magic);
	EXPECT_TRUE(read_faults(map + (uint64_t)absent * l.cpu_stride));
	st.cpu = absent;
	ASSERT_EQ(0, ioctl(fd, FXT_IOC_GET_STATS, &st));
	EXPECT_TRUE(st.flags & FXT_CPU_NOT_TRACED);
	munmap(map, l.map_size);
	close(fd);
	EXPECT_EQ(idle, kfile_module_mem_bytes());
}

/*
 * Ask the host for one more CPU (scripts/vm/run --maxcpus: it plugs a vCPU
 * in through qemu's QMP socket) and wait for it to be present.  Returns
 * its number, or -1 with why set.
 */
static int hot_add_cpu(char *why, size_t len)
{
	static bool before[1024], after[1024];
	char done[256] = "";
	int fd;

	cpulist("/sys/devices/system/cpu/present", before);
	fd = open("/run/fxt-vm/hotadd-request", O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(why, len, "hotadd-request: %s", strerror(errno));
		return -1;
	}
	close(fd);
	for (int i = 0; i < 600 && kfile_read("/run/fxt-vm/hotadd-done", done, sizeof(done)); i++)
		usleep(100000);
	if (strncmp(done, "ok", 2)) {
		snprintf(why, len, "the host could not add a CPU: %.200s", done[0] ? done : "no answer in 60 s");
		return -1;
	}
	for (int i = 0; i < 300; i++) {
		cpulist("/sys/devices/system/cpu/present", after);
		for (int c = 0; c < 1024; c++)
			if (after[c] && !before[c])
				return c;
		usleep(100000);
	}
	snprintf(why, len, "the host added a CPU (%.100s) but the kernel shows none", done);
	return -1;
}

/*
 * A CPU hot-added during a session (not present at INITIALIZE) has no
 * buffers: it is not traced, and what its probes would have written is
 * counted, not lost silently (GET_STATS: FXT_CPU_NOT_TRACED, with the count
 * as records_dropped; buffers.rst).  The module's memory does not grow for
 * it.  The next INITIALIZE gives it buffers, and it is traced.  Last in the
 * file but for stop_while_cpu_offline: the CPU stays.  It skips where no
 * CPU can be added (every possible CPU present: the 2-vCPU run, and 6.12
 * in any run), and outside scripts/vm/run's guest; in that guest, with room
 * for a CPU, a host that does not offer to add one is a failure.
 */
FIXTURE(hotadd) {};
FIXTURE_SETUP(hotadd) {}
FIXTURE_TEARDOWN(hotadd) {}

TEST_F_TIMEOUT(hotadd, cpu_hot_added_during_session_is_counted, 180)
{
	struct fxt_start_options o = { .disposition = FXT_START_CLEAR_ENTIRE };
	struct fxt_stop_options so = { 0 };
	struct fxt_cpu_stats st = { 0 };
	long idle, held, held_after;
	static bool possible[1024], present[1024];
	char why[320];
	int fd, cpu, room = 0;

	cpulist("/sys/devices/system/cpu/possible", possible);
	cpulist("/sys/devices/system/cpu/present", present);
	for (int c = 0; c < 1024; c++)
		room += possible[c] && !present[c];
	if (!room)
		SKIP(return, "every possible CPU is present: the kernel cannot take one more");
	if (!getenv("FXT_IN_VM"))
		SKIP(return, "not in scripts/vm/run's guest: nothing here adds a CPU");
	ASSERT_EQ(0, access("/run/fxt-vm/hotadd", F_OK))
		TH_LOG("%d possible CPUs are not present, but the host offers to add none (scripts/vm/run --maxcpus above --smp)", room);
	idle = kfile_module_mem_bytes();
	fd = open(FXT_DEVICE_PATH, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	held = init_1m(fd, idle);
	ASSERT_LE(0, held) TH_LOG("INITIALIZE: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(fd, FXT_IOC_START, &o));
	cpu = hot_add_cpu(why, sizeof(why));
	ASSERT_LE(0, cpu) TH_LOG("%s", why);
	TH_LOG("CPU %d hot-added during the session", cpu);
	if (!is_online(cpu))
		ASSERT_EQ(0, cpu_set_online(cpu, 1));
	ASSERT_EQ(0, cpu_pin(0, cpu));
	for (int i = 0; i < 20; i++)
		usleep(1000);
	cpu_pin(0, 0);
	held_after = kfile_module_mem_bytes() - idle;
	EXPECT_EQ(0, ioctl(fd, FXT_IOC_STOP, &so));
	st.cpu = cpu;
	ASSERT_EQ(0, ioctl(fd, FXT_IOC_GET_STATS, &st));
	EXPECT_TRUE(st.flags & FXT_CPU_NOT_TRACED) TH_LOG("flags %#x", st.flags);
	EXPECT_LT(20, st.records_dropped) TH_LOG("its lost records were not counted");
	EXPECT_EQ(0, st.records_written);
	EXPECT_EQ(held, held_after) TH_LOG("memory changed during the session");
	close(fd);
	EXPECT_EQ(idle, kfile_module_mem_bytes());

	/* A new session: the CPU is present now, so it has buffers. */
	fd = open(FXT_DEVICE_PATH, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	held_after = init_1m(fd, idle);
	ASSERT_LE(0, held_after);
	EXPECT_LE(held + (1 << 20), held_after) TH_LOG("no buffers for CPU %d", cpu);
	ASSERT_EQ(0, ioctl(fd, FXT_IOC_START, &o));
	ASSERT_EQ(0, cpu_pin(0, cpu));
	for (int i = 0; i < 20; i++)
		usleep(1000);
	cpu_pin(0, 0);
	EXPECT_EQ(0, ioctl(fd, FXT_IOC_STOP, &so));
	memset(&st, 0, sizeof(st));
	st.cpu = cpu;
	ASSERT_EQ(0, ioctl(fd, FXT_IOC_GET_STATS, &st));
	EXPECT_FALSE(st.flags & FXT_CPU_NOT_TRACED);
	EXPECT_LT(20, st.records_written) TH_LOG("CPU %d not traced", cpu);
	close(fd);
	EXPECT_EQ(idle, kfile_module_mem_bytes());
}

int main(int argc, char **argv)
{
	struct pingpong_config cfg = { .name = "hotplug", .pin = PINGPONG_PIN_NONE };
	int p[2];
	pid_t hp;

	{
		static bool present[1024];

		/* The CPUs there are: possible_cpus= may declare more. */
		ncpus = cpulist("/sys/devices/system/cpu/present", present);
		if (ncpus < 1)
			ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	}
	setenv("FXT_COLLECT_ARGS", "-c sched", 0);
	setenv("FXT_PINGPONG_N", "50000", 0);
	pingpong_config_from_env(&cfg);
	printf("# hotplug: %d CPUs (1..%d toggle), %lu round trips, collector %s -m streaming\n",
	       ncpus, ncpus - 1, cfg.rounds, getenv("FXT_COLLECT_ARGS"));
	fflush(stdout);
	if (ncpus > 1 && !pipe(p)) {
		hp = fork();
		if (hp == 0) {
			close(p[0]);
			hotplug_child(p[1]);
		}
		close(p[1]);
		pingpong_run(&cfg, &R);
		if (hp > 0) {
			int status;

			kill(hp, SIGTERM);
			waitpid(hp, &status, 0);
			if (read(p[0], &cycles, sizeof(cycles)) != sizeof(cycles) ||
			    read(p[0], &toggle_errors, sizeof(toggle_errors)) !=
			    sizeof(toggle_errors))
				cycles = -1;
		}
		close(p[0]);
	}
	all_online_after = true;
	for (int c = 1; c < ncpus; c++) {
		if (!is_online(c)) {
			cpu_set_online(c, 1);
			all_online_after = false;
		}
	}
	printf("# hotplug: %ld offline/online rounds, %ld toggle errors\n",
	       cycles, toggle_errors);
	pingpong_print(&R);
	if (!R.ran || !WIFEXITED(R.collector_status) || WEXITSTATUS(R.collector_status))
		child_log_print("fxt-collect output", R.collect_log, 30);
	fflush(stdout);
	return test_harness_run(argc, argv);
}
