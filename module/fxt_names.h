/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fxt_names.h - the definitions layer's names: kernel object records for
 * threads and processes (fxt_names.c). Inline: circular mode's check that
 * a task is named in the rolling buffer generation being written, one
 * slot of the name cache; a miss calls fxt_name_in_window_slow().
 */
#ifndef _FXT_NAMES_H
#define _FXT_NAMES_H

#include <linux/hash.h>
#include <linux/log2.h>
#include "fxt.h"
#include "fxt_buffer.h"

void fxt_names_snapshot(bool stamped);
void fxt_emit_task_names(struct fxt_cpu *c, struct task_struct *p,
			 const char *comm);
void fxt_name_in_window_slow(struct fxt_cpu *c, struct task_struct *p,
			     u32 gen);
void fxt_emit_exec(struct fxt_cpu *c, struct task_struct *p);
void fxt_names_reset(struct fxt_cpu *c);

/* Circular mode's name cache slot of @key (fxt_names.c). */
static inline struct fxt_name_slot *fxt_name_slot(struct fxt_cpu *c, u32 key)
{
	return &c->names[hash_32(key, ilog2(FXT_NAME_SLOTS))];
}

/*
 * @key (a tid, or a tgid | FXT_NAME_PROCESS) of the task started at @born
 * (for a process: its leader) is named in generation @gen.
 */
static inline bool fxt_name_cached(struct fxt_cpu *c, u32 key, u32 gen,
				   u64 born)
{
	const struct fxt_name_slot *s = fxt_name_slot(c, key);

	return READ_ONCE(s->key) == key && READ_ONCE(s->gen) == gen &&
	       READ_ONCE(s->born) == born;
}

/**
 * fxt_name_in_gen() - circular mode: name @p and its process in rolling
 *	buffer generation @gen unless done already
 * @c: this CPU, preemption disabled
 * @p: a task a record is about to refer to
 * @gen: the generation being written, read after fxt_rolling_make_room()
 *
 * A thread named in @gen had its process named there too (first), so a
 * hit on the thread is the whole check: one slot, inline.
 */
static inline void fxt_name_in_gen(struct fxt_cpu *c, struct task_struct *p,
				   u32 gen)
{
	if (likely(!p->pid || fxt_name_cached(c, p->pid, gen, p->start_time)))
		return;
	fxt_name_in_window_slow(c, p, gen);
}

/* fxt_name_in_gen() in the generation being written now. */
static inline void fxt_name_in_window(struct fxt_cpu *c, struct task_struct *p)
{
	fxt_name_in_gen(c, p, fxt_rolling_gen(c));
}

#endif /* _FXT_NAMES_H */
