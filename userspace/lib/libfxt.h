/* SPDX-License-Identifier: MIT */
/*
 * libfxt - read and write Fuchsia Trace Format (FXT) archives.
 *
 * One small library for every fxt user-space tool:
 *
 *  - a buffered writer (struct fxt_writer) that appends whole records to a
 *    file descriptor. Records are encoded straight into its buffer with the
 *    encoders of include/fxt/format.h and reach the file only as whole
 *    records: if a write fails the file is cut back to the last flush, so a
 *    collector never leaves a torn record behind;
 *
 *  - a streaming reader (struct fxt_reader) that decodes every record and
 *    argument type of the Fuchsia trace format specification (plus the
 *    scheduling subtypes 1 and 2 Perfetto reads) into struct fxt_record,
 *    in constant memory: a fixed read buffer, per-provider string and
 *    thread tables and a global kernel object table, all under
 *    one memory limit. It validates as it decodes and reports each defect
 *    through a callback with a stable identifier (enum fxt_diag_id).
 *
 * Records are little-endian 64-bit words; the host must be little-endian.
 * Documentation/tools.rst describes the tools built on top.
 */
#ifndef LIBFXT_H
#define LIBFXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <fxt/format.h>

/*
 * One header of one job each; a program includes this one:
 *
 *   libfxt_values.h    string refs, thread refs, arguments
 *   libfxt_writer.h    the writer
 *   libfxt_perfetto.h  Perfetto packets embedded in blob records
 *   libfxt_records.h   a decoded record
 *   libfxt_diag.h      the reader's diagnostics
 *   libfxt_reader.h    the reader
 *   libfxt_merge.h     time-ordered reading across providers
 *   libfxt_trailer.h   fxt-collect's trailer of newest names
 *   libfxt_helpers.h   sleep events, losses, priorities, enum names
 */
#include "libfxt_values.h"
#include "libfxt_writer.h"
#include "libfxt_perfetto.h"
#include "libfxt_records.h"
#include "libfxt_diag.h"
#include "libfxt_reader.h"
#include "libfxt_merge.h"
#include "libfxt_trailer.h"
#include "libfxt_helpers.h"

#endif /* LIBFXT_H */
