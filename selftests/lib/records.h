/* SPDX-License-Identifier: GPL-2.0 */
/*
 * records.h - load an archive into flat arrays, for the record-content
 * selftests (fxt_names, fxt_irq, fxt_irqname, fxt_sched_fields, fxt_flight,
 * fxt_restart); collector.h runs fxt-collect around their workloads.
 *
 * records_load() reads every record through the project's reader
 * (userspace/lib/libfxt.h) and keeps every kernel object record (not only
 * the last name of a koid), every string record, every context switch,
 * every wakeup and every event.
 */
#ifndef FXT_SELFTESTS_RECORDS_H
#define FXT_SELFTESTS_RECORDS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct records_kobj {
	uint64_t offset;		/* in the archive */
	uint32_t provider;		/* FXT_NAMES_PROVIDER_ID: the trailer */
	uint8_t obj_type;		/* 1 process, 2 thread */
	uint64_t koid;
	char name[64];			/* "" when the record had no name */
	bool has_process;		/* a "process" argument */
	uint8_t process_arg_type;	/* its argument type (8 = koid) */
	uint64_t process;		/* its value when of type koid */
	bool has_named_at;		/* a "named_at" argument */
	uint8_t named_at_type;		/* its argument type (4 = uint64) */
	uint64_t named_at;		/* its value when of type uint64 */
	bool has_parent;		/* a "parent" argument of type koid */
	uint64_t parent;
	bool has_cmdline;		/* a "cmdline" argument of type string */
	char cmdline[300];
};

struct records_switch {
	uint64_t offset;
	uint32_t provider;
	uint16_t cpu;
	uint8_t out_state;
	uint8_t out_prio, in_prio;
	bool out_defined, in_defined;
	uint64_t out_pid, out_tid, in_pid, in_tid;
	uint64_t ts;
};

struct records_string {
	uint64_t offset;
	uint32_t provider;
	uint16_t index;
	char text[64];
};

struct records_wakeup {
	uint64_t offset;
	uint32_t provider;
	uint16_t cpu;
	uint64_t ts;
	uint64_t tid;			/* woken thread */
	bool has_waker;			/* a "waker" argument of type koid */
	uint64_t waker;
	bool has_weight;		/* a "weight" argument of type int32 */
	int32_t weight;
	bool has_waking_cpu;		/* deferred: a "waking_cpu" argument of type uint32 */
	uint32_t waking_cpu;
	uint8_t nargs;			/* arguments of any name */
	uint16_t words;			/* the record's size */
};

struct records_event {
	uint64_t offset;
	uint32_t provider;
	uint8_t event_type;		/* FXT_EVENT_* */
	uint64_t ts;
	bool thread_defined;
	uint64_t pid, tid;
	char category[32];
	char name[64];
	uint8_t nargs;
	uint8_t arg_type;		/* first argument */
	char arg_name[32];
	int64_t arg_value;		/* int32/uint32/bool/int64/uint64 */
	char arg_str[128];		/* string */
};

struct records {
	struct records_kobj *kobjs;
	size_t nkobjs;
	struct records_switch *sw;
	size_t nsw;
	struct records_event *ev;
	size_t nev;
	struct records_wakeup *wk;
	size_t nwk;
	struct records_string *str;
	size_t nstr;
	uint64_t records;
	uint64_t diags;			/* libfxt diagnostics */
	uint64_t malformed;		/* records libfxt flagged malformed/unknown */
	int max_provider;		/* -1 when none; the trailer's not counted */
	uint64_t buffer_full;		/* provider event "buffer full" records */
	char error[256];		/* "" when the whole archive was read */
};

struct fxt_record;

/* Return 0 (problems in a->error), or -errno when the file cannot be opened. */
int records_load(const char *path, struct records *a);
/*
 * records_load(), handing each well-formed record to each(rec, ctx) too,
 * for what the arrays do not keep (all of an event's arguments, say).
 */
int records_load_each(const char *path, struct records *a,
		      void (*each)(const struct fxt_record *rec, void *ctx),
		      void *ctx);
/* records_load(), saying in why which file could not be opened. */
int records_read(const char *path, struct records *a, char *why,
		 size_t why_size);
void records_free(struct records *a);

/* Every kernel object record of type for koid, in archive order. */
size_t records_kobjs_of(const struct records *a, uint8_t obj_type, uint64_t koid,
		   const struct records_kobj **out, size_t max);
/*
 * The last process record of pid with a "cmdline": fxt.ko's (an exec's),
 * or with from_trailer fxt-collect's trailer's (from /proc). NULL: none.
 */
const struct records_kobj *records_cmdline_of(const struct records *a,
					      uint64_t pid, bool from_trailer);
/* Is there a kernel object record of obj_type, koid and exactly name? */
bool records_has_kobj_named(const struct records *a, uint8_t obj_type,
		       uint64_t koid, const char *name);

#endif /* FXT_SELFTESTS_RECORDS_H */
