/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fxtread.h - what the selftests' readers through libfxt (records, scan,
 * archive_libfxt, fxt_stress) share: its strings compared and copied, its
 * diagnostics printed as TAP lines, the watched threads.
 */
#ifndef FXT_SELFTESTS_FXTREAD_H
#define FXT_SELFTESTS_FXTREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libfxt.h"

/* Copy s into dst (size > 0), cut to fit, NUL-terminated; "" without data. */
void fxtread_str_copy(char *dst, size_t size, const struct fxt_str *s);
/* Does s hold exactly lit? */
bool fxtread_str_is(const struct fxt_str *s, const char *lit);
/* One libfxt diagnostic as a "# libfxt: ..." line. */
void fxtread_diag_print(uint64_t offset, enum fxt_diag_id id,
			const char *message);
/*
 * A diagnostic callback for fxt_reader_set_diag(): prints the first ten
 * (ctx: an unsigned int counting them), keeps reading.
 */
int fxtread_diag_first10(void *ctx, uint64_t offset, enum fxt_diag_id id,
			 const char *message);
/* Is koid one of tids[0..ntids-1]? */
bool fxtread_is_tid(const uint64_t *tids, int ntids, uint64_t koid);

#endif /* FXT_SELFTESTS_FXTREAD_H */
