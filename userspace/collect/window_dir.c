// SPDX-License-Identifier: MIT
/*
 * window_dir.c - the flight recorder's directory of windows (window_dir.h).
 *
 * A crash, a SIGKILL or a power loss while a window is written leaves only
 * FXT_WINDOW_TMP_NAME, which no reader takes for an archive and the next
 * run removes: every file under a saved name was complete when it got
 * that name (rename(2) is atomic; the data was fsync()ed before).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "window_dir.h"

static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);

	if (p)
		snprintf(p, n, "%s/%s", dir, name);
	return p;
}

char *fxt_window_dir_tmp(const char *dir)
{
	return join(dir, FXT_WINDOW_TMP_NAME);
}

int fxt_window_dir_clean(const char *dir, char *msg, size_t msglen)
{
	char *tmp = fxt_window_dir_tmp(dir);
	int ret = 1;

	if (!tmp)
		return -ENOMEM;
	if (unlink(tmp)) {
		ret = errno == ENOENT ? 0 : -errno;
		if (ret)
			snprintf(msg, msglen, "%s: %s", tmp, strerror(errno));
	}
	free(tmp);
	return ret;
}

/* fsync() the directory, so that a rename or an unlink in it is durable. */
static void sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

char *fxt_window_dir_save(const char *dir, char *msg, size_t msglen)
{
	char *tmp = fxt_window_dir_tmp(dir), *path = NULL;
	char stamp[64], name[96];
	struct timespec now;
	struct tm tm;
	int err = 0;

	if (!tmp) {
		snprintf(msg, msglen, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	clock_gettime(CLOCK_REALTIME, &now);
	gmtime_r(&now.tv_sec, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%S", &tm);
	for (unsigned int n = 1; n <= 1000; n++) {
		if (n == 1)
			snprintf(name, sizeof(name), FXT_WINDOW_PREFIX "%s.%03ldZ" FXT_WINDOW_SUFFIX,
				 stamp, now.tv_nsec / 1000000);
		else
			snprintf(name, sizeof(name), FXT_WINDOW_PREFIX "%s.%03ldZ-%u" FXT_WINDOW_SUFFIX,
				 stamp, now.tv_nsec / 1000000, n);
		free(path);
		path = join(dir, name);
		if (!path) {
			err = ENOMEM;
			break;
		}
		if (!renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE)) {
			sync_dir(dir);
			free(tmp);
			return path;
		}
		err = errno;
		if (err != EEXIST)
			break;
	}
	snprintf(msg, msglen, "renaming %s to %s: %s", tmp, path ? path : name,
		 strerror(err));
	free(tmp);
	free(path);
	errno = err;
	return NULL;
}

static int saved_window(const struct dirent *d)
{
	size_t n = strlen(d->d_name), p = strlen(FXT_WINDOW_PREFIX),
	       s = strlen(FXT_WINDOW_SUFFIX);

	return n > p + s && !strncmp(d->d_name, FXT_WINDOW_PREFIX, p) &&
	       !strcmp(d->d_name + n - s, FXT_WINDOW_SUFFIX);
}

int fxt_window_dir_prune(const char *dir, unsigned int keep_windows,
			 uint64_t keep_bytes, fxt_window_removed_fn removed,
			 void *ctx, char *msg, size_t msglen)
{
	struct dirent **names;
	uint64_t *sizes, total = 0;
	int n, i, gone = 0, ret = 0;

	if (!keep_windows && !keep_bytes)
		return 0;
	n = scandir(dir, &names, saved_window, alphasort);
	if (n < 0) {
		snprintf(msg, msglen, "%s: %s", dir, strerror(errno));
		return -errno;
	}
	sizes = calloc(n ? n : 1, sizeof(*sizes));
	if (!sizes) {
		ret = -ENOMEM;
		snprintf(msg, msglen, "out of memory");
		goto out;
	}
	for (i = 0; i < n; i++) {
		struct stat st;
		char *path = join(dir, names[i]->d_name);

		if (path && !lstat(path, &st) && S_ISREG(st.st_mode))
			sizes[i] = (uint64_t)st.st_size;
		total += sizes[i];
		free(path);
	}
	/* Oldest first; the newest (the last by name) stays whatever it weighs. */
	for (i = 0; i < n - 1; i++) {
		unsigned int left = (unsigned int)(n - i);
		char *path;

		if (!((keep_windows && left > keep_windows) ||
		      (keep_bytes && total > keep_bytes)))
			break;
		path = join(dir, names[i]->d_name);
		if (!path) {
			ret = -ENOMEM;
			snprintf(msg, msglen, "out of memory");
			break;
		}
		if (unlink(path) && errno != ENOENT) {
			ret = -errno;
			snprintf(msg, msglen, "removing %s: %s", path, strerror(errno));
			free(path);
			break;
		}
		if (removed)
			removed(ctx, path, sizes[i]);
		total -= sizes[i];
		gone++;
		free(path);
	}
	if (gone)
		sync_dir(dir);
out:
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(sizes);
	return ret ? ret : gone;
}
