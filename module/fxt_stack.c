// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_stack.c - the kernel's own frames above the sched_switch probe,
 * stepped over the cheap way where the kernel's ORC data says how.
 *
 * A switch into D names the first caller outside the scheduler
 * (fxt_sleep.c). Between the probe and that caller lie a handful of
 * vmlinux frames: the tracepoint's, __schedule(), schedule(),
 * io_schedule(), a lock's slow path. The kernel's ORC unwinder steps over
 * them, but every step asks which stack this is, whether the address is
 * kernel text and whether a return trampoline replaced it; that made a
 * switch into D cost 8x a plain one.
 *
 * The kernel already holds what each step needs: its ORC table
 * (.orc_unwind_ip, .orc_unwind, sorted at build time) says, for every
 * address of vmlinux, where the caller's stack pointer is and where the
 * caller's frame pointer was saved. For an ordinary (call) frame the
 * caller's stack pointer is this frame's stack or frame pointer plus an
 * offset, with the return address in the word just below it. fxt looks an
 * address up once (binary search), keeps the rule in a per-CPU cache
 * (vmlinux text never changes), and steps frames itself, only while:
 * - every frame is an ordinary one of vmlinux text (not entry code, not
 *   an interrupt frame, not a module's or BPF's text);
 * - every step stays inside the current task's stack;
 * - no return address can have been replaced: the task has no function
 *   graph return stack and no kretprobe or rethook instance.
 * Anything else stops the fast walk, and the caller falls back to the
 * unwinder, from the start. The table's symbols are found by name at load
 * (fxt_kernel_symbol()); without them every walk is the unwinder's.
 */
#include <linux/kernel.h>
#include <linux/hash.h>
#include <linux/kprobes.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include "fxt.h"
#ifdef CONFIG_UNWINDER_ORC
#include <linux/objtool.h>
#include <asm/orc_types.h>
#endif

/**
 * fxt_kernel_symbol() - the address of a kernel symbol, by name
 * @name: the symbol (text or data)
 *
 * Through a kprobe registered disabled, never armed: kprobes resolve the
 * name (kallsyms) before any check that can refuse the probe, and the
 * address is kept either way (a label is no place for a probe).
 *
 * Return: the address, or 0 when it cannot be had.
 */
unsigned long __init fxt_kernel_symbol(const char *name)
{
#ifdef CONFIG_KPROBES
	struct kprobe kp = {
		.symbol_name = name,
		.flags = KPROBE_FLAG_DISABLED,
	};
	int ret = register_kprobe(&kp);

	if (!ret)
		unregister_kprobe(&kp);
	return IS_ERR_OR_NULL(kp.addr) ? 0 : (unsigned long)kp.addr;
#else
	return 0;
#endif
}

#ifdef CONFIG_UNWINDER_ORC

/* An ordinary frame: a call frame, not a signal (interrupt) one. */
static bool fxt_orc_ordinary(const struct orc_entry *e)
{
#ifdef ORC_TYPE_CALL
	return e->type == ORC_TYPE_CALL && !e->signal;
#else
	return e->type == UNWIND_HINT_TYPE_CALL && !e->end;
#endif
}

static const int *fxt_orc_ip __ro_after_init;
static const struct orc_entry *fxt_orc __ro_after_init;
static unsigned int fxt_orc_count __ro_after_init;
static unsigned long fxt_text_start __ro_after_init;
static unsigned long fxt_text_end __ro_after_init;

/**
 * fxt_stack_init() - find vmlinux's ORC table and text (module load)
 */
void __init fxt_stack_init(void)
{
	unsigned long ip = fxt_kernel_symbol("__start_orc_unwind_ip");
	unsigned long ip_end = fxt_kernel_symbol("__stop_orc_unwind_ip");
	unsigned long orc = fxt_kernel_symbol("__start_orc_unwind");
	unsigned long text = fxt_kernel_symbol("_stext");
	unsigned long text_end = fxt_kernel_symbol("_etext");
	unsigned long sched = (unsigned long)&schedule;

	/* Sanity: the tables are laid out as unwind_orc.c expects them. */
	if (!ip || ip_end <= ip || (ip_end - ip) % sizeof(int) || !orc ||
	    !text || text_end <= text || sched < text || sched >= text_end) {
		pr_info("fxt: no ORC table found: the kernel's unwinder names blocking functions\n");
		return;
	}
	fxt_orc_ip = (const int *)ip;
	fxt_orc = (const struct orc_entry *)orc;
	fxt_orc_count = (ip_end - ip) / sizeof(int);
	fxt_text_start = text;
	fxt_text_end = text_end;
}

static unsigned long fxt_orc_ip_at(unsigned int i)
{
	return (unsigned long)&fxt_orc_ip[i] + fxt_orc_ip[i];
}

/*
 * How to step over the frame that @ret returns into, from the ORC table:
 * where the caller's stack pointer is (sp_reg + sp_offset) and where the
 * caller's frame pointer was saved (bp_reg + bp_offset). sp_reg is left
 * ORC_REG_UNDEFINED for a frame only the unwinder steps over: not an
 * ordinary frame, or not vmlinux's.
 */
static void fxt_orc_rule(unsigned long ret, struct fxt_frame_slot *rule)
{
	unsigned long ip = ret - 1;	/* in the call instruction */
	unsigned int lo = 0, hi = fxt_orc_count, mid;
	const struct orc_entry *e;

	rule->sp_reg = ORC_REG_UNDEFINED;
	if (ip < fxt_text_start || ip >= fxt_text_end ||
	    ip < fxt_orc_ip_at(0))
		return;
	/* the last entry at or below ip: the one that covers it */
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (fxt_orc_ip_at(mid) <= ip)
			lo = mid;
		else
			hi = mid;
	}
	e = &fxt_orc[lo];
	if (!fxt_orc_ordinary(e) ||
	    (e->sp_reg != ORC_REG_SP && e->sp_reg != ORC_REG_BP) ||
	    (e->bp_reg != ORC_REG_UNDEFINED && e->bp_reg != ORC_REG_PREV_SP &&
	     e->bp_reg != ORC_REG_BP))
		return;
	rule->sp_offset = e->sp_offset;
	rule->bp_offset = e->bp_offset;
	rule->bp_reg = e->bp_reg;
	rule->sp_reg = e->sp_reg;
}

/* fxt_orc_rule(), through this CPU's cache */
static const struct fxt_frame_slot *fxt_frame_rule(struct fxt_cpu *c,
						   unsigned long ret)
{
	struct fxt_frame_slot *slot =
		&c->frames[hash_long(ret, ilog2(FXT_FRAME_SLOTS))];

	if (slot->ret != ret) {
		fxt_orc_rule(ret, slot);
		slot->ret = ret;
	}
	return slot;
}

/**
 * fxt_stack_walkable() - may the current task's frames be stepped here?
 *
 * Return: false where a return address may have been replaced by a
 * trampoline (function graph tracing, kretprobes, rethooks) or no ORC
 * table was found: only the unwinder knows those.
 */
bool fxt_stack_walkable(void)
{
	if (!fxt_orc_count)
		return false;
#ifdef CONFIG_FUNCTION_GRAPH_TRACER
	if (current->ret_stack)
		return false;
#endif
#ifdef CONFIG_KRETPROBES
	if (current->kretprobe_instances.first)
		return false;
#endif
#ifdef CONFIG_RETHOOK
	if (current->rethooks.first)
		return false;
#endif
	return true;
}

/* Is the word at @at inside the current task's stack? */
static bool fxt_on_task_stack(unsigned long at)
{
	unsigned long base = (unsigned long)task_stack_page(current);

	return IS_ALIGNED(at, sizeof(long)) && at >= base &&
	       at + sizeof(long) <= base + THREAD_SIZE;
}

/**
 * fxt_stack_step() - from a frame to its caller's
 * @c: this CPU
 * @f: in: a return address, into the frame to step over, with that
 *     frame's stack and frame pointers there; out: the caller's
 *
 * Only after fxt_stack_walkable(), on the current task's stack; every
 * word read is inside it. This is the ORC unwinder's step for a call
 * frame, nothing more.
 *
 * Return: true if stepped; false (@f unchanged) where only the unwinder
 * can.
 */
bool fxt_stack_step(struct fxt_cpu *c, struct fxt_frame *f)
{
	const struct fxt_frame_slot *rule = fxt_frame_rule(c, f->ret);
	unsigned long cfa, bp = f->bp, at;

	if (rule->sp_reg == ORC_REG_SP)
		cfa = f->sp + rule->sp_offset;
	else if (rule->sp_reg == ORC_REG_BP)
		cfa = f->bp + rule->sp_offset;
	else
		return false;
	/* the caller's frame is above this one, its return address too */
	if (cfa < f->sp + sizeof(long) ||
	    !fxt_on_task_stack(cfa - sizeof(long)))
		return false;
	if (rule->bp_reg != ORC_REG_UNDEFINED) {
		at = (rule->bp_reg == ORC_REG_PREV_SP ? cfa : f->bp) +
		     rule->bp_offset;
		if (!fxt_on_task_stack(at))
			return false;
		bp = READ_ONCE_NOCHECK(*(unsigned long *)at);
	}
	f->ret = READ_ONCE_NOCHECK(*(unsigned long *)(cfa - sizeof(long)));
	f->sp = cfa;
	f->bp = bp;
	return true;
}

#else /* !CONFIG_UNWINDER_ORC */

void __init fxt_stack_init(void)
{
}

bool fxt_stack_walkable(void)
{
	return false;
}

bool fxt_stack_step(struct fxt_cpu *c, struct fxt_frame *f)
{
	return false;
}

#endif
