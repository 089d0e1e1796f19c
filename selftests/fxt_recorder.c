// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_recorder - the flight recorder service's logic, by the command
 * fxt-recorder.service runs (fxt-collect --quiet --config FILE), without
 * systemd (Documentation/usage.rst, "The flight recorder service"):
 *
 *   windows_named_and_kept: a victim that blocks 80 ms at a time fires
 *     off-cpu=30ms,pid=VICTIM; every window is saved under its time in
 *     the directory, complete (fxt-dump --check), and keep-windows = 2
 *     leaves the newest two; SIGTERM (systemd's stop) exits 0, saving the
 *     window in progress if there is one (killed_then_restarted checks
 *     that one is).
 *   killed_then_restarted: SIGKILL while a window is written leaves the
 *     saved windows and the temporary one only; the same command started
 *     again (systemd's Restart=) removes it, says so, and records on.
 *   disk_full_said_once: the directory, a tmpfs, fills up while the
 *     recorder runs: the window being written and every later one are
 *     lost, the collector says so once, records on, and exits 0 at
 *     SIGTERM leaving nothing behind.
 *
 * Environment: FXT_COLLECT, FXT_DUMP (tool paths), FXT_SELFTEST_TMP.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "child.h"
#include "collector.h"
#include "dump.h"
#include "env.h"
#include "kselftest_harness.h"

#define WINDOW_TMP	".fxt-window.tmp"

/* A process that blocks 80 ms at a time until killed. */
static pid_t victim_start(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		struct timespec t = { 0, 80 * 1000000L };

		for (;;)
			nanosleep(&t, NULL);
	}
	return pid;
}

static void victim_stop(pid_t pid)
{
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
}

/* Lines of log that contain needle. */
static int log_count(const char *log, const char *needle)
{
	char line[1024];
	int n = 0;
	FILE *f = fopen(log, "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		n += strstr(line, needle) != NULL;
	fclose(f);
	return n;
}

/* Wait up to timeout s for count lines with needle while pid runs. */
static bool wait_count(pid_t pid, const char *log, const char *needle, int count,
		       double timeout)
{
	double end = env_now() + timeout;

	while (env_now() < end) {
		if (log_count(log, needle) >= count)
			return true;
		if (waitpid(pid, NULL, WNOHANG) == pid)
			return false;
		usleep(50000);
	}
	return false;
}

/* Saved windows in dir, each checked by fxt-dump --check; -1 if one fails. */
static int valid_windows(const char *dir, bool *tmp_left)
{
	char path[PATH_MAX + 256], log[PATH_MAX + 16];
	struct dirent *d;
	int n = 0;
	DIR *dp = opendir(dir);

	*tmp_left = false;
	if (!dp)
		return -1;
	while ((d = readdir(dp))) {
		size_t len = strlen(d->d_name);

		if (!strcmp(d->d_name, WINDOW_TMP))
			*tmp_left = true;
		if (strncmp(d->d_name, "fxt-", 4) || len < 8 ||
		    strcmp(d->d_name + len - 4, ".fxt"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		snprintf(log, sizeof(log), "%s-check.log", dir);
		if (dump_check(path, log, 120) != 0) {
			child_log_print(path, log, 20);
			n = -1;
			break;
		}
		n++;
	}
	closedir(dp);
	return n;
}

FIXTURE(rec) {
	char dir[PATH_MAX - 64];
	char conf[PATH_MAX];
	char log[PATH_MAX];
	pid_t victim;
	pid_t collector;
	bool mounted;
};

FIXTURE_SETUP(rec)
{
	const char *name = strrchr(_metadata->name, '.');

	name = name ? name + 1 : _metadata->name;
	snprintf(self->dir, sizeof(self->dir), "%s/recorder-%s", env_tmpdir(), name);
	snprintf(self->conf, sizeof(self->conf), "%s.conf", self->dir);
	snprintf(self->log, sizeof(self->log), "%s-collect.log", self->dir);
	self->collector = -1;
	self->mounted = false;
	mkdir(self->dir, 0750);
	self->victim = victim_start();
	ASSERT_LT(0, self->victim);
}

FIXTURE_TEARDOWN(rec)
{
	char cmd[PATH_MAX + 16];

	victim_stop(self->victim);
	if (self->collector > 0)
		child_kill(self->collector, NULL);
	if (self->mounted)
		umount2(self->dir, MNT_DETACH);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", self->dir);
	if (system(cmd))
		TH_LOG("could not remove %s", self->dir);
}

/* The recorder's config, as an administrator writes it, and its command. */
static void write_conf(struct _test_data_rec *self, const char *extra)
{
	FILE *f = fopen(self->conf, "w");

	if (!f)
		return;
	fprintf(f, "# fxt_recorder\noutput-dir = %s\n"
		   "trigger = off-cpu=30ms,pid=%d\npost = 20ms\n"
		   "buffer-size = 256K\n%s", self->dir, self->victim, extra);
	fclose(f);
}

static pid_t recorder_spawn(struct _test_data_rec *self)
{
	char tool[PATH_MAX];
	char *argv[] = { tool, "--quiet", "--config", self->conf, NULL };

	env_tool_path(tool, sizeof(tool), "FXT_COLLECT", "userspace/fxt-collect");
	return child_spawn(argv, self->log);
}

/* Start it, and wait for its probes to be live. */
static bool recorder_start(struct _test_data_rec *self)
{
	int st;

	self->collector = recorder_spawn(self);
	if (self->collector < 0)
		return false;
	if (child_wait_line(self->collector, self->log, COLLECTOR_STARTED_LINE,
			    collector_timeout(), &st)) {
		child_log_print("fxt-collect", self->log, 30);
		return false;
	}
	return true;
}

/* SIGTERM, as systemd stops it. Return: its wait status, or -1. */
static int recorder_term(struct _test_data_rec *self)
{
	int st = -1;

	kill(self->collector, SIGTERM);
	if (!child_wait(self->collector, collector_timeout(), &st))
		child_kill(self->collector, &st);
	self->collector = -1;
	return st;
}

TEST_F_TIMEOUT(rec, windows_named_and_kept, 300)
{
	bool tmp;
	int st;

	write_conf(self, "keep-windows = 2\n");
	ASSERT_TRUE(recorder_start(self));
	ASSERT_TRUE(wait_count(self->collector, self->log, "saved to", 4, 120)) {
		child_log_print("fxt-collect", self->log, 30);
	}
	st = recorder_term(self);
	child_log_print("fxt-collect", self->log, 12);
	ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0)
		TH_LOG("exit status 0x%x at SIGTERM", st);
	EXPECT_EQ(2, valid_windows(self->dir, &tmp));
	EXPECT_FALSE(tmp) TH_LOG("%s left", WINDOW_TMP);
	/*
	 * Four or more saved (a fifth at SIGTERM, unless it came between a
	 * save and the next start), all but two removed.
	 */
	EXPECT_LE(4, log_count(self->log, "saved to"));
	EXPECT_EQ(log_count(self->log, "saved to") - 2, log_count(self->log, ": removed "));
	EXPECT_LE(4, log_count(self->log, "fired on CPU"));
}

TEST_F_TIMEOUT(rec, killed_then_restarted, 300)
{
	bool tmp;
	int st, n;

	write_conf(self, "");
	ASSERT_TRUE(recorder_start(self));
	ASSERT_TRUE(wait_count(self->collector, self->log, "saved to", 1, 120));
	/*
	 * The next window's temporary archive is open a moment after the
	 * save (and until the next save, some 100 ms or more later).
	 */
	usleep(30000);
	child_kill(self->collector, &st);
	self->collector = -1;
	ASSERT_TRUE(WIFSIGNALED(st));
	n = valid_windows(self->dir, &tmp);
	EXPECT_LE(1, n);
	EXPECT_TRUE(tmp) TH_LOG("no %s: the window in progress was not written aside", WINDOW_TMP);
	/* Restarted, as systemd does on a failure. */
	ASSERT_TRUE(recorder_start(self));
	EXPECT_EQ(1, log_count(self->log, "a window an earlier run did not finish"));
	st = recorder_term(self);
	ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0)
		TH_LOG("exit status 0x%x at SIGTERM", st);
	/* Its window saved at SIGTERM (and any that fired before it). */
	EXPECT_LE(n + 1, valid_windows(self->dir, &tmp));
	EXPECT_FALSE(tmp);
}

TEST_F_TIMEOUT(rec, disk_full_said_once, 300)
{
	char fill[PATH_MAX];
	bool tmp;
	int fd, st;

	/*
	 * A tmpfs of its own, filled up once the recorder runs: the window it
	 * is writing and every later one is lost.
	 */
	ASSERT_EQ(0, mount("fxt-full", self->dir, "tmpfs", 0, "size=256k,mode=0750"))
		TH_LOG("mount tmpfs: %s", strerror(errno));
	self->mounted = true;
	write_conf(self, "");
	ASSERT_TRUE(recorder_start(self));
	snprintf(fill, sizeof(fill), "%s/fill", self->dir);
	fd = open(fill, O_WRONLY | O_CREAT, 0600);
	ASSERT_LE(0, fd);
	for (;;) {
		static char buf[4096];

		if (write(fd, buf, sizeof(buf)) <= 0)
			break;
	}
	close(fd);
	/* Several windows fire and are lost; the collector records on. */
	ASSERT_TRUE(wait_count(self->collector, self->log, "fired on CPU", 4, 120)) {
		child_log_print("fxt-collect", self->log, 30);
	}
	st = recorder_term(self);
	child_log_print("fxt-collect", self->log, 12);
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0)
		TH_LOG("exit status 0x%x at SIGTERM", st);
	EXPECT_EQ(1, log_count(self->log, "not saved: "));
	EXPECT_EQ(1, log_count(self->log, "No space left on device"));
	EXPECT_EQ(0, log_count(self->log, "saved to"));
	EXPECT_EQ(0, valid_windows(self->dir, &tmp));
	EXPECT_FALSE(tmp) TH_LOG("a lost window's temporary archive left");
}

TEST_HARNESS_MAIN
