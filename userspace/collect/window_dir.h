/* SPDX-License-Identifier: MIT */
/*
 * window_dir.h - the flight recorder's directory of windows (window_dir.c):
 * each window is written under a temporary name and renamed, complete, to
 * a name that says when it was saved; the oldest go first past the limits.
 */
#ifndef FXT_COLLECT_WINDOW_DIR_H
#define FXT_COLLECT_WINDOW_DIR_H

#include <stddef.h>
#include <stdint.h>

/* The window being written: never a name a reader takes for an archive. */
#define FXT_WINDOW_TMP_NAME	".fxt-window.tmp"
/* Saved windows: fxt-YYYYMMDDTHHMMSS.mmmZ[-N].fxt, UTC; sorted by name = by time. */
#define FXT_WINDOW_PREFIX	"fxt-"
#define FXT_WINDOW_SUFFIX	".fxt"

/* dir/FXT_WINDOW_TMP_NAME; NULL without memory. free() it. */
char *fxt_window_dir_tmp(const char *dir);

/*
 * Remove a temporary window a killed collector left in dir. Return: 1 if
 * there was one, 0 if not, or a negative errno (msg says what).
 */
int fxt_window_dir_clean(const char *dir, char *msg, size_t msglen);

/*
 * Rename dir's temporary window to its saved name (the time now), never
 * over an existing file. Return: the new path (free() it), or NULL with
 * errno set and msg saying what.
 */
char *fxt_window_dir_save(const char *dir, char *msg, size_t msglen);

/* A saved window retention removed, for the caller to log. */
typedef void (*fxt_window_removed_fn)(void *ctx, const char *path, uint64_t bytes);

/*
 * Keep at most keep_windows saved windows (0: any number) and keep_bytes
 * bytes of them (0: any size) in dir, removing the oldest first; the
 * newest is always kept. Files of other names are left alone. Return: the
 * number removed, or a negative errno (msg says what).
 */
int fxt_window_dir_prune(const char *dir, unsigned int keep_windows,
			 uint64_t keep_bytes, fxt_window_removed_fn removed,
			 void *ctx, char *msg, size_t msglen);

#endif /* FXT_COLLECT_WINDOW_DIR_H */
