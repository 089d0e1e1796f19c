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
	ORACLE_NR_COUNTERS
};

#endif /* FXT_SELFTESTS_ORACLE_BPF_H */
