/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fxt_def_records.h - the records that define what others refer to:
 * string, thread and kernel object records, and each CPU's preamble
 * (fxt_def_records.c). They sit on the buffer layer; the tables and the
 * names decide when to write them, and the event writers (fxt_records.c)
 * refer to what they define.
 */
#ifndef _FXT_DEF_RECORDS_H
#define _FXT_DEF_RECORDS_H

#include <linux/string.h>
#include <fxt/format.h>
#include "fxt.h"

bool fxt_emit_string(struct fxt_cpu *c, u16 index, const char *str);
bool fxt_emit_thread(struct fxt_cpu *c, u8 index, u64 pid, u64 tid);
/* What a process's kernel object record says (fxt_emit_kobj_process()). */
struct fxt_kobj_process {
	u64 koid;		/* the tgid */
	const char *name;	/* at most TASK_COMM_LEN bytes */
	u64 named_at;		/* 0: no "named_at" */
	u64 parent;		/* FXT_NO_PARENT: no "parent" */
	const char *cmdline;	/* NULL: no "cmdline"; else cmdline_len bytes */
	unsigned int cmdline_len;
};

#define FXT_NO_PARENT		U64_MAX
/* The longest command line an exec's process record carries, in bytes. */
#define FXT_CMDLINE_MAX		256

void fxt_emit_kobj_process(struct fxt_cpu *c, const struct fxt_kobj_process *o,
			   bool rolling);
void fxt_emit_kobj_thread(struct fxt_cpu *c, u64 koid, u64 pkoid,
			  const char *name, u64 named_at, bool rolling);
/* The x86 interrupt vectors that bypass irq_handler_entry, by name. */
#define FXT_NR_VECTOR_NAMES	11
extern const char *const fxt_vector_names[];

void fxt_emit_cpu_preamble(struct fxt_cpu *c);
const char *fxt_const_string(unsigned int index);

/* Copy a string into a record's stream, zero-padded to 8 bytes. */
static inline u64 *fxt_put_stream(u64 *p, const char *str, unsigned int len)
{
	unsigned int words = FXT_WORDS(len);

	if (words) {
		p[words - 1] = 0;
		memcpy(p, str, len);
	}
	return p + words;
}

#endif /* _FXT_DEF_RECORDS_H */
