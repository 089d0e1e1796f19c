/* SPDX-License-Identifier: MIT */
/*
 * reader_state.h - the streaming reader's state, shared by its four files
 * and nobody else:
 *
 *   reader.c            opening, closing, the settings and the counts
 *   reader_tables.c     what records define for later ones: providers
 *                       with their string and thread tables, kernel
 *                       objects; the diagnostics and the memory limit
 *   reader_cursor.c     reading one record's content: words, strings,
 *   (reader_cursor.h)   threads, arguments, reserved bits
 *   reader_decode.c     the records one at a time: framing from the
 *                       input buffer (fxt_reader_next()), then one
 *                       decoder per record type
 *   reader_durations.c  the nesting of duration events (an option)
 *   reader_sleeps.c     sleep events paired with their switch (an option)
 *
 * the layers of Perfetto's FXT importer (tokenizer, record cursor,
 * parser), but for framing and decoding in one file: a record is framed
 * and decoded without a call between them (a call per record costs the
 * reader 7% of its time). The reader's own description is at the top of
 * reader.c.
 */
#ifndef LIBFXT_READER_STATE_H
#define LIBFXT_READER_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <fxt/format.h>

#include "internal.h"
#include "libfxt_helpers.h"
#include "libfxt_perfetto.h"
#include "libfxt_reader.h"
#include "reader_input.h"
#include "name_history.h"
#include "u64map.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "libfxt reads FXT archives on little-endian hosts only"
#endif

#define STR_CHUNK	256				/* string slots per chunk */
#define STR_CHUNKS	((FXT_STRING_INDEX_MAX + 1) / STR_CHUNK)
#define PROV_BUCKETS	256				/* provider hash buckets */
#define MIN_BUFSIZE	(64u << 10)
#define NS_PER_SEC	1000000000ull
#define DUR_DEPTH	32		/* open duration levels kept per thread */
#define DUR_SEEN	16		/* names begun remembered per thread */

struct str_slot {
	char *data;		/* malloc'd copy, NULL for an empty string */
	uint16_t len;
	bool defined;
};

struct thread_slot {
	uint64_t pid, tid;
	bool defined;
};

/*
 * Duration begin/end nesting of one thread in one provider (a provider's
 * records are in time order, its threads' events nest in file order): the
 * open levels, innermost last, each a hash of its category and name; the
 * levels past DUR_DEPTH are only counted. seen: the names begun on the
 * thread so far (up to DUR_SEEN of them), to tell an end whose begin may
 * precede the archive from one whose begin cannot (see check_duration()).
 */
struct dur_thread {
	uint64_t tid;
	uint32_t depth;
	uint8_t nseen;		/* past DUR_SEEN names, the others are not kept */
	bool no_begin_said;	/* DURATION_NO_BEGIN reported for it */
	uint64_t open[DUR_DEPTH];
	uint64_t seen[DUR_SEEN];
};

/* Reader memory charged per dur_thread: itself and its u64map slots. */
#define DUR_THREAD_MEM	(sizeof(struct dur_thread) + 2 * (sizeof(uint64_t) + sizeof(uint32_t)))

struct provider {
	uint32_t id;
	bool announced;		/* by provider info metadata */
	bool warned;		/* PROVIDER_UNKNOWN reported for it */
	bool per_cpu;		/* named "cpu<id>": the provider is CPU id */
	uint64_t last_ts;	/* latest timestamp read in it */
	uint64_t ticks_per_second;
	struct provider *hnext;	/* hash chain */
	char name[256];
	struct thread_slot threads[256];
	struct str_slot *strs[STR_CHUNKS];
	/* duration nesting (fxt_reader_check_durations()) */
	struct u64map dur_map;		/* thread koid -> index in durs */
	struct dur_thread *durs;
	uint32_t ndurs, dur_cap;
	/* the sleep event waiting for its switch (fxt_reader_check_sleeps()) */
	char sleep;		/* its letter, 0 if none */
	uint64_t sleep_tid, sleep_offset;
};

enum mem_kind { MEM_STRINGS, MEM_KOBJS, MEM_PROVIDERS, MEM_DURATIONS, MEM_KINDS };

struct kobj_table {
	struct fxt_kobj_info *slots;
	size_t cap, count;
	struct name_history threads;	/* thread names over time */
};

struct fxt_reader {
	struct fxt_input in;		/* lib/reader_input.c */
	bool started;			/* first record seen */
	bool stopped;			/* cannot or must not continue */
	int end_rc;			/* what fxt_reader_next() returns once stopped */

	/* diagnostics */
	fxt_diag_fn diag;
	void *diag_ctx;
	uint64_t ndiags;
	uint64_t diag_counts[FXT_D_COUNT];

	/* memory */
	size_t mem_limit, mem_used;
	bool mem_warned[MEM_KINDS];

	/* providers */
	struct provider *cur;
	struct provider *buckets[PROV_BUCKETS];
	struct provider *spare;		/* used when no more providers fit */
	unsigned int nproviders;

	unsigned int skip_args;		/* FXT_SKIP_* */
	bool check_durations;		/* DURATION_UNMATCHED, DURATION_MISMATCH */
	bool check_sleeps;		/* SLEEP_UNPAIRED */

	/* kernel objects: kt is &own_kt, or a table shared by merge cursors */
	bool track_kobjs;
	struct kobj_table own_kt, *kt;

	uint64_t nrecords, nbytes;	/* records read, and their size */
};

/*
 * Decoding cursor over one record. A raw cursor (raw_cur() of
 * reader_cursor.h) has no reader, provider or record: it reads a record
 * that no reader frames, reports nothing and looks up no table.
 */
struct cur {
	struct fxt_reader *r;	/* NULL: a raw cursor */
	struct provider *prov;	/* r->cur when the record started */
	struct fxt_record *rec;
	const uint64_t *p, *end;
	int arg;		/* argument being decoded, -1 outside arguments */
	bool bad;		/* content overflowed: record is malformed */
};

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define COLD		__attribute__((cold, noinline))

/* ------------------------------------------------------------------ */
/* Diagnostics and memory (reader_tables.c).                            */

/* Stop reading: fxt_reader_next() returns rc from now on (0 end, -1 error). */
void fxt_rd_stop(struct fxt_reader *r, int rc);
/* Count diagnostic id at offset, and hand it to the callback with its text. */
void fxt_rd_report(struct fxt_reader *r, uint64_t offset, enum fxt_diag_id id,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5))) COLD;
/* A diagnostic of the record that cursor c reads (none from a raw cursor). */
#define REPORT(c, id, ...) \
	((c)->r ? fxt_rd_report((c)->r, (c)->rec->offset, FXT_D_##id, __VA_ARGS__) : (void)0)

COLD uint64_t fxt_rd_ticks_to_ns_slow(uint64_t ticks, uint64_t tps);

static inline uint64_t ticks_to_ns(const struct fxt_reader *r, uint64_t ticks)
{
	uint64_t tps = r->cur->ticks_per_second;

	return likely(tps == NS_PER_SEC) ? ticks : fxt_rd_ticks_to_ns_slow(ticks, tps);
}

/*
 * Charge bytes of kind to the reader's memory limit: false (reported once
 * per kind) when they do not fit.
 */
bool fxt_rd_mem_take(struct fxt_reader *r, size_t bytes, enum mem_kind kind,
		     uint64_t offset);
void fxt_rd_mem_give(struct fxt_reader *r, size_t bytes);

/* ------------------------------------------------------------------ */
/* Providers, strings, kernel objects (reader_tables.c).                */

void fxt_rd_provider_clear(struct fxt_reader *r, struct provider *p);
struct provider *fxt_rd_provider_find(const struct fxt_reader *r, uint32_t id);
struct provider *fxt_rd_provider_get(struct fxt_reader *r, uint32_t id,
				     uint64_t offset);
/* The slot of string index in p's table; NULL: its chunk was never used. */
static inline struct str_slot *fxt_rd_str_slot(const struct provider *p, unsigned int index)
{
	const struct str_slot *c = p->strs[index / STR_CHUNK];

	return c ? (struct str_slot *)&c[index % STR_CHUNK] : NULL;
}
void fxt_rd_string_define(struct fxt_reader *r, struct provider *p, unsigned int index,
			  const char *data, size_t len, uint64_t offset);
void fxt_rd_kobj_set(struct fxt_reader *r, uint64_t koid, unsigned int type,
		     struct fxt_str name, uint64_t process, uint64_t parent,
		     uint64_t named_at, uint64_t offset);

/* ------------------------------------------------------------------ */
/* Duration nesting (reader_durations.c).                               */

/* A duration event's begin or end against its thread's open levels. */
void fxt_rd_check_duration(struct cur *c, unsigned int type);

/* ------------------------------------------------------------------ */
/* Sleep events and their switches (reader_sleeps.c).                   */

/* An instant event: a sleep event waits for its switch. */
void fxt_rd_check_sleep_event(struct cur *c);
/* A context switch: does it switch the waiting sleep event's thread out? */
void fxt_rd_check_sleep_switch(struct cur *c);
/* The end of the archive: sleep events still waiting had no switch. */
void fxt_rd_check_sleeps_end(struct fxt_reader *r);

#endif /* LIBFXT_READER_STATE_H */
