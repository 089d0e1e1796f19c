// SPDX-License-Identifier: MIT
/*
 * fxt-collect - drain fxt.ko's per-CPU buffers into an FXT archive.
 *
 *   fxt-collect -o sched.fxt [-t SECONDS] [-m MODE] [-b SIZE] [-c CATS]
 *               [--trigger SPEC]... [--post T] [--windows N]
 *               [-- COMMAND [ARGS...]]
 *
 * The collector plays the Fuchsia trace manager: it initializes and starts
 * a session on /dev/fxt, maps the buffers read-only, answers the streaming
 * hand-shake (SAVE_BUFFER -> save durable delta, then the rolling buffer ->
 * BUFFER_SAVED), and at the end saves what is left, oldest first, with the
 * per-CPU loss made visible in the archive, then the trailer that makes
 * each koid's newest name its last (lib/name_trailer.c). Documentation/usage.rst.
 * All that is lib/device.c; here are the options, signals, the command
 * (lib/command.c), the status line and the statistics (lib/stats_table.c).
 *
 * With latency triggers (circular mode, lib/options.c parses them), the
 * run is a series of windows: the first firing after a START makes the
 * kernel post TRIGGERED and stop writing --post later; the collector waits
 * that long (and a margin), stops, saves the window as at the end of any
 * circular session, and starts again into the next archive, up to
 * --windows of them.
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
#include "stats_table.h"
#include "trigger_note.h"
#include "libfxt.h"

#define STATUS_INTERVAL_NS	1000000000ull
#define POST_DEFAULT_NS		100000000ull	/* --post */
/* After --post: every CPU has stopped writing by then. */
#define POST_MARGIN_NS		20000000ull
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
	bool mode_given;

	/* Latency triggers: --trigger, --post, --windows. */
	struct fxt_trigger_set triggers;
	const char *trigger_spec[FXT_MAX_TRIGGERS];
	bool post_given;
	unsigned int windows;		/* to save; 0: as many as fire */
	unsigned int window;		/* the one being recorded, from 1 */
	char *window_path;		/* its archive, when not output */
	uint64_t trigger_missed;	/* over all windows */
	uint64_t deadline;		/* -t: the end of the run, or 0 */
	bool announced;			/* this window's firing was printed */

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
"Latency triggers (circular mode; implied when -m is not given):\n"
"      --trigger SPEC      save the window around a latency above a threshold;\n"
"                          SPEC is KIND=T[,comm=NAME][,pid=TID][,tgid=PID][,cpu=N]\n"
"                          KIND: wakeup-latency (wakeup to running; needs\n"
"                          the sched and wakeup categories), off-cpu (blocked\n"
"                          to running; sched), irq-duration (an interrupt or\n"
"                          softirq; irq or softirq, only the cpu= filter);\n"
"                          T: a number and a unit, ns, us, ms or s (10ms);\n"
"                          repeatable, up to 8; the first to fire counts\n"
"      --post T            keep recording this long after the firing\n"
"                          (default 100ms, at most 60s), then save\n"
"      --windows N         stop after N saved windows (default 1; 0: until\n"
"                          -t, COMMAND or a signal); window k > 1 goes to\n"
"                          FILE with -k before its extension (stall-2.fxt)\n"
"\n"
"Prints 'fxt-collect: tracing started' on stderr once the probes are live,\n"
"then (on a terminal) a status line, and at the end per-CPU statistics\n"
"(with triggers, 'missed': latencies not measured, the kernel's table full).\n"
"A trigger's firing and each saved window are one line each on stderr.\n"
"When tracing stops before COMMAND exits, COMMAND gets SIGTERM; -t,\n"
"COMMAND's exit or a signal also end a run with triggers, saving the\n"
"window in progress (whether or not a trigger fired in it).\n"
"The CPUs present at the start are traced, online or not; a CPU added\n"
"later is not, and a warning at the end says how many events it had.\n"
"Exit status: 0 when the archives were written, 1 on any error.\n");
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

enum { OPT_TRIGGER = 256, OPT_POST, OPT_WINDOWS };

static void add_trigger(struct collector *c, const char *spec)
{
	char err[256];

	if (c->triggers.count == FXT_MAX_TRIGGERS)
		die("--trigger %s: at most %d triggers", spec, FXT_MAX_TRIGGERS);
	if (fxt_parse_trigger(spec, &c->triggers.trigger[c->triggers.count], err,
			      sizeof(err)))
		die("--trigger %s: %s", spec, err);
	c->trigger_spec[c->triggers.count++] = spec;
}

/* Triggers need circular mode and the categories they measure. */
static void check_triggers(struct collector *c)
{
	uint32_t cats = fxt_categories_named(c->category_list), i;
	char err[256];

	if (!c->triggers.count) {
		if (c->post_given || c->windows != 1)
			die("--post and --windows need --trigger");
		return;
	}
	if (!c->mode_given)
		c->mode = FXT_MODE_CIRCULAR;
	else if (c->mode != FXT_MODE_CIRCULAR)
		die("--trigger needs circular mode (-m circular, or no -m)");
	for (i = 0; i < c->triggers.count; i++)
		if (fxt_trigger_check_categories(&c->triggers.trigger[i], cats, err,
						 sizeof(err)))
			die("--trigger %s: %s", c->trigger_spec[i], err);
}

static void parse_args(struct collector *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "trigger", required_argument, NULL, OPT_TRIGGER },
		{ "post", required_argument, NULL, OPT_POST },
		{ "windows", required_argument, NULL, OPT_WINDOWS },
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
	c->triggers.post_ns = POST_DEFAULT_NS;
	c->windows = 1;
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
			c->mode_given = true;
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
		case OPT_TRIGGER:
			add_trigger(c, optarg);
			break;
		case OPT_POST: {
			uint64_t ns;

			if (fxt_parse_duration(optarg, &ns) || ns > FXT_TRIGGER_POST_MAX)
				die("--post %s: not a duration of at most 60s (a number and a unit: ns, us, ms or s)",
				    optarg);
			c->triggers.post_ns = ns;
			c->post_given = true;
			break;
		}
		case OPT_WINDOWS: {
			char *end;
			unsigned long n;

			errno = 0;
			n = strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end || *optarg == '-' || n > 1000000)
				die("--windows %s: not a count (0: no limit)", optarg);
			c->windows = (unsigned int)n;
			break;
		}
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
	check_triggers(c);
}

/* The archive of the window being recorded. */
static const char *archive_path(const struct collector *c)
{
	return c->window_path ? c->window_path : c->output;
}

/* Open the window's archive and write its header. */
static void begin_archive(struct collector *c, struct fxt_newest *names)
{
	const char *path = archive_path(c);
	int ret;

	if (!names)
		warnx_("out of memory: no trailer of newest names");
	c->out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (c->out < 0)
		die("%s: %s", path, strerror(errno));
	ret = fxt_writer_init(&c->w, c->out);
	if (ret)
		die("writing %s: %s", path, strerror(-ret));
	check(c, fxt_device_begin_archive(&c->dev, &c->w, path, names));
}

/* Device initialized (triggers set) and mapped, archive begun: ready to start. */
static void prepare(struct collector *c, struct fxt_newest *names)
{
	struct fxt_config cfg = { .buffer_size = c->buffer_size, .mode = c->mode };

	check(c, fxt_device_open(&c->dev, c->device, "fxt-collect"));
	if (c->category_list)
		check(c, fxt_device_categories(&c->dev, c->category_list,
					       &cfg.categories));
	check(c, fxt_device_init(&c->dev, &cfg));
	if (c->triggers.count)
		check(c, fxt_device_set_triggers(&c->dev, &c->triggers));
	check(c, fxt_device_map(&c->dev));
	begin_archive(c, names);
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

/* The TRIGGERED packet, in words: which trigger, where, what it measured. */
static void announce_trigger(struct collector *c)
{
	const struct fxt_device_trigger *t = &c->dev.triggered;
	bool known = t->index < c->triggers.count;
	uint32_t kind = known ? c->triggers.trigger[t->index].kind : 0;
	char what[128];

	if (c->announced)
		return;
	c->announced = true;
	fxt_trigger_note(t, kind, what, sizeof(what));
	fprintf(stderr, "fxt-collect: trigger %u %s fired on CPU %u: %s; saving %.3f ms after it\n",
		t->index, known ? c->trigger_spec[t->index] : "(unknown)", t->cpu, what,
		(double)c->triggers.post_ns / 1e6);
}

enum trace_end {
	END_RUN,	/* -t, the command's exit or a signal: no more windows */
	END_WINDOW,	/* a trigger fired and --post has passed */
};

/*
 * Answer save requests until the time is up, the command exits or a
 * signal; or, with triggers, until --post after one fired.
 */
static enum trace_end trace(struct collector *c, bool tty)
{
	uint64_t last_ns, last_written = 0, save_at = 0;
	enum trace_end why = END_RUN;
	int ret;

	last_ns = fxt_monotonic_ns();
	while (!stop_requested) {
		struct pollfd pfd = { .fd = c->dev.fd, .events = POLLIN };
		uint64_t now = fxt_monotonic_ns();
		int timeout = 200;

		if (child_exited) {
			child_exited = 0;
			fxt_command_reap(&c->cmd);
			if (c->cmd.done)
				break;
		}
		if (c->deadline) {
			if (now >= c->deadline)
				break;
			if ((c->deadline - now) / 1000000 < (uint64_t)timeout)
				timeout = (int)((c->deadline - now) / 1000000) + 1;
		}
		if (save_at) {
			if (now >= save_at) {
				why = END_WINDOW;
				break;
			}
			if ((save_at - now) / 1000000 < (uint64_t)timeout)
				timeout = (int)((save_at - now) / 1000000) + 1;
		}
		ret = poll(&pfd, 1, timeout);
		if (ret < 0 && errno != EINTR)
			die("poll: %s", strerror(errno));
		if (ret > 0 && (pfd.revents & POLLIN))
			check(c, fxt_device_handle_packets(&c->dev));
		if (c->dev.triggered.fired && !save_at) {
			/* Every CPU stops writing post_ns after the firing. */
			save_at = c->dev.triggered.read_ns + c->triggers.post_ns +
				  POST_MARGIN_NS;
			if (tty)
				fputc('\n', stderr);
			announce_trigger(c);
		}
		if (tty)
			status_line(c, &last_ns, &last_written);
	}
	if (tty)
		fputc('\n', stderr);
	return why;
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
		die("writing %s: %s", archive_path(c), strerror(-ret));
	*archive_bytes = fxt_writer_bytes(&c->w);
	fxt_writer_destroy(&c->w);
	if (close(c->out))
		die("closing %s: %s", archive_path(c), strerror(errno));
	c->out = -1;
	return renamed;
}

/* With triggers: one line per window saved, and its missed latencies counted. */
static void window_saved(struct collector *c, uint64_t archive_bytes)
{
	uint32_t cpu;

	if (!c->triggers.count)
		return;
	/* The packet may have come with the stop (read by the drain). */
	if (c->dev.triggered.fired)
		announce_trigger(c);
	for (cpu = 0; cpu < c->dev.layout.nr_cpus; cpu++) {
		struct fxt_cpu_stats st;

		if (!fxt_device_cpu_possible(&c->dev, cpu))
			continue;
		check(c, fxt_device_cpu_stats(&c->dev, cpu, &st));
		c->trigger_missed += st.trigger_missed;
	}
	fprintf(stderr, "fxt-collect: window %u saved to %s (%" PRIu64 " bytes)%s\n",
		c->window, archive_path(c), archive_bytes,
		c->dev.triggered.fired ? "" : ": no trigger fired in this window");
}

/* -t is up, the command exited or a signal came: no other window. */
static bool run_ended(struct collector *c)
{
	if (child_exited) {
		child_exited = 0;
		fxt_command_reap(&c->cmd);
	}
	return stop_requested || c->cmd.done ||
	       (c->deadline && fxt_monotonic_ns() >= c->deadline);
}

/* The next window: its own archive, the buffers emptied, the triggers armed again. */
static void next_window(struct collector *c, struct fxt_newest **names)
{
	c->announced = false;
	fxt_newest_free(*names);
	*names = fxt_newest_new(NEWEST_MAX_KOIDS);
	free(c->window_path);
	c->window_path = fxt_window_path(c->output, ++c->window);
	if (!c->window_path)
		die("out of memory");
	begin_archive(c, *names);
	check(c, fxt_device_start(&c->dev, FXT_START_CLEAR_ENTIRE));
	fprintf(stderr, "fxt-collect: window %u: tracing into %s\n", c->window,
		c->window_path);
}

static void report(struct collector *c, uint64_t archive_bytes, int renamed)
{
	struct fxt_device_totals t;

	fxt_device_totals(&c->dev, &t);
	if (!c->quiet) {
		check(c, fxt_stats_table(&c->dev, c->triggers.count > 0, stderr));
		fprintf(stderr, "fxt-collect: %s: %" PRIu64 " bytes, %" PRIu64
			" records (%" PRIu64 " events, %" PRIu64 " durable), %" PRIu64
			" dropped, %" PRIu64 " buffers saved\n",
			archive_path(c), archive_bytes, t.written, t.events,
			t.written - t.events, t.dropped, c->dev.saves);
		if (renamed > 0)
			fprintf(stderr, "fxt-collect: %d newest names of %zu koids restated at the end\n",
				renamed, fxt_newest_koids(c->dev.names));
	}
	if (t.dropped)
		warnx_("%" PRIu64 " records were dropped (see the fxt/dropped counters)",
		       t.dropped);
	if (c->trigger_missed)
		warnx_("%" PRIu64 " latencies were not measured (the kernel's table of pending ones was full): a trigger may have missed them",
		       c->trigger_missed);
	fxt_device_warn_untraced(&c->dev);
}

int main(int argc, char **argv)
{
	struct collector c = { .out = -1, .cmd.go_fd = -1 };
	struct fxt_newest *names;
	bool tty;
	uint64_t archive_bytes;
	int renamed;

	parse_args(&c, argc, argv);
	c.command = optind < argc ? argv + optind : NULL;
	names = fxt_newest_new(NEWEST_MAX_KOIDS);
	c.window = 1;
	prepare(&c, names);
	catch_signals();
	start(&c);
	if (c.seconds > 0)
		c.deadline = fxt_monotonic_ns() + (uint64_t)(c.seconds * 1e9);
	tty = isatty(STDERR_FILENO) && !c.quiet;
	for (;;) {
		enum trace_end why = trace(&c, tty);

		renamed = finish(&c, &archive_bytes);
		window_saved(&c, archive_bytes);
		if (why == END_RUN || c.window == c.windows || run_ended(&c))
			break;
		next_window(&c, &names);
	}
	report(&c, archive_bytes, renamed);
	fxt_newest_free(names);
	free(c.window_path);
	if (fxt_device_close(&c.dev))
		warnx_("%s", c.dev.err);
	fxt_command_end(&c.cmd);
	if (c.cmd.done && WIFEXITED(c.cmd.status) && WEXITSTATUS(c.cmd.status))
		fprintf(stderr, "fxt-collect: command exited with status %d\n",
			WEXITSTATUS(c.cmd.status));
	return c.dev.truncated_chunk ? 1 : 0;
}
