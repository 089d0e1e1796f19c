/* SPDX-License-Identifier: MIT */
/*
 * libfxt: every defect the reader can report (FXT_DIAGS), with a stable id,
 * a severity and a message (Documentation/tools.rst lists them).
 */
#ifndef LIBFXT_DIAG_H
#define LIBFXT_DIAG_H

#include <stdint.h>

enum fxt_diag_severity {
	FXT_SEV_ERROR,		/* the archive breaks the specification */
	FXT_SEV_WARNING,	/* readable, but something was lost or limited, or
			   a viewer will draw it wrong */
};

/* New ids go last: the values of the others stay what they were. */
#define FXT_DIAGS(X)								\
	X(NO_MAGIC,         ERROR,   "archive does not start with the magic number record") \
	X(BIG_ENDIAN,       ERROR,   "big-endian archive: not supported") \
	X(BAD_MAGIC_RECORD, ERROR,   "malformed magic number record: %s") \
	X(SIZE_ZERO,        ERROR,   "record size is 0: cannot continue") \
	X(TRUNCATED,        ERROR,   "truncated record at offset %s") \
	X(TOO_LARGE,        WARNING, "record of %s bytes is larger than the read buffer: skipped") \
	X(SIZE_MISMATCH,    ERROR,   "record size does not match its content: %s") \
	X(RESERVED_BITS,    ERROR,   "reserved bits set: %s") \
	X(UNKNOWN_RECORD,   ERROR,   "unknown record type %s") \
	X(UNKNOWN_SUBTYPE,  ERROR,   "unknown %s") \
	X(PROVIDER_UNKNOWN, ERROR,   "provider %s was never announced by provider info metadata") \
	X(INIT_ZERO,        ERROR,   "initialization record with 0 ticks per second") \
	X(STRING_INDEX_0,   ERROR,   "string record for index 0 (ignored)") \
	X(THREAD_INDEX_0,   ERROR,   "thread record for index 0 (ignored)") \
	X(STRING_UNDEFINED, ERROR,   "string index %s is not defined in this provider") \
	X(THREAD_UNDEFINED, ERROR,   "thread index %s is not defined in this provider") \
	X(STRING_TOO_LONG,  ERROR,   "string longer than 32000 bytes: %s") \
	X(PADDING,          ERROR,   "non-zero padding after %s") \
	X(ARG_SIZE,         ERROR,   "argument %s: size does not match its type") \
	X(ARG_OVERFLOW,     ERROR,   "arguments overflow the record: %s") \
	X(ARG_UNKNOWN,      ERROR,   "unknown argument type %s") \
	X(ARG_RESERVED,     ERROR,   "argument %s: reserved bits set") \
	X(KOBJ_NO_PROCESS,  ERROR,   "thread kernel object %s") \
	X(KOBJ_NAME,        ERROR,   "kernel object %s has an empty name") \
	X(SWITCH_STATE,     ERROR,   "context switch outgoing state %s") \
	X(SCHED_ARGS,       ERROR,   "scheduling record argument %s") \
	X(CPU_MISMATCH,     ERROR,   "cpu field does not match its per-CPU provider: %s") \
	X(TIME_BACKWARDS,   ERROR,   "timestamp goes backwards in provider %s") \
	X(DURATION_END,     ERROR,   "duration complete event ends before it begins: %s") \
	X(BLOB_SIZE,        ERROR,   "blob payload size %s does not match the record") \
	X(MEMORY_LIMIT,     WARNING, "reader memory limit reached: %s no longer recorded") \
	X(IO_ERROR,         ERROR,   "read error: %s") \
	X(DURATION_UNMATCHED, WARNING, "duration end without a begin: %s") \
	X(DURATION_MISMATCH, WARNING, "duration end does not match the innermost begin: %s") \
	X(SLEEP_UNPAIRED,   WARNING, "sleep event not followed by its thread's switch out: %s") \
	X(DURATION_NO_BEGIN, WARNING, "duration end whose begin is not in the archive (the recording may have started inside it): %s")

enum fxt_diag_id {
#define FXT_DIAG_ENUM(id, sev, msg) FXT_D_##id,
	FXT_DIAGS(FXT_DIAG_ENUM)
#undef FXT_DIAG_ENUM
	FXT_D_COUNT
};

/* Stable name ("SIZE_ZERO"), severity and printf-ish template of a diagnostic. */
const char *fxt_diag_name(enum fxt_diag_id id);
enum fxt_diag_severity fxt_diag_severity(enum fxt_diag_id id);
const char *fxt_diag_template(enum fxt_diag_id id);

/*
 * Called for every defect with the record offset, the id and the complete
 * message (template filled in). Return non-zero to stop reading.
 */
typedef int (*fxt_diag_fn)(void *ctx, uint64_t offset, enum fxt_diag_id id,
			   const char *message);

#endif /* LIBFXT_DIAG_H */
