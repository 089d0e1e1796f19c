/* SPDX-License-Identifier: MIT */
/*
 * json_internal.h - what the JSON conversion's files share: the
 * conversion's state (struct json), its output pieces (json_out.c) and the
 * scheduling tracks (json_sched.c), for the events (json.c).
 */
#ifndef FXT_DUMP_JSON_INTERNAL_H
#define FXT_DUMP_JSON_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "json.h"
#include "name_intern.h"
#include "sleep_pairs.h"
#include "u64map.h"

#define DSTACK_MAX	16	/* nesting kept per thread */
#define FRAME_NAME	64
#define FRAME_CAT	32
#define FRAME_ARGS	200

enum jstate_kind {
	JS_UNKNOWN,
	JS_RUNNING,
	JS_RUNNABLE,
	JS_SLEEPING,
	JS_STOPPED,
	JS_DYING,
	JS_DEAD,
};

struct dframe {
	uint64_t start;
	uint8_t name_len, cat_len;
	uint16_t args_len;	/* JSON members without braces, or 0 */
	char name[FRAME_NAME];
	char cat[FRAME_CAT];
	char args[FRAME_ARGS];
};

struct dstack {
	unsigned int depth;	/* may exceed DSTACK_MAX: deeper frames are not kept */
	struct dframe f[DSTACK_MAX];
};

struct jthread {
	uint64_t tid, pid;
	uint64_t since;		/* ns: start of the current state */
	uint8_t state;		/* enum jstate_kind */
	uint8_t prio;
	uint16_t cpu;
	bool pid_known;		/* from a thread ref or a kernel object record */
	bool woken;		/* Runnable because of a wakeup (else preempted) */
	char sleep;		/* Sleeping/Stopped after a sleep event: its letter */
	uint32_t sleep_fn;	/* its blocked_in (json.sleeps.fns), UINT32_MAX if none */
	struct dstack *stack;
};

/* A provider's sleep event, waiting for the provider's next switch. */
struct jcpu {
	bool seen;		/* metadata written */
	bool valid;		/* tid/since describe the running thread */
	uint8_t prio;
	uint64_t tid, pid;
	uint64_t since;
};

struct json {
	struct fxt_merge *m;
	struct fxt_reader *from;	/* reader of the current record */
	struct outbuf *o;
	struct outbuf scratch;	/* rendering begin args for later */
	char scratch_mem[1024 + OUTBUF_SLACK];
	struct jthread *threads;
	size_t nthreads, cap;
	struct u64map map;
	struct jcpu *cpus;
	size_t ncpus;
	bool cpus_named;
	struct sleep_pairs sleeps;	/* sleep events, function names */
	bool first;
	uint64_t last_ns;
	uint64_t flow_id;
	uint64_t *gap_ends;	/* loss records' ends still ahead (json_sched.c) */
	size_t ngap_ends, gap_cap;
};

/* json_out.c: the thread table and the output pieces. */
/* Learn pid from a thread ref (or the koid table) when not known yet. */
struct jthread *json_thread_ref(struct json *j, uint64_t tid, uint64_t pid, bool have_pid);
void json_ev_open(struct json *j);
void json_put_name(struct outbuf *o, struct fxt_str s);
/* A thread's name from the koid table, else "tid N". */
void json_put_thread_name(struct json *j, uint64_t tid);
/* ,"ph":"X","ts":..,"pid":..,"tid":.. */
void json_put_where(struct json *j, char ph, uint64_t ts, uint64_t pid, uint64_t tid);
void json_put_dur(struct json *j, uint64_t start, uint64_t end);
void json_meta(struct json *j, const char *what, uint64_t pid, uint64_t tid,
	       const char *name, size_t len);
void json_meta_sort(struct json *j, const char *what, uint64_t pid, uint64_t tid,
		    uint64_t index);
/* Argument members "name":value,... (no braces). */
void json_put_arg_members(struct outbuf *o, const struct fxt_record *rec, bool numeric_only);
void json_put_args(struct json *j, const struct fxt_record *rec);

/* json_sched.c: CPU tracks, thread states and wakeups. */
/* Close the slice of the thread running on c at ts. */
void json_cpu_close(struct json *j, unsigned int cpu, struct jcpu *c, uint64_t ts,
		    const char *end_state);
/* Move t to state at ts, writing the slice of the state it leaves. */
void json_thread_set(struct json *j, struct jthread *t, enum jstate_kind state, uint64_t ts);
void json_on_switch(struct json *j, const struct fxt_record *rec, uint64_t ts);
void json_on_wakeup(struct json *j, const struct fxt_record *rec, uint64_t ts);
/* A loss record (records.rst "Loss"): cpu's records from..to are missing. */
void json_on_gap(struct json *j, uint32_t cpu, uint64_t from, uint64_t to);
/* Before a record at ts: the ends of the gaps that ended by then. */
void json_gap_ends(struct json *j, uint64_t ts);

#endif /* FXT_DUMP_JSON_INTERNAL_H */
