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
 * each koid's newest name its last (lib/name_trailer.c). Documentation/usage.rst.
 * All that is lib/device.c; here are the options, signals, the command
 * (lib/command.c), the status line and the statistics.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/fxt.h>
#include <fxt/format.h>
#include "command.h"
#include "device.h"
#include "options.h"
#include "libfxt.h"

#define STATUS_INTERVAL_NS	1000000000ull
/* Koids whose newest name the trailer can restore: about 80 bytes each. */
#define NEWEST_MAX_KOIDS	(1u << 21)

struct collector {
	const char *output;
	const char *device;
	double seconds;
	uint32_t mode;
	uint64_t buffer_size;
	bool quiet;
	const char *category_list;
	char **command;

	struct fxt_device dev;
	int out;
	struct fxt_writer w;
	struct fxt_command cmd;
};

static volatile sig_atomic_t stop_requested;
static volatile sig_atomic_t child_exited;

static void on_signal(int sig)
{
	if (sig == SIGCHLD)
		child_exited = 1;
	else
		stop_requested = 1;
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

/* The library's errors are negative errnos with a message in dev.err. */
static void check(struct collector *c, int ret)
{
	if (ret < 0)
		die("%s", c->dev.err);
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

static void print_stats(struct collector *c, FILE *f)
{
	uint32_t cpu;

	fprintf(f, "%4s %12s %10s %10s %10s %6s %12s %s\n", "cpu", "records",
		"dropped", "durable", "d.dropped", "wraps", "bytes", "flags");
	for (cpu = 0; cpu < c->dev.layout.nr_cpus; cpu++) {
		struct fxt_cpu_stats st;

		if (!fxt_device_cpu_possible(&c->dev, cpu))
			continue;
		check(c, fxt_device_cpu_stats(&c->dev, cpu, &st));
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
	uint64_t now = fxt_monotonic_ns();
	struct fxt_device_totals t;
	double rate;

	if (now - *last_ns < STATUS_INTERVAL_NS)
		return;
	fxt_device_totals(&c->dev, &t);
	rate = (double)(t.written - *last_written) * 1e9 / (double)(now - *last_ns);
	fprintf(stderr, "\r%10.0f events/s  %9.1f MB written  %" PRIu64 " dropped   ",
		rate, (double)fxt_writer_bytes(&c->w) / 1e6, t.dropped);
	*last_ns = now;
	*last_written = t.written;
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
			if (fxt_parse_mode(optarg) < 0)
				die("unknown mode '%s' (oneshot, circular or streaming)", optarg);
			c->mode = (uint32_t)fxt_parse_mode(optarg);
			break;
		case 'b':
			if (fxt_parse_size(optarg, &c->buffer_size))
				die("bad size '%s'", optarg);
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

/* Device initialized and mapped, archive begun: ready to start. */
static void prepare(struct collector *c, struct fxt_newest *names)
{
	struct fxt_config cfg = { .buffer_size = c->buffer_size, .mode = c->mode };
	int ret;

	check(c, fxt_device_open(&c->dev, c->device, "fxt-collect"));
	if (c->category_list)
		check(c, fxt_device_categories(&c->dev, c->category_list,
					       &cfg.categories));
	check(c, fxt_device_init(&c->dev, &cfg));
	check(c, fxt_device_map(&c->dev));
	if (!names)
		warnx_("out of memory: no trailer of newest names");
	c->out = open(c->output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (c->out < 0)
		die("%s: %s", c->output, strerror(errno));
	ret = fxt_writer_init(&c->w, c->out);
	if (ret)
		die("writing %s: %s", c->output, strerror(-ret));
	check(c, fxt_device_begin_archive(&c->dev, &c->w, c->output, names));
}

static void catch_signals(void)
{
	struct sigaction sa = { 0 };

	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_flags = SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* Start tracing, then the command, which waits for it. */
static void start(struct collector *c)
{
	const char *failed;
	int ret;

	if (c->command) {
		ret = fxt_command_spawn(&c->cmd, c->command, "fxt-collect", &failed);
		if (ret)
			die("%s: %s", failed, strerror(-ret));
	}
	if (fxt_device_start(&c->dev, FXT_START_CLEAR_ENTIRE)) {
		if (c->cmd.pid > 0)
			kill(c->cmd.pid, SIGKILL);
		die("%s", c->dev.err);
	}
	fprintf(stderr, "fxt-collect: tracing started\n");
	ret = fxt_command_release(&c->cmd);
	if (ret)
		warnx_("could not release the command: %s", strerror(-ret));
}

/* Answer save requests until the time is up, the command exits or a signal. */
static void trace(struct collector *c, bool tty)
{
	uint64_t deadline = 0, last_ns, last_written = 0;
	int ret;

	if (c->seconds > 0)
		deadline = fxt_monotonic_ns() + (uint64_t)(c->seconds * 1e9);
	last_ns = fxt_monotonic_ns();
	while (!stop_requested) {
		struct pollfd pfd = { .fd = c->dev.fd, .events = POLLIN };
		int timeout = 200;

		if (child_exited) {
			child_exited = 0;
			fxt_command_reap(&c->cmd);
			if (c->cmd.done)
				break;
		}
		if (deadline) {
			uint64_t now = fxt_monotonic_ns();

			if (now >= deadline)
				break;
			if ((deadline - now) / 1000000 < (uint64_t)timeout)
				timeout = (int)((deadline - now) / 1000000) + 1;
		}
		ret = poll(&pfd, 1, timeout);
		if (ret < 0 && errno != EINTR)
			die("poll: %s", strerror(errno));
		if (ret > 0 && (pfd.revents & POLLIN))
			check(c, fxt_device_handle_packets(&c->dev));
		if (tty)
			status_line(c, &last_ns, &last_written);
	}
	if (tty)
		fputc('\n', stderr);
}

/* Stop, save what is left and the trailer, and close the archive on disk. */
static int finish(struct collector *c, uint64_t *archive_bytes)
{
	int ret, renamed;

	check(c, fxt_device_stop(&c->dev, FXT_STOP_WRITE_RESULTS));
	check(c, fxt_device_drain(&c->dev));
	check(c, fxt_device_save_final(&c->dev));
	renamed = fxt_device_write_trailer(&c->dev);
	check(c, renamed);
	if (c->dev.names && fxt_newest_untracked(c->dev.names))
		warnx_("%llu name records were not tracked (limit of %u koids, or not fxt.ko's): their koids may show an older name",
		       (unsigned long long)fxt_newest_untracked(c->dev.names),
		       NEWEST_MAX_KOIDS);
	ret = fxt_writer_flush(&c->w);
	if (!ret && fsync(c->out) && errno != EINVAL)
		ret = -errno;
	if (ret)
		die("writing %s: %s", c->output, strerror(-ret));
	*archive_bytes = fxt_writer_bytes(&c->w);
	fxt_writer_destroy(&c->w);
	if (close(c->out))
		die("closing %s: %s", c->output, strerror(errno));
	return renamed;
}

static void report(struct collector *c, uint64_t archive_bytes, int renamed)
{
	struct fxt_device_totals t;

	fxt_device_totals(&c->dev, &t);
	if (!c->quiet) {
		print_stats(c, stderr);
		fprintf(stderr, "fxt-collect: %s: %" PRIu64 " bytes, %" PRIu64
			" records (%" PRIu64 " events, %" PRIu64 " durable), %" PRIu64
			" dropped, %" PRIu64 " buffers saved\n",
			c->output, archive_bytes, t.written, t.events,
			t.written - t.events, t.dropped, c->dev.saves);
		if (renamed > 0)
			fprintf(stderr, "fxt-collect: %d newest names of %zu koids restated at the end\n",
				renamed, fxt_newest_koids(c->dev.names));
	}
	if (t.dropped)
		warnx_("%" PRIu64 " records were dropped (see the fxt/dropped counters)",
		       t.dropped);
	fxt_device_warn_untraced(&c->dev);
}

int main(int argc, char **argv)
{
	struct collector c = { .out = -1, .cmd.go_fd = -1 };
	struct fxt_newest *names;
	uint64_t archive_bytes;
	int renamed;

	parse_args(&c, argc, argv);
	c.command = optind < argc ? argv + optind : NULL;
	names = fxt_newest_new(NEWEST_MAX_KOIDS);
	prepare(&c, names);
	catch_signals();
	start(&c);
	trace(&c, isatty(STDERR_FILENO) && !c.quiet);
	renamed = finish(&c, &archive_bytes);
	report(&c, archive_bytes, renamed);
	fxt_newest_free(names);
	if (fxt_device_close(&c.dev))
		warnx_("%s", c.dev.err);
	fxt_command_end(&c.cmd);
	if (c.cmd.done && WIFEXITED(c.cmd.status) && WEXITSTATUS(c.cmd.status))
		fprintf(stderr, "fxt-collect: command exited with status %d\n",
			WEXITSTATUS(c.cmd.status));
	return c.dev.truncated_chunk ? 1 : 0;
}
