/* SPDX-License-Identifier: MIT */
/*
 * options.h - values of the tools' command-line options (collect/options.c).
 */
#ifndef LIBFXT_OPTIONS_H
#define LIBFXT_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include <linux/fxt.h>

/* "8M", "64K", "1.5GiB", "65536": 0, or -EINVAL. */
int fxt_parse_size(const char *s, uint64_t *bytes);
/* "oneshot", "circular", "streaming": FXT_MODE_*, or -EINVAL. */
int fxt_parse_mode(const char *s);

/*
 * "1500ns", "500us", "10ms", "2s", "1.5ms": 0, or -EINVAL. The unit is
 * required (a bare number is ambiguous); the value may be 0.
 */
int fxt_parse_duration(const char *s, uint64_t *ns);

/* A trigger kind's name (FXT_TRIGGER_NAME_*), or NULL if unknown. */
const char *fxt_trigger_kind_name(uint32_t kind);
/* The categories (FXT_CAT_*) a trigger kind needs all of (any, for irq-duration). */
uint32_t fxt_trigger_kind_categories(uint32_t kind);

/*
 * --trigger "KIND=T[,comm=NAME][,pid=TID][,tgid=PID][,cpu=N]" into *out:
 * 0, or -EINVAL with a message for the user in err.
 */
int fxt_parse_trigger(const char *spec, struct fxt_trigger *out, char *err,
		      size_t errlen);

/*
 * The FXT_CAT_* bits a -c list names, of the names fxt knows
 * (FXT_CAT_NAME_*, "all"); NULL: the default, FXT_CAT_DEFAULT (all but
 * power). Names it does not know are left to the module to refuse.
 */
uint32_t fxt_categories_named(const char *list);
/*
 * Can trigger t fire with categories cats? 0, or -EINVAL with a message
 * naming the categories it needs.
 */
int fxt_trigger_check_categories(const struct fxt_trigger *t, uint32_t cats,
				 char *err, size_t errlen);

/*
 * The archive of window k (from 1) of a run that saves several: k 1 is
 * output itself, then "-k" before the extension of the file name
 * (stall.fxt, stall-2.fxt, ...; no extension: stall, stall-2). NULL
 * without memory; free() it.
 */
char *fxt_window_path(const char *output, unsigned int k);

#endif /* LIBFXT_OPTIONS_H */
