// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_irq - interrupt and softirq events (Documentation/records.rst,
 * "Interrupt events" and "Interrupt pseudo-threads").
 *
 * Workload, once in main() under fxt-collect -m streaming: lines written to
 * /dev/ttyS0 (the 8250 UART raises its interrupt to send them; in the qemu
 * guest its output is the console log), reads of files on the root file
 * system (virtio 9p in the guest), and short sleeps (local timer, timer
 * softirqs). Then, per CPU (provider):
 *   - begin/end events pair as a stack: each end closes the innermost open
 *     begin; only the start and the end of the trace may cut an interrupt;
 *   - interrupts nest at most two deep (a hard interrupt over a softirq);
 *   - a named device interrupt with an "irq" int32 argument appears, and the
 *     serial port's handler with its IRQ number from /proc/interrupts;
 *   - the local timer vector and the timer softirqs appear;
 *   - the events sit on the CPU's pseudo-thread, named irq/cpu<c> in
 *     process "irq" (koid 0x40000000);
 *   - a CPU's string table never defines the same text twice, in
 *     particular the names of the handlers of a shared interrupt line: the
 *     guest of scripts/vm/run has two virtio-rng devices on one line, and
 *     the workload loads virtio_rng and reads /dev/hwrng, so both handlers
 *     run on every one of its interrupts.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "collector.h"
#include "linux_names.h"
#include "need_archive.h"
#include "records.h"
#include "libfxt.h"

#define NAME		"irq"
#define SERIAL		"/dev/ttyS0"
#define SERIAL_HANDLER	"ttyS0"
#define NR_LINES	40
#define NR_RNG_READS	200
#define MODPROBE	"/sbin/modprobe"
#define MAX_PROV	256
#define FRAMES		64	/* above the module's FXT_IRQ_MAX_DEPTH (16) */

struct prov_check {
	bool seen;
	uint64_t begins, ends;
	uint64_t leading_ends;		/* ends with nothing open, before any begin */
	char leading[4][100];
	uint64_t orphan_ends;		/* ends with nothing open, later */
	uint64_t mismatched;		/* ends that do not close the innermost begin */
	char first_bad[300];
	unsigned int max_depth;
	char deepest[160];
	unsigned int open_at_end;
	char open[4][100];		/* innermost last */
	unsigned int open_irq_at_end, open_softirq_at_end;
};

static struct {
	bool ran, loaded;
	char why[512];
	struct collector coll;
	struct records a;
	bool serial_written;
	char serial_why[128];
	int serial_irq;			/* from /proc/interrupts, -1 unknown */
	int shared_irq;			/* a line with several handlers, -1 none */
	char shared[4][64];		/* its handlers' names */
	int nshared;
	int rng_reads;			/* 64-byte reads of /dev/hwrng */
	char shared_why[160];
	struct prov_check prov[MAX_PROV];
} R;

static bool is_vector(const char *name)
{
	return linux_is_x86_vector(name);
}

static bool is_irq_cat(const struct records_event *e)
{
	return !strcmp(e->category, "irq") || !strcmp(e->category, "softirq");
}

/* IRQ number of the handler named name in /proc/interrupts, or -1. */
static int proc_irq_of(const char *name)
{
	char line[512];
	int irq = -1;
	FILE *f = fopen("/proc/interrupts", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *end = line + strcspn(line, "\n");
		size_t n = strlen(name);
		int v;

		*end = '\0';
		if ((size_t)(end - line) < n || strcmp(end - n, name) ||
		    end[-(long)n - 1] != ' ')
			continue;
		if (sscanf(line, " %d:", &v) == 1)
			irq = v;
	}
	fclose(f);
	return irq;
}

/*
 * The first line of /proc/interrupts with more than one handler ("10: ...
 * IO-APIC 10-fasteoi virtio4, virtio5"): its number and handler names.
 */
static void find_shared_line(void)
{
	char line[512];
	FILE *f = fopen("/proc/interrupts", "r");

	R.shared_irq = -1;
	if (!f)
		return;
	while (R.shared_irq < 0 && fgets(line, sizeof(line), f)) {
		char *end = line + strcspn(line, "\n"), *p, *q;
		int irq;

		*end = '\0';
		if (sscanf(line, " %d:", &irq) != 1 || !strstr(line, ", "))
			continue;
		/* the handler list is the last column: back up to the first ", " */
		p = strstr(line, ", ");
		while (p > line && p[-1] != ' ')
			p--;
		R.nshared = 0;
		for (q = strtok(p, ", "); q && R.nshared < 4; q = strtok(NULL, ", "))
			snprintf(R.shared[R.nshared++], sizeof(R.shared[0]), "%s", q);
		R.shared_irq = irq;
	}
	fclose(f);
}

/* Interrupts on the shared line: virtio-rng requests, answered by an IRQ. */
static void rng_workload(void)
{
	char buf[64];
	int fd;

	if (R.shared_irq < 0)
		return;
	fd = open("/dev/hwrng", O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(R.shared_why, sizeof(R.shared_why), "/dev/hwrng: %s",
			 strerror(errno));
		return;
	}
	for (int i = 0; i < NR_RNG_READS; i++)
		if (read(fd, buf, sizeof(buf)) > 0)
			R.rng_reads++;
	close(fd);
}

static void serial_workload(void)
{
	int fd = open(SERIAL, O_WRONLY | O_NOCTTY | O_CLOEXEC);

	if (fd < 0) {
		snprintf(R.serial_why, sizeof(R.serial_why), "%s: %s", SERIAL,
			 strerror(errno));
		return;
	}
	for (int i = 0; i < NR_LINES; i++) {
		char buf[80];
		int n = snprintf(buf, sizeof(buf),
				 "fxt_irq selftest: serial interrupt workload %d\r\n", i);

		if (write(fd, buf, n) != n) {
			snprintf(R.serial_why, sizeof(R.serial_why), "write %s: %s",
				 SERIAL, strerror(errno));
			close(fd);
			return;
		}
		tcdrain(fd);
		usleep(1000);
	}
	close(fd);
	R.serial_written = true;
}

/* Disk (virtio) reads: files of the root file system, page cache bypassed
 * where possible by reading several different files. */
static void file_workload(void)
{
	static const char *const files[] = {
		"/etc/passwd", "/etc/group", "/etc/hostname", "/etc/os-release",
		"/proc/self/status",
	};
	char buf[4096];

	for (int round = 0; round < 5; round++) {
		for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
			int fd = open(files[i], O_RDONLY | O_CLOEXEC);

			if (fd < 0)
				continue;
			while (read(fd, buf, sizeof(buf)) > 0)
				;
			close(fd);
		}
		usleep(2000);
	}
}

static void timer_workload(void)
{
	for (int i = 0; i < 50; i++)
		usleep(2000);
}

/* Pair begin/end per provider as a stack (records.rst). */
static void check_nesting(void)
{
	static struct { char cat[32], name[64]; } stacks[MAX_PROV][FRAMES];
	unsigned int depth[MAX_PROV] = { 0 };

	for (size_t i = 0; i < R.a.nev; i++) {
		const struct records_event *e = &R.a.ev[i];
		struct prov_check *p;
		unsigned int *d;

		if (!is_irq_cat(e) || e->provider >= MAX_PROV)
			continue;
		p = &R.prov[e->provider];
		d = &depth[e->provider];
		p->seen = true;
		if (e->event_type == FXT_EVENT_DURATION_BEGIN) {
			p->begins++;
			if (*d < FRAMES) {
				snprintf(stacks[e->provider][*d].cat, 32, "%s", e->category);
				snprintf(stacks[e->provider][*d].name, 64, "%s", e->name);
			}
			(*d)++;
			if (*d > p->max_depth) {
				p->max_depth = *d;
				snprintf(p->deepest, sizeof(p->deepest),
					 "depth %u at 0x%llx (%s/%s)", *d,
					 (unsigned long long)e->offset, e->category,
					 e->name);
			}
			continue;
		}
		if (e->event_type != FXT_EVENT_DURATION_END)
			continue;
		p->ends++;
		if (*d == 0) {
			if (p->begins == 0) {
				if (p->leading_ends < 4)
					snprintf(p->leading[p->leading_ends], 100, "%s/%s",
						 e->category, e->name);
				p->leading_ends++;
			} else {
				if (!p->orphan_ends && !p->mismatched)
					snprintf(p->first_bad, sizeof(p->first_bad),
						 "end %s/%s at 0x%llx with nothing open",
						 e->category, e->name,
						 (unsigned long long)e->offset);
				p->orphan_ends++;
			}
			continue;
		}
		if (*d <= FRAMES && !strcmp(stacks[e->provider][*d - 1].cat, e->category) &&
		    !strcmp(stacks[e->provider][*d - 1].name, e->name)) {
			(*d)--;
			continue;
		}
		if (!p->orphan_ends && !p->mismatched)
			snprintf(p->first_bad, sizeof(p->first_bad),
				 "end %s/%s at 0x%llx while %s/%s is innermost (depth %u)",
				 e->category, e->name, (unsigned long long)e->offset,
				 *d <= FRAMES ? stacks[e->provider][*d - 1].cat : "?",
				 *d <= FRAMES ? stacks[e->provider][*d - 1].name : "?", *d);
		p->mismatched++;
		/* Resynchronise on the nearest matching begin, if any. */
		for (unsigned int k = *d; k-- > 0;) {
			if (k < FRAMES && !strcmp(stacks[e->provider][k].cat, e->category) &&
			    !strcmp(stacks[e->provider][k].name, e->name)) {
				*d = k;
				break;
			}
		}
	}
	for (int c = 0; c < MAX_PROV; c++) {
		struct prov_check *p = &R.prov[c];

		p->open_at_end = depth[c];
		for (unsigned int k = 0; k < depth[c] && k < FRAMES; k++) {
			if (!strcmp(stacks[c][k].cat, "irq"))
				p->open_irq_at_end++;
			else
				p->open_softirq_at_end++;
			if (depth[c] - k <= 4)
				snprintf(p->open[4 - (depth[c] - k)], 100, "%s/%s",
					 stacks[c][k].cat, stacks[c][k].name);
		}
	}
}

static void run(void)
{
	char *modprobe[] = { MODPROBE, "virtio_rng", NULL };
	char *unload[] = { MODPROBE, "-r", "virtio_rng", NULL };
	char log[PATH_MAX];
	bool rng_loaded;
	int ret = -1;

	R.serial_irq = -1;
	R.shared_irq = -1;
	if (geteuid()) {
		snprintf(R.why, sizeof(R.why), "needs root");
		return;
	}
	/* virtio_rng's handlers share a line in the guest (scripts/vm/run) */
	snprintf(log, sizeof(log), "%s/irq-modprobe.log", env_tmpdir());
	rng_loaded = access("/sys/module/virtio_rng", F_OK) &&
		     child_run(modprobe, log, 60) == 0;
	find_shared_line();
	if (R.shared_irq < 0)
		snprintf(R.shared_why, sizeof(R.shared_why),
			 "no interrupt line with two handlers in /proc/interrupts "
			 "(scripts/vm/run gives the guest one: virtio-rng x2)");
	if (collector_start_named(&R.coll, NAME, R.why, sizeof(R.why)))
		goto out;
	serial_workload();
	file_workload();
	timer_workload();
	rng_workload();
	R.ran = true;
	ret = collector_stop(&R.coll, R.why, sizeof(R.why));
out:
	if (rng_loaded)
		child_run(unload, log, 60);
	if (!R.ran || ret)
		return;
	R.serial_irq = proc_irq_of(SERIAL_HANDLER);
	ret = records_read(R.coll.archive, &R.a, R.why, sizeof(R.why));
	if (ret)
		return;
	R.loaded = true;
	check_nesting();
}

TEST(scenario_ran)
{
	ASSERT_TRUE(R.ran && R.loaded) TH_LOG("%s", R.why);
}

TEST(archive_read_cleanly)
{
	NEED_ARCHIVE();
	EXPECT_STREQ("", R.a.error);
	EXPECT_EQ(0, R.a.diags);
	EXPECT_EQ(0, R.a.malformed);
	ASSERT_EQ(0, R.a.buffer_full)
		TH_LOG("records were dropped: begin/end pairs cannot be checked");
}

TEST(interrupt_events_present)
{
	uint64_t n = 0;

	NEED_ARCHIVE();
	for (size_t i = 0; i < R.a.nev; i++)
		n += is_irq_cat(&R.a.ev[i]);
	ASSERT_LT(0, n);
}

/* Only duration begin (2) and end (3) events in categories irq/softirq. */
TEST(interrupt_event_types)
{
	uint64_t bad = 0;

	NEED_ARCHIVE();
	for (size_t i = 0; i < R.a.nev; i++) {
		const struct records_event *e = &R.a.ev[i];

		if (!is_irq_cat(e))
			continue;
		if (e->event_type != FXT_EVENT_DURATION_BEGIN &&
		    e->event_type != FXT_EVENT_DURATION_END && bad++ < 5)
			TH_LOG("event type %u at 0x%llx", e->event_type,
			       (unsigned long long)e->offset);
	}
	ASSERT_EQ(0, bad);
}

/* Every interrupt event is on its CPU's pseudo-thread. */
TEST(events_on_cpu_pseudo_thread)
{
	uint64_t bad = 0;

	NEED_ARCHIVE();
	for (size_t i = 0; i < R.a.nev; i++) {
		const struct records_event *e = &R.a.ev[i];

		if (!is_irq_cat(e))
			continue;
		if ((!e->thread_defined || e->pid != FXT_KOID_IRQ_PROCESS ||
		     e->tid != FXT_KOID_IRQ_THREAD(e->provider)) && bad++ < 5)
			TH_LOG("event at 0x%llx (provider %u) on thread %llu/%llu",
			       (unsigned long long)e->offset, e->provider,
			       (unsigned long long)e->pid, (unsigned long long)e->tid);
	}
	ASSERT_EQ(0, bad);
}

/* (a) Each end closes the innermost open begin of its CPU. */
TEST(ends_close_innermost_begin)
{
	NEED_ARCHIVE();
	for (int c = 0; c < MAX_PROV; c++) {
		const struct prov_check *p = &R.prov[c];

		if (!p->seen)
			continue;
		EXPECT_EQ(0, p->mismatched + p->orphan_ends)
			TH_LOG("cpu %d: %llu ends close another begin, %llu close nothing; first: %s",
			       c, (unsigned long long)p->mismatched,
			       (unsigned long long)p->orphan_ends, p->first_bad);
	}
}

/* (a) Only an interrupt running when tracing started may end unopened. */
TEST(unmatched_ends_only_at_start)
{
	NEED_ARCHIVE();
	for (int c = 0; c < MAX_PROV; c++) {
		const struct prov_check *p = &R.prov[c];

		if (!p->seen)
			continue;
		/* one per nesting level: a hard interrupt over a softirq */
		EXPECT_GE(2, p->leading_ends)
			TH_LOG("cpu %d: %llu ends before any begin (%s, %s, ...)", c,
			       (unsigned long long)p->leading_ends, p->leading[0],
			       p->leading[1]);
	}
}

/* (a) At most one open interrupt per nesting level when tracing stopped. */
TEST(unclosed_begins_only_at_end)
{
	NEED_ARCHIVE();
	for (int c = 0; c < MAX_PROV; c++) {
		const struct prov_check *p = &R.prov[c];

		if (!p->seen)
			continue;
		EXPECT_TRUE(p->open_irq_at_end <= 1 && p->open_softirq_at_end <= 1)
			TH_LOG("cpu %d: %u begins never closed (%u irq, %u softirq); innermost: %s %s %s %s",
			       c, p->open_at_end, p->open_irq_at_end,
			       p->open_softirq_at_end, p->open[0], p->open[1],
			       p->open[2], p->open[3]);
	}
}

/* Hard interrupts run with interrupts off on x86: depth <= 2. */
TEST(nesting_at_most_two_deep)
{
	NEED_ARCHIVE();
	for (int c = 0; c < MAX_PROV; c++) {
		const struct prov_check *p = &R.prov[c];

		if (!p->seen)
			continue;
		EXPECT_GE(2, p->max_depth) TH_LOG("cpu %d: %s", c, p->deepest);
	}
}

/* (b) A device interrupt: category irq, handler name, "irq" int32 arg. */
TEST(named_device_interrupt)
{
	uint64_t n = 0, bad = 0;
	char seen[8][64];
	int nseen = 0;

	NEED_ARCHIVE();
	for (size_t i = 0; i < R.a.nev; i++) {
		const struct records_event *e = &R.a.ev[i];
		bool known = false;

		if (strcmp(e->category, "irq") || is_vector(e->name) ||
		    e->event_type != FXT_EVENT_DURATION_BEGIN)
			continue;
		if (!e->name[0] || e->nargs != 1 || e->arg_type != FXT_ARG_INT32 ||
		    strcmp(e->arg_name, "irq")) {
			if (bad++ < 5)
				TH_LOG("begin at 0x%llx \"%s\": %u args, first \"%s\" type %u",
				       (unsigned long long)e->offset, e->name,
				       e->nargs, e->arg_name, e->arg_type);
			continue;
		}
		n++;
		for (int k = 0; k < nseen; k++)
			known |= !strcmp(seen[k], e->name);
		if (!known && nseen < 8)
			snprintf(seen[nseen++], 64, "%s", e->name);
	}
	for (int k = 0; k < nseen; k++)
		TH_LOG("handler seen: %s", seen[k]);
	EXPECT_EQ(0, bad);
	ASSERT_LT(0, n);
}

/*
 * A handler's end carries no argument when the handler handled it, and
 * "handled" (bool) false when it returned IRQ_NONE (records.rst).
 */
TEST(device_interrupt_end_args)
{
	uint64_t n = 0, bad = 0;

	NEED_ARCHIVE();
	for (size_t i = 0; i < R.a.nev; i++) {
		const struct records_event *e = &R.a.ev[i];

		if (strcmp(e->category, "irq") || is_vector(e->name) ||
		    e->event_type != FXT_EVENT_DURATION_END)
			continue;
		n++;
		if (e->nargs != 0 &&
		    (e->nargs != 1 || e->arg_type != FXT_ARG_BOOL ||
		     strcmp(e->arg_name, "handled") || e->arg_value != 0) &&
		    bad++ < 5)
			TH_LOG("end at 0x%llx \"%s\": first arg \"%s\" type %u",
			       (unsigned long long)e->offset, e->name, e->arg_name,
			       e->arg_type);
	}
	EXPECT_EQ(0, bad);
	ASSERT_LT(0, n);
}

/*
 * (b) The serial port's own interrupt, with the IRQ /proc/interrupts shows.
 * This skip and shared_line_handlers_named's depend on the machine; in the
 * guest scripts/vm/run provides both (console=ttyS0, two virtio-rng
 * functions on one line), so run-all counts either skip as a failure
 * (it is not in selftests/expected-skips).
 */
TEST(serial_interrupt_seen)
{
	uint64_t n = 0, wrong_irq = 0;

	NEED_ARCHIVE();
	if (!R.serial_written)
		SKIP(return, "no serial workload: %s", R.serial_why);
	if (R.serial_irq < 0)
		SKIP(return, "no \"%s\" line in /proc/interrupts", SERIAL_HANDLER);
	for (size_t i = 0; i < R.a.nev; i++) {
		const struct records_event *e = &R.a.ev[i];

		if (strcmp(e->category, "irq") || strcmp(e->name, SERIAL_HANDLER) ||
		    e->event_type != FXT_EVENT_DURATION_BEGIN)
			continue;
		n++;
		wrong_irq += e->arg_value != R.serial_irq;
	}
	EXPECT_LT(0, n) TH_LOG("%d lines written to %s", NR_LINES, SERIAL);
	ASSERT_EQ(0, wrong_irq) TH_LOG("\"irq\" argument is not %d", R.serial_irq);
}

static uint64_t count_named(const char *cat, const char *name, unsigned int type)
{
	uint64_t n = 0;

	for (size_t i = 0; i < R.a.nev; i++)
		n += !strcmp(R.a.ev[i].category, cat) && !strcmp(R.a.ev[i].name, name) &&
		     R.a.ev[i].event_type == type;
	return n;
}

/* (c) The local timer vector. */
TEST(local_timer_seen)
{
	NEED_ARCHIVE();
	ASSERT_LT(0, count_named("irq", "local_timer", FXT_EVENT_DURATION_BEGIN));
}

/* (c) The timer softirqs. */
TEST(timer_softirq_seen)
{
	NEED_ARCHIVE();
	ASSERT_LT(0, count_named("softirq", "TIMER", FXT_EVENT_DURATION_BEGIN) +
		     count_named("softirq", "HRTIMER", FXT_EVENT_DURATION_BEGIN));
}

/* Vector names and numbers agree (arch/x86/include/asm/irq_vectors.h). */
TEST(vector_numbers)
{
	static const struct { const char *name; int vector; } known[] = {
		{ "local_timer", 0xec }, { "reschedule", 0xfd },
		{ "call_function", 0xfc }, { "call_function_single", 0xfb },
		{ "irq_work", 0xf6 },
	};
	uint64_t bad = 0;

	NEED_ARCHIVE();
	for (size_t i = 0; i < R.a.nev; i++) {
		const struct records_event *e = &R.a.ev[i];

		if (strcmp(e->category, "irq") || !is_vector(e->name))
			continue;
		/* Only the begin says the number; an end has no argument. */
		if (e->event_type == FXT_EVENT_DURATION_END) {
			if (e->nargs != 0 && bad++ < 5)
				TH_LOG("%s end at 0x%llx: %u arguments", e->name,
				       (unsigned long long)e->offset, e->nargs);
			continue;
		}
		if (e->nargs != 1 || e->arg_type != FXT_ARG_INT32 ||
		    strcmp(e->arg_name, "vector")) {
			if (bad++ < 5)
				TH_LOG("%s at 0x%llx: arg \"%s\" type %u", e->name,
				       (unsigned long long)e->offset, e->arg_name,
				       e->arg_type);
			continue;
		}
		for (size_t k = 0; k < sizeof(known) / sizeof(known[0]); k++)
			if (!strcmp(known[k].name, e->name) &&
			    e->arg_value != known[k].vector && bad++ < 5)
				TH_LOG("%s at 0x%llx: vector %lld", e->name,
				       (unsigned long long)e->offset,
				       (long long)e->arg_value);
	}
	ASSERT_EQ(0, bad);
}

/*
 * Softirqs are named by their vector's name, which says the vector: their
 * events carry no argument (records.rst; a vector without a name would
 * carry its number, which the kernel's ten never need).
 */
TEST(softirq_names_say_the_vector)
{
	uint64_t bad = 0;

	NEED_ARCHIVE();
	for (size_t i = 0; i < R.a.nev; i++) {
		const struct records_event *e = &R.a.ev[i];

		if (strcmp(e->category, "softirq"))
			continue;
		if ((linux_softirq_vector(e->name) < 0 || e->nargs != 0) &&
		    bad++ < 5)
			TH_LOG("softirq \"%s\" at 0x%llx: %u arguments",
			       e->name, (unsigned long long)e->offset, e->nargs);
	}
	ASSERT_EQ(0, bad);
}

/*
 * A CPU's string table defines each text once: the handler name cache keeps
 * the handlers of a shared line apart (records.rst, "String table"), where
 * one slot per line made each interrupt define both names again.
 */
TEST(strings_defined_once_per_cpu)
{
	uint64_t dups = 0;

	NEED_ARCHIVE();
	ASSERT_LT(0, R.a.nstr);
	for (size_t i = 0; i < R.a.nstr; i++) {
		const struct records_string *s = &R.a.str[i];

		for (size_t j = 0; j < i; j++) {
			if (R.a.str[j].provider != s->provider ||
			    strcmp(R.a.str[j].text, s->text))
				continue;
			if (dups++ < 5)
				TH_LOG("cpu %u: \"%s\" defined again at 0x%llx (index %u, first %u)",
				       s->provider, s->text,
				       (unsigned long long)s->offset, s->index,
				       R.a.str[j].index);
			break;
		}
	}
	ASSERT_EQ(0, dups) TH_LOG("%llu redefinitions", (unsigned long long)dups);
}

/* Every handler of the shared line shows up by name, with its IRQ number. */
TEST(shared_line_handlers_named)
{
	NEED_ARCHIVE();
	if (R.shared_irq < 0)
		SKIP(return, "%s", R.shared_why);
	ASSERT_LT(0, R.rng_reads) TH_LOG("%s", R.shared_why);
	for (int k = 0; k < R.nshared; k++) {
		uint64_t n = 0;

		for (size_t i = 0; i < R.a.nev; i++) {
			const struct records_event *e = &R.a.ev[i];

			n += e->event_type == FXT_EVENT_DURATION_BEGIN &&
			     !strcmp(e->category, "irq") &&
			     !strcmp(e->name, R.shared[k]) &&
			     e->arg_value == R.shared_irq;
		}
		EXPECT_LT(0, n) TH_LOG("handler %s of irq %d never seen",
				       R.shared[k], R.shared_irq);
	}
}

/* (d) Pseudo-threads: irq/cpu<c> in process "irq", for every CPU. */
TEST(pseudo_threads_named)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);

	NEED_ARCHIVE();
	EXPECT_TRUE(records_has_kobj_named(&R.a, FXT_OBJ_PROCESS, FXT_KOID_IRQ_PROCESS, "irq"));
	EXPECT_EQ(ncpu, R.a.max_provider + 1) TH_LOG("one provider per CPU");
	for (int c = 0; c <= R.a.max_provider; c++) {
		const struct records_kobj *k[8];
		char name[32];
		size_t n;
		bool ok = false;

		snprintf(name, sizeof(name), "irq/cpu%d", c);
		n = records_kobjs_of(&R.a, FXT_OBJ_THREAD, FXT_KOID_IRQ_THREAD(c), k, 8);
		for (size_t i = 0; i < n && i < 8; i++)
			ok |= !strcmp(k[i]->name, name) && k[i]->has_process &&
			      k[i]->process_arg_type == FXT_ARG_KOID &&
			      k[i]->process == FXT_KOID_IRQ_PROCESS;
		EXPECT_TRUE(ok) TH_LOG("no thread record \"%s\" koid 0x%llx in process 0x%llx",
				       name, FXT_KOID_IRQ_THREAD(c), FXT_KOID_IRQ_PROCESS);
	}
}

int main(int argc, char **argv)
{
	run();
	if (R.loaded) {
		printf("# %s: %zu events, %zu switches, %zu strings; serial: %s (irq %d)\n",
		       R.coll.archive, R.a.nev, R.a.nsw, R.a.nstr,
		       R.serial_written ? "written" : R.serial_why, R.serial_irq);
		if (R.shared_irq >= 0)
			printf("# shared line: irq %d, %d handlers (%s, %s), %d reads of /dev/hwrng\n",
			       R.shared_irq, R.nshared, R.shared[0], R.shared[1],
			       R.rng_reads);
		for (int c = 0; c <= R.a.max_provider && c < MAX_PROV; c++)
			printf("# cpu %d: %llu begins, %llu ends, max depth %u, %u open at end, %llu leading ends\n",
			       c, (unsigned long long)R.prov[c].begins,
			       (unsigned long long)R.prov[c].ends, R.prov[c].max_depth,
			       R.prov[c].open_at_end,
			       (unsigned long long)R.prov[c].leading_ends);
	} else {
		printf("# scenario: %s\n", R.why);
	}
	fflush(stdout);
	return test_harness_run(argc, argv);
}
