/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fxt_triggers.h - the latency triggers (fxt_triggers.c), and their work
 * in the probes, inline.
 *
 * Every switch with triggers armed looks up the incoming thread's notes,
 * and every blocking switch notes the outgoing one (fxt_triggers.c says
 * what the notes are). Inline here: the tables' slots, a note, a take,
 * and the switch's whole share; out of line only what a few switches
 * need: the trigger set's filters when no trigger of the kind matches
 * every task, and a latency above the least threshold of its kind.
 */
#ifndef _FXT_TRIGGERS_H
#define _FXT_TRIGGERS_H

#include <linux/atomic.h>
#include <linux/hash.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>
#include "fxt.h"

#define FXT_TRIG_SLOT_BITS	12
#define FXT_TRIG_SLOTS		BIT(FXT_TRIG_SLOT_BITS)
/* PID_MAX_LIMIT is 4194304 (2^22): every tid fits. */
#define FXT_TRIG_TID_BITS	22
#define FXT_TRIG_TID_MASK	((1ull << FXT_TRIG_TID_BITS) - 1)
#define FXT_TRIG_TIME_MASK	((1ull << (64 - FXT_TRIG_TID_BITS)) - 1)

void fxt_triggers_init(struct fxt_session *s);
int fxt_triggers_set(struct fxt_session *s, const struct fxt_trigger_set *set);
void fxt_triggers_free(struct fxt_session *s);
void fxt_triggers_arm(struct fxt_session *s);
void fxt_triggers_sync(struct fxt_session *s);
void fxt_triggers_disarm(struct fxt_session *s);
void fxt_trig_wakeup(struct fxt_cpu *c, struct task_struct *p, u64 ts);
u64 fxt_trig_irq_begin(void);
void fxt_trig_irq_end(struct fxt_cpu *c, u64 begin_ns);

bool fxt_trig_filters_want(const struct fxt_trig_state *t, u32 kind,
			   struct task_struct *p);
void fxt_trig_measured(struct fxt_cpu *c, u32 kind, struct task_struct *p,
		       u64 latency);

/* The time as the tables keep it. */
static inline u64 fxt_trig_now(void)
{
	return ktime_get_boot_fast_ns();
}

/* @tid's slot, the same in every table. */
static inline u32 fxt_trig_slot(u32 tid)
{
	return hash_32(tid, FXT_TRIG_SLOT_BITS);
}

/* Is @p worth a note for a trigger of @kind, wherever it will run? */
static inline bool fxt_trig_wanted(const struct fxt_trig_state *t, u32 kind,
				   struct task_struct *p)
{
	return (t->anyone & BIT(kind)) || fxt_trig_filters_want(t, kind, p);
}

/*
 * A latency of @kind measured for @p (NULL: an interrupt): most are below
 * every threshold, and need no look at the trigger set.
 */
static inline void fxt_trig_check_fire(struct fxt_cpu *c, u32 kind,
				       struct task_struct *p, u64 latency)
{
	if (unlikely(latency > fxt_session.trig.least_ns[kind]))
		fxt_trig_measured(c, kind, p, latency);
}

/* Note @tid at @now in slot @h of @tab; count the note it pushes out. */
static inline void fxt_trig_note(struct fxt_cpu *c, atomic64_t *tab, u32 h,
				 u32 tid, u64 now)
{
	u64 old = atomic64_xchg(&tab[h], (s64)((now << FXT_TRIG_TID_BITS) | tid));

	if (old && (old & FXT_TRIG_TID_MASK) != tid)
		local_inc(&c->trig_missed);
}

/* Take @tid's note from slot @h of @tab: true, and the time since it. */
static inline bool fxt_trig_take(atomic64_t *tab, u32 h, u32 tid, u64 now,
				 u64 *since)
{
	u64 old = atomic64_read(&tab[h]);

	if (!old || (old & FXT_TRIG_TID_MASK) != tid ||
	    atomic64_cmpxchg(&tab[h], old, 0) != old)
		return false;
	*since = (now - (old >> FXT_TRIG_TID_BITS)) & FXT_TRIG_TIME_MASK;
	return true;
}

/**
 * fxt_trig_switch() - a context switch (armed kinds only)
 * @c: this CPU
 * @preempt: @prev was preempted (stays runnable)
 * @prev: the task switched out
 * @next: the task switched in
 * @prev_state: @prev's state (0: runnable)
 * @ts: the switch record's timestamp (0: none written, read the clock)
 *
 * The records' own times, when there are records: no second clock read
 * (the most expensive part of a probe in a TCG guest), and the latency
 * is exactly what the archive's records show.
 */
static inline void fxt_trig_switch(struct fxt_cpu *c, bool preempt,
				   struct task_struct *prev,
				   struct task_struct *next,
				   unsigned int prev_state, u64 ts)
{
	struct fxt_trig_state *t = &fxt_session.trig;
	u64 now = ts ? ts : fxt_trig_now(), since;
	u32 h;

	/* Blocked, not preempted; a task that exits never comes back. */
	if (t->blocked && !preempt && prev_state &&
	    !(prev_state & TASK_DEAD) && prev->pid &&
	    fxt_trig_wanted(t, FXT_TRIGGER_OFF_CPU, prev))
		fxt_trig_note(c, t->blocked, fxt_trig_slot(prev->pid),
			      prev->pid, now);
	if (!next->pid)
		return;
	h = fxt_trig_slot(next->pid);
	if (t->wakeups && fxt_trig_take(t->wakeups, h, next->pid, now, &since))
		fxt_trig_check_fire(c, FXT_TRIGGER_WAKEUP_LATENCY, next, since);
	if (t->blocked && fxt_trig_take(t->blocked, h, next->pid, now, &since))
		fxt_trig_check_fire(c, FXT_TRIGGER_OFF_CPU, next, since);
}

#endif /* _FXT_TRIGGERS_H */
