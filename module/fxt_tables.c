// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_tables.c - per-CPU FXT string and thread tables.
 *
 * Each CPU is its own FXT provider, so it owns its string table (32767
 * entries) and thread table (255 entries) outright: no index is shared
 * between CPUs and no cross-CPU synchronisation is needed.
 *
 * Thread table: a context switch names two threads. A thread seen
 * FXT_THREAD_PROMOTE times on a CPU gets the next free index (its thread
 * record goes to the durable buffer first); until then, and once the 254
 * indices after the interrupt pseudo-thread are gone, it is written inline.
 * An index is never reassigned during a session, so every record that uses
 * it, in any rolling buffer still kept, means the thread it meant when it
 * was written. The table is touched only by the sched_switch probe, which
 * runs with interrupts off and never nests with itself.
 *
 * String table: the constant strings take the first indices at start;
 * interrupt handler names get one the first time they fire on a CPU, and
 * the functions threads block in the first time one is seen (fxt_sleep.c).
 */
#include <linux/kernel.h>
#include <linux/hash.h>
#include <linux/random.h>
#include <linux/siphash.h>
#include <linux/string.h>
#include <fxt/format.h>
#include "fxt.h"
#include "fxt_buffer.h"
#include "fxt_tables.h"
#include "fxt_def_records.h"

/* The key of the interrupt handler names' hash (fxt_irq_name_ref()). */
static siphash_key_t fxt_irq_name_key __ro_after_init;

/**
 * fxt_tables_init() - draw the key of the handler name hash (module load)
 */
void fxt_tables_init(void)
{
	get_random_bytes(&fxt_irq_name_key, sizeof(fxt_irq_name_key));
}

/**
 * fxt_tables_reset() - empty a CPU's tables (its durable buffer was emptied)
 * @c: the CPU, no probe running on it
 */
void fxt_tables_reset(struct fxt_cpu *c)
{
	memset(c->threads, 0, sizeof(c->threads));
	memset(c->irq_names, 0, sizeof(c->irq_names));
	c->irq_name_victim = 0;
	memset(c->syms, 0, sizeof(c->syms));
	c->sym_victim = 0;
	c->next_string = FXT_S_FIRST_DYNAMIC;
	c->next_thread = FXT_IRQ_THREAD_INDEX + 1;
}

/**
 * fxt_thread_ref_slow() - fxt_thread_ref() beyond its fast path
 * @c: this CPU; called from the sched_switch probe only
 * @p: the task
 *
 * The whole lookup: the linear probe from the task's home slot, a first
 * sighting, a promotion to an index (its thread record), a reused tid.
 *
 * Return: a thread index, or 0 for "write the koids inline".
 */
u8 fxt_thread_ref_slow(struct fxt_cpu *c, struct task_struct *p)
{
	u32 tid = p->pid, tgid = p->tgid;
	u32 h = fxt_thread_home(tid);
	struct fxt_thread_slot *slot, *free = NULL;
	unsigned int i;

	for (i = 0; i < FXT_THREAD_PROBES; i++) {
		slot = &c->threads[(h + i) & (FXT_THREAD_SLOTS - 1)];
		if (!slot->seen) {
			free = slot;
			break;
		}
		if (slot->tid == tid)
			goto found;
	}
	/* First sighting: remember it, if there is room nearby. */
	if (free) {
		free->tid = tid;
		free->tgid = tgid;
		free->index = 0;
		free->seen = 1;
	}
	return 0;

found:
	if (likely(slot->index)) {
		/* A reused tid in another process is another thread. */
		return likely(slot->tgid == tgid) ? slot->index : 0;
	}
	if (slot->tgid != tgid) {
		slot->tgid = tgid;
		slot->seen = 1;
		return 0;
	}
	if (slot->seen < FXT_THREAD_PROMOTE) {
		slot->seen++;
		if (slot->seen < FXT_THREAD_PROMOTE)
			return 0;
	}
	if (!c->next_thread)	/* wrapped past 255: no indices left */
		return 0;
	if (!fxt_emit_thread(c, c->next_thread, tgid, tid))
		return 0;
	slot->index = c->next_thread++;
	return slot->index;
}

/* A thread record's bytes (fxt_emit_thread()). */
#define FXT_THREAD_RECORD_BYTES	(3 * 8)

/*
 * Circular mode: does the string record of @name fit the durable buffer
 * with room left for a thread record for each thread index not yet given?
 */
static bool fxt_string_fits(struct fxt_cpu *c, const char *name)
{
	u64 used = local_read(FXT_LOCAL(c->hdr->durable_reserved));
	u64 len = 8 * (1 + FXT_WORDS(strnlen(name, FXT_NAME_MAX)));
	/* next_thread wraps to 0 once the last index is given. */
	u64 threads = c->next_thread ? 256 - c->next_thread : 0;

	return used + len + threads * FXT_THREAD_RECORD_BYTES <=
	       c->durable_size;
}

/**
 * fxt_string_add() - give a string the next index of this CPU's table
 * @c: this CPU; interrupts off
 * @str: the string, cut at FXT_NAME_MAX bytes
 *
 * Circular mode: a full durable buffer stops the CPU, and strings are never
 * freed, so a string is added only while the durable buffer keeps room for
 * every thread record the thread table can still ask for.
 *
 * Return: its index, or 0 when none can be had (indices used up, or no
 * room): the caller writes the string inline.
 */
u16 fxt_string_add(struct fxt_cpu *c, const char *str)
{
	if (c->hdr->mode == FXT_MODE_CIRCULAR && !fxt_string_fits(c, str))
		return 0;
	if (c->next_string > FXT_STRING_INDEX_MAX ||
	    !fxt_emit_string(c, c->next_string, str))
		return 0;
	return c->next_string++;
}

/**
 * fxt_irq_name_ref() - the string index of an interrupt handler's name
 * @c: this CPU
 * @irq: the interrupt number
 * @name: action->name
 *
 * The cache is keyed on (irq, the name's text), so the handlers of a shared
 * line, and interrupts whose numbers differ by a multiple of the table
 * size, each keep their own slot instead of evicting each other on every
 * interrupt. A lookup probes FXT_IRQ_NAME_WAYS slots from the key's hash;
 * slots are never emptied, so a free one ends the search. When all are
 * taken by other handlers, one of them, in turn, gives way (its string
 * stays defined; it gets a new index if it fires again), except in
 * circular mode, where the name is written inline (below). Bounded work,
 * with interrupts off: the entry probe of a nested interrupt may look up
 * names too.
 *
 * Not the name's address: after a driver is unloaded, another handler's
 * name (another driver's, or the same driver's with another device name)
 * can be allocated at the very address of the old one, on the same line,
 * and would be written with the old name's index. The text stands in as
 * a 64-bit SipHash under a key drawn at load time, over the bytes a
 * string record keeps (FXT_NAME_MAX): two different names on one line
 * share a slot only if their hashes collide, which for names not chosen
 * with the key in hand happens with probability 2^-64 per pair. Hashing
 * costs about as much as writing the name inline would, and reads only
 * the name the tracepoint passed, which is live while its handler runs.
 * No string is kept, and nothing is allocated.
 *
 * Return: an index registered in this CPU's string table, or 0 when none
 * can be had (indices used up, or the durable buffer full): the caller
 * then writes the name inline.
 */
u16 fxt_irq_name_ref(struct fxt_cpu *c, int irq, const char *name)
{
	struct fxt_irq_name_slot *slot, *free = NULL;
	unsigned long flags;
	unsigned int i;
	u16 index = 0;
	u64 key;
	u32 h;

	if (!name)
		return 0;
	key = siphash(name, strnlen(name, FXT_NAME_MAX), &fxt_irq_name_key);
	h = hash_64(key ^ (u32)irq, ilog2(FXT_IRQ_NAME_SLOTS));
	local_irq_save(flags);
	for (i = 0; i < FXT_IRQ_NAME_WAYS; i++) {
		slot = &c->irq_names[(h + i) & (FXT_IRQ_NAME_SLOTS - 1)];
		if (!slot->index) {
			free = slot;
			break;
		}
		if (slot->irq == irq && slot->hash == key) {
			index = slot->index;
			goto out;
		}
	}
	/*
	 * Circular mode: a full durable buffer stops the CPU, and strings are
	 * never freed. A name that finds every way taken is written inline
	 * instead of pushing out another (which would be written again, and
	 * again: tens of MSI-X queues on one CPU), and a name is interned only
	 * while the durable buffer keeps room for every thread record the
	 * thread table can still ask for. So names stop at a bound, and a CPU
	 * never stops on them: they go inline past it.
	 */
	if (c->hdr->mode == FXT_MODE_CIRCULAR && !free)
		goto out;
	index = fxt_string_add(c, name);
	if (!index)
		goto out;
	if (!free) {
		i = c->irq_name_victim++ % FXT_IRQ_NAME_WAYS;
		free = &c->irq_names[(h + i) & (FXT_IRQ_NAME_SLOTS - 1)];
	}
	free->hash = key;
	free->irq = irq;
	free->index = index;
out:
	local_irq_restore(flags);
	return index;
}
