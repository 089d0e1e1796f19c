// SPDX-License-Identifier: MIT
/*
 * session.c - one recording run of fxt-collect over lib/device.c: prepare
 * the device and the archive, start (the command released once tracing
 * runs), answer the packets until the run ends or a trigger's window is
 * over, then stop, drain, save what is left and the trailer.
 *
 * With latency triggers (circular mode), the run is a series of windows:
 * the first firing after a START makes the kernel post TRIGGERED and stop
 * writing --post later; the session waits that long (and a margin),
 * stops, saves the window as at the end of any circular session, and
 * starts again into the next archive ("-k" before the extension), up to
 * --windows of them.
 *
 * With an output directory (the flight recorder), each window is written
 * to a temporary name there and renamed once complete (window_dir.c); a
 * full disk loses that window, says so once, and the recording goes on.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "options.h"
#include "session.h"
#include "trigger_note.h"
#include "window_dir.h"

static volatile sig_atomic_t never;

void fxt_session_init(struct fxt_session *s, const char *prog)
{
	memset(s, 0, sizeof(*s));
	s->prog = prog;
	s->device = FXT_DEVICE_PATH;
	s->mode = FXT_MODE_STREAMING;
	s->buffer_size = FXT_BUFFER_SIZE_DEFAULT;
	s->triggers.post_ns = FXT_SESSION_POST_DEFAULT_NS;
	s->windows = 1;
	s->stop_requested = &never;
	s->child_exited = &never;
	s->window = 1;
	s->out = -1;
	s->cmd.go_fd = -1;
}

const char *fxt_session_path(const struct fxt_session *s)
{
	return s->window_path ? s->window_path : s->output;
}

static void tell(struct fxt_session *s, enum fxt_session_event ev)
{
	if (s->status)
		s->status(s, ev);
}

/* Open the window's archive and write its header. */
static bool disk_full(const struct fxt_session *s, int err)
{
	return s->output_dir && (err == -ENOSPC || err == -EDQUOT);
}

/*
 * The recorder's disk is full: the window being written is lost (its
 * temporary archive removed), and the recording goes on. Said once until a
 * window is saved again, not once a window.
 */
static void window_lost(struct fxt_session *s)
{
	if (s->out >= 0) {
		fxt_writer_destroy(&s->w);
		close(s->out);
		s->out = -1;
	}
	unlink(fxt_session_path(s));
	s->windows_lost++;
	if (!s->disk_full_said)
		fprintf(stderr, "%s: window %u not saved: %s (said once until a window is saved again)\n",
			s->prog, s->window, s->dev.err);
	s->disk_full_said = true;
}

static int open_archive(struct fxt_session *s, const char *path)
{
	int ret;

	s->out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (s->out < 0)
		return fxt_device_fail(&s->dev, -errno, "%s: %s", path, strerror(errno));
	ret = fxt_writer_init(&s->w, s->out);
	if (ret)
		return fxt_device_fail(&s->dev, ret, "writing %s: %s", path, strerror(-ret));
	return fxt_device_begin_archive(&s->dev, &s->w, path, s->names);
}

/*
 * Open the window's archive and write its header. The recorder on a full
 * disk records the window all the same, into /dev/null: the device runs
 * as always, and the next window tries the disk again.
 */
static int begin_archive(struct fxt_session *s)
{
	int ret;

	if (!s->names)
		fxt_device_warn(&s->dev, "out of memory: no trailer of newest names");
	s->discarding = false;
	ret = open_archive(s, fxt_session_path(s));
	if (ret >= 0 || !disk_full(s, ret))
		return ret;
	window_lost(s);
	s->discarding = true;
	return open_archive(s, "/dev/null");
}

/* The recorder's directory: a window a killed run left is no archive. */
static int prepare_dir(struct fxt_session *s)
{
	char msg[512];
	int ret;

	/* Created as systemd's StateDirectory= would: one level, 0750. */
	if (mkdir(s->output_dir, 0750) && errno != EEXIST)
		return fxt_device_fail(&s->dev, -errno, "--output-dir %s: %s", s->output_dir,
				       strerror(errno));
	ret = fxt_window_dir_clean(s->output_dir, msg, sizeof(msg));

	if (ret < 0)
		return fxt_device_fail(&s->dev, ret, "%s", msg);
	if (ret)
		fprintf(stderr, "%s: removed %s/%s, a window an earlier run did not finish\n",
			s->prog, s->output_dir, FXT_WINDOW_TMP_NAME);
	s->window_path = fxt_window_dir_tmp(s->output_dir);
	if (!s->window_path)
		return fxt_device_fail(&s->dev, -ENOMEM, "out of memory");
	return 0;
}

int fxt_session_prepare(struct fxt_session *s)
{
	struct fxt_config cfg = { .buffer_size = s->buffer_size, .mode = s->mode };
	int ret;

	if (s->output_dir) {
		ret = prepare_dir(s);
		if (ret < 0)
			return ret;
	}

	s->names = fxt_newest_new(FXT_SESSION_NEWEST_MAX_KOIDS);
	ret = fxt_device_open(&s->dev, s->device, s->prog);
	s->dev.per_cpu_window_start = s->per_cpu_window_start;
	if (ret >= 0 && s->category_list)
		ret = fxt_device_categories(&s->dev, s->category_list, &cfg.categories);
	if (ret >= 0)
		ret = fxt_device_init(&s->dev, &cfg);
	if (ret >= 0 && s->triggers.count)
		ret = fxt_device_set_triggers(&s->dev, &s->triggers);
	if (ret >= 0)
		ret = fxt_device_map(&s->dev);
	return ret < 0 ? ret : begin_archive(s);
}

int fxt_session_start(struct fxt_session *s)
{
	const char *failed;
	int ret;

	if (s->command) {
		ret = fxt_command_spawn(&s->cmd, s->command, s->prog, &failed);
		if (ret)
			return fxt_device_fail(&s->dev, ret, "%s: %s", failed, strerror(-ret));
	}
	ret = fxt_device_start(&s->dev, FXT_START_CLEAR_ENTIRE);
	if (ret) {
		if (s->cmd.pid > 0)
			kill(s->cmd.pid, SIGKILL);
		return ret;
	}
	fprintf(stderr, "%s: tracing started\n", s->prog);
	ret = fxt_command_release(&s->cmd);
	if (ret)
		fxt_device_warn(&s->dev, "could not release the command: %s", strerror(-ret));
	if (s->seconds > 0)
		s->deadline = fxt_monotonic_ns() + (uint64_t)(s->seconds * 1e9);
	return 0;
}

/* The TRIGGERED packet, in words: which trigger, where, what it measured. */
static void announce_trigger(struct fxt_session *s)
{
	const struct fxt_device_trigger *t = &s->dev.triggered;
	bool known = t->index < s->triggers.count;
	char what[128];

	if (s->announced)
		return;
	s->announced = true;
	fxt_trigger_note(t, known ? s->triggers.trigger[t->index].kind : 0, what,
			 sizeof(what));
	fprintf(stderr, "%s: trigger %u %s fired on CPU %u: %s; saving %.3f ms after it\n",
		s->prog, t->index, known ? s->trigger_spec[t->index] : "(unknown)",
		t->cpu, what, (double)s->triggers.post_ns / 1e6);
}

/* Shorten *timeout (ms) to reach the time at, from now. */
static void wake_by(uint64_t at, uint64_t now, int *timeout)
{
	if ((at - now) / 1000000 < (uint64_t)*timeout)
		*timeout = (int)((at - now) / 1000000) + 1;
}

int fxt_session_trace(struct fxt_session *s)
{
	uint64_t save_at = 0;
	int why = FXT_SESSION_END_RUN, ret;

	tell(s, FXT_SESSION_BEGIN);
	while (!*s->stop_requested) {
		struct pollfd pfd = { .fd = s->dev.fd, .events = POLLIN };
		uint64_t now = fxt_monotonic_ns();
		int timeout = 200;

		if (*s->child_exited) {
			*s->child_exited = 0;
			fxt_command_reap(&s->cmd);
			if (s->cmd.done)
				break;
		}
		if (s->deadline) {
			if (now >= s->deadline)
				break;
			wake_by(s->deadline, now, &timeout);
		}
		if (save_at) {
			if (now >= save_at) {
				why = FXT_SESSION_END_WINDOW;
				break;
			}
			wake_by(save_at, now, &timeout);
		}
		ret = poll(&pfd, 1, timeout);
		if (ret < 0 && errno != EINTR)
			return fxt_device_fail(&s->dev, -errno, "poll: %s", strerror(errno));
		if (ret > 0 && (pfd.revents & POLLIN)) {
			ret = fxt_device_handle_packets(&s->dev);
			if (ret < 0)
				return ret;
		}
		if (s->dev.triggered.fired && !save_at) {
			/* Every CPU stops writing post_ns after the firing. */
			save_at = s->dev.triggered.read_ns + s->triggers.post_ns +
				  FXT_SESSION_POST_MARGIN_NS;
			tell(s, FXT_SESSION_LINE);
			announce_trigger(s);
		}
		tell(s, FXT_SESSION_TICK);
	}
	tell(s, FXT_SESSION_DONE);
	return why;
}

static void retention_removed(void *ctx, const char *path, uint64_t bytes)
{
	struct fxt_session *s = ctx;

	fprintf(stderr, "%s: removed %s (%" PRIu64 " bytes): over --keep-windows %u or --keep-bytes %" PRIu64 "\n",
		s->prog, path, bytes, s->keep_windows, s->keep_bytes);
}

/* The recorder's window is complete: give it its name, keep the limits. */
static int window_named(struct fxt_session *s)
{
	char msg[1024], *path = fxt_window_dir_save(s->output_dir, msg, sizeof(msg));

	if (!path)
		return fxt_device_fail(&s->dev, -errno, "%s", msg);
	free(s->window_path);
	s->window_path = path;
	s->disk_full_said = false;
	return 0;
}

/* The oldest windows go first past the limits; the one just saved stays. */
static void keep_limits(struct fxt_session *s)
{
	char msg[1024];

	if (fxt_window_dir_prune(s->output_dir, s->keep_windows, s->keep_bytes,
				 retention_removed, s, msg, sizeof(msg)) < 0)
		fxt_device_warn(&s->dev, "retention: %s", msg);
}

/* With triggers: one line per window saved, and its missed latencies counted. */
static int window_saved(struct fxt_session *s)
{
	uint32_t cpu;
	int ret;

	if (s->discarding)
		return 0;	/* said by window_lost() */
	if (s->output_dir) {
		ret = window_named(s);
		if (ret < 0)
			return ret;
	}
	if (!s->triggers.count && !s->output_dir)
		return 0;
	/* The packet may have come with the stop (read by the drain). */
	if (s->dev.triggered.fired)
		announce_trigger(s);
	for (cpu = 0; cpu < s->dev.layout.nr_cpus; cpu++) {
		struct fxt_cpu_stats st;

		if (!fxt_device_cpu_possible(&s->dev, cpu))
			continue;
		ret = fxt_device_cpu_stats(&s->dev, cpu, &st);
		if (ret < 0)
			return ret;
		s->trigger_missed += st.trigger_missed;
	}
	fprintf(stderr, "%s: window %u saved to %s (%" PRIu64 " bytes)%s", s->prog,
		s->window, fxt_session_path(s), s->archive_bytes,
		s->dev.triggered.fired ? "" : ": no trigger fired in this window");
	if (s->dev.clipped)
		fprintf(stderr, "; %" PRIu64 " timed records from before every CPU's records began left out",
			s->dev.clipped);
	fputc('\n', stderr);
	if (s->output_dir)
		keep_limits(s);
	return 0;
}

int fxt_session_finish(struct fxt_session *s)
{
	const char *path = fxt_session_path(s);
	int ret;

	ret = fxt_device_stop(&s->dev, FXT_STOP_WRITE_RESULTS);
	if (ret >= 0)
		ret = fxt_device_drain(&s->dev);
	if (ret >= 0)
		ret = fxt_device_save_final(&s->dev);
	if (ret >= 0)
		ret = fxt_device_write_trailer(&s->dev);
	if (ret < 0)
		return ret;
	s->renamed = ret;
	if (s->names && fxt_newest_untracked(s->names))
		fxt_device_warn(&s->dev, "%llu name records were not tracked (limit of %u koids, or not fxt.ko's): their koids may show an older name",
				(unsigned long long)fxt_newest_untracked(s->names),
				FXT_SESSION_NEWEST_MAX_KOIDS);
	ret = fxt_writer_flush(&s->w);
	if (!ret && fsync(s->out) && errno != EINVAL)
		ret = -errno;
	if (ret)
		return fxt_device_fail(&s->dev, ret, "writing %s: %s", path, strerror(-ret));
	s->archive_bytes = fxt_writer_bytes(&s->w);
	fxt_writer_destroy(&s->w);
	ret = close(s->out);
	s->out = -1;
	if (ret)
		return fxt_device_fail(&s->dev, -errno, "closing %s: %s", path, strerror(errno));
	return window_saved(s);
}

bool fxt_session_run_ended(struct fxt_session *s)
{
	if (*s->child_exited) {
		*s->child_exited = 0;
		fxt_command_reap(&s->cmd);
	}
	return *s->stop_requested || s->cmd.done ||
	       (s->deadline && fxt_monotonic_ns() >= s->deadline);
}

int fxt_session_next_window(struct fxt_session *s)
{
	int ret;

	s->announced = false;
	fxt_newest_free(s->names);
	s->names = fxt_newest_new(FXT_SESSION_NEWEST_MAX_KOIDS);
	free(s->window_path);
	++s->window;
	s->window_path = s->output_dir ? fxt_window_dir_tmp(s->output_dir) :
					 fxt_window_path(s->output, s->window);
	if (!s->window_path)
		return fxt_device_fail(&s->dev, -ENOMEM, "out of memory");
	ret = begin_archive(s);
	if (ret >= 0)
		ret = fxt_device_start(&s->dev, FXT_START_CLEAR_ENTIRE);
	if (ret < 0)
		return ret;
	/* The recorder's windows are named when saved. */
	if (!s->output_dir)
		fprintf(stderr, "%s: window %u: tracing into %s\n", s->prog, s->window,
			s->window_path);
	return 0;
}

int fxt_session_run(struct fxt_session *s)
{
	for (;;) {
		int why = fxt_session_trace(s), ret;

		if (why < 0)
			return why;
		ret = fxt_session_finish(s);
		if (ret < 0 && !s->discarding && disk_full(s, ret))
			window_lost(s);
		else if (ret < 0)
			return ret;
		if (why == FXT_SESSION_END_RUN || s->window == s->windows ||
		    fxt_session_run_ended(s))
			return 0;
		ret = fxt_session_next_window(s);
		if (ret < 0)
			return ret;
	}
}

int fxt_session_close(struct fxt_session *s)
{
	fxt_newest_free(s->names);
	s->names = NULL;
	free(s->window_path);
	s->window_path = NULL;
	return fxt_device_close(&s->dev);
}
