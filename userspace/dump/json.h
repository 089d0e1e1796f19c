/* SPDX-License-Identifier: MIT */
/*
 * json.h - FXT archive to JSON Trace Event Format (fxt-dump --json).
 *
 * Documentation/tools.rst lists the tracks the conversion produces.
 */
#ifndef LIBFXT_JSON_H
#define LIBFXT_JSON_H

#include "libfxt.h"
#include "outbuf.h"
#include "progress.h"

/* Pseudo-process of the per-CPU tracks; CPU c is thread JSON_CPUS_PID + 1 + c. */
#define JSON_CPUS_PID	0x7fff0000u

/*
 * Read the whole archive from m, in time order across providers, and write
 * one JSON object to o. Returns 0, or -1 when reading stopped on an error
 * (the JSON is still complete). pg, when not NULL, is told the bytes read.
 */
int fxt_json_convert(struct fxt_merge *m, struct outbuf *o, struct progress *pg);

#endif /* LIBFXT_JSON_H */
