/* SPDX-License-Identifier: GPL-2.0 */
/* oracle.bpf.h - what the oracle's BPF side and user side share. */
#ifndef FXT_SELFTESTS_ORACLE_BPF_H
#define FXT_SELFTESTS_ORACLE_BPF_H

/* Keys of the per-CPU "counts" array. */
enum oracle_counter {
	ORACLE_SWITCH		= 0,	/* switches involving a counted thread */
	ORACLE_WAKEUP		= 1,	/* waking / wakeup_new of a counted thread */
	ORACLE_ALL_SWITCH	= 2,	/* every switch */
	ORACLE_EXIT		= 3,	/* final switch out of a counted thread */
	ORACLE_SWITCH_DIGEST	= 4,	/* ORACLE_DIGEST over those switches */
	ORACLE_NR_COUNTERS
};

/*
 * An order-sensitive digest of one CPU's context switches (FNV-1a's step
 * over 64-bit words): d = ORACLE_DIGEST(d, prev tid, next tid) for each
 * switch in turn, from d = 0. Equal digests mean the same switches in the
 * same order, where equal counts would let a duplicate and a loss cancel.
 * The oracle and the archive counter (lib/archive.c) both use this one.
 */
#define ORACLE_DIGEST(d, prev, next)					\
	(((d) ^ (((unsigned long long)(unsigned int)(prev) << 32) |	\
		 (unsigned int)(next))) * 0x100000001b3ULL)

#endif /* FXT_SELFTESTS_ORACLE_BPF_H */
