/* SPDX-License-Identifier: MIT */
/*
 * libfxt: the streaming reader (struct fxt_reader, lib/reader*.c): decodes
 * an archive record by record in constant memory, reporting defects.
 */
#ifndef LIBFXT_READER_H
#define LIBFXT_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libfxt_diag.h"
#include "libfxt_records.h"

#define FXT_READER_BUFSIZE	(4u << 20)	/* read buffer; larger records are skipped */
#define FXT_READER_MEM_LIMIT	(256u << 20)	/* tables: strings, threads, providers, koids */
#define FXT_MAX_PROVIDERS	4096
/*
 * The CPU of a scheduling record (rec->cpu). fxt-collect writes CPU c as
 * provider c named "cpu<c>" (Documentation/records.rst): in a provider
 * whose name is "cpu" and its own id in decimal, id < FXT_MAX_CPUS (a
 * per-CPU provider), rec->cpu is the provider id, and a cpu field that
 * differs from the id's low 8 (context switch) or 16 bits (switch v2,
 * wakeup) is reported as CPU_MISMATCH. In any other provider rec->cpu is
 * the record's cpu field, as u.sw.cpu and u.wakeup.cpu always are.
 */
#define FXT_MAX_CPUS		65536

/*
 * A kernel object the reader has seen (global table): the record with the
 * latest "named_at" argument (records.rst), or, among records without one
 * (or with equal ones), the last read.
 */
struct fxt_kobj_info {
	uint64_t koid;
	uint64_t process;	/* thread: its "process" argument, else 0 */
	uint64_t named_at;	/* its "named_at" argument, 0 if none */
	uint64_t parent;	/* process: its "parent" argument, if has_parent */
	uint8_t obj_type;	/* ZX_OBJ_TYPE_* */
	bool valid;		/* slot in use (internal) */
	bool has_parent;	/* some record of it had a "parent" koid */
	uint8_t name_len;
	char name[45];		/* its name, truncated to 44 bytes + NUL */
};

struct fxt_reader;

/* Open a file ("-" is stdin); NULL and errno on failure. */
struct fxt_reader *fxt_reader_open(const char *path);
/* Read from fd (not closed by fxt_reader_close()). */
struct fxt_reader *fxt_reader_open_fd(int fd);
/* Read an archive held in memory (not copied: keep it alive). */
struct fxt_reader *fxt_reader_open_mem(const void *data, size_t len);
void fxt_reader_close(struct fxt_reader *r);

void fxt_reader_set_diag(struct fxt_reader *r, fxt_diag_fn fn, void *ctx);
/* Read buffer size, before the first fxt_reader_next() (>= 64 KiB). */
int fxt_reader_set_buffer_size(struct fxt_reader *r, size_t bytes);
/* Lower the memory limit (tests); 0 keeps the default. */
void fxt_reader_set_mem_limit(struct fxt_reader *r, size_t bytes);
/*
 * Arguments a caller does not need: not decoded (nargs is 0), only their
 * sizes checked, and the checks of their values skipped. For tools that
 * only need the fixed fields (fxt-report); never for --check.
 */
#define FXT_SKIP_SCHED_ARGS	(1u << 0)	/* wakeups and subtype 1 switches */
#define FXT_SKIP_SPAN_ARGS	(1u << 1)	/* duration begin and end events */
void fxt_reader_skip_args(struct fxt_reader *r, unsigned int what);
/* Apply kernel object records to the koid table (default on). */
void fxt_reader_set_track_kobjs(struct fxt_reader *r, bool on);
/*
 * Check that the duration begin/end events of each thread nest, per
 * provider (default off; fxt-dump --check turns it on): warnings
 * DURATION_UNMATCHED, DURATION_MISMATCH and DURATION_NO_BEGIN. Costs about 400 bytes per
 * thread with duration events, within the memory limit.
 */
void fxt_reader_check_durations(struct fxt_reader *r, bool on);
/*
 * Check that each sleep event (fxt_sleep_event()) is followed, in its
 * provider, by a context switch whose outgoing thread is the event's,
 * before another sleep event and before the end of the archive (default
 * off; fxt-dump --check turns it on): warning SLEEP_UNPAIRED.
 */
void fxt_reader_check_sleeps(struct fxt_reader *r, bool on);

/*
 * Decode the next record into *rec. Returns 1 for a record (possibly with
 * FXT_RF_MALFORMED or FXT_RF_UNKNOWN set: skip those), 0 at the end of the
 * archive and -1 when reading cannot continue (I/O error, size 0 record; a
 * diagnostic was reported). A truncated final record is reported once as
 * FXT_D_TRUNCATED and then reads as the end of the archive.
 */
int fxt_reader_next(struct fxt_reader *r, struct fxt_record *rec);

/* Archive bytes consumed so far, and the size when known (else 0). */
uint64_t fxt_reader_offset(const struct fxt_reader *r);
uint64_t fxt_reader_size(const struct fxt_reader *r);
/* Diagnostics reported, in total and per id. */
uint64_t fxt_reader_diag_count(const struct fxt_reader *r);
uint64_t fxt_reader_diag_count_id(const struct fxt_reader *r, enum fxt_diag_id id);
/* Records read, and their size in bytes. */
uint64_t fxt_reader_records(const struct fxt_reader *r);
uint64_t fxt_reader_bytes(const struct fxt_reader *r);

/* Current provider, its name and ticks per second. */
uint32_t fxt_reader_provider(const struct fxt_reader *r);
const char *fxt_reader_provider_name(const struct fxt_reader *r, uint32_t id);
uint64_t fxt_reader_ticks_per_second(const struct fxt_reader *r);
/* Ticks of the current provider to nanoseconds. */
uint64_t fxt_reader_ticks_to_ns(const struct fxt_reader *r, uint64_t ticks);

/*
 * Global kernel object table, by object type (FXT_OBJ_*) and koid: the
 * newest name of each. NULL if no such object was described. fxt.ko's
 * koids are pids: a process and its main thread share one.
 */
const struct fxt_kobj_info *fxt_reader_kobj(const struct fxt_reader *r, unsigned int type,
					    uint64_t koid);
/*
 * The thread record naming koid at ns (CLOCK_BOOTTIME ns, as "named_at"):
 * of the names read so far, the one with the latest "named_at" <= ns, else
 * the earliest; a tid reused by a later thread keeps the earlier name
 * before the later one was given. Else as fxt_reader_kobj().
 */
const struct fxt_kobj_info *fxt_reader_thread_at(const struct fxt_reader *r,
						 uint64_t koid, uint64_t ns);

#endif /* LIBFXT_READER_H */
