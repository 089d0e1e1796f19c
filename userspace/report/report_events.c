// SPDX-License-Identifier: MIT
/*
 * report_events.c - fxt-report's reading side: the records of each
 * provider's cursor (lib/merge.c) become events (struct ev), handed out in
 * time order to the analysis (report_stats.c), here or on a second thread
 * (report_pipeline.c).
 *
 * Each cursor decodes ahead into a small queue of events; the earliest
 * head among the queues is next. Only events need ordering: names and
 * strings are resolved as each cursor decodes, and the report reads
 * kernel object names at the end.
 */
#include <stdlib.h>
#include <string.h>

#include "merge_order.h"
#include "progress.h"
#include "report_stats.h"

/* s equals the literal lit (compared inline: the length is a constant). */
#define STR_IS(s, lit)	((s).len == sizeof(lit) - 1 && (s).data && \
			 !memcmp((s).data, (lit), sizeof(lit) - 1))

/* The time span covers every timestamped record (reading side). */
static inline void saw_ts(struct report *rp, uint64_t ts)
{
	rp->first_ns = ts < rp->first_ns ? ts : rp->first_ns;
	rp->last_ns = ts > rp->last_ns ? ts : rp->last_ns;
}

#define QUEUE_EVENTS	256
#define HANDLER_CACHE	64

/* Events decoded ahead from one provider's cursor (see "Time order"). */
struct evqueue {
	unsigned int head, len;
	bool done;		/* the cursor has no more records */
	bool replaying;		/* the second reading (report_drain()) */
	struct fxt_reader *r;	/* the cursor */
	struct fxt_record *rec;	/* its record being made an event */
	/*
	 * The last sleep event read, for the next switch of its provider:
	 * its letter (0: none pending), thread, provider, function id.
	 */
	char sleep;
	uint32_t sleep_provider, sleep_fn;
	uint64_t sleep_tid;
	/*
	 * Handler ids of interrupt names that are string indices of this
	 * cursor, by index % HANDLER_CACHE: key is index << 1 | soft, 0 for
	 * none. An index means the same name until a string record
	 * redefines it or a provider record changes the string table.
	 */
	struct {
		uint16_t key;
		uint32_t id;
	} handler[HANDLER_CACHE];
	struct ev ev[QUEUE_EVENTS];
};

/* The handler of an interrupt name read from q's cursor: UINT32_MAX if none. */
static uint32_t handler_of(struct report *rp, struct evqueue *q, bool soft,
			   struct fxt_str name)
{
	uint16_t key = (uint16_t)(name.ref << 1 | soft);
	unsigned int slot = name.ref % HANDLER_CACHE;
	int h;

	if (name.ref && !(name.ref & FXT_STRING_REF_INLINE) && q->handler[slot].key == key)
		return q->handler[slot].id;
	h = report_handler_get(rp, soft, name);
	if (h < 0)
		return UINT32_MAX;
	if (name.ref && !(name.ref & FXT_STRING_REF_INLINE)) {
		q->handler[slot].key = key;
		q->handler[slot].id = (uint32_t)h;
	}
	return (uint32_t)h;
}

/* What a record read from q's cursor changes in its handler cache. */
static void handler_forget(struct evqueue *q, const struct fxt_record *rec)
{
	if (rec->type == FXT_REC_STRING && rec->words)
		q->handler[FXT_G(rec->words[0], FXT_STRING_INDEX_FIELD) % HANDLER_CACHE].key = 0;
	else if (rec->type == FXT_REC_STRING || rec->type == FXT_REC_METADATA)
		memset(q->handler, 0, sizeof(q->handler));
}

/*
 * A sleep event: kept for the next switch of its provider, which carries
 * its letter and, for D, the function's id (the report counts D by it).
 */
static void sleep_pending(struct report *rp, struct evqueue *q, const struct fxt_record *rec,
			  char letter, struct fxt_str blocked_in)
{
	if (!rec->u.event.thread.defined) {
		q->sleep = 0;
		return;
	}
	q->sleep = letter;
	q->sleep_tid = rec->u.event.thread.tid;
	q->sleep_provider = rec->provider;
	q->sleep_fn = letter == 'D' ? report_blocked_fn(rp, blocked_in) : UINT32_MAX;
}

/* The sleep event pending for switch e of rec's provider, if its thread goes out. */
static void sleep_paired(struct evqueue *q, const struct fxt_record *rec, struct ev *e)
{
	if (q->sleep_provider != rec->provider)
		return;		/* file order: another provider's switch */
	if ((e->flags & EVF_OUT) && e->out_tid == q->sleep_tid) {
		e->sleep = (uint8_t)q->sleep;
		e->handler = q->sleep_fn;
	}
	q->sleep = 0;
}

/* The reading side: the event a record of q's cursor stands for, if any. */
static bool make_event(struct report *rp, struct evqueue *q, const struct fxt_record *rec,
		       struct ev *e)
{
	const struct fxt_thread *th;
	uint64_t ts;

	if (rec->type == FXT_REC_SCHED) {
		ts = rec->ts_ns;
		saw_ts(rp, ts);
		e->ts = ts;
		if (rec->subtype == FXT_SCHED_THREAD_WAKEUP) {
			e->kind = EV_WAKEUP;
			e->out_tid = rec->u.wakeup.tid;
			return true;
		}
		e->kind = EV_SWITCH;
		e->cpu = rec->cpu;	/* the provider of a per-CPU provider */
		e->out_state = rec->u.sw.out_state;
		e->flags = (rec->u.sw.out.defined ? EVF_OUT : 0) |
			   (rec->u.sw.in.defined ? EVF_IN : 0) |
			   (rec->subtype == FXT_SCHED_CONTEXT_SWITCH ? EVF_PIDS : 0);
		e->out_tid = rec->u.sw.out.tid;
		e->out_pid = rec->u.sw.out.pid;
		e->in_tid = rec->u.sw.in.tid;
		e->in_pid = rec->u.sw.in.pid;
		e->sleep = 0;
		if (__builtin_expect(q->sleep != 0, 0))
			sleep_paired(q, rec, e);
		return true;
	}
	if (rec->type != FXT_REC_EVENT) {
		/* A power event (report_power.c): its time is in the span too. */
		if (rec->type != FXT_REC_BLOB || !report_power_event(rec, e))
			return false;
		saw_ts(rp, e->ts);
		return true;
	}
	ts = rec->ts_ns;
	saw_ts(rp, ts);
	e->ts = ts;
	if (rec->subtype == FXT_EVENT_INSTANT) {
		struct fxt_str blocked_in;
		char letter = fxt_sleep_event(rec, &blocked_in);

		if (letter) {
			sleep_pending(rp, q, rec, letter, blocked_in);
			return false;
		}
		/* Read once: the second reading (replaying) has them already. */
		if (!q->replaying)
			report_trigger_record(rp, rec);
		return false;
	}
	if (rec->subtype == FXT_EVENT_COUNTER) {
		/* fxt/dropped: cumulative per CPU, counter id = CPU. */
		if (STR_IS(rec->u.event.category, FXT_DROPPED_CATEGORY) &&
		    STR_IS(rec->u.event.name, FXT_DROPPED_NAME) &&
		    rec->nargs && (rec->args[0].type == FXT_ARG_UINT64 ||
				   rec->args[0].type == FXT_ARG_INT64) &&
		    rec->u.event.data < MAX_CPUS) {
			e->kind = EV_DROP;
			e->cpu = (uint16_t)rec->u.event.data;
			e->out_tid = rec->args[0].v.u64;
			return true;
		}
		return false;
	}
	if (rec->subtype == FXT_EVENT_DURATION_COMPLETE) {
		/* fxt-collect's loss record (report_losses.c): its end is in the span too. */
		if (!report_gap_event(q->r, rec, e))
			return false;
		saw_ts(rp, e->in_tid);
		return true;
	}
	if (rec->subtype != FXT_EVENT_DURATION_BEGIN && rec->subtype != FXT_EVENT_DURATION_END)
		return false;
	if (STR_IS(rec->u.event.category, FXT_CAT_NAME_IRQ))
		e->flags = 0;
	else if (STR_IS(rec->u.event.category, FXT_CAT_NAME_SOFTIRQ))
		e->flags = EVF_SOFT;
	else
		return false;
	th = &rec->u.event.thread;
	if (th->defined && th->tid >= FXT_KOID_IRQ_THREAD(0) &&
	    th->tid < FXT_KOID_IRQ_THREAD(MAX_CPUS))
		e->cpu = (uint16_t)(th->tid - FXT_KOID_IRQ_THREAD(0));
	else if (rec->provider < MAX_CPUS)
		e->cpu = (uint16_t)rec->provider;
	else
		return false;
	if (rec->subtype == FXT_EVENT_DURATION_BEGIN) {
		e->kind = EV_IRQ_BEGIN;
		e->handler = handler_of(rp, q, e->flags & EVF_SOFT, rec->u.event.name);
	} else {
		e->kind = EV_IRQ_END;
	}
	return true;
}

struct evmerge {
	struct report *rp;
	struct fxt_merge *m;
	bool early;		/* one thread: resolve threads and apply per-CPU */
				/* parts (report_early()) as events are queued */
	size_t n;
	struct evqueue *q;	/* one per cursor */
	struct merge_order order;	/* of the queues (lib/merge_order.h) */
	struct progress *pg;	/* updated as the cursors read on */
	/* refill(), early: interrupts left out, where and when */
	unsigned int irq_at[QUEUE_EVENTS];
	uint64_t irq_ts[QUEUE_EVENTS];
};

/*
 * The interrupts left out of q in refill() still count. The queue must run
 * dry when the last event decoded into it is handed out, as if they were
 * there: that is when the cursor decodes on, which decides the kernel
 * object names the report shows (the last decoded) and the order of the
 * defects reported. And when timestamps go back within the batch, an event
 * left out may hold back the events after it. So: a mark with the time of
 * the last event when that was an interrupt; all of them put back in place
 * when the batch is not in time order (the rest of the time, leaving out
 * earlier events changes nothing: the queue's others come out when they
 * would have).
 */
static void keep_order(struct evmerge *em, struct evqueue *q, unsigned int nirq, bool sorted)
{
	unsigned int src = q->len, dst = q->len + nirq, k = nirq;

	if (sorted) {
		if (em->irq_at[nirq - 1] == q->len) {
			q->ev[q->len].kind = EV_MARK;
			q->ev[q->len++].ts = em->irq_ts[nirq - 1];
		}
		return;
	}
	while (k--) {
		while (src > em->irq_at[k])
			q->ev[--dst] = q->ev[--src];
		q->ev[--dst].kind = EV_MARK;
		q->ev[dst].ts = em->irq_ts[k];
	}
	q->len += nirq;
}

/* Decode cursor i's next records into its queue; false when none are left. */
static bool refill(struct evmerge *em, unsigned int i)
{
	struct evqueue *q = &em->q[i];
	const struct fxt_record *rec = q->rec;
	unsigned int n = 0, nirq = 0;	/* events decoded, interrupts left out */
	uint64_t prev = 0;
	bool sorted = true;

	q->head = q->len = 0;
	while (n < QUEUE_EVENTS && !q->done) {
		struct ev *e = &q->ev[q->len];

		if (fxt_reader_next(q->r, q->rec) <= 0) {
			q->done = true;
			break;
		}
		handler_forget(q, rec);
		if (rec->flags & (FXT_RF_MALFORMED | FXT_RF_UNKNOWN | FXT_RF_NO_PAYLOAD))
			continue;
		if (!make_event(em->rp, q, rec, e))
			continue;
		n++;
		if (em->early) {
			sorted &= e->ts >= prev;
			prev = e->ts;
			if (ev_is_irq(e)) {
				report_early(em->rp, i, e);
				em->irq_at[nirq] = q->len;
				em->irq_ts[nirq++] = e->ts;
				continue;
			}
			/*
			 * Which index a thread's state gets does not matter
			 * to the report: look states up here, next to the
			 * decoding, rather than in time order.
			 */
			report_resolve(em->rp, e);
			if (e->kind == EV_SWITCH)
				report_early(em->rp, i, e);
			else if (e->kind == EV_GAP)
				report_early_gap(em->rp, i, e);
		}
		q->len++;
	}
	if (nirq)
		keep_order(em, q, nirq, sorted);
	fxt_progress_update(em->pg, fxt_merge_bytes(em->m));
	return q->len != 0;
}

/*
 * The order's hook: move queue i on to its next event, decoding more when
 * it runs dry; key is the event's time.
 */
static inline bool next_in_queue(void *ctx, unsigned int i, uint64_t *key)
{
	struct evmerge *em = ctx;
	struct evqueue *q = &em->q[i];

	if (++q->head >= q->len && !refill(em, i))
		return false;
	*key = q->ev[q->head].ts;
	return true;
}

static int evmerge_init(struct evmerge *em, struct report *rp, struct fxt_merge *m,
			bool early, bool replaying, struct progress *pg)
{
	size_t i;

	memset(em, 0, sizeof(*em));
	em->rp = rp;
	em->m = m;
	em->early = early;
	em->pg = pg;
	em->n = fxt_merge_cursors(m);
	em->q = calloc(em->n, sizeof(*em->q));
	if (!em->q || merge_order_init(&em->order, em->n))
		return -1;
	for (i = 0; i < em->n; i++) {
		em->q[i].r = fxt_merge_cursor(m, i);
		em->q[i].replaying = replaying;
		em->q[i].rec = malloc(sizeof(*em->q[i].rec));
		if (!em->q[i].rec)
			return -1;
	}
	return 0;
}

static void evmerge_free(struct evmerge *em)
{
	size_t i;

	for (i = 0; em->q && i < em->n; i++)
		free(em->q[i].rec);
	free(em->q);
	merge_order_free(&em->order);
}

/* The next event in time order, NULL at the end. */
static inline const struct ev *next_event(struct evmerge *em)
{
	int i = merge_order_next(&em->order, next_in_queue, em);

	return i < 0 ? NULL : &em->q[i].ev[em->q[i].head];
}

/*
 * Hand out em's events in time order: applied here (one thread), in
 * blocks to the analysis thread (p), or, replaying, only the per-CPU
 * parts that were mixed.
 */
static void drain(struct evmerge *em, struct pipeline *p, bool replaying)
{
	struct report *rp = em->rp;
	struct ev *block = p ? pipeline_block(p) : NULL;
	unsigned int nev = 0;
	const struct ev *e;

	while ((e = next_event(em))) {
		if (p) {
			block[nev] = *e;
			if (++nev == BLOCK_EVENTS) {
				pipeline_submit(p, nev);
				block = pipeline_block(p);
				nev = 0;
			}
		} else if (!replaying) {
			report_apply(rp, e);	/* in place, thread states already resolved */
		} else {
			report_replay_event(rp, e);
		}
	}
	if (p && nev)
		pipeline_submit(p, nev);
}

int report_drain(struct report *rp, struct fxt_merge *m, struct pipeline *p,
		 bool early, bool replaying, struct progress *pg)
{
	struct evmerge em;
	int rc = evmerge_init(&em, rp, m, early, replaying, pg);

	if (!rc)
		drain(&em, p, replaying);
	evmerge_free(&em);
	return rc;
}
