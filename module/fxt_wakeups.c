// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_wakeups.c - wakeups written once their thread has left its CPU.
 *
 * sched_waking fires in try_to_wake_up() before the kernel looks at the
 * task. A task off its run queue but still on another CPU is being
 * switched out there, and its switch record may not be written yet: a
 * wakeup record taken now could precede the switch that put the thread
 * to sleep, and a reader would see a running thread woken. The kernel
 * itself does not wait for that CPU where it can avoid it: it queues the
 * wakeup to that CPU's wake list, or waits only after sched_waking. So the
 * waking probe does not wait either. It leaves what only it knows (the
 * waker, its CPU) in a slot keyed by the task, and the sched_wakeup probe,
 * which fires once the task is off its CPU and being made runnable (on
 * the waking CPU, or on the task's own from its wake list), takes it and
 * writes the record there and then (Documentation/records.rst, "Thread
 * wakeup").
 *
 * The table has FXT_WAKE_SLOTS_PER_CPU slots per possible CPU: a wakeup
 * waits here from its sched_waking to its sched_wakeup, a few
 * microseconds, and each CPU switches one task out at a time. A task
 * hashes to a slot and takes the first free one of FXT_WAKE_PROBES; a
 * wakeup that finds none is written at once, as if its task had been off
 * its CPU already.
 *
 * Slots are claimed by cmpxchg() on the task pointer. A slot's fields are
 * written by the waking probe before try_to_wake_up() goes on (under the
 * task's pi_lock), and read by the sched_wakeup probe, which that same
 * try_to_wake_up() causes: on this CPU, or after a wake-list queueing
 * (llist_add(), a full barrier) and its interrupt. The task pointer is
 * only compared, never followed. At most one wakeup of a task is pending
 * at a time: the next one needs the task to have been made runnable,
 * which is this one's sched_wakeup.
 */
#include <linux/hash.h>
#include <linux/log2.h>
#include "fxt.h"

#define FXT_WAKE_SLOTS_PER_CPU	8
#define FXT_WAKE_SLOTS_MIN	64
#define FXT_WAKE_PROBES		4

/**
 * fxt_wakeups_alloc() - the table, at INITIALIZE
 * @s: the session; s->lock held
 *
 * Return: 0 or -ENOMEM.
 */
int fxt_wakeups_alloc(struct fxt_session *s)
{
	unsigned long n = max_t(unsigned long, FXT_WAKE_SLOTS_MIN,
				FXT_WAKE_SLOTS_PER_CPU * nr_cpu_ids);

	n = roundup_pow_of_two(n);
	s->wake_slots = fxt_kvcalloc(n, sizeof(*s->wake_slots));
	if (!s->wake_slots)
		return -ENOMEM;
	s->wake_slots_bits = ilog2(n);
	return 0;
}

/**
 * fxt_wakeups_free() - free the table
 * @s: the session; no probe runs
 */
void fxt_wakeups_free(struct fxt_session *s)
{
	if (s->wake_slots)
		fxt_kvfree(s->wake_slots,
			   sizeof(*s->wake_slots) << s->wake_slots_bits);
	s->wake_slots = NULL;
	s->wake_slots_bits = 0;
}

/**
 * fxt_wakeups_clear() - forget wakeups a stop cut in two, at START
 * @s: the session; no probe runs
 *
 * A run stopped between a sched_waking and its sched_wakeup left its slot
 * taken: that task pointer may since belong to another task.
 */
void fxt_wakeups_clear(struct fxt_session *s)
{
	memset(s->wake_slots, 0, sizeof(*s->wake_slots) << s->wake_slots_bits);
}

static struct fxt_wake_slot *fxt_wake_slot(struct task_struct *p,
					   unsigned int i)
{
	struct fxt_session *s = &fxt_session;
	unsigned long mask = (1UL << s->wake_slots_bits) - 1;

	return &s->wake_slots[(hash_ptr(p, s->wake_slots_bits) + i) & mask];
}

/**
 * fxt_wakeup_defer() - leave a wakeup for the sched_wakeup probe
 * @p: the task woken, off its run queue, maybe still on another CPU
 * @w: the wakeup's waker; @w->deferred is set in the slot
 *
 * Return: false when every slot @p may take is taken.
 */
bool fxt_wakeup_defer(struct task_struct *p, const struct fxt_waker *w)
{
	unsigned int i;

	for (i = 0; i < FXT_WAKE_PROBES; i++) {
		struct fxt_wake_slot *slot = fxt_wake_slot(p, i);

		if (!READ_ONCE(slot->task) && !cmpxchg(&slot->task, NULL, p)) {
			slot->waker = *w;
			slot->waker.deferred = true;
			return true;
		}
	}
	return false;
}

/**
 * fxt_wakeup_take() - the deferred wakeup of @p, if there is one
 * @p: the task sched_wakeup made runnable
 * @w: filled in when there is one
 *
 * Return: true when @p had a deferred wakeup; its slot is free again.
 */
bool fxt_wakeup_take(struct task_struct *p, struct fxt_waker *w)
{
	unsigned int i;

	for (i = 0; i < FXT_WAKE_PROBES; i++) {
		struct fxt_wake_slot *slot = fxt_wake_slot(p, i);

		if (READ_ONCE(slot->task) == p) {
			*w = slot->waker;
			/* The fields are read before another wakeup claims it. */
			smp_store_release(&slot->task, NULL);
			return true;
		}
	}
	return false;
}
