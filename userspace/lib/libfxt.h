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

/* ------------------------------------------------------------------ */
/* Decoded values shared by the reader and the writer.                 */

/*
 * A string ref and what it stands for. The writer encodes an index when
 * ref is 1..0x7fff, the empty string when ref is 0 and len is 0, and an
 * inline string of len bytes at data otherwise. The reader fills all three;
 * data is NULL when the ref names an index the provider never defined.
 * data is not NUL-terminated.
 */
struct fxt_str {
	uint16_t ref;		/* raw ref: 0, index, or 0x8000 | length */
	uint16_t len;		/* bytes at data */
	const char *data;	/* content; valid until the next fxt_reader_next() */
};

/*
 * A thread ref. The writer encodes index ref when it is non-zero and the
 * inline koids pid/tid when it is 0. The reader resolves an index through
 * the current provider's thread table (pid/tid 0 and defined false when the
 * index was never defined).
 */
struct fxt_thread {
	uint8_t ref;		/* 0 inline, 1..255 thread table index */
	bool defined;		/* reader: koids known */
	uint64_t pid;		/* process koid */
	uint64_t tid;		/* thread koid */
};

#define FXT_MAX_ARGS	15

/* One argument. words is the encoded size (reader); the writer computes it. */
struct fxt_arg {
	uint8_t type;		/* enum fxt_arg_type, or an unknown type (reader) */
	uint16_t words;		/* argument size in words, header included */
	struct fxt_str name;
	union {
		int32_t i32;
		uint32_t u32;
		int64_t i64;
		uint64_t u64;
		double f64;
		uint64_t ptr;
		uint64_t koid;
		bool b;
		struct fxt_str str;
	} v;
};

/* Convenience constructors. */
static inline struct fxt_str fxt_str(const char *s);
static inline struct fxt_str fxt_str_index(uint16_t index)
{
	struct fxt_str r = { index, 0, NULL };
	return r;
}

static inline struct fxt_thread fxt_thread_inline(uint64_t pid, uint64_t tid)
{
	struct fxt_thread t = { 0, true, pid, tid };
	return t;
}

static inline struct fxt_thread fxt_thread_index(uint8_t index)
{
	struct fxt_thread t = { index, true, 0, 0 };
	return t;
}

/* ------------------------------------------------------------------ */
/* Writer.                                                              */

#define FXT_WRITER_BUFSIZE	(1u << 20)	/* bytes buffered before a write() */

/*
 * A buffered writer over a file descriptor. The buffer only ever holds
 * whole records. The first error (I/O or out of memory) is sticky: every
 * later call returns it and writes nothing. An invalid argument (a string
 * too long, a record over the maximum size) returns -EINVAL or -E2BIG,
 * writes nothing and is not sticky.
 */
struct fxt_writer {
	int fd;			/* not owned: never closed here */
	int error;		/* first sticky error, 0 if none */
	uint64_t bytes;		/* bytes accepted (buffered or written) */
	size_t len;		/* bytes in buf */
	size_t cap;		/* size of buf */
	unsigned char *buf;	/* whole records, not yet written */
};

int fxt_writer_init(struct fxt_writer *w, int fd);	/* 0 or -errno */
int fxt_writer_flush(struct fxt_writer *w);		/* 0 or -errno */
int fxt_writer_error(const struct fxt_writer *w);	/* first error, 0 if none */
uint64_t fxt_writer_bytes(const struct fxt_writer *w);	/* bytes accepted so far */
void fxt_writer_destroy(struct fxt_writer *w);		/* flush + free; fd stays open */

/* Every fxt_write_*() returns 0 or -errno and appends one whole record. */

/* Metadata. */
int fxt_write_magic(struct fxt_writer *w);
int fxt_write_provider_info(struct fxt_writer *w, uint32_t id, const char *name);
int fxt_write_provider_section(struct fxt_writer *w, uint32_t id);
int fxt_write_provider_event(struct fxt_writer *w, uint32_t id, unsigned int event);
/* Initialization record. */
int fxt_write_init(struct fxt_writer *w, uint64_t ticks_per_second);
/* Records already encoded by someone else (the kernel); len % 8 == 0. */
int fxt_write_raw(struct fxt_writer *w, const void *data, size_t len);
/* Counter event, thread and strings inline, one uint64 argument. */
int fxt_write_counter_u64(struct fxt_writer *w, uint64_t ts, uint64_t pid,
			  uint64_t tid, const char *category, const char *name,
			  uint64_t counter_id, const char *arg_name,
			  uint64_t value);

/* String record: index 1..0x7fff, len <= FXT_STRING_MAX_LEN. */
int fxt_write_string(struct fxt_writer *w, uint16_t index, const char *s, size_t len);
/* Thread record: index 1..255. */
int fxt_write_thread(struct fxt_writer *w, uint8_t index, uint64_t pid, uint64_t tid);

/* Kernel object record of any type with arguments. */
int fxt_write_kobj(struct fxt_writer *w, unsigned int obj_type, uint64_t koid,
		   struct fxt_str name, const struct fxt_arg *args, unsigned int nargs);
/* A process (type 1), name inline. */
int fxt_write_process(struct fxt_writer *w, uint64_t koid, const char *name);
/* A thread (type 2), name inline, koid argument "process" (records.rst). */
int fxt_write_thread_kobj(struct fxt_writer *w, uint64_t koid, const char *name,
			  uint64_t process_koid);

/*
 * Event record of any event type. data is the event-type specific word
 * (counter id, end time, async or flow correlation id), ignored for
 * instant and duration begin/end events.
 */
int fxt_write_event(struct fxt_writer *w, unsigned int event_type, uint64_t ts,
		    struct fxt_thread thread, struct fxt_str category,
		    struct fxt_str name, const struct fxt_arg *args,
		    unsigned int nargs, uint64_t data);

/* Context switch, subtype 0. Threads with ref 0 are written inline. */
int fxt_write_switch(struct fxt_writer *w, unsigned int cpu, uint64_t ts,
		     unsigned int out_state, struct fxt_thread out,
		     unsigned int out_prio, struct fxt_thread in,
		     unsigned int in_prio);
/* Context switch, subtype 1: koids and arguments (outgoing/incoming_weight). */
int fxt_write_switch_v2(struct fxt_writer *w, unsigned int cpu, uint64_t ts,
			unsigned int out_state, uint64_t out_tid,
			uint64_t in_tid, const struct fxt_arg *args,
			unsigned int nargs);
/*
 * Context switch, subtype 1, as fxt.ko writes one for a CPU above 255
 * (fxt_fill_switch_wide() in include/fxt/format.h): thread koids, weights
 * (priorities; FXT_WEIGHT_IDLE for idle) under the string refs out_name and
 * in_name.
 */
int fxt_write_switch_wide(struct fxt_writer *w, unsigned int cpu, uint64_t ts,
			  unsigned int out_state, uint64_t out_tid,
			  int32_t out_weight, uint64_t in_tid, int32_t in_weight,
			  uint16_t out_name, uint16_t in_name);
/* Thread wakeup, subtype 2, with any arguments. */
int fxt_write_wakeup_args(struct fxt_writer *w, unsigned int cpu, uint64_t ts,
			  uint64_t woken_tid, const struct fxt_arg *args,
			  unsigned int nargs);
/*
 * Thread wakeup as records.rst writes it: "weight" int32 (left out when it
 * is FXT_WAKEUP_WEIGHT_DEFAULT, nice 0) and "waker" koid.
 */
int fxt_write_wakeup(struct fxt_writer *w, unsigned int cpu, uint64_t ts,
		     uint64_t woken_tid, int32_t weight, uint64_t waker_tid);

/* Blob record (type 5): payload size <= 0x7fff. */
int fxt_write_blob(struct fxt_writer *w, struct fxt_str name, unsigned int blob_type,
		   const void *payload, size_t size);
/*
 * Perfetto's embedded packets (lib/perfetto_blob.c): a blob of
 * FXT_BLOB_TYPE_PERFETTO that tells Perfetto CPU cpu lost events (its
 * stats' ftrace_cpu_has_data_loss). fxt_perfetto_lost_events() lays out
 * the payload in buf: its size, 0 when cap < FXT_PERFETTO_LOST_EVENTS_MAX.
 */
#define FXT_PERFETTO_LOST_EVENTS_MAX	32
size_t fxt_perfetto_lost_events(uint32_t cpu, uint8_t *buf, size_t cap);
int fxt_write_perfetto_lost_events(struct fxt_writer *w, uint32_t cpu);

/* A power event of an embedded packet (include/fxt/perfetto_blob.h). */
struct fxt_power_event {
	uint32_t cpu;		/* the bundle's CPU */
	uint32_t cpu_id;	/* the event's cpu_id: the CPU it is about */
	uint64_t ts;		/* ns */
	uint32_t pid;
	unsigned int event;	/* FXT_PB_EVENT_CPU_IDLE or _CPU_FREQUENCY */
	uint32_t state;		/* idle state (FXT_PB_IDLE_EXIT: out), or kHz */
};

/*
 * The cpu_idle and cpu_frequency events of a blob of FXT_BLOB_TYPE_PERFETTO
 * (serialized perfetto.protos.Trace), in order: the first max of them in
 * out. Other packets and events are skipped.
 * Return: how many there are, or -1 when the payload is malformed.
 */
int fxt_perfetto_power_events(const void *payload, size_t size,
			      struct fxt_power_event *out, size_t max);

/*
 * The time of a blob of FXT_BLOB_TYPE_PERFETTO: its first power event's
 * (a blob record has no timestamp word; fxt.ko writes one event per blob,
 * reserved at that time). False when it holds none (a loss report).
 */
bool fxt_perfetto_blob_time(const void *payload, size_t size, uint64_t *ts_ns);
/* Userspace object record (type 6). */
int fxt_write_uobj(struct fxt_writer *w, uint64_t pointer, struct fxt_thread process,
		   struct fxt_str name, const struct fxt_arg *args, unsigned int nargs);
/* Log record (type 9). */
int fxt_write_log(struct fxt_writer *w, uint64_t ts, struct fxt_thread thread,
		  const char *msg, size_t len);
/*
 * Large BLOB record (type 15, large type 0). format 0 writes the metadata
 * (ts, thread, args); format 1 only category and name. The whole record
 * must fit the writer's buffer.
 */
int fxt_write_large_blob(struct fxt_writer *w, unsigned int format,
			 struct fxt_str category, struct fxt_str name, uint64_t ts,
			 struct fxt_thread thread, const struct fxt_arg *args,
			 unsigned int nargs, const void *payload, size_t size);

struct fxt_record;
/* Re-encode a decoded record (not FXT_RF_MALFORMED). Used for round trips. */
int fxt_write_record(struct fxt_writer *w, const struct fxt_record *rec);

/* Argument constructors for the writer (name inline, or fxt_str_index()). */
struct fxt_arg fxt_arg_null(struct fxt_str name);
struct fxt_arg fxt_arg_i32(struct fxt_str name, int32_t v);
struct fxt_arg fxt_arg_u32(struct fxt_str name, uint32_t v);
struct fxt_arg fxt_arg_i64(struct fxt_str name, int64_t v);
struct fxt_arg fxt_arg_u64(struct fxt_str name, uint64_t v);
struct fxt_arg fxt_arg_f64(struct fxt_str name, double v);
struct fxt_arg fxt_arg_string(struct fxt_str name, struct fxt_str v);
struct fxt_arg fxt_arg_ptr(struct fxt_str name, uint64_t v);
struct fxt_arg fxt_arg_koid(struct fxt_str name, uint64_t v);
struct fxt_arg fxt_arg_bool(struct fxt_str name, bool v);

/* ------------------------------------------------------------------ */
/* Decoded records.                                                     */

/* fxt_record.flags */
#define FXT_RF_MALFORMED	(1u << 0)	/* not decodable: only offset/type/size valid */
#define FXT_RF_UNKNOWN		(1u << 1)	/* type/subtype the spec does not define */
#define FXT_RF_NO_PAYLOAD	(1u << 2)	/* too large for the read buffer: skipped unread */

struct fxt_record {
	uint64_t offset;	/* byte offset of the header word in the archive */
	const uint64_t *words;	/* the record; NULL with FXT_RF_NO_PAYLOAD */
	uint64_t nwords;	/* record size in words */
	uint8_t type;		/* enum fxt_record_type (header [0..3]) */
	uint8_t subtype;	/* metadata type, event type, sched subtype, large type */
	uint8_t flags;		/* FXT_RF_* */
	uint8_t nargs;		/* decoded arguments in args[] */
	uint32_t provider;	/* provider current when the record was read */
	uint16_t cpu;		/* scheduling records: the CPU (FXT_MAX_CPUS says which) */
	uint64_t ts;		/* ticks: events, switches, wakeups, logs, large blob 0 */
	uint64_t ts_ns;		/* ts in ns at the provider's ticks per second (0 if no
				 * ts); a Perfetto blob's power event time */
	union {
		struct {
			uint32_t provider_id;	/* info, section, event */
			uint8_t event;		/* provider event id */
			uint8_t trace_info_type;
			uint32_t magic;		/* magic number record */
			struct fxt_str name;	/* provider info */
		} meta;
		struct {
			uint64_t ticks_per_second;
		} init;
		struct {
			uint16_t index;
			struct fxt_str str;	/* ref = index */
		} string;
		struct {
			uint8_t index;
			uint64_t pid, tid;
		} thread;
		struct {
			struct fxt_thread thread;
			struct fxt_str category, name;
			uint64_t data;	/* counter id, end ts, correlation id */
		} event;
		struct {
			struct fxt_str name;
			uint32_t size;
			uint8_t blob_type;
			const void *payload;
		} blob;
		struct {
			struct fxt_thread process;
			struct fxt_str name;
			uint64_t pointer;
		} uobj;
		struct {
			uint8_t obj_type;
			struct fxt_str name;
			uint64_t koid;
			uint64_t named_at;	/* "named_at" uint64 argument, else 0 */
			/* process: "parent" koid argument, else FXT_KOID_NONE */
			uint64_t parent;
		} kobj;
		struct {	/* subtype 0 and 1 (v2 fills out/in.tid only) */
			uint16_t cpu;
			uint8_t out_state;
			uint8_t out_prio, in_prio;	/* subtype 0 */
			struct fxt_thread out, in;
		} sw;
		struct {	/* subtype 2 */
			uint16_t cpu;
			uint64_t tid;		/* woken thread koid */
		} wakeup;
		struct {
			struct fxt_thread thread;
			struct fxt_str msg;
		} log;
		struct {	/* large type 0 */
			uint8_t format;
			struct fxt_str category, name;
			struct fxt_thread thread;	/* format 0 */
			uint64_t size;
			const void *payload;
		} lblob;
	} u;
	struct fxt_arg args[FXT_MAX_ARGS];
};

/* ------------------------------------------------------------------ */
/* Diagnostics: every defect the reader can report, with a stable id.   */

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

/* ------------------------------------------------------------------ */
/* Reader.                                                              */

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
/* No koid: a process record without a "parent" argument. */
#define FXT_KOID_NONE		UINT64_MAX

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

/* ------------------------------------------------------------------ */
/* Time-ordered reading across providers (lib/merge.c).                 */

/*
 * fxt-collect writes each CPU as a provider, in chunks saved as they fill,
 * so the file is in time order within a provider but not across them.
 * A merge reads a seekable archive twice: a first pass over the whole file
 * looks only at record headers to find each provider's chunks, then one
 * reader (cursor) per provider decodes its records, handed out in
 * timestamp order; records without a timestamp
 * come in place, right after their provider's previous record. Each
 * provider's records keep their order. Kernel object names are shared.
 * From a pipe (or with more than 1024 providers) records come in file
 * order. Set the diagnostics and skipped arguments before the first
 * fxt_merge_next().
 */
struct fxt_merge;

struct fxt_merge *fxt_merge_open(const char *path);	/* NULL and errno */
void fxt_merge_close(struct fxt_merge *m);
void fxt_merge_set_diag(struct fxt_merge *m, fxt_diag_fn fn, void *ctx);
void fxt_merge_skip_args(struct fxt_merge *m, unsigned int what);
/*
 * The next record, NULL at the end; *from is the reader it came from (for
 * fxt_reader_ticks_to_ns() and its provider). Valid until the next call.
 */
const struct fxt_record *fxt_merge_next(struct fxt_merge *m, struct fxt_reader **from);
/*
 * Or merge yourself: the cursors (one per provider, or a single one in
 * file order), each a reader of its provider's records in their order
 * (fxt_reader_next()). Do not mix with fxt_merge_next().
 */
size_t fxt_merge_cursors(const struct fxt_merge *m);
struct fxt_reader *fxt_merge_cursor(const struct fxt_merge *m, size_t i);
bool fxt_merge_ordered(const struct fxt_merge *m);	/* false: file order */
int fxt_merge_status(const struct fxt_merge *m);	/* 0, or -1: a reader stopped on an error */
/*
 * Records read so far and their bytes: those handed out, and with
 * fxt_merge_next() up to one more per cursor, read ahead.
 */
uint64_t fxt_merge_records(const struct fxt_merge *m);
uint64_t fxt_merge_bytes(const struct fxt_merge *m);
uint64_t fxt_merge_size(const struct fxt_merge *m);	/* archive size when known */
uint64_t fxt_merge_diag_count(const struct fxt_merge *m);
const struct fxt_kobj_info *fxt_merge_kobj(const struct fxt_merge *m, unsigned int type,
					   uint64_t koid);
const struct fxt_kobj_info *fxt_merge_thread_at(const struct fxt_merge *m,
						uint64_t koid, uint64_t ns);
/*
 * A kernel object record's name, or the newer one its koid already has
 * when the record is older by "named_at" (a restated name): the newest.
 */
struct fxt_str fxt_merge_kobj_name(const struct fxt_merge *m, const struct fxt_record *rec);

/* ------------------------------------------------------------------ */
/* Newest names: fxt-collect's trailer (lib/name_trailer.c).            */

/*
 * Perfetto names a koid after the last kernel object record it reads for
 * it; in an archive the CPUs' records come in save order, not time order.
 * Fed the durable records in the order they are written to the archive,
 * a tracker keeps, per (object type, koid), the newest name (by the
 * "named_at" argument; records without one are the oldest) and whether the
 * last record written carried it. fxt_newest_write_trailer() then appends
 * provider FXT_NAMES_PROVIDER_ID with one kernel object record (inline
 * strings, "process" koid and "named_at" uint64 arguments) per koid whose
 * last record was not its newest. About 80 bytes per koid, for at most
 * max_objects koids; records beyond are counted as untracked.
 */
struct fxt_newest;

struct fxt_newest *fxt_newest_new(size_t max_objects);	/* NULL: no memory */
void fxt_newest_free(struct fxt_newest *n);
/* Whole records of provider, as written to the archive (a partial one is ignored). */
void fxt_newest_feed(struct fxt_newest *n, uint32_t provider, const void *data,
		     size_t len);
size_t fxt_newest_stale(const struct fxt_newest *n);	/* koids the trailer rewrites */
size_t fxt_newest_koids(const struct fxt_newest *n);	/* koids tracked */
uint64_t fxt_newest_untracked(const struct fxt_newest *n);	/* records not tracked */
/* Records written (0: none needed, no provider either), or -errno. */
int fxt_newest_write_trailer(struct fxt_newest *n, struct fxt_writer *w);

/*
 * Command lines for the trailer: for a process (pid, its newest name, its
 * parent or FXT_KOID_NONE) that no record gave a "cmdline", the length of
 * the one the lookup put in buf (at most cap bytes, not NUL-terminated), or
 * 0 for none. The trailer then writes that process's record with it.
 */
#define FXT_TRAILER_CMDLINE_MAX	256	/* fxt.ko's exec records: the same */
typedef size_t (*fxt_cmdline_lookup)(void *ctx, uint32_t pid, struct fxt_str name,
				     uint64_t parent, char *buf, size_t cap);
void fxt_newest_lookup_cmdlines(struct fxt_newest *n, fxt_cmdline_lookup fn,
				void *ctx);
size_t fxt_newest_cmdlines(const struct fxt_newest *n);	/* the trailer wrote */
/*
 * The lookup from procfs (lib/proc_cmdline.c), ctx the procfs root
 * ("/proc", or NULL for it): /proc/PID/cmdline, arguments joined by
 * spaces, if /proc/PID/stat still has that name and, when known, that
 * parent: a process that exited, or whose pid was reused by another
 * command or parent, gets none.
 */
size_t fxt_proc_cmdline(void *ctx, uint32_t pid, struct fxt_str name,
			uint64_t parent, char *buf, size_t cap);

/* ------------------------------------------------------------------ */
/* Small helpers shared by the tools.                                   */

static inline struct fxt_str fxt_str(const char *s)
{
	struct fxt_str r = { 0, 0, s };
	size_t n = 0;

	if (s)
		while (s[n])
			n++;
	r.len = (uint16_t)(n > 0xffff ? 0xffff : n);
	return r;
}

/*
 * The sleep event (Documentation/records.rst, "Sleep states"): an instant
 * event of category "sched" whose name is one letter of FXT_SLEEP_STATES,
 * on the thread that the next context switch of its provider switches out.
 * Returns the letter ('D', 'I', 'P' or 't') when rec is one (not
 * malformed), else 0. *blocked_in (may be NULL) is its "blocked_in" string
 * argument, the function the thread blocked in, or the empty string when
 * it has none (no argument, one of another type, an undefined index).
 */
char fxt_sleep_event(const struct fxt_record *rec, struct fxt_str *blocked_in);

/*
 * The loss record (Documentation/records.rst, "Loss"; FXT_LOST_NAME in
 * <fxt/format.h>): CPU cpu's records from its kept record at from to its
 * kept record at to are incomplete, records of them lost. Times in ticks
 * (ns in fxt-collect's archives). fxt_lost_event() is true when rec is one,
 * well formed (both arguments, of their types; to >= from), and fills what
 * is not NULL.
 */
int fxt_write_lost(struct fxt_writer *w, uint32_t cpu, uint64_t from,
		   uint64_t to, uint64_t records);
bool fxt_lost_event(const struct fxt_record *rec, uint32_t *cpu,
		    uint64_t *to, uint64_t *records);

/*
 * A context switch's priorities: the legacy switch's fields, or the wide
 * one's "outgoing_weight" / "incoming_weight" int32 arguments (0 when
 * absent). Documentation/records.rst, "Context switch".
 */
void fxt_switch_prios(const struct fxt_record *rec, int32_t *out_prio, int32_t *in_prio);

/* Names of record types, event types, argument types, thread states. */
const char *fxt_record_type_name(unsigned int type);
const char *fxt_event_type_name(unsigned int type);
const char *fxt_arg_type_name(unsigned int type);
const char *fxt_thread_state_name(unsigned int state);

#endif /* LIBFXT_H */
