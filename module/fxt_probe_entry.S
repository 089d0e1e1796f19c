/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fxt_probe_entry.S - the sched_switch probe's entry (x86_64): where the
 * tracepoint called it from, at no cost to every other switch.
 *
 * A switch into D walks the stack from the frame that called the probe
 * (fxt_sleep.c), which takes the probe's stack pointer at entry and the
 * caller's frame pointer. Taken in C (__builtin_frame_address()), they
 * gave the probe a frame pointer of its own and a dozen more instructions
 * on every switch: a plain switch cost 6 % more than before sleep events
 * (Documentation/performance.rst). This entry hands them over in
 * registers instead and jumps to the C probe, fxt_probe_switch(), which
 * returns to the tracepoint: %rdi, the data argument fxt does not use,
 * becomes the stack pointer at entry (where the return address is), and
 * %r9, free after sched_switch's five arguments, the caller's %rbp.
 */
#include <linux/linkage.h>
#include <linux/cfi_types.h>

/* Typed: the tracepoint calls it indirectly (kCFI, where built with it). */
SYM_TYPED_FUNC_START(fxt_probe_switch_entry)
	movq	%rsp, %rdi
	movq	%rbp, %r9
	jmp	fxt_probe_switch
SYM_FUNC_END(fxt_probe_switch_entry)
