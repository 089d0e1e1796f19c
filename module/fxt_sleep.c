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
#include "fxt_fastpath.h"
#ifdef CONFIG_UNWINDER_ORC
#include <asm/unwind.h>
#endif

/* Frames looked at, from the probe up, before giving up on a function. */
#define FXT_SLEEP_FRAMES_MAX	24

static unsigned long fxt_sched_text_start __ro_after_init;
static unsigned long fxt_sched_text_end __ro_after_init;
static atomic_t fxt_sym_gen = ATOMIC_INIT(1);

/* The address of a kernel symbol, by name: 0 when it cannot be had. */
static unsigned long __init fxt_symbol_address(const char *name)
{
#ifdef CONFIG_KPROBES
	struct kprobe kp = {
		.symbol_name = name,
		.flags = KPROBE_FLAG_DISABLED,
	};
	int ret = register_kprobe(&kp);

	/*
	 * The address is resolved before any check that can refuse the
	 * probe (a section label is no place for one): keep it either way.
	 */
	if (!ret)
		unregister_kprobe(&kp);
	return IS_ERR_OR_NULL(kp.addr) ? 0 : (unsigned long)kp.addr;
#else
	return 0;
#endif
}

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
	unsigned long start = fxt_symbol_address("__sched_text_start");
	unsigned long end = fxt_symbol_address("__sched_text_end");
	unsigned long sched = (unsigned long)&schedule;

	/* Sanity: schedule() is __sched. Else no function is named. */
	if (start && end && start <= sched && sched < end) {
		fxt_sched_text_start = start;
		fxt_sched_text_end = end;
	} else {
		pr_info("fxt: scheduler text not found: sleep events name no function\n");
	}
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

/*
 * The function the current task blocked in: the first return address,
 * above the scheduler's frames, that is outside them. 0 when not found.
 */
static unsigned long fxt_blocked_caller(void)
{
#ifdef CONFIG_UNWINDER_ORC
	struct unwind_state state;
	bool seen_sched = false;
	unsigned int frames = 0;
	unsigned long addr;

	if (!fxt_sched_text_end)
		return 0;
	for (unwind_start(&state, current, NULL, NULL); !unwind_done(&state);
	     unwind_next_frame(&state)) {
		addr = unwind_get_return_address(&state);
		if (!addr || ++frames > FXT_SLEEP_FRAMES_MAX)
			break;
		if (fxt_in_sched(addr))
			seen_sched = true;
		else if (seen_sched)
			return addr;
	}
#endif
	return 0;
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
 * fxt_write_sleep() - the sleep event before a switch, if it says more
 * @c: this CPU; in the sched_switch probe (interrupts off)
 * @prev: the outgoing task, current
 * @prev_state: sched_switch's prev_state, with FXT_SLEEP_DETAIL_BITS set
 * @out_ref: the outgoing thread's index in the switch, 0: inline
 *
 * Nothing for the states the switch's outgoing state already says (S, T,
 * Z, X, and R: preempted switches do not come here).
 */
void fxt_write_sleep(struct fxt_cpu *c, struct task_struct *prev,
		     unsigned int prev_state, u8 out_ref)
{
	char letter = task_index_to_char(__task_state_index(prev_state,
							    prev->exit_state));
	const char *which = strchr(FXT_SLEEP_STATES, letter);
	unsigned int words, len = 0, nargs = 0, bufno;
	u16 fn = 0;
	u64 ts, *p;

	if (!letter || !which)
		return;
	if (letter == 'D') {
		unsigned long addr = fxt_blocked_caller();

		c->sym_buf[0] = '\0';
		if (addr) {
			fn = fxt_blocked_ref(c, addr);
			if (!fn)
				len = strnlen(c->sym_buf, FXT_NAME_MAX);
			nargs = fn || len;
		}
	}
	words = 2 + (out_ref ? 0 : 2) + nargs + FXT_WORDS(len);
	p = fxt_rolling_reserve(c, words * 8, &ts, &bufno);
	if (!p)
		return;
	p[0] = fxt_event_header(words, FXT_EVENT_INSTANT, nargs, out_ref,
				FXT_S_SCHED,
				FXT_S_SLEEP_FIRST + (which - FXT_SLEEP_STATES));
	p[1] = ts;
	p += 2;
	if (!out_ref) {
		*p++ = prev->tgid;
		*p++ = prev->pid;
	}
	if (nargs) {
		*p++ = fxt_arg_header(FXT_ARG_STRING, 1 + FXT_WORDS(len),
				      FXT_S_BLOCKED_IN,
				      fn ? fn : fxt_inline_string_ref(len));
		if (len) {
			p[FXT_WORDS(len) - 1] = 0;
			memcpy(p, c->sym_buf, len);
		}
	}
	fxt_rolling_commit(c, words * 8, bufno);
}
