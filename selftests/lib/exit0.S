/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exit0 - a program that only exits 0: no loader, no libc, one page.
 * fxt_flight execs it tens of thousands of times (each exec renames the
 * task) where /bin/true would take 30 ms an exec under TCG.
 */
	.globl	_start
	.text
_start:
	movl	$60, %eax	/* exit */
	xorl	%edi, %edi
	syscall
	.section .note.GNU-stack, "", @progbits
