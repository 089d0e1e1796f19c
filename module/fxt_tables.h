/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fxt_tables.h - the definitions layer's tables: each CPU's string and
 * thread tables (fxt_tables.c), which hand out the indices records refer
 * to and write the string and thread records that define them. Inline:
 * the switch's common case, an indexed thread found in its home slot;
 * anything else calls fxt_thread_ref_slow(), which checks from the start.
 */
#ifndef _FXT_TABLES_H
#define _FXT_TABLES_H

#include <linux/hash.h>
#include <linux/log2.h>
#include "fxt.h"

void fxt_tables_init(void);
void fxt_tables_reset(struct fxt_cpu *c);
u8 fxt_thread_ref_slow(struct fxt_cpu *c, struct task_struct *p);
u16 fxt_string_add(struct fxt_cpu *c, const char *str);
u16 fxt_irq_name_ref(struct fxt_cpu *c, int irq, const char *name);

/* The slot the thread table's linear probe for @tid starts at. */
static inline u32 fxt_thread_home(u32 tid)
{
	return hash_32(tid, ilog2(FXT_THREAD_SLOTS));
}

/**
 * fxt_thread_ref() - the thread ref to write for @p on this CPU
 * @c: this CPU; called from the sched_switch probe only
 * @p: the task
 *
 * Return: a thread index, or 0 for "write the koids inline".
 */
static inline u8 fxt_thread_ref(struct fxt_cpu *c, struct task_struct *p)
{
	const struct fxt_thread_slot *slot =
		&c->threads[fxt_thread_home(p->pid)];

	/* Indexed, and the same thread: a reused tid has another tgid. */
	if (likely(slot->index && slot->tid == p->pid && slot->tgid == p->tgid))
		return slot->index;
	return fxt_thread_ref_slow(c, p);
}

#endif /* _FXT_TABLES_H */
