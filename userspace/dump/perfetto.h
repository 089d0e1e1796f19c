/* SPDX-License-Identifier: MIT */
/*
 * perfetto.h - FXT archive to a Perfetto protobuf trace (fxt-dump
 * --perfetto): Linux thread states and blocked functions, which
 * Perfetto's FXT importer cannot show (perfetto.c).
 */
#ifndef FXT_DUMP_PERFETTO_H
#define FXT_DUMP_PERFETTO_H

#include "libfxt.h"
#include "outbuf.h"
#include "progress.h"

/*
 * Read the whole archive from m, in time order across providers, and write
 * a Perfetto trace (a serialized perfetto.protos.Trace) to o. Returns 0,
 * or -1 when reading stopped on an error or memory ran out (what was
 * written is still a valid trace).
 */
int fxt_perfetto_convert(struct fxt_merge *m, struct outbuf *o, struct progress *pg);

#endif /* FXT_DUMP_PERFETTO_H */
