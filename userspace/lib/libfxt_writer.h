/* SPDX-License-Identifier: MIT */
/*
 * libfxt: the buffered writer (lib/writer.c, lib/writer_args.c,
 * lib/writer_records.c): one fxt_write_*() per record type.
 */
#ifndef LIBFXT_WRITER_H
#define LIBFXT_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libfxt_values.h"

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

#endif /* LIBFXT_WRITER_H */
