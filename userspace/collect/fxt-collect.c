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
 * The device is lib/device.c; the run, its trigger windows and their
 * archives collect/session.c; the statistics collect/session_report.c. Here are
 * the options (collect/options.c parses the values), signals, the status line
 * and the calls.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/fxt.h>
#include "config_file.h"
#include "options.h"
#include "session.h"
#include "stats_table.h"
#include "window_dir.h"
#include "libfxt.h"

#define STATUS_INTERVAL_NS	1000000000ull

struct collector {
	struct fxt_session s;
	bool quiet;
	const char *stats_json;		/* --stats-json FILE, or NULL */
	bool mode_given;
	bool post_given;
	bool windows_given;
	bool in_config;			/* reading a --config file */
	bool tty;			/* the status line is drawn */
	uint64_t last_ns, last_written;	/* when it was last, and the records then */
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

/*
 * fxt-collect's own failure, kept apart from any status COMMAND can give
 * through it (as timeout(1) and env(1) use 125).
 */
#define EXIT_FAILED	125

/* "PATH:LINE" of the --config setting being applied, else NULL. */
static const char *die_where;

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fxt-collect: ");
	if (die_where)
		fprintf(stderr, "%s: ", die_where);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_FAILED);
}

/* The library's errors are negative errnos with a message in dev.err. */
static void check(struct collector *c, int ret)
{
	if (ret < 0)
		die("%s", c->s.dev.err);
}

static void usage(FILE *f)
{
	fprintf(f,
"Usage: fxt-collect -o FILE [options] [-- COMMAND [ARGS...]]\n"
"       fxt-collect --output-dir DIR --trigger SPEC [options]   (flight recorder)\n"
"       fxt-collect --config FILE [options]\n"
"\n"
"Record the scheduler (context switches, wakeups, interrupts, thread names)\n"
"with fxt.ko into FILE, a Fuchsia Trace Format archive that Perfetto opens.\n"
"Tracing stops after -t SECONDS, when COMMAND exits, or on SIGINT/SIGTERM,\n"
"whichever comes first. Needs root (or CAP_PERFMON) and the module loaded.\n"
"\n"
"Options:\n"
"  -o, --output FILE       archive to write (this or --output-dir required)\n"
"  -t, --time SECONDS      stop after this long (fractions allowed)\n"
"  -m, --mode MODE         oneshot | circular | streaming\n"
"                          (default: streaming; circular keeps the last\n"
"                          window and is saved only when tracing stops,\n"
"                          from where every CPU's records begin)\n"
"      --window-start WHERE  circular mode: common (default) starts the\n"
"                          archive where every CPU's records begin, and\n"
"                          leaves out the others' from before; per-cpu\n"
"                          keeps each CPU's whole window, where viewers\n"
"                          may draw waits across runs on a CPU whose\n"
"                          records were overwritten\n"
"  -b, --buffer-size SIZE  per-CPU buffer, e.g. 8M (default 8M; K, M, G)\n"
"  -c, --categories LIST   comma-separated: sched,wakeup,irq,softirq,power\n"
"                          or all (default: all but power, the CPUs' idle\n"
"                          states and frequency)\n"
"  -d, --device PATH       device node (default " FXT_DEVICE_PATH ")\n"
"  -q, --quiet             no status line and no statistics table\n"
"      --stats-json FILE   also write the per-CPU statistics to FILE as\n"
"                          JSON (one CPU a line; -q does not change it)\n"
"      --config FILE       read settings from FILE, where it stands among the\n"
"                          options: lines of 'key = value', each key a long\n"
"                          option with a value ('trigger = off-cpu=50ms');\n"
"                          '#' starts a comment line; any bad line refuses\n"
"                          the whole run, naming FILE:LINE and the reason\n"
"  -h, --help              this text\n"
"\n"
"Latency triggers (circular mode; implied when -m is not given):\n"
"      --trigger SPEC      save the window around a latency above a threshold;\n"
"                          SPEC is KIND=T[,comm=NAME][,pid=TID][,tgid=PID]\n"
"                          [,uid=USER][,cpu=N] (all given must match; comm\n"
"                          can be set by anyone, uid, pid and tgid cannot)\n"
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
"Flight recorder (instead of -o; Documentation/usage.rst, fxt-recorder.service):\n"
"      --output-dir DIR    save each window in DIR as fxt-TIME.fxt (TIME: UTC,\n"
"                          when saved, 20261127T171744.377Z); it is written\n"
"                          to DIR/" FXT_WINDOW_TMP_NAME " and renamed when complete,\n"
"                          so a crash never leaves a part archive under a\n"
"                          saved name (a left one is removed at the start);\n"
"                          (created if missing, one level, mode 0750);\n"
"                          --windows defaults to 0 (until stopped); a full\n"
"                          disk loses that window, said once, and goes on\n"
"      --keep-windows N    keep at most N windows in DIR (default 0: any)\n"
"      --keep-bytes SIZE   keep at most SIZE bytes of them (default 0: any);\n"
"                          the oldest go first, the newest always stays\n"
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
"Exit status: with COMMAND, once the archives are written, COMMAND's: its\n"
"exit status, 128+N if signal N ended it (SIGTERM: 143 when tracing ended\n"
"first), 127 if it was not found, 126 if it could not be run. Without\n"
"COMMAND, 0 when the archives were written. 125 on any error of\n"
"fxt-collect's own (bad usage, the device, the archive), with or without.\n");
}

/* The session's hook: the status line on a terminal, ended before a line. */
static void status_line(struct fxt_session *s, enum fxt_session_event ev)
{
	struct collector *c = (struct collector *)s;	/* its first member */
	uint64_t now = fxt_monotonic_ns();
	struct fxt_device_totals t;
	double rate;

	if (!c->tty)
		return;
	if (ev == FXT_SESSION_BEGIN) {
		c->last_ns = now;
		c->last_written = 0;
		return;
	}
	if (ev != FXT_SESSION_TICK) {
		fputc('\n', stderr);
		return;
	}
	if (now - c->last_ns < STATUS_INTERVAL_NS)
		return;
	fxt_device_totals(&s->dev, &t);
	rate = (double)(t.written - c->last_written) * 1e9 / (double)(now - c->last_ns);
	fprintf(stderr, "\r%10.0f events/s  %9.1f MB written  %" PRIu64 " dropped   ",
		rate, (double)fxt_writer_bytes(&s->w) / 1e6, t.dropped);
	c->last_ns = now;
	c->last_written = t.written;
}

enum {
	OPT_TRIGGER = 256, OPT_POST, OPT_WINDOWS, OPT_STATS_JSON, OPT_CONFIG,
	OPT_OUTPUT_DIR, OPT_KEEP_WINDOWS, OPT_KEEP_BYTES, OPT_WINDOW_START,
};

static const struct option long_opts[] = {
	{ "trigger", required_argument, NULL, OPT_TRIGGER },
	{ "post", required_argument, NULL, OPT_POST },
	{ "windows", required_argument, NULL, OPT_WINDOWS },
	{ "output", required_argument, NULL, 'o' },
	{ "output-dir", required_argument, NULL, OPT_OUTPUT_DIR },
	{ "keep-windows", required_argument, NULL, OPT_KEEP_WINDOWS },
	{ "keep-bytes", required_argument, NULL, OPT_KEEP_BYTES },
	{ "window-start", required_argument, NULL, OPT_WINDOW_START },
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "time", required_argument, NULL, 't' },
	{ "mode", required_argument, NULL, 'm' },
	{ "buffer-size", required_argument, NULL, 'b' },
	{ "categories", required_argument, NULL, 'c' },
	{ "device", required_argument, NULL, 'd' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "stats-json", required_argument, NULL, OPT_STATS_JSON },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void add_trigger(struct collector *c, const char *spec)
{
	char err[256];

	if (c->s.triggers.count == FXT_MAX_TRIGGERS)
		die("--trigger %s: at most %d triggers", spec, FXT_MAX_TRIGGERS);
	if (fxt_parse_trigger(spec, &c->s.triggers.trigger[c->s.triggers.count], err,
			      sizeof(err)))
		die("--trigger %s: %s", spec, err);
	c->s.trigger_spec[c->s.triggers.count++] = spec;
}

/* Triggers need circular mode and the categories they measure. */
static void check_triggers(struct collector *c)
{
	uint32_t cats = fxt_categories_named(c->s.category_list), i;
	char err[256];

	if (!c->s.triggers.count) {
		if (c->post_given || (c->windows_given && c->s.windows != 1))
			die("--post and --windows need --trigger");
		return;
	}
	if (!c->mode_given)
		c->s.mode = FXT_MODE_CIRCULAR;
	else if (c->s.mode != FXT_MODE_CIRCULAR)
		die("--trigger needs circular mode (-m circular, or no -m)");
	for (i = 0; i < c->s.triggers.count; i++)
		if (fxt_trigger_check_categories(&c->s.triggers.trigger[i], cats, err,
						 sizeof(err)))
			die("--trigger %s: %s", c->s.trigger_spec[i], err);
}

/* Where a circular window starts means nothing in the other modes. */
static void check_window_start(const struct collector *c)
{
	if (c->s.per_cpu_window_start && c->s.mode != FXT_MODE_CIRCULAR)
		die("--window-start per-cpu needs circular mode");
}

/* A count option's value: 0 up to max. */
static unsigned long count_arg(const char *opt, const char *arg, unsigned long max,
			       const char *what)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || *arg == '-' || n > max)
		die("--%s %s: %s", opt, arg, what);
	return n;
}

static void read_config(struct collector *c, const char *path);

/* One option, from the command line or a --config line. */
static void apply_option(struct collector *c, int opt, char *arg)
{
	switch (opt) {
	case 'o':
		c->s.output = arg;
		break;
	case 't': {
		char *end;

		c->s.seconds = strtod(arg, &end);
		if (end == arg || *end || c->s.seconds <= 0)
			die("bad duration '%s'", arg);
		break;
	}
	case 'm':
		if (fxt_parse_mode(arg) < 0)
			die("unknown mode '%s' (oneshot, circular or streaming)", arg);
		c->s.mode = (uint32_t)fxt_parse_mode(arg);
		c->mode_given = true;
		break;
	case 'b':
		if (fxt_parse_size(arg, &c->s.buffer_size))
			die("bad size '%s'", arg);
		break;
	case 'c':
		/* Resolved against the module's names once it is open. */
		c->s.category_list = arg;
		break;
	case 'd':
		c->s.device = arg;
		break;
	case 'q':
		c->quiet = true;
		break;
	case OPT_STATS_JSON:
		c->stats_json = arg;
		break;
	case OPT_WINDOW_START:
		if (strcmp(arg, "common") && strcmp(arg, "per-cpu"))
			die("--window-start: 'common' or 'per-cpu', not '%s'", arg);
		c->s.per_cpu_window_start = !strcmp(arg, "per-cpu");
		break;
	case OPT_TRIGGER:
		add_trigger(c, arg);
		break;
	case OPT_POST: {
		uint64_t ns;

		if (fxt_parse_duration(arg, &ns) || ns > FXT_TRIGGER_POST_MAX)
			die("--post %s: not a duration of at most 60s (a number and a unit: ns, us, ms or s)",
			    arg);
		c->s.triggers.post_ns = ns;
		c->post_given = true;
		break;
	}
	case OPT_WINDOWS:
		c->s.windows = (unsigned int)count_arg("windows", arg, 1000000,
						       "not a count (0: no limit)");
		c->windows_given = true;
		break;
	case OPT_OUTPUT_DIR:
		c->s.output_dir = arg;
		break;
	case OPT_KEEP_WINDOWS:
		c->s.keep_windows = (unsigned int)count_arg("keep-windows", arg, 1000000,
							    "not a count (0: no limit)");
		break;
	case OPT_KEEP_BYTES:
		if (!strcmp(arg, "0"))
			c->s.keep_bytes = 0;
		else if (fxt_parse_size(arg, &c->s.keep_bytes))
			die("--keep-bytes %s: not a size (e.g. 500M; 0: no limit)", arg);
		break;
	case OPT_CONFIG:
		read_config(c, arg);
		break;
	case 'h':
		usage(stdout);
		exit(0);
	default:
		usage(stderr);
		exit(EXIT_FAILED);
	}
}

/* A --config setting: "key = value", the key a long option's name. */
static int config_setting(void *ctx, const char *where, const char *key,
			  const char *value, char *err, size_t errlen)
{
	const struct option *o;
	char *arg;

	for (o = long_opts; o->name; o++)
		if (!strcmp(o->name, key))
			break;
	if (!o->name || o->has_arg != required_argument || o->val == OPT_CONFIG) {
		snprintf(err, errlen, "not a setting (a long option of fxt-collect with a value, but config)");
		return -1;
	}
	/* The options keep pointers to their values, as to argv's. */
	arg = strdup(value);
	if (!arg) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	die_where = where;
	apply_option(ctx, o->val, arg);
	die_where = NULL;
	return 0;
}

static void read_config(struct collector *c, const char *path)
{
	char err[1024];

	if (c->in_config)
		die("--config %s: a config file cannot read another", path);
	c->in_config = true;
	if (fxt_config_file_read(path, config_setting, c, err, sizeof(err)))
		die("%s", err);
	c->in_config = false;
}

static void check_output(struct collector *c)
{
	if (c->s.output && c->s.output_dir)
		die("-o and --output-dir: one or the other");
	if (!c->s.output && !c->s.output_dir) {
		fprintf(stderr, "fxt-collect: -o FILE (or --output-dir DIR) is required\n");
		usage(stderr);
		exit(EXIT_FAILED);
	}
	if (!c->s.output_dir) {
		if (c->s.keep_windows || c->s.keep_bytes)
			die("--keep-windows and --keep-bytes need --output-dir");
		return;
	}
	/* A recorder keeps saving windows until it is stopped. */
	if (!c->windows_given)
		c->s.windows = 0;
}

static void parse_args(struct collector *c, int argc, char **argv)
{
	int opt;

	while ((opt = getopt_long(argc, argv, "+o:t:m:b:c:d:qh", long_opts, NULL)) != -1)
		apply_option(c, opt, optarg);
	check_output(c);
	check_triggers(c);
	check_window_start(c);
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

/* COMMAND's status as a shell gives it, said on stderr when not 0. */
static int command_status(const struct fxt_command *cmd)
{
	int st = cmd->status;

	if (!cmd->done) {
		fprintf(stderr, "fxt-collect: the command's status is lost\n");
		return EXIT_FAILED;
	}
	if (WIFSIGNALED(st)) {
		fprintf(stderr, "fxt-collect: command killed by signal %d (%s)\n",
			WTERMSIG(st), strsignal(WTERMSIG(st)));
		return 128 + WTERMSIG(st);
	}
	if (WEXITSTATUS(st))
		fprintf(stderr, "fxt-collect: command exited with status %d\n",
			WEXITSTATUS(st));
	return WEXITSTATUS(st);
}

int main(int argc, char **argv)
{
	struct collector c = { 0 };
	struct fxt_session *s = &c.s;

	fxt_session_init(s, "fxt-collect");
	s->stop_requested = &stop_requested;
	s->child_exited = &child_exited;
	s->status = status_line;
	parse_args(&c, argc, argv);
	s->command = optind < argc ? argv + optind : NULL;
	check(&c, fxt_session_prepare(s));
	catch_signals();
	check(&c, fxt_session_start(s));
	c.tty = isatty(STDERR_FILENO) && !c.quiet;
	check(&c, fxt_session_run(s));
	check(&c, fxt_session_report(s, c.quiet));
	if (c.stats_json)
		check(&c, fxt_stats_json(&s->dev, c.stats_json));
	if (fxt_session_close(s))
		fprintf(stderr, "fxt-collect: warning: %s\n", s->dev.err);
	fxt_command_end(&s->cmd);
	if (s->dev.truncated_chunk)
		return EXIT_FAILED;
	return s->command ? command_status(&s->cmd) : 0;
}
