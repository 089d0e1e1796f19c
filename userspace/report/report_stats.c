// SPDX-License-Identifier: MIT
/*
 * report_stats.c - fxt-report's analysis: events (struct ev, in time
 * order) to per-thread, per-CPU and per-handler sums.
 *
 * Per thread: run time, switches in, preemptions, runnable wait (time
 * preempted but runnable until it runs again), wakeups and the scheduling
 * delay from a wakeup to the next switch in (report/hist.h), and the time
 * blocked, in S or in D (a sleep event "D" before the switch out), from
 * the switch out to the wakeup (or, without one, the switch in). Per CPU: busy
 * and idle time (idle is thread koid 0), hard and soft interrupt time,
 * switches, dropped records. Per interrupt handler: count, time, maximum.
 * Interrupt time is exclusive: a hard interrupt nested in a softirq counts
 * for the hard interrupt only. Power events (cpu_idle, cpu_frequency) are
 * report_power.c's.
 *
 * Gaps: where a CPU lost records (EV_GAP, report_losses.c), from A to B,
 * nothing is drawn across: the thread running on it at A stops counting
 * run time at A, its busy and idle time stop at A until its next switch,
 * an interrupt open on it is closed at A, and every thread runnable or
 * asleep at A, or that becomes so before B, may have run on it unseen: its
 * state is unknown (T_UNKNOWN, which counts nothing) until it is next
 * seen switched in, out or woken. Threads running on other CPUs stay.
 */
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "report_stats.h"

/* ------------------------------------------------------------------ */
/* Events.                                                              */


/*
 * Histogram updates go through a short delay line: a sample's bucket is
 * prefetched when it arrives and counted DELAY_LINE samples later, so the
 * cache miss on a thread's histogram does not stall the event loop.
 */
static inline void delay_sample(struct report *rp, struct hist *h, uint64_t v)
{
	struct pending *p = &rp->pending[rp->pend_head];

	if (p->h)
		hist_add(p->h, p->v);
	p->h = h;
	p->v = v;
	__builtin_prefetch(h, 1);
	__builtin_prefetch(&h->b[hist_index(v)], 1);
	rp->pend_head = (rp->pend_head + 1) % DELAY_LINE;
}

static void delay_drain(struct report *rp)
{
	unsigned int i;

	for (i = 0; i < DELAY_LINE; i++) {
		if (rp->pending[i].h)
			hist_add(rp->pending[i].h, rp->pending[i].v);
		rp->pending[i].h = NULL;
	}
}

static void cpu_account(struct cstat *c, uint64_t ts)
{
	if (c->cur_valid && ts > c->since) {
		if (c->cur_tid)
			c->busy_ns += ts - c->since;
		else
			c->idle_ns += ts - c->since;
	}
	c->since = ts;
}

/*
 * cond ? v : 0, computed: for conditions that are true or false at random,
 * where GCC may still turn ?: into a branch.
 */
static inline uint64_t only_if(bool cond, uint64_t v)
{
	return v & -(uint64_t)cond;
}

/* The state a thread switched out in (FXT_THREAD_*) leaves it in. */
static const uint8_t out_states[16] = {
	T_PREEMPTED, T_PREEMPTED,		/* new (preempted), running */
	T_SLEEPING, T_SLEEPING,			/* suspended, blocked */
	T_DEAD, T_DEAD,				/* dying (a zombie), dead */
	T_SLEEPING, T_SLEEPING, T_SLEEPING, T_SLEEPING, T_SLEEPING,	/* undefined */
	T_SLEEPING, T_SLEEPING, T_SLEEPING, T_SLEEPING, T_SLEEPING,
};

/*
 * A sleep of thread idx, switched out blocked, ended after ns: its time in
 * S or D. Only blocked sleeps come here, not every switch.
 */
static void sleep_end(struct report *rp, uint32_t idx, unsigned int kind, uint64_t ns)
{
	struct tsleep *s = &rp->sleeps[idx];

	if (kind == SL_S) {
		s->s_ns += ns;
		return;
	}
	s->d_ns += ns;
	s->d_max = ns > s->d_max ? ns : s->d_max;
	report_blocked_sample(rp, s->d_fn, idx, ns);
}

/* The part of a switch that is its CPU's: busy and idle time, switches. */
static inline void cpu_switch(struct cstat *c, const struct ev *e)
{
	if (!c->seen) {
		c->seen = true;
		c->first = e->ts;
	}
	cpu_account(c, e->ts);
	c->switches++;
	c->cur_valid = e->flags & EVF_IN;
	c->cur_tid = e->in_tid;
}

/* Inlined where applied (twice: with and without a gap, see apply()). */
static inline __attribute__((always_inline)) void on_switch(struct report *rp,
							    const struct ev *e)
{
	uint64_t ts = e->ts;
	struct tstat *t;

	rp->switches++;
	if (!rp->early) {
		struct cstat *c = report_cpu_get(rp, e->cpu);

		if (c)
			cpu_switch(c, e);
	}
	/*
	 * The outgoing state and the time a thread was running or waiting
	 * vary from switch to switch: no branches on them (a mispredicted
	 * branch costs more than the arithmetic).
	 */
	if (e->out_idx != NO_THREAD) {
		uint8_t state = out_states[e->out_state & 15];
		uint64_t ran;

		t = &rp->threads[e->out_idx];
		if (e->flags & EVF_PIDS)
			t->pid = e->out_pid;
		ran = only_if(t->state == T_RUNNING && ts >= t->since, ts - t->since);
		t->run_ns += ran;
		t->preempts += state == T_PREEMPTED;
		t->state = state;
		t->since = ts;
		/* blocked: S, or D after a sleep event "D" (no branch either) */
		t->sleep = (uint8_t)((e->out_state == FXT_THREAD_BLOCKED) *
				     (SL_S + (e->sleep == 'D')));
		if (__builtin_expect(e->sleep == 'D', 0))
			rp->sleeps[e->out_idx].d_fn = e->handler;
	}
	if (e->in_idx != NO_THREAD) {
		uint64_t waited;

		t = &rp->threads[e->in_idx];
		if (e->flags & EVF_PIDS)
			t->pid = e->in_pid;
		waited = only_if(t->state == T_PREEMPTED && ts >= t->since, ts - t->since);
		t->wait_ns += waited;
		t->wait_max = waited > t->wait_max ? waited : t->wait_max;
		if (__builtin_expect(t->state == T_SLEEPING && t->sleep, 0) && ts >= t->since)
			sleep_end(rp, e->in_idx, t->sleep, ts - t->since);
		t->sleep = SL_NONE;
		if (t->state == T_WOKEN && ts >= t->since) {
			struct hist **d = &t->delays;

			if (!*d) {
				*d = malloc(sizeof(**d));
				if (*d)
					hist_init(*d);
			}
			if (*d)
				delay_sample(rp, *d, ts - t->since);
		}
		t->state = T_RUNNING;
		t->cpu = e->cpu;	/* for a gap of it (gap_threads()) */
		t->since = ts;
		t->switches++;
	}
}

static inline __attribute__((always_inline)) void on_wakeup(struct report *rp,
							    const struct ev *e)
{
	struct tstat *t;

	rp->wakeups++;
	if (e->out_idx == NO_THREAD)
		return;
	t = &rp->threads[e->out_idx];
	t->wakeups++;
	if (t->state == T_RUNNING || t->state == T_PREEMPTED || t->state == T_WOKEN)
		return;
	if (t->state == T_SLEEPING && t->sleep && e->ts >= t->since)
		sleep_end(rp, e->out_idx, t->sleep, e->ts - t->since);
	t->sleep = SL_NONE;
	t->state = T_WOKEN;
	t->since = e->ts;
}

/* s equals the literal lit (compared inline: the length is a constant). */
static void irq_close(struct report *rp, struct cstat *c, uint64_t ts)
{
	struct irqframe *f;
	uint64_t dur, self;

	c->depth--;
	if (c->depth >= IRQ_STACK)
		return;
	f = &c->stack[c->depth];
	dur = ts > f->start ? ts - f->start : 0;
	self = dur > f->child_ns ? dur - f->child_ns : 0;
	if (f->soft)
		c->softirq_ns += self;
	else
		c->irq_ns += self;
	if (f->handler < rp->nhstats) {
		struct hstat *h = &rp->hstats[f->handler];

		h->count++;
		h->total_ns += self;
		if (self > h->max_ns)
			h->max_ns = self;
	}
	if (c->depth && c->depth <= IRQ_STACK)
		c->stack[c->depth - 1].child_ns += dur;
}

static void on_irq(struct report *rp, struct cstat *c, const struct ev *e)
{
	if (e->kind == EV_IRQ_BEGIN) {
		if (c->depth < IRQ_STACK) {
			struct irqframe *f = &c->stack[c->depth];

			if (e->handler != UINT32_MAX && e->handler >= rp->nhstats) {
				struct hstat *nh = grow_zeroed(rp->hstats, &rp->nhstats,
							       e->handler, 64, sizeof(*nh));

				if (nh)
					rp->hstats = nh;
			}
			f->start = e->ts;
			f->child_ns = 0;
			f->handler = e->handler;
			f->soft = e->flags & EVF_SOFT;
		}
		c->depth++;
	} else if (c->depth) {
		irq_close(rp, c, e->ts);	/* an end without a begin is ignored */
	}
}

/* ------------------------------------------------------------------ */
/* Gaps (see the top).                                                  */

/* The part of a gap that is its CPU's busy and idle time: they stop at ts. */
static void cpu_gap(struct cstat *c, uint64_t ts)
{
	cpu_account(c, ts);
	c->cur_valid = false;	/* until the next switch */
}

/* And its interrupts: those open end at ts (their ends may be lost). */
static void irq_gap(struct report *rp, struct cstat *c, uint64_t ts)
{
	while (c->depth)
		irq_close(rp, c, ts);
}

/* A thread waiting or asleep is unknown. */
static void unknown_if_waiting(struct report *rp, uint32_t idx)
{
	struct tstat *t;

	if (idx == NO_THREAD)
		return;
	t = &rp->threads[idx];
	if (t->state == T_PREEMPTED || t->state == T_WOKEN || t->state == T_SLEEPING) {
		t->state = T_UNKNOWN;
		t->sleep = SL_NONE;
	}
}

/*
 * At a gap's start: the thread running on its CPU (switched in there last,
 * in time order) runs no more, and every thread waiting or asleep is
 * unknown; a thread running on another CPU stays as it is.
 */
static void gap_threads(struct report *rp, const struct ev *e)
{
	uint64_t a = e->ts;
	size_t i;

	for (i = 0; i < rp->nthreads; i++) {
		struct tstat *t = &rp->threads[i];

		if (t->state == T_RUNNING && t->cpu == e->cpu) {
			t->run_ns += a >= t->since ? a - t->since : 0;
			t->state = T_UNKNOWN;
		}
		unknown_if_waiting(rp, (uint32_t)i);
	}
}

/* Gap e starts (in time order). */
static void on_gap(struct report *rp, const struct ev *e)
{
	uint64_t end = e->in_tid;

	if (!rp->early) {	/* else applied as decoded (report_early_gap()) */
		struct cstat *c = report_cpu_get(rp, e->cpu);

		if (c) {
			irq_gap(rp, c, e->ts);
			cpu_gap(c, e->ts);
		}
	}
	report_losses_add(rp, e);
	gap_threads(rp, e);
	report_losses_open(rp, end);	/* without memory, only the earliest end */
	rp->gap_end = end < rp->gap_end ? end : rp->gap_end;
	rp->gap_gate = 0;		/* every event through gap_apply() */
}

/* The gaps that ended by ts are over. */
static void gaps_close(struct report *rp, uint64_t ts)
{
	rp->gap_end = report_losses_close(rp, ts);
	rp->gap_gate = rp->gap_end == UINT64_MAX ? UINT64_MAX : 0;
}

static inline bool exited(const struct report *rp, uint32_t idx)
{
	return idx != NO_THREAD && rp->threads[idx].state == T_DEAD;
}

/*
 * The state of the thread tid names now, given the index resolve() found:
 * a thread that exited is not referred to again, so a record that does
 * refers to a later thread its tid was reused for (a row of its own).
 */
static uint32_t live_index(struct report *rp, uint32_t idx, uint64_t tid)
{
	if (!exited(rp, idx))
		return idx;
	idx = report_thread_index(rp, tid);	/* an earlier record may have renewed it */
	if (rp->threads[idx].state != T_DEAD)
		return idx;
	return report_thread_new(rp, tid);
}

/*
 * Apply e; gap: while a gap is under way, where a thread that starts to
 * wait or sleep is unknown (it may run on the CPU that lost records).
 */
static inline __attribute__((always_inline)) void apply(struct report *rp,
							const struct ev *e, bool gap)
{
	struct ev renewed;

	if ((e->kind == EV_SWITCH || e->kind == EV_WAKEUP) &&
	    __builtin_expect(exited(rp, e->out_idx) || exited(rp, e->in_idx), 0)) {
		renewed = *e;
		renewed.out_idx = live_index(rp, e->out_idx, e->out_tid);
		renewed.in_idx = live_index(rp, e->in_idx, e->in_tid);
		e = &renewed;
	}
	switch (e->kind) {
	case EV_SWITCH:
		on_switch(rp, e);
		if (gap)
			unknown_if_waiting(rp, e->out_idx);
		break;
	case EV_WAKEUP:
		on_wakeup(rp, e);
		if (gap)
			unknown_if_waiting(rp, e->out_idx);
		break;
	case EV_IRQ_BEGIN:
	case EV_IRQ_END: {
		struct cstat *c = report_cpu_get(rp, e->cpu);

		if (c)
			on_irq(rp, c, e);
		break;
	}
	case EV_DROP: {
		struct cstat *c = report_cpu_get(rp, e->cpu);

		if (c) {
			c->dropped = e->out_tid;
			c->dropped_seen = true;
		}
		break;
	}
	case EV_POWER:
		report_power_apply(rp, e);
		break;
	case EV_GAP:
		on_gap(rp, e);
		break;
	case EV_MARK:
		break;
	}
}

/* An event while a gap is under way: the gaps it ends first. */
static void gap_apply(struct report *rp, const struct ev *e)
{
	if (e->ts >= rp->gap_end)
		gaps_close(rp, e->ts);
	if (rp->gap_gate)
		apply(rp, e, false);
	else
		apply(rp, e, true);
}

void report_apply(struct report *rp, const struct ev *e)
{
	/* 0 while a gap is under way, else UINT64_MAX: one compare here. */
	if (__builtin_expect(e->ts >= rp->gap_gate, 0))
		gap_apply(rp, e);
	else
		apply(rp, e, false);
}

/*
 * Apply a block of events in two passes: first find every thread's state
 * index and prefetch its line (the lookups are independent, so their cache
 * misses overlap), then apply the events in order.
 */
void report_apply_block(struct report *rp, struct ev *blk, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct ev *e = &blk[i];

		report_resolve(rp, e);
		if (e->out_idx != NO_THREAD)
			__builtin_prefetch(&rp->threads[e->out_idx], 1);
		if (e->in_idx != NO_THREAD)
			__builtin_prefetch(&rp->threads[e->in_idx], 1);
	}
	for (i = 0; i < n; i++)
		report_apply(rp, &blk[i]);
}

/*
 * Per-CPU parts, on one thread. An interrupt event only touches its CPU's
 * interrupt state and the sums of its handler, which do not depend on
 * order; a switch, besides its threads, its CPU's busy and idle time. When
 * all of a CPU's interrupts (switches) come from one cursor, as fxt-collect
 * writes them (CPU c's in provider c), that cursor's order is their time
 * order: they are applied as decoded instead of through the merge, and the
 * merge only carries what needs it (switches for their threads, wakeups,
 * drop counts). Should a second cursor's name the same CPU, fxt-report
 * replays them all in time order (report_forget_mixed()).
 */
void report_early(struct report *rp, unsigned int cursor, const struct ev *e)
{
	struct cstat *c = report_cpu_get(rp, e->cpu);
	bool irq = ev_is_irq(e);
	uint32_t *from;

	if (!c)
		return;
	from = irq ? &c->irq_from : &c->switch_from;
	if (!*from)
		*from = cursor + 1;
	else if (*from != cursor + 1)
		*(irq ? &rp->irqs_mixed : &rp->switches_mixed) = true;
	if (irq)
		on_irq(rp, c, e);
	else
		cpu_switch(c, e);
}

/* The cursor of a CPU's first event of a kind, or its events are mixed. */
static void note_cursor(uint32_t *from, unsigned int cursor, bool *mixed)
{
	if (!*from)
		*from = cursor + 1;
	else if (*from != cursor + 1)
		*mixed = true;
}

/*
 * A gap's CPU part belongs with both its interrupts and its switches: in
 * the cursor's order when they come from its cursor, else replayed.
 */
void report_early_gap(struct report *rp, unsigned int cursor, const struct ev *e)
{
	struct cstat *c = report_cpu_get(rp, e->cpu);

	if (!c)
		return;
	note_cursor(&c->irq_from, cursor, &rp->irqs_mixed);
	note_cursor(&c->switch_from, cursor, &rp->switches_mixed);
	irq_gap(rp, c, e->ts);
	cpu_gap(c, e->ts);
}

/* Forget the per-CPU figures that came from two cursors (see report_early()). */
void report_forget_mixed(struct report *rp)
{
	size_t i;

	for (i = 0; i < rp->ncpus; i++) {
		struct cstat *c = &rp->cpus[i];

		if (rp->irqs_mixed) {
			c->irq_ns = c->softirq_ns = 0;
			c->depth = 0;
		}
		if (rp->switches_mixed) {
			c->seen = c->cur_valid = false;
			c->cur_tid = c->first = c->since = 0;
			c->busy_ns = c->idle_ns = c->switches = 0;
		}
	}
	if (rp->irqs_mixed && rp->nhstats)
		memset(rp->hstats, 0, rp->nhstats * sizeof(*rp->hstats));
}

/* Apply the per-CPU part of e again, in time order, when it was mixed. */
void report_replay_event(struct report *rp, const struct ev *e)
{
	struct cstat *c;

	if (e->kind == EV_GAP) {
		c = report_cpu_get(rp, e->cpu);
		if (c && rp->irqs_mixed)
			irq_gap(rp, c, e->ts);
		if (c && rp->switches_mixed)
			cpu_gap(c, e->ts);
		return;
	}
	if (!(ev_is_irq(e) ? rp->irqs_mixed : e->kind == EV_SWITCH && rp->switches_mixed))
		return;
	c = report_cpu_get(rp, e->cpu);
	if (c && ev_is_irq(e))
		on_irq(rp, c, e);
	else if (c)
		cpu_switch(c, e);
}

void report_finish(struct report *rp)
{
	uint64_t end = rp->last_ns;
	size_t i;

	if (rp->first_ns > rp->last_ns)	/* no timestamp at all */
		rp->first_ns = 0;
	delay_drain(rp);
	for (i = 0; i < rp->ncpus; i++) {
		struct cstat *c = &rp->cpus[i];

		if (c->seen)
			cpu_account(c, end);
		while (c->depth)
			irq_close(rp, c, end);
	}
	for (i = 0; i < rp->nthreads; i++) {
		struct tstat *t = &rp->threads[i];

		if (t->state == T_RUNNING && end >= t->since)
			t->run_ns += end - t->since;
		/* a sleep still under way: up to the end, as run and wait */
		if (t->state == T_SLEEPING && t->sleep && end >= t->since)
			sleep_end(rp, (uint32_t)i, t->sleep, end - t->since);
		if (t->state == T_PREEMPTED && end >= t->since) {
			t->wait_ns += end - t->since;
			if (end - t->since > t->wait_max)
				t->wait_max = end - t->since;
		}
	}
	report_power_finish(rp, end);
	for (i = 0; i < rp->nhandlers && i < rp->nhstats; i++) {
		rp->handlers[i].count = rp->hstats[i].count;
		rp->handlers[i].total_ns = rp->hstats[i].total_ns;
		rp->handlers[i].max_ns = rp->hstats[i].max_ns;
	}
}
