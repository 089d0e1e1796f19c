// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_triggers.c - latency triggers: circular mode keeps the window around
 * the moment the scheduler misbehaved (<linux/fxt.h>, "Latency triggers").
 *
 * The probes that already run measure, when a trigger of the kind is
 * armed (s->trig.kinds):
 *  - wakeup latency: sched_waking / sched_wakeup_new note (tid, time) of a
 *    wakeup that makes a thread runnable; its switch in takes the note;
 *  - off-CPU time: a switch out that blocks a thread notes it; its switch
 *    in takes the note;
 *  - interrupt duration: each interrupt level keeps its entry time
 *    (fxt_irq_level.begin_ns); its exit measures.
 * Notes live in one fixed table per kind, allocated by SET_TRIGGERS (not
 * in a probe): FXT_TRIG_SLOTS direct-mapped slots of one 64-bit word each,
 * the tid in the low FXT_TRIG_TID_BITS bits and the time (ns, modulo
 * 2^42: 73 minutes) above, written with atomic exchanges, so any CPU can
 * note and any CPU can take. A note that pushes out another thread's is
 * counted (fxt_cpu.trig_missed, GET_STATS' trigger_missed): that latency
 * goes unmeasured, never silently. Only tasks some trigger's pid, tgid,
 * comm and uid filters match are noted.
 *
 * Firing: the CPU that measures writes the instant event "fxt"/"trigger"
 * (fxt_emit_trigger()). The first firing after a START opens the window:
 * it sets the freeze time, post_ns later, from which every CPU's rolling
 * reserve refuses records (fxt_session.freeze_at, uncounted: the window is
 * closed, nothing is lost from it), and queues a hard irq_work that posts
 * FXT_PKT_TRIGGERED (a probe may hold the run queue lock: no wake-up
 * from it). Later firings before the freeze write their event only, with
 * "first" false. Bounded: at most FXT_MAX_TRIGGERS filter checks and one
 * table exchange per probe.
 */
#include <linux/kernel.h>
#include <linux/atomic.h>
#include <linux/hash.h>
#include <linux/cred.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/uidgid.h>
#include <linux/user_namespace.h>
#include <linux/timekeeping.h>
#include "fxt.h"
#include "fxt_triggers.h"

static_assert(PID_MAX_LIMIT <= (1 << FXT_TRIG_TID_BITS));

/* The categories each kind needs configured: all of one, or any of two. */
static bool fxt_trig_categories_ok(u32 kind, u32 cats)
{
	switch (kind) {
	case FXT_TRIGGER_WAKEUP_LATENCY:
		return (cats & (FXT_CAT_SCHED | FXT_CAT_WAKEUP)) ==
		       (FXT_CAT_SCHED | FXT_CAT_WAKEUP);
	case FXT_TRIGGER_OFF_CPU:
		return cats & FXT_CAT_SCHED;
	case FXT_TRIGGER_IRQ_DURATION:
		return cats & (FXT_CAT_IRQ | FXT_CAT_SOFTIRQ);
	}
	return false;
}

static int fxt_trig_check(const struct fxt_trigger *t, u32 cats)
{
	if (t->kind < FXT_TRIGGER_WAKEUP_LATENCY ||
	    t->kind > FXT_TRIGGER_IRQ_DURATION ||
	    t->match & ~FXT_TRIGGER_MATCH_ALL || !t->threshold_ns)
		return -EINVAL;
	/* Once reserved: 0 unless its filter is on. */
	if (!(t->match & FXT_TRIGGER_MATCH_UID) && t->uid)
		return -EINVAL;
	if ((t->match & FXT_TRIGGER_MATCH_COMM) &&
	    !memchr(t->comm, 0, sizeof(t->comm)))
		return -EINVAL;
	if (t->kind == FXT_TRIGGER_IRQ_DURATION &&
	    t->match & ~FXT_TRIGGER_MATCH_CPU)
		return -EINVAL;		/* an interrupt is no task's */
	if (!fxt_trig_categories_ok(t->kind, cats))
		return -EINVAL;
	return 0;
}

static atomic64_t *fxt_trig_table_alloc(void)
{
	return fxt_kvcalloc(FXT_TRIG_SLOTS, sizeof(atomic64_t));
}

static void fxt_trig_table_free(atomic64_t **tab)
{
	if (*tab)
		fxt_kvfree(*tab, FXT_TRIG_SLOTS * sizeof(atomic64_t));
	*tab = NULL;
}

/**
 * fxt_triggers_free() - forget the triggers and free their tables
 * @s: the session, not STARTED (no probe runs)
 */
void fxt_triggers_free(struct fxt_session *s)
{
	fxt_trig_table_free(&s->trig.wakeups);
	fxt_trig_table_free(&s->trig.blocked);
	memset(&s->trig.set, 0, sizeof(s->trig.set));
	s->trig.kinds = 0;
}

/**
 * fxt_triggers_set() - FXT_IOC_SET_TRIGGERS
 * @s: the session; s->lock held
 * @set: copied from user space
 *
 * Return: 0; -EBADFD before INITIALIZE; -EBUSY while STARTED; -EINVAL for
 * a mode other than circular or a set <linux/fxt.h> does not allow;
 * -ENOMEM.
 */
int fxt_triggers_set(struct fxt_session *s, const struct fxt_trigger_set *set)
{
	bool wakeups = false, blocked = false;
	unsigned int i;
	int ret;

	if (s->state == FXT_STATE_READY)
		return -EBADFD;
	if (s->state == FXT_STATE_STARTED)
		return -EBUSY;
	if (s->mode != FXT_MODE_CIRCULAR || set->reserved ||
	    set->count > FXT_MAX_TRIGGERS ||
	    set->post_ns > FXT_TRIGGER_POST_MAX)
		return -EINVAL;
	for (i = 0; i < set->count; i++) {
		ret = fxt_trig_check(&set->trigger[i], s->categories);
		if (ret)
			return ret;
		wakeups |= set->trigger[i].kind == FXT_TRIGGER_WAKEUP_LATENCY;
		blocked |= set->trigger[i].kind == FXT_TRIGGER_OFF_CPU;
	}
	for (i = set->count; i < FXT_MAX_TRIGGERS; i++)
		if (memchr_inv(&set->trigger[i], 0, sizeof(set->trigger[i])))
			return -EINVAL;
	fxt_triggers_free(s);
	if (wakeups)
		s->trig.wakeups = fxt_trig_table_alloc();
	if (blocked)
		s->trig.blocked = fxt_trig_table_alloc();
	if ((wakeups && !s->trig.wakeups) || (blocked && !s->trig.blocked)) {
		fxt_triggers_free(s);
		return -ENOMEM;
	}
	s->trig.set = *set;
	return 0;
}

static void fxt_trig_work_fn(struct irq_work *work)
{
	struct fxt_trig_state *t = container_of(work, struct fxt_trig_state,
						work);

	fxt_packet_post_hardirq(container_of(t, struct fxt_session, trig),
				FXT_PKT_TRIGGERED, t->pkt_cpu, t->pkt_data32,
				t->pkt_data64);
}

/**
 * fxt_triggers_init() - set up the trigger state at module load
 * @s: the session
 */
void fxt_triggers_init(struct fxt_session *s)
{
	s->trig.work = IRQ_WORK_INIT_HARD(fxt_trig_work_fn);
}

/**
 * fxt_triggers_arm() - a START arms the triggers set: empty tables, no
 * window open
 * @s: the session; s->lock held, no probe registered yet
 */
void fxt_triggers_arm(struct fxt_session *s)
{
	struct fxt_trig_state *t = &s->trig;
	unsigned int i, cpu;
	u32 kinds = 0;

	t->anyone = 0;
	for (i = 0; i < ARRAY_SIZE(t->least_ns); i++)
		t->least_ns[i] = U64_MAX;
	for (i = 0; i < t->set.count; i++) {
		const struct fxt_trigger *tr = &t->set.trigger[i];

		kinds |= BIT(tr->kind);
		if (!(tr->match & ~FXT_TRIGGER_MATCH_CPU))
			t->anyone |= BIT(tr->kind);
		t->least_ns[tr->kind] = min(t->least_ns[tr->kind],
					    tr->threshold_ns);
	}
	if (t->wakeups)
		memset(t->wakeups, 0, FXT_TRIG_SLOTS * sizeof(atomic64_t));
	if (t->blocked)
		memset(t->blocked, 0, FXT_TRIG_SLOTS * sizeof(atomic64_t));
	for_each_cpu(cpu, s->traced)
		local_set(&s->cpus[cpu]->trig_missed, 0);
	atomic_set(&t->fired, 0);
	WRITE_ONCE(s->freeze_at, 0);
	WRITE_ONCE(t->kinds, s->mode == FXT_MODE_CIRCULAR ? kinds : 0);
}

/**
 * fxt_triggers_disarm() - no trigger opens a window or posts from now on
 * @s: the session; s->lock held, probes still registered
 *
 * A stop ends the recording itself (fxt_session.c); a trigger that fires
 * while the probes are being unhooked must not move that end later, nor
 * post a TRIGGERED after the STOPPED. The next START arms them again
 * (fxt_triggers_arm()).
 */
void fxt_triggers_disarm(struct fxt_session *s)
{
	atomic_cmpxchg(&s->trig.fired, 0, 1);
}

/**
 * fxt_triggers_sync() - wait until no TRIGGERED packet is being posted
 * @s: the session, its probes unregistered
 */
void fxt_triggers_sync(struct fxt_session *s)
{
	irq_work_sync(&s->trig.work);
}

/* Does trigger @t's filters match @p (NULL: an interrupt) on @cpu (-1: any)? */
static bool fxt_trig_match(const struct fxt_trigger *t, struct task_struct *p,
			   int cpu)
{
	if ((t->match & FXT_TRIGGER_MATCH_CPU) && cpu >= 0 && t->cpu != cpu)
		return false;
	if (!p)
		return true;
	if ((t->match & FXT_TRIGGER_MATCH_PID) && t->pid != p->pid)
		return false;
	if ((t->match & FXT_TRIGGER_MATCH_TGID) && t->tgid != p->tgid)
		return false;
	if ((t->match & FXT_TRIGGER_MATCH_COMM) &&
	    strncmp(t->comm, p->comm, sizeof(t->comm)))
		return false;
	/* task_uid() reads the credentials under rcu_read_lock(). */
	if ((t->match & FXT_TRIGGER_MATCH_UID) &&
	    from_kuid(&init_user_ns, task_uid(p)) != t->uid)
		return false;
	return true;
}

/**
 * fxt_trig_filters_want() - fxt_trig_wanted() when no trigger of @kind
 *	matches every task: do some trigger's filters match @p?
 * @t: the trigger state
 * @kind: the trigger kind
 * @p: the task
 *
 * Return: whether @p is worth a note for a trigger of @kind, wherever it
 * will run.
 */
bool fxt_trig_filters_want(const struct fxt_trig_state *t, u32 kind,
			   struct task_struct *p)
{
	unsigned int i;

	for (i = 0; i < t->set.count; i++)
		if (t->set.trigger[i].kind == kind &&
		    fxt_trig_match(&t->set.trigger[i], p, -1))
			return true;
	return false;
}

/**
 * fxt_trig_measured() - fxt_trig_check_fire() once @latency is above the
 *	least threshold of @kind: fire the first trigger of @kind that
 *	matches and whose threshold @latency is above (its event, and the
 *	window if none is open yet)
 * @c: this CPU
 * @kind: the trigger kind
 * @p: the task measured (NULL: an interrupt)
 * @latency: ns
 */
void fxt_trig_measured(struct fxt_cpu *c, u32 kind, struct task_struct *p,
		       u64 latency)
{
	struct fxt_trig_state *t = &fxt_session.trig;
	const struct fxt_trigger *tr;
	unsigned int i;
	bool first;

	for (i = 0; i < t->set.count; i++) {
		tr = &t->set.trigger[i];
		if (tr->kind == kind && latency > tr->threshold_ns &&
		    fxt_trig_match(tr, p, c->cpu))
			break;
	}
	if (i == t->set.count)
		return;
	first = atomic_cmpxchg(&t->fired, 0, 1) == 0;
	fxt_emit_trigger(c, p, kind, latency, tr->threshold_ns, i, first);
	if (!first)
		return;
	t->pkt_cpu = c->cpu;
	t->pkt_data32 = i | (p ? (u32)p->pid << 8 : 0);
	t->pkt_data64 = latency;
	/*
	 * After the event, so that a post time of 0 still keeps it. Only
	 * if no stop closed the window first: a stop's end stays.
	 */
	cmpxchg64(&fxt_session.freeze_at, 0,
		  max(fxt_trig_now() + t->set.post_ns, 1ull));
	irq_work_queue(&t->work);
}

/**
 * fxt_trig_wakeup() - a wakeup that makes @p runnable (armed kinds only)
 * @c: this CPU
 * @p: the task woken
 * @ts: its record's timestamp (0: none written, read the clock)
 */
void fxt_trig_wakeup(struct fxt_cpu *c, struct task_struct *p, u64 ts)
{
	struct fxt_trig_state *t = &fxt_session.trig;

	if (t->wakeups && p->pid &&
	    fxt_trig_wanted(t, FXT_TRIGGER_WAKEUP_LATENCY, p))
		fxt_trig_note(c, t->wakeups, fxt_trig_slot(p->pid), p->pid,
			      ts ? ts : fxt_trig_now());
}

/**
 * fxt_trig_irq_begin() - the time an interrupt level begins at
 *
 * Return: now, or 0 when no interrupt trigger is armed.
 */
u64 fxt_trig_irq_begin(void)
{
	if (!(READ_ONCE(fxt_session.trig.kinds) & BIT(FXT_TRIGGER_IRQ_DURATION)))
		return 0;
	return fxt_trig_now();
}

/**
 * fxt_trig_irq_end() - an interrupt level that began at @begin_ns ends
 * @c: this CPU; interrupts off
 * @begin_ns: fxt_trig_irq_begin()'s value for it (0: not measured)
 */
void fxt_trig_irq_end(struct fxt_cpu *c, u64 begin_ns)
{
	if (begin_ns)
		fxt_trig_check_fire(c, FXT_TRIGGER_IRQ_DURATION, NULL,
				    fxt_trig_now() - begin_ns);
}
