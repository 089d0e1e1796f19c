// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_sleep.c - the sleep event: the Linux state a thread switched out in,
 * where FXT's outgoing state cannot say it, and the function it blocked in.
 *
 * FXT's outgoing states are Zircon's: a thread in uninterruptible sleep
 * (D), an idle kernel thread (I), a parked one (P) and a traced one (t)
 * are "blocked" or "suspended" like any other. Just before such a switch,
 * the sched_switch probe writes an instant event of category "sched" on
 * the outgoing thread, named by the state's letter as /proc and ftrace
 * give it (the kernel's own __task_state_index()). A switch into D also
 * names the function the thread blocked in, as /proc/PID/wchan would: the
 * first caller outside the scheduler and the locking primitives. The
 * context switch record itself is unchanged, so every reader of FXT still
 * reads it, and a plain switch pays one test of prev_state.
 *
 * The function is named by its symbol, never by its address: its string
 * is interned once per CPU (a string record in the durable buffer), found
 * again through a small per-CPU cache keyed by the return address. A
 * module unloaded can leave its addresses to another one: unloading any
 * module empties every cache (a generation count).
 *
 * The scheduler's text (.sched.text) is where __schedule() and every
 * function marked __sched lives; its bounds are found once at load, by
 * name, through a kprobe that is registered disabled (never armed) just to
 * resolve them. Without kprobes, or on an unwinder fxt does not know, the
 * event is written without the function.
 */
#include <linux/kernel.h>
#include <linux/hash.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <fxt/format.h>
#include "fxt.h"
#include "fxt_buffer.h"
#include "fxt_tables.h"
#ifdef CONFIG_UNWINDER_ORC
#include <asm/unwind.h>
#endif

/*
 * Frames looked at, from the probe up, before giving up on a function: the
 * scheduler's first frame (__schedule()) is at most a few frames above the
 * probe (the probe's own, the tracepoint's iterator); one that is not
 * there within FXT_SLEEP_SCHED_WITHIN frames is not a switch of the
 * scheduler's (a direct call of the probe, as bench/probebench makes).
 */
#define FXT_SLEEP_SCHED_WITHIN	8
#define FXT_SLEEP_FRAMES_MAX	24

static unsigned long fxt_sched_text_start __ro_after_init;
static unsigned long fxt_sched_text_end __ro_after_init;
static atomic_t fxt_sym_gen = ATOMIC_INIT(1);

static int fxt_sleep_module_event(struct notifier_block *nb,
				  unsigned long action, void *data)
{
	if (action == MODULE_STATE_GOING)
		atomic_inc(&fxt_sym_gen);
	return NOTIFY_DONE;
}

static struct notifier_block fxt_sleep_module_nb = {
	.notifier_call = fxt_sleep_module_event,
};

/**
 * fxt_sleep_init() - find the scheduler's text (module load)
 *
 * Return: 0, or a negative errno from the module notifier.
 */
int __init fxt_sleep_init(void)
{
	unsigned long start = fxt_kernel_symbol("__sched_text_start");
	unsigned long end = fxt_kernel_symbol("__sched_text_end");
	unsigned long sched = (unsigned long)&schedule;

	/* Sanity: schedule() is __sched. Else no function is named. */
	if (start && end && start <= sched && sched < end) {
		fxt_sched_text_start = start;
		fxt_sched_text_end = end;
	} else {
		pr_info("fxt: scheduler text not found: sleep events name no function\n");
	}
	fxt_stack_init();
	return register_module_notifier(&fxt_sleep_module_nb);
}

/**
 * fxt_sleep_exit() - module unload
 */
void fxt_sleep_exit(void)
{
	unregister_module_notifier(&fxt_sleep_module_nb);
}

/* Is @addr in the scheduler or in a locking primitive (wchan skips them)? */
static bool fxt_in_sched(unsigned long addr)
{
	return (addr >= fxt_sched_text_start && addr < fxt_sched_text_end) ||
	       in_lock_functions(addr);
}

/**
 * fxt_sleep_caller() - where the sched_switch probe was called from
 * @c: this CPU, in the probe
 * @ip: the probe's return address
 * @sp: the caller's stack pointer once the probe returns
 * @bp: the caller's frame pointer register
 *
 * The unwinder then starts in the tracepoint's code, one frame below the
 * scheduler's, instead of walking fxt's own frames (module frames cost it
 * a module lookup each).
 */
void fxt_sleep_caller(struct fxt_cpu *c, unsigned long ip, unsigned long sp,
		      unsigned long bp)
{
	c->sleep_ip = ip;
	c->sleep_sp = sp;
	c->sleep_bp = bp;
}

/*
 * fxt_blocked_caller() by the kernel's ORC unwinder, from where the
 * tracepoint called the probe: every frame, whatever its kind.
 */
static unsigned long fxt_unwind_blocked_caller(struct fxt_cpu *c)
{
#ifdef CONFIG_UNWINDER_ORC
	struct pt_regs regs = {
		.ip = c->sleep_ip,
		.sp = c->sleep_sp,
		.bp = c->sleep_bp,
		.cs = __KERNEL_CS,
	};
	struct unwind_state state;
	bool seen_sched;
	unsigned int frames = 1;
	unsigned long ip;

	seen_sched = fxt_in_sched(c->sleep_ip);
	/* Starting from regs, the unwinder steps over their frame itself. */
	for (unwind_start(&state, current, &regs, NULL); !unwind_done(&state);
	     unwind_next_frame(&state)) {
		/* a return address; the name is checked later */
		ip = state.ip;
		if (!ip || ++frames > FXT_SLEEP_FRAMES_MAX ||
		    (!seen_sched && frames > FXT_SLEEP_SCHED_WITHIN))
			break;
		if (fxt_in_sched(ip))
			seen_sched = true;
		else if (seen_sched)
			return ip;
	}
#endif
	return 0;
}

/*
 * The function the current task blocked in: the first return address,
 * above the scheduler's frames, that is outside them. 0 when not found.
 * From where the tracepoint called the probe, fxt steps over vmlinux's
 * ordinary frames itself (fxt_stack.c); at the first frame it cannot
 * step, the kernel's ORC unwinder walks them all again.
 */
static unsigned long fxt_blocked_caller(struct fxt_cpu *c)
{
	struct fxt_frame f = {
		.ret = c->sleep_ip, .sp = c->sleep_sp, .bp = c->sleep_bp,
	};
	bool seen_sched = fxt_in_sched(f.ret);
	unsigned int frames = 1;

	if (!fxt_sched_text_end || !f.ret)
		return 0;
	if (!fxt_stack_walkable())
		return fxt_unwind_blocked_caller(c);
	while (fxt_stack_step(c, &f)) {
		if (++frames > FXT_SLEEP_FRAMES_MAX ||
		    (!seen_sched && frames > FXT_SLEEP_SCHED_WITHIN))
			return 0;
		if (fxt_in_sched(f.ret))
			seen_sched = true;
		else if (seen_sched)
			return f.ret;
	}
	return fxt_unwind_blocked_caller(c);
}

/*
 * The string index of the function at @addr in this CPU's table, or 0:
 * then c->sym_buf holds its name, to be written inline ("" if it has none).
 */
static u16 fxt_blocked_ref(struct fxt_cpu *c, unsigned long addr)
{
	u32 gen = atomic_read(&fxt_sym_gen);
	u32 h = hash_long(addr, ilog2(FXT_SYM_SLOTS));
	struct fxt_sym_slot *slot, *free = NULL;
	unsigned int i;
	u16 index;

	for (i = 0; i < FXT_SYM_WAYS; i++) {
		slot = &c->syms[(h + i) & (FXT_SYM_SLOTS - 1)];
		if (slot->addr == addr && slot->gen == gen)
			return slot->index;
		if (!free && (!slot->addr || slot->gen != gen))
			free = slot;
	}
	/* No symbol: kallsyms gives the address in hex. Never write that. */
	sprint_symbol_no_offset(c->sym_buf, addr);
	if (!strncmp(c->sym_buf, "0x", 2)) {
		c->sym_buf[0] = '\0';
		return 0;
	}
	/* The name alone, as /proc/PID/wchan gives it: no " [module]". */
	c->sym_buf[strcspn(c->sym_buf, " ")] = '\0';
	index = fxt_string_add(c, c->sym_buf);
	if (!index)
		return 0;
	if (!free) {
		i = c->sym_victim++ % FXT_SYM_WAYS;
		free = &c->syms[(h + i) & (FXT_SYM_SLOTS - 1)];
	}
	free->addr = addr;
	free->gen = gen;
	free->index = index;
	return index;
}

/**
 * fxt_sleep_prepare() - the sleep event before a switch, if it says more
 * @c: this CPU; in the sched_switch probe (interrupts off)
 * @prev: the outgoing task, current
 * @prev_state: sched_switch's prev_state, with FXT_SLEEP_DETAIL_BITS set
 * @out_ref: the outgoing thread's index in the switch, 0: inline
 *
 * Nothing for the states the switch's outgoing state already says (S, T,
 * Z, X, and R: preempted switches do not come here). The event goes in the
 * switch's own reservation, just before it (fxt_sleep_fill()): one clock
 * read and one reservation for both.
 *
 * Return: the event's size in words, 0 for none.
 */
unsigned int fxt_sleep_prepare(struct fxt_cpu *c, struct task_struct *prev,
			       unsigned int prev_state, u8 out_ref)
{
	char letter = task_index_to_char(__task_state_index(prev_state,
							    prev->exit_state));
	const char *which = strchr(FXT_SLEEP_STATES, letter);
	unsigned int words, len = 0, nargs = 0;
	u16 fn = 0;

	if (!letter || !which) {
		c->sleep_ip = 0;
		return 0;
	}
	if (letter == 'D') {
		unsigned long addr = fxt_blocked_caller(c);

		c->sym_buf[0] = '\0';
		if (addr) {
			fn = fxt_blocked_ref(c, addr);
			if (!fn)
				len = strnlen(c->sym_buf, FXT_NAME_MAX);
			nargs = fn || len;
		}
	}
	c->sleep_ip = 0;
	words = 2 + (out_ref ? 0 : 2) + nargs + FXT_WORDS(len);
	c->sleep_hdr = fxt_event_header(words, FXT_EVENT_INSTANT, nargs,
					out_ref, FXT_S_SCHED,
					FXT_S_SLEEP_FIRST +
					(which - FXT_SLEEP_STATES));
	c->sleep_arg = nargs ? fxt_arg_header(FXT_ARG_STRING,
					      1 + FXT_WORDS(len),
					      FXT_S_BLOCKED_IN,
					      fn ? fn : fxt_inline_string_ref(len)) : 0;
	c->sleep_len = len;
	return words;
}

/**
 * fxt_sleep_fill() - write the event fxt_sleep_prepare() prepared
 * @c: this CPU, in the same probe
 * @p: its place, fxt_sleep_prepare()'s words
 * @ts: its timestamp
 * @prev: the outgoing task
 */
void fxt_sleep_fill(struct fxt_cpu *c, u64 *p, u64 ts,
		    struct task_struct *prev)
{
	unsigned int len = c->sleep_len;

	p[0] = c->sleep_hdr;
	p[1] = ts;
	p += 2;
	if (!FXT_G(c->sleep_hdr, FXT_EVENT_THREAD_FIELD)) {
		*p++ = prev->tgid;
		*p++ = prev->pid;
	}
	if (c->sleep_arg) {
		*p++ = c->sleep_arg;
		if (len) {
			p[FXT_WORDS(len) - 1] = 0;
			memcpy(p, c->sym_buf, len);
		}
	}
}

/**
 * fxt_emit_sleep() - the prepared event as a record of its own
 * @c: this CPU, in the same probe
 * @prev: the outgoing task
 * @words: fxt_sleep_prepare()'s return
 * @ts: the switch's time, read before fxt_sleep_prepare()
 *
 * For the wide switch (a CPU above 255), which reserves its own record,
 * stamped @ts like the switch after it: interrupts are off since @ts was
 * read, so no record of this CPU came in between.
 */
void fxt_emit_sleep(struct fxt_cpu *c, struct task_struct *prev,
		    unsigned int words, u64 ts)
{
	unsigned int bufno;
	u64 now, *p = fxt_rolling_reserve(c, words * 8, &now, &bufno);

	if (!p)
		return;
	fxt_sleep_fill(c, p, ts, prev);
	fxt_rolling_commit(c, words * 8, bufno);
}
