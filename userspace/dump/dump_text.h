/* SPDX-License-Identifier: MIT */
/*
 * dump_text.h - an FXT record as one line of text (fxt-dump).
 */
#ifndef LIBFXT_DUMP_TEXT_H
#define LIBFXT_DUMP_TEXT_H

#include "libfxt.h"
#include "outbuf.h"

/* rec, just read from r (its string and thread tables), as one line on o. */
void fxt_dump_record(struct outbuf *o, struct fxt_reader *r, const struct fxt_record *rec);

#endif /* LIBFXT_DUMP_TEXT_H */
