// SPDX-License-Identifier: GPL-2.0
/*
 * kmod.c - find, load and unload the selftests' test modules (kmod.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "child.h"
#include "env.h"
#include "kfile.h"
#include "kmod.h"

int kmod_path(const char *name, char *path, size_t size, char *why,
	      size_t why_len)
{
	char self[PATH_MAX], log[PATH_MAX], out[256] = "";
	char *modinfo[] = { "/sbin/modinfo", "-F", "vermagic", path, NULL };
	struct utsname u;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	size_t len;
	FILE *f;

	if (n < 0) {
		snprintf(why, why_len, "/proc/self/exe: %s", strerror(errno));
		return -1;
	}
	self[n] = '\0';
	*strrchr(self, '/') = '\0';
	if (snprintf(path, size, "%s/kmod/%s.ko", self, name) >= (int)size ||
	    access(path, R_OK)) {
		snprintf(why, why_len, "%.300s: %s (make module)", path,
			 strerror(errno));
		return -1;
	}
	snprintf(log, sizeof(log), "%s/%s-modinfo.log", env_tmpdir(), name);
	if (child_run(modinfo, log, 30)) {
		snprintf(why, why_len, "modinfo %.300s failed", path);
		return -1;
	}
	f = fopen(log, "r");
	if (f) {
		if (!fgets(out, sizeof(out), f))
			out[0] = '\0';
		fclose(f);
	}
	uname(&u);
	len = strlen(u.release);
	if (strncmp(out, u.release, len) || out[len] != ' ') {
		out[strcspn(out, " \n")] = '\0';
		snprintf(why, why_len,
			 "%.200s is built for %.60s, running %.60s (make module KVER=%.60s)",
			 path, out, u.release, u.release);
		return -1;
	}
	return 0;
}

int kmod_load(const char *path, const char *arg, char *why, size_t why_len)
{
	char log[PATH_MAX];
	char *insmod[] = { "/sbin/insmod", (char *)path, (char *)arg, NULL };

	snprintf(log, sizeof(log), "%s/kmod-insmod.log", env_tmpdir());
	if (child_run(insmod, log, 60)) {
		snprintf(why, why_len, "insmod %.300s %.60s failed", path,
			 arg ? arg : "");
		child_log_print("insmod output", log, 10);
		return -1;
	}
	return 0;
}

int kmod_unload(const char *name, char *why, size_t why_len)
{
	char log[PATH_MAX];
	char *rmmod[] = { "/sbin/rmmod", (char *)name, NULL };

	snprintf(log, sizeof(log), "%s/kmod-rmmod.log", env_tmpdir());
	if (child_run(rmmod, log, 60)) {
		snprintf(why, why_len, "rmmod %.100s failed", name);
		return -1;
	}
	return 0;
}

static void param_path(char *path, size_t size, const char *name,
		       const char *param)
{
	snprintf(path, size, "/sys/module/%s/parameters/%s", name, param);
}

int kmod_param_write(const char *name, const char *param, const char *s)
{
	char path[PATH_MAX];

	param_path(path, sizeof(path), name, param);
	return kfile_write(path, s);
}

int kmod_param_read(const char *name, const char *param, char *buf,
		    size_t size)
{
	char path[PATH_MAX];

	param_path(path, sizeof(path), name, param);
	return kfile_read(path, buf, size);
}
