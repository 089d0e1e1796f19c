// SPDX-License-Identifier: MIT
/*
 * fxt-collect - drain fxt.ko's per-CPU buffers into an FXT archive.
 *
 *   fxt-collect -o sched.fxt [-t SECONDS] [-m MODE] [-b SIZE] [-c CATS]
 *               [-- COMMAND [ARGS...]]
 *
 * The collector plays the Fuchsia trace manager: it initializes and starts
 * a session on /dev/fxt, maps the buffers read-only, answers the streaming
 * hand-shake (SAVE_BUFFER -> save durable delta, then the rolling buffer ->
 * BUFFER_SAVED), and at the end saves what is left, oldest first, with the
 * per-CPU loss made visible in the archive, then the trailer that makes
 * each koid's newest name its last (lib/newest.c). Documentation/usage.rst.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/fxt.h>
#include <fxt/format.h>
#include "libfxt.h"

#define STATUS_INTERVAL_NS	1000000000ull
/* How long to wait for a writer to finish a record it reserved. */
#define COMMIT_WAIT_NS		2000000000ull
/* Koids whose newest name the trailer can restore: about 80 bytes each. */
#define NEWEST_MAX_KOIDS	(1u << 21)

struct cpu_state {
	bool present;
	const volatile struct fxt_buffer_header *hdr;
	const uint8_t *base;
	uint64_t durable_saved;		/* durable bytes already in the archive */
	uint64_t dropped_reported;	/* drop count last written as a counter */
	uint64_t dropped_at_ack;	/* drop count at the last BUFFER_SAVED */
	uint64_t last_ts;		/* latest timestamp saved for this CPU */
};

struct collector {
	const char *output;
	const char *device;
	double seconds;
	uint32_t mode;
	uint64_t buffer_size;
	uint32_t categories;
	bool quiet;
	const char *category_list;
	char **command;

	int fd;
	int out;
	struct fxt_writer w;
	struct fxt_layout layout;
	const uint8_t *map;
	struct cpu_state *cpus;
	uint32_t current_provider;
	bool have_provider;
	pid_t child;
	int child_status;
	bool child_done;
	uint64_t saves;
	bool truncated_chunk;
	struct fxt_newest *names;	/* NULL: no trailer (no memory) */
};

static volatile sig_atomic_t stop_requested;
static volatile sig_atomic_t child_exited;

static void on_stop_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static void on_child(int sig)
{
	(void)sig;
	child_exited = 1;
}

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fxt-collect: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void warnx_(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fxt-collect: warning: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void usage(FILE *f)
{
	fprintf(f,
"Usage: fxt-collect -o FILE [options] [-- COMMAND [ARGS...]]\n"
"\n"
"Record the scheduler (context switches, wakeups, interrupts, thread names)\n"
"with fxt.ko into FILE, a Fuchsia Trace Format archive that Perfetto opens.\n"
"Tracing stops after -t SECONDS, when COMMAND exits, or on SIGINT/SIGTERM,\n"
"whichever comes first. Needs root (or CAP_PERFMON) and the module loaded.\n"
"\n"
"Options:\n"
"  -o, --output FILE       archive to write (required)\n"
"  -t, --time SECONDS      stop after this long (fractions allowed)\n"
"  -m, --mode MODE         oneshot | circular | streaming\n"
"                          (default: streaming; circular keeps the last\n"
"                          window and is saved only when tracing stops)\n"
"  -b, --buffer-size SIZE  per-CPU buffer, e.g. 8M (default 8M; K, M, G)\n"
"  -c, --categories LIST   comma-separated: sched,wakeup,irq,softirq or all\n"
"                          (default: all of them)\n"
"  -d, --device PATH       device node (default " FXT_DEVICE_PATH ")\n"
"  -q, --quiet             no status line and no statistics table\n"
"  -h, --help              this text\n"
"\n"
"Prints 'fxt-collect: tracing started' on stderr once the probes are live,\n"
"then (on a terminal) a status line, and at the end per-CPU statistics.\n"
"When tracing stops before COMMAND exits, COMMAND gets SIGTERM.\n"
"Exit status: 0 when the archive was written, 1 on any error.\n");
}

static uint64_t parse_size(const char *s)
{
	char *end;
	double v = strtod(s, &end);
	uint64_t mul = 1;

	if (end == s || v <= 0)
		die("bad size '%s'", s);
	switch (*end) {
	case 'k': case 'K': mul = 1ull << 10; end++; break;
	case 'm': case 'M': mul = 1ull << 20; end++; break;
	case 'g': case 'G': mul = 1ull << 30; end++; break;
	}
	if (*end == 'i' || *end == 'B')
		end += (*end == 'i' && end[1] == 'B') ? 2 : 1;
	if (*end)
		die("bad size '%s'", s);
	return (uint64_t)(v * (double)mul);
}

static uint32_t parse_mode(const char *s)
{
	if (!strcmp(s, "oneshot"))
		return FXT_MODE_ONESHOT;
	if (!strcmp(s, "circular"))
		return FXT_MODE_CIRCULAR;
	if (!strcmp(s, "streaming"))
		return FXT_MODE_STREAMING;
	die("unknown mode '%s' (oneshot, circular or streaming)", s);
	return 0;
}

/*
 * ENOTTY from a known ioctl: the module is of another ABI version, whose
 * ioctl numbers differ (version 1 used the magic 'F').
 */
#define ABI_MISMATCH_HINT \
	" (fxt.ko and fxt-collect are of different ABI versions: build and install them together)"

/* Category names are the module's own (FXT_IOC_GET_CATEGORIES). */
static uint32_t parse_categories(int fd, const char *list)
{
	struct fxt_categories cats;
	char *copy, *tok, *save = NULL;
	uint32_t bits = 0;

	if (ioctl(fd, FXT_IOC_GET_CATEGORIES, &cats))
		die("cannot list categories: %s%s", strerror(errno),
		    errno == ENOTTY ? ABI_MISMATCH_HINT : "");
	copy = strdup(list);
	if (!copy)
		die("out of memory");
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		uint32_t i, found = 0;

		if (!strcmp(tok, "all")) {
			for (i = 0; i < cats.count && i < FXT_MAX_CATEGORIES; i++)
				bits |= cats.cat[i].bit;
			continue;
		}
		for (i = 0; i < cats.count && i < FXT_MAX_CATEGORIES; i++)
			if (!strncmp(tok, cats.cat[i].name,
				     sizeof(cats.cat[i].name)))
				found = cats.cat[i].bit;
		if (!found) {
			fprintf(stderr, "fxt-collect: unknown category '%s'; known:",
				tok);
			for (i = 0; i < cats.count && i < FXT_MAX_CATEGORIES; i++)
				fprintf(stderr, " %.*s", (int)sizeof(cats.cat[i].name),
					cats.cat[i].name);
			fputc('\n', stderr);
			exit(1);
		}
		bits |= found;
	}
	free(copy);
	if (!bits)
		die("no categories selected");
	return bits;
}

static void open_device(struct collector *c)
{
	c->fd = open(c->device, O_RDWR | O_CLOEXEC);
	if (c->fd >= 0)
		return;
	switch (errno) {
	case ENOENT:
	case ENODEV:
	case ENXIO:
		die("%s: no such device; is the module loaded? (sudo insmod module/fxt.ko)",
		    c->device);
		break;
	case EACCES:
	case EPERM:
		die("%s: permission denied; tracing needs root or CAP_PERFMON",
		    c->device);
		break;
	case EBUSY:
		die("%s: busy; another fxt session is running", c->device);
		break;
	default:
		die("%s: %s", c->device, strerror(errno));
	}
}

static bool cpu_possible(const struct fxt_layout *l, uint32_t cpu)
{
	if (cpu >= 64 * 4)
		return false;
	return l->possible_cpus[cpu / 64] >> (cpu % 64) & 1;
}

static void check_write(struct collector *c, int ret)
{
	if (ret)
		die("writing %s: %s", c->output, strerror(-ret));
}

static void select_provider(struct collector *c, uint32_t cpu)
{
	if (c->have_provider && c->current_provider == cpu)
		return;
	check_write(c, fxt_write_provider_section(&c->w, cpu));
	c->current_provider = cpu;
	c->have_provider = true;
}

/*
 * Copy [from, to) of a buffer whose records the kernel wrote, after checking
 * the framing: whole records, none of size 0. A broken chunk is cut at its
 * last good record rather than written as garbage. Data with names (the
 * durable buffer, and rolling data that holds durable records: a CPU whose
 * durable buffer filled in streaming or oneshot mode spills them there) is
 * also shown to the newest-name tracker, in archive order.
 */
static void write_chunk(struct collector *c, uint32_t cpu, const uint8_t *data,
			uint64_t from, uint64_t to, const char *what)
{
	bool names = !strcmp(what, "durable");
	uint64_t off = from;

	while (off < to) {
		uint64_t hdr, words, ts;
		unsigned int type;

		memcpy(&hdr, data + off, sizeof(hdr));
		words = fxt_record_words(hdr);
		type = fxt_record_type(hdr);
		if (!words || off + words * 8 > to) {
			warnx_("cpu %u: %s buffer: bad record framing at offset %" PRIu64
			       "; %" PRIu64 " bytes not saved", cpu, what, off, to - off);
			c->truncated_chunk = true;
			break;
		}
		names |= type == FXT_REC_KERNEL_OBJ || type == FXT_REC_STRING;
		/* Events and scheduling records carry their time in word 1. */
		if ((type == FXT_REC_EVENT || type == FXT_REC_SCHED) && words > 1) {
			memcpy(&ts, data + off + 8, sizeof(ts));
			if (ts > c->cpus[cpu].last_ts)
				c->cpus[cpu].last_ts = ts;
		}
		off += words * 8;
	}
	if (off > from) {
		select_provider(c, cpu);
		check_write(c, fxt_write_raw(&c->w, data + from, off - from));
		if (names && c->names)
			fxt_newest_feed(c->names, cpu, data + from, off - from);
	}
}

/*
 * The trailer (Documentation/records.rst, "Archive layout"): after every
 * CPU's data, its own provider with one kernel object record per koid
 * whose last record in the archive is not its newest name, so that a
 * reader applying the last record it reads (Perfetto) gets the newest.
 * Everything before it is a complete archive already.
 */
static int write_trailer(struct collector *c)
{
	int n;

	if (!c->names)
		return 0;
	n = fxt_newest_write_trailer(c->names, &c->w);
	check_write(c, n < 0 ? n : 0);
	if (n > 0)
		c->have_provider = false;
	if (fxt_newest_untracked(c->names))
		warnx_("%llu name records were not tracked (limit of %u koids, or not fxt.ko's): their koids may show an older name",
		       (unsigned long long)fxt_newest_untracked(c->names),
		       NEWEST_MAX_KOIDS);
	return n;
}

/* Wait until every reserved byte below *end is committed; false on timeout. */
static bool wait_committed(const volatile __u64 *committed, uint64_t end)
{
	uint64_t deadline = now_ns(CLOCK_MONOTONIC) + COMMIT_WAIT_NS;

	while (__atomic_load_n(committed, __ATOMIC_ACQUIRE) != end) {
		struct timespec pause = { 0, 50000 };

		if (now_ns(CLOCK_MONOTONIC) > deadline)
			return false;
		nanosleep(&pause, NULL);
	}
	return true;
}

/*
 * Durable data not yet in the archive. A writer may be inside a durable
 * record right now, so take the end at a moment when everything reserved
 * is committed (reserved, committed, reserved all equal). @min_end is what
 * a SAVE_BUFFER request says must be saved first (0 if nothing): records
 * reserved before the request was posted are complete by now, since a
 * writer never sleeps, so if no quiet moment comes, save up to @min_end.
 */
static void save_durable(struct collector *c, uint32_t cpu, uint64_t min_end)
{
	struct cpu_state *s = &c->cpus[cpu];
	const volatile struct fxt_buffer_header *h = s->hdr;
	uint64_t deadline = now_ns(CLOCK_MONOTONIC) + COMMIT_WAIT_NS;
	uint64_t r1, cm, r2;

	for (;;) {
		r1 = __atomic_load_n(&h->durable_reserved, __ATOMIC_ACQUIRE);
		cm = __atomic_load_n(&h->durable_committed, __ATOMIC_ACQUIRE);
		r2 = __atomic_load_n(&h->durable_reserved, __ATOMIC_ACQUIRE);
		if (r1 == cm && cm == r2)
			break;
		if (now_ns(CLOCK_MONOTONIC) > deadline) {
			warnx_("cpu %u: durable buffer never quiet; saving the %" PRIu64
			       " bytes the request names, the rest later", cpu, min_end);
			r1 = min_end;
			break;
		}
		sched_yield();
	}
	if (r1 > h->durable_size)
		r1 = h->durable_size;
	if (r1 > s->durable_saved) {
		write_chunk(c, cpu, s->base + h->durable_offset, s->durable_saved,
			    r1, "durable");
		s->durable_saved = r1;
	}
}

static void save_rolling(struct collector *c, uint32_t cpu, unsigned int b,
			 uint64_t end)
{
	struct cpu_state *s = &c->cpus[cpu];
	const volatile struct fxt_buffer_header *h = s->hdr;

	if (!end)
		return;
	if (end > h->rolling_size) {
		warnx_("cpu %u: rolling buffer %u end %" PRIu64 " beyond its size",
		       cpu, b, end);
		return;
	}
	if (!wait_committed(&h->rolling_committed[b], end))
		warnx_("cpu %u: rolling buffer %u: a writer did not finish; its record is cut",
		       cpu, b);
	write_chunk(c, cpu, s->base + h->rolling_offset[b], 0, end, "rolling");
}

/* The CPU's records dropped so far, rolling and durable. */
static uint64_t dropped_now(const struct cpu_state *s)
{
	return __atomic_load_n(&s->hdr->records_dropped, __ATOMIC_ACQUIRE) +
	       __atomic_load_n(&s->hdr->durable_dropped, __ATOMIC_ACQUIRE);
}

/*
 * Loss shows where it happened: buffer-full metadata plus a counter of
 * @dropped records, stamped with the last time saved for the CPU (not
 * "now": the next chunk holds records from before now, and a CPU's records
 * must stay in time order).
 */
static void report_drops(struct collector *c, uint32_t cpu, uint64_t dropped)
{
	struct cpu_state *s = &c->cpus[cpu];

	if (dropped == s->dropped_reported)
		return;
	select_provider(c, cpu);
	check_write(c, fxt_write_provider_event(&c->w, cpu,
						FXT_PROVIDER_EVENT_BUFFER_FULL));
	check_write(c, fxt_write_counter_u64(&c->w, s->last_ts,
					     FXT_KOID_IRQ_PROCESS, FXT_KOID_IRQ_THREAD(cpu),
					     FXT_DROPPED_CATEGORY, FXT_DROPPED_NAME, cpu,
					     FXT_DROPPED_ARG_NAME, dropped));
	s->dropped_reported = dropped;
}

/*
 * SAVE_BUFFER: durable delta first, then the full rolling buffer.
 *
 * Streaming drops a CPU's records only while both rolling buffers are
 * waiting: the one being saved here and the other, already full. So what
 * was dropped up to this save's acknowledgement was dropped after the other
 * buffer's last record, and is reported after that buffer, at the next save
 * (or at the end), where it happened.
 */
static void handle_save(struct collector *c, const struct fxt_packet *p)
{
	struct fxt_packet ack = *p;
	const volatile struct fxt_buffer_header *h;
	unsigned int b = p->data32 & 1;
	struct cpu_state *s;

	if (p->cpu >= c->layout.nr_cpus || !c->cpus[p->cpu].present)
		die("SAVE_BUFFER for unknown cpu %u", p->cpu);
	s = &c->cpus[p->cpu];
	h = s->hdr;
	save_durable(c, p->cpu, p->data64);
	save_rolling(c, p->cpu, b,
		     __atomic_load_n(&h->rolling_data_end[b], __ATOMIC_ACQUIRE));
	report_drops(c, p->cpu, s->dropped_at_ack);
	/* Saved means on disk: the kernel may overwrite it after the ack. */
	check_write(c, fxt_writer_flush(&c->w));
	ack.request = FXT_PKT_BUFFER_SAVED;
	if (write(c->fd, &ack, sizeof(ack)) != sizeof(ack))
		die("acknowledging a saved buffer: %s", strerror(errno));
	s->dropped_at_ack = dropped_now(s);
	c->saves++;
}

/* Returns true once STOPPED was read. */
static bool handle_packets(struct collector *c)
{
	struct fxt_packet pkts[64];
	ssize_t n, i;
	bool stopped = false;

	n = read(c->fd, pkts, sizeof(pkts));
	if (n < 0) {
		if (errno == EAGAIN || errno == EINTR)
			return false;
		die("reading packets: %s", strerror(errno));
	}
	for (i = 0; i < n / (ssize_t)sizeof(pkts[0]); i++) {
		switch (pkts[i].request) {
		case FXT_PKT_STARTED:
			if (pkts[i].data32 != FXT_FIFO_PROTOCOL_VERSION)
				die("module speaks packet protocol %u, not %u",
				    pkts[i].data32, FXT_FIFO_PROTOCOL_VERSION);
			break;
		case FXT_PKT_SAVE_BUFFER:
			handle_save(c, &pkts[i]);
			break;
		case FXT_PKT_STOPPED:
			stopped = true;
			break;
		default:
			warnx_("unknown packet %#x ignored", pkts[i].request);
		}
	}
	return stopped;
}

/* What is left after stop, per CPU, oldest first. */
static void save_final(struct collector *c)
{
	uint32_t cpu;

	for (cpu = 0; cpu < c->layout.nr_cpus; cpu++) {
		struct cpu_state *s = &c->cpus[cpu];
		const volatile struct fxt_buffer_header *h = s->hdr;
		uint64_t cur, off;
		uint32_t wrapped;
		unsigned int b;

		if (!s->present)
			continue;
		cur = __atomic_load_n(&h->rolling_current, __ATOMIC_ACQUIRE);
		wrapped = cur >> FXT_ROLLING_OFFSET_BITS;
		off = cur & FXT_ROLLING_OFFSET_MASK;
		b = wrapped & 1;
		save_durable(c, cpu, 0);
		if (c->mode == FXT_MODE_CIRCULAR && wrapped)
			save_rolling(c, cpu, b ^ 1, h->rolling_data_end[b ^ 1]);
		if (off > h->rolling_size)
			off = h->rolling_size;
		save_rolling(c, cpu, b, off);
		report_drops(c, cpu, dropped_now(s));
	}
}

/* Records written (events = rolling ones) and dropped, over all CPUs. */
static void sum_stats(struct collector *c, uint64_t *written, uint64_t *dropped,
		      uint64_t *events)
{
	uint32_t cpu;

	*written = *dropped = *events = 0;
	for (cpu = 0; cpu < c->layout.nr_cpus; cpu++) {
		if (!c->cpus[cpu].present)
			continue;
		*events += c->cpus[cpu].hdr->records_written;
		*written += c->cpus[cpu].hdr->records_written +
			    c->cpus[cpu].hdr->durable_records;
		*dropped += c->cpus[cpu].hdr->records_dropped +
			    c->cpus[cpu].hdr->durable_dropped;
	}
}

static void print_stats(struct collector *c, FILE *f)
{
	uint32_t cpu;

	fprintf(f, "%4s %12s %10s %10s %10s %6s %12s %s\n", "cpu", "records",
		"dropped", "durable", "d.dropped", "wraps", "bytes", "flags");
	for (cpu = 0; cpu < c->layout.nr_cpus; cpu++) {
		struct fxt_cpu_stats st = { .cpu = cpu };

		if (!c->cpus[cpu].present)
			continue;
		if (ioctl(c->fd, FXT_IOC_GET_STATS, &st))
			die("stats of cpu %u: %s", cpu, strerror(errno));
		fprintf(f, "%4u %12" PRIu64 " %10" PRIu64 " %10" PRIu64 " %10" PRIu64
			" %6" PRIu64 " %12" PRIu64 " %s%s\n", cpu,
			(uint64_t)st.records_written, (uint64_t)st.records_dropped,
			(uint64_t)st.durable_records, (uint64_t)st.durable_dropped,
			(uint64_t)st.wrapped_count,
			(uint64_t)(st.durable_bytes + st.rolling_bytes),
			st.flags & FXT_CPU_DURABLE_FULL ? "durable-full " : "",
			st.flags & FXT_CPU_ROLLING_FULL ? "rolling-full" : "");
	}
}

static void status_line(struct collector *c, uint64_t *last_ns,
			uint64_t *last_written)
{
	uint64_t now = now_ns(CLOCK_MONOTONIC), written, dropped, events;
	double rate;

	if (now - *last_ns < STATUS_INTERVAL_NS)
		return;
	sum_stats(c, &written, &dropped, &events);
	rate = (double)(written - *last_written) * 1e9 / (double)(now - *last_ns);
	fprintf(stderr, "\r%10.0f events/s  %9.1f MB written  %" PRIu64 " dropped   ",
		rate, (double)fxt_writer_bytes(&c->w) / 1e6, dropped);
	*last_ns = now;
	*last_written = written;
}

static pid_t spawn_command(char **argv, int *go_fd)
{
	int pfd[2];
	pid_t pid;

	if (pipe(pfd))
		die("pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (!pid) {
		char go;

		close(pfd[1]);
		/* Start only once tracing has started. */
		if (read(pfd[0], &go, 1) != 1)
			_exit(127);
		close(pfd[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		execvp(argv[0], argv);
		fprintf(stderr, "fxt-collect: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(pfd[0]);
	*go_fd = pfd[1];
	return pid;
}

static void reap_child(struct collector *c)
{
	int status;

	if (c->child <= 0 || c->child_done)
		return;
	if (waitpid(c->child, &status, WNOHANG) == c->child) {
		c->child_status = status;
		c->child_done = true;
	}
}

static void parse_args(struct collector *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "time", required_argument, NULL, 't' },
		{ "mode", required_argument, NULL, 'm' },
		{ "buffer-size", required_argument, NULL, 'b' },
		{ "categories", required_argument, NULL, 'c' },
		{ "device", required_argument, NULL, 'd' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	c->device = FXT_DEVICE_PATH;
	c->mode = FXT_MODE_STREAMING;
	c->buffer_size = FXT_BUFFER_SIZE_DEFAULT;
	while ((opt = getopt_long(argc, argv, "+o:t:m:b:c:d:qh", opts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			c->output = optarg;
			break;
		case 't': {
			char *end;

			c->seconds = strtod(optarg, &end);
			if (end == optarg || *end || c->seconds <= 0)
				die("bad duration '%s'", optarg);
			break;
		}
		case 'm':
			c->mode = parse_mode(optarg);
			break;
		case 'b':
			c->buffer_size = parse_size(optarg);
			break;
		case 'c':
			/* Resolved against the module's names once it is open. */
			c->category_list = optarg;
			break;
		case 'd':
			c->device = optarg;
			break;
		case 'q':
			c->quiet = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			exit(1);
		}
	}
	if (!c->output) {
		fprintf(stderr, "fxt-collect: -o FILE is required\n");
		usage(stderr);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	struct collector c = { .fd = -1, .out = -1 };
	struct fxt_config cfg = { 0 };
	struct fxt_start_options start = { .disposition = FXT_START_CLEAR_ENTIRE };
	struct fxt_stop_options stop = { .flags = FXT_STOP_WRITE_RESULTS };
	uint64_t archive_bytes;
	struct sigaction sa = { 0 };
	uint64_t deadline = 0, last_ns, last_written = 0, written, dropped, events;
	int go_fd = -1, ret, renamed;
	bool tty, stopped = false;
	uint32_t cpu;

	parse_args(&c, argc, argv);
	c.command = optind < argc ? argv + optind : NULL;
	tty = isatty(STDERR_FILENO) && !c.quiet;

	open_device(&c);
	cfg.buffer_size = c.buffer_size;
	cfg.mode = c.mode;
	cfg.categories = c.category_list ?
		parse_categories(c.fd, c.category_list) : 0;
	if (ioctl(c.fd, FXT_IOC_INITIALIZE, &cfg))
		die("initialize (buffer %" PRIu64 " bytes per CPU): %s%s",
		    c.buffer_size, strerror(errno),
		    errno == EINVAL ? " (size: 64K..1G, a multiple of the page size)" :
		    errno == ENOMEM ? " (the module takes at most half the memory available"
				      " for all possible CPUs' buffers: a smaller -b)" :
		    errno == ENOTTY ? ABI_MISMATCH_HINT : "");
	if (ioctl(c.fd, FXT_IOC_GET_LAYOUT, &c.layout))
		die("layout: %s", strerror(errno));
	if (c.layout.abi_version != FXT_ABI_VERSION)
		die("the module speaks ABI version %u, fxt-collect %u%s",
		    c.layout.abi_version, FXT_ABI_VERSION, ABI_MISMATCH_HINT);
	c.map = mmap(NULL, c.layout.map_size, PROT_READ, MAP_SHARED, c.fd, 0);
	if (c.map == MAP_FAILED)
		die("mapping %" PRIu64 " bytes of buffers: %s",
		    (uint64_t)c.layout.map_size, strerror(errno));
	c.cpus = calloc(c.layout.nr_cpus, sizeof(*c.cpus));
	if (!c.cpus)
		die("out of memory");
	c.names = fxt_newest_new(NEWEST_MAX_KOIDS);
	if (!c.names)
		warnx_("out of memory: no trailer of newest names");

	c.out = open(c.output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (c.out < 0)
		die("%s: %s", c.output, strerror(errno));
	check_write(&c, fxt_writer_init(&c.w, c.out));
	check_write(&c, fxt_write_magic(&c.w));
	for (cpu = 0; cpu < c.layout.nr_cpus; cpu++) {
		struct cpu_state *s = &c.cpus[cpu];
		char name[32];

		if (!cpu_possible(&c.layout, cpu))
			continue;
		s->base = c.map + (uint64_t)cpu * c.layout.cpu_stride;
		s->hdr = (const volatile struct fxt_buffer_header *)s->base;
		if (s->hdr->magic != FXT_BUFFER_MAGIC || s->hdr->cpu != cpu)
			die("cpu %u: buffer header is not fxt's (ABI mismatch?)", cpu);
		s->present = true;
		snprintf(name, sizeof(name), FXT_CPU_PROVIDER_NAME_FORMAT, cpu);
		check_write(&c, fxt_write_provider_info(&c.w, cpu, name));
		check_write(&c, fxt_write_init(&c.w, FXT_TICKS_PER_SECOND));
		c.current_provider = cpu;
		c.have_provider = true;
	}
	check_write(&c, fxt_writer_flush(&c.w));

	sa.sa_handler = on_stop_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_child;
	sa.sa_flags = SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	if (c.command)
		c.child = spawn_command(c.command, &go_fd);
	if (ioctl(c.fd, FXT_IOC_START, &start)) {
		int err = errno;

		if (c.child > 0)
			kill(c.child, SIGKILL);
		die("start: %s", strerror(err));
	}
	fprintf(stderr, "fxt-collect: tracing started\n");
	if (go_fd >= 0) {
		if (write(go_fd, "g", 1) != 1)
			warnx_("could not release the command: %s", strerror(errno));
		close(go_fd);
	}
	if (c.seconds > 0)
		deadline = now_ns(CLOCK_MONOTONIC) + (uint64_t)(c.seconds * 1e9);
	last_ns = now_ns(CLOCK_MONOTONIC);

	while (!stop_requested) {
		struct pollfd pfd = { .fd = c.fd, .events = POLLIN };
		int timeout = 200;

		if (child_exited) {
			child_exited = 0;
			reap_child(&c);
			if (c.child_done)
				break;
		}
		if (deadline) {
			uint64_t now = now_ns(CLOCK_MONOTONIC);

			if (now >= deadline)
				break;
			if ((deadline - now) / 1000000 < (uint64_t)timeout)
				timeout = (int)((deadline - now) / 1000000) + 1;
		}
		ret = poll(&pfd, 1, timeout);
		if (ret < 0 && errno != EINTR)
			die("poll: %s", strerror(errno));
		if (ret > 0 && (pfd.revents & POLLIN))
			handle_packets(&c);
		if (tty)
			status_line(&c, &last_ns, &last_written);
	}
	if (tty)
		fputc('\n', stderr);

	if (ioctl(c.fd, FXT_IOC_STOP, &stop))
		die("stop: %s", strerror(errno));
	/* Every SAVE_BUFFER posted before the stop comes before STOPPED. */
	while (!stopped) {
		struct pollfd pfd = { .fd = c.fd, .events = POLLIN };

		if (poll(&pfd, 1, 5000) <= 0)
			die("no STOPPED packet from the module");
		stopped = handle_packets(&c);
	}
	save_final(&c);
	renamed = write_trailer(&c);
	ret = fxt_writer_flush(&c.w);
	if (!ret && fsync(c.out) && errno != EINVAL)
		ret = -errno;
	check_write(&c, ret);
	archive_bytes = fxt_writer_bytes(&c.w);
	fxt_writer_destroy(&c.w);
	if (close(c.out))
		die("closing %s: %s", c.output, strerror(errno));

	sum_stats(&c, &written, &dropped, &events);
	if (!c.quiet) {
		print_stats(&c, stderr);
		fprintf(stderr, "fxt-collect: %s: %" PRIu64 " bytes, %" PRIu64
			" records (%" PRIu64 " events, %" PRIu64 " durable), %" PRIu64
			" dropped, %" PRIu64 " buffers saved\n",
			c.output, archive_bytes, written, events, written - events,
			dropped, c.saves);
		if (renamed > 0)
			fprintf(stderr, "fxt-collect: %d newest names of %zu koids restated at the end\n",
				renamed, fxt_newest_koids(c.names));
	}
	if (dropped)
		warnx_("%" PRIu64 " records were dropped (see the fxt/dropped counters)",
		       dropped);
	fxt_newest_free(c.names);
	munmap((void *)c.map, c.layout.map_size);
	if (ioctl(c.fd, FXT_IOC_TERMINATE))
		warnx_("terminate: %s", strerror(errno));
	close(c.fd);

	if (c.child > 0) {
		if (!c.child_done) {
			kill(c.child, SIGTERM);
			if (waitpid(c.child, &c.child_status, 0) == c.child)
				c.child_done = true;
		}
		if (c.child_done && WIFEXITED(c.child_status) &&
		    WEXITSTATUS(c.child_status))
			fprintf(stderr, "fxt-collect: command exited with status %d\n",
				WEXITSTATUS(c.child_status));
	}
	return c.truncated_chunk ? 1 : 0;
}
