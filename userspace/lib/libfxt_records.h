/* SPDX-License-Identifier: MIT */
/*
 * libfxt: a decoded record (struct fxt_record), as the reader hands it out
 * and fxt_write_record() re-encodes it.
 */
#ifndef LIBFXT_RECORDS_H
#define LIBFXT_RECORDS_H

#include <stdint.h>

#include "libfxt_values.h"

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

#endif /* LIBFXT_RECORDS_H */
