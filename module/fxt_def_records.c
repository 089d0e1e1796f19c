// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_def_records.c - the records that define what others refer to: the
 * constant strings, string and thread records, kernel object records, and
 * the preamble every CPU's durable buffer starts with.
 *
 * Header words come from include/fxt/format.h and nowhere else; what each
 * record means is in Documentation/records.rst. The tables (fxt_tables.c)
 * and the names (fxt_names.c) decide when to write these; the event
 * writers (fxt_records.c) refer to what they define.
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/interrupt.h>
#include <fxt/format.h>
#include <fxt/perfetto_blob.h>
#include "fxt.h"
#include "fxt_buffer.h"
#include "fxt_def_records.h"

static const char *const fxt_fixed_strings[FXT_S_SOFTIRQ_FIRST] = {
	[FXT_S_SCHED] = FXT_CAT_NAME_SCHED,
	[FXT_S_WAKEUP] = FXT_CAT_NAME_WAKEUP,
	[FXT_S_IRQ] = FXT_CAT_NAME_IRQ,
	[FXT_S_SOFTIRQ] = FXT_CAT_NAME_SOFTIRQ,
	[FXT_S_POWER] = FXT_CAT_NAME_POWER,
	[FXT_S_PERFETTO] = FXT_BLOB_NAME_PERFETTO,
	[FXT_S_PROCESS] = FXT_ARG_NAME_PROCESS,
	[FXT_S_WAKER] = FXT_ARG_NAME_WAKER,
	[FXT_S_WAKING_CPU] = FXT_ARG_NAME_WAKING_CPU,
	[FXT_S_WEIGHT] = FXT_ARG_NAME_WEIGHT,
	[FXT_S_HANDLED] = FXT_ARG_NAME_HANDLED,
	[FXT_S_VECTOR] = FXT_ARG_NAME_VECTOR,
	[FXT_S_NAMED_AT] = FXT_ARG_NAME_NAMED_AT,
	[FXT_S_PARENT] = FXT_ARG_NAME_PARENT,
	[FXT_S_CMDLINE] = FXT_ARG_NAME_CMDLINE,
	[FXT_S_OUT_WEIGHT] = FXT_ARG_NAME_OUTGOING_WEIGHT,
	[FXT_S_IN_WEIGHT] = FXT_ARG_NAME_INCOMING_WEIGHT,
	[FXT_S_FXT] = FXT_TRIGGER_CATEGORY,
	[FXT_S_TRIGGER] = FXT_TRIGGER_EVENT_NAME,
	[FXT_S_KIND] = FXT_TRIGGER_ARG_KIND,
	[FXT_S_LATENCY] = FXT_TRIGGER_ARG_LATENCY,
	[FXT_S_THRESHOLD] = FXT_TRIGGER_ARG_THRESHOLD,
	[FXT_S_FIRST] = FXT_TRIGGER_ARG_FIRST,
	[FXT_S_KIND_FIRST + FXT_TRIGGER_WAKEUP_LATENCY - 1] =
		FXT_TRIGGER_NAME_WAKEUP_LATENCY,
	[FXT_S_KIND_FIRST + FXT_TRIGGER_OFF_CPU - 1] = FXT_TRIGGER_NAME_OFF_CPU,
	[FXT_S_KIND_FIRST + FXT_TRIGGER_IRQ_DURATION - 1] =
		FXT_TRIGGER_NAME_IRQ_DURATION,
	[FXT_S_BLOCKED_IN] = FXT_ARG_NAME_BLOCKED_IN,
	[FXT_S_SLEEP_FIRST] = "D",	/* FXT_SLEEP_STATES, one each */
	[FXT_S_SLEEP_FIRST + 1] = "I",
	[FXT_S_SLEEP_FIRST + 2] = "P",
	[FXT_S_SLEEP_FIRST + 3] = "t",
};

/* The kernel's softirq_to_name[], which is not exported. */
static const char *const fxt_softirq_names[NR_SOFTIRQS] = {
	FXT_SOFTIRQ_NAMES
};

/* Their tracepoints, x86's irq_vectors, are hooked by fxt_probes.c. */
const char *const fxt_vector_names[] = {
	"local_timer", "reschedule", "call_function", "call_function_single",
	"irq_work", "x86_platform_ipi", "spurious_apic", "error_apic",
	"thermal_apic", "threshold_apic", "deferred_error_apic",
};

static_assert(ARRAY_SIZE(fxt_vector_names) == FXT_NR_VECTOR_NAMES);

/**
 * fxt_const_string() - the text of a constant string index
 * @index: FXT_S_* below FXT_S_FIRST_DYNAMIC
 *
 * Return: the string, or NULL for an index with no constant string.
 */
const char *fxt_const_string(unsigned int index)
{
	BUILD_BUG_ON(FXT_S_VECTOR_FIRST - FXT_S_SOFTIRQ_FIRST < NR_SOFTIRQS);

	if (index < FXT_S_SOFTIRQ_FIRST)
		return fxt_fixed_strings[index];
	if (index < FXT_S_SOFTIRQ_FIRST + NR_SOFTIRQS)
		return fxt_softirq_names[index - FXT_S_SOFTIRQ_FIRST];
	if (index >= FXT_S_VECTOR_FIRST &&
	    index - FXT_S_VECTOR_FIRST < FXT_NR_VECTOR_NAMES)
		return fxt_vector_names[index - FXT_S_VECTOR_FIRST];
	return NULL;
}

/**
 * fxt_emit_string() - a string record in the durable buffer
 * @c: this CPU; preemption disabled
 * @index: the string index it defines
 * @str: the string, cut at FXT_NAME_MAX bytes
 *
 * Return: whether it was written.
 */
bool fxt_emit_string(struct fxt_cpu *c, u16 index, const char *str)
{
	unsigned int len = strnlen(str, FXT_NAME_MAX);
	unsigned int words = 1 + FXT_WORDS(len);
	int where;
	u64 *p = fxt_durable_reserve(c, words * 8, &where);

	if (!p)
		return false;
	p[0] = fxt_string_header(index, len);
	fxt_put_stream(p + 1, str, len);
	fxt_durable_commit(c, words * 8, where);
	return true;
}

/**
 * fxt_emit_thread() - a thread record in the durable buffer
 * @c: this CPU; interrupts off
 * @index: the thread index it defines
 * @pid: the process koid
 * @tid: the thread koid
 *
 * Return: whether it was written.
 */
bool fxt_emit_thread(struct fxt_cpu *c, u8 index, u64 pid, u64 tid)
{
	int where;
	u64 *p = fxt_durable_reserve(c, 3 * 8, &where);

	if (!p)
		return false;
	p[0] = fxt_thread_header(index);
	p[1] = pid;
	p[2] = tid;
	fxt_durable_commit(c, 3 * 8, where);
	return true;
}

/*
 * Where a kernel object record goes: the durable buffer, or with @rolling
 * (circular mode's names, fxt_names.c) the rolling data, next to the
 * records that need the name. @where is for fxt_kobj_commit().
 */
static u64 *fxt_kobj_reserve(struct fxt_cpu *c, unsigned int len, bool rolling,
			     int *where)
{
	unsigned int bufno;
	u64 ts, *p;

	if (!rolling)
		return fxt_durable_reserve(c, len, where);
	p = fxt_rolling_reserve(c, len, &ts, &bufno);
	*where = bufno;
	return p;
}

static void fxt_kobj_commit(struct fxt_cpu *c, unsigned int len, bool rolling,
			    int where)
{
	if (rolling)
		fxt_rolling_commit(c, len, where);
	else
		fxt_durable_commit(c, len, where);
}

/**
 * fxt_emit_kobj_process() - a process's kernel object record
 * @c: this CPU; preemption disabled
 * @o: what it says. o->named_at, when not 0, is written as the uint64
 *	argument "named_at": the boot-time ns at which the name took effect,
 *	by which fxt-collect finds each koid's newest name (records.rst);
 *	o->parent as the koid argument "parent", o->cmdline as the string
 *	argument "cmdline" (at most FXT_CMDLINE_MAX bytes).
 * @rolling: in the rolling data (circular mode), not the durable buffer
 */
void fxt_emit_kobj_process(struct fxt_cpu *c, const struct fxt_kobj_process *o,
			   bool rolling)
{
	unsigned int len = strnlen(o->name, TASK_COMM_LEN);
	unsigned int clen = min_t(unsigned int, o->cmdline_len, FXT_CMDLINE_MAX);
	unsigned int nargs = 0, words = 2 + FXT_WORDS(len);
	int where;
	u64 *p;

	if (o->named_at) {
		nargs++;
		words += 2;
	}
	if (o->parent != FXT_NO_PARENT) {
		nargs++;
		words += 2;
	}
	if (o->cmdline) {
		nargs++;
		words += 1 + FXT_WORDS(clen);
	}
	p = fxt_kobj_reserve(c, words * 8, rolling, &where);
	if (!p)
		return;
	p[0] = fxt_kobj_header(words, FXT_OBJ_PROCESS,
			       fxt_inline_string_ref(len), nargs);
	p[1] = o->koid;
	p = fxt_put_stream(p + 2, o->name, len);
	if (o->named_at) {
		p[0] = fxt_arg_header(FXT_ARG_UINT64, 2, FXT_S_NAMED_AT, 0);
		p[1] = o->named_at;
		p += 2;
	}
	if (o->parent != FXT_NO_PARENT) {
		p[0] = fxt_arg_header(FXT_ARG_KOID, 2, FXT_S_PARENT, 0);
		p[1] = o->parent;
		p += 2;
	}
	if (o->cmdline) {
		p[0] = fxt_arg_header(FXT_ARG_STRING, 1 + FXT_WORDS(clen),
				      FXT_S_CMDLINE,
				      clen ? fxt_inline_string_ref(clen) : 0);
		fxt_put_stream(p + 1, o->cmdline, clen);
	}
	fxt_kobj_commit(c, words * 8, rolling, where);
}

/**
 * fxt_emit_kobj_thread() - a thread's kernel object record
 * @c: this CPU; preemption disabled
 * @koid: the thread koid (tid)
 * @pkoid: its process koid (tgid), the "process" argument
 * @name: its name, at most TASK_COMM_LEN bytes
 * @named_at: as for fxt_emit_kobj_process()
 * @rolling: as for fxt_emit_kobj_process()
 */
void fxt_emit_kobj_thread(struct fxt_cpu *c, u64 koid, u64 pkoid,
			  const char *name, u64 named_at, bool rolling)
{
	unsigned int len = strnlen(name, TASK_COMM_LEN);
	unsigned int nargs = named_at ? 2 : 1;
	unsigned int words = 2 + FXT_WORDS(len) + 2 * nargs;
	int where;
	u64 *p = fxt_kobj_reserve(c, words * 8, rolling, &where);

	if (!p)
		return;
	p[0] = fxt_kobj_header(words, FXT_OBJ_THREAD,
			       fxt_inline_string_ref(len), nargs);
	p[1] = koid;
	p = fxt_put_stream(p + 2, name, len);
	p[0] = fxt_arg_header(FXT_ARG_KOID, 2, FXT_S_PROCESS, 0);
	p[1] = pkoid;
	if (named_at) {
		p[2] = fxt_arg_header(FXT_ARG_UINT64, 2, FXT_S_NAMED_AT, 0);
		p[3] = named_at;
	}
	fxt_kobj_commit(c, words * 8, rolling, where);
}

/**
 * fxt_emit_cpu_preamble() - what every CPU's durable buffer starts with
 * @c: the CPU; runs on any CPU before the probes are registered
 *
 * The constant strings, the interrupt pseudo-thread's thread record, and
 * its kernel object records.
 */
void fxt_emit_cpu_preamble(struct fxt_cpu *c)
{
	static const struct fxt_kobj_process irq_process = {
		.koid = FXT_KOID_IRQ_PROCESS,
		.name = FXT_IRQ_PROCESS_NAME,
		.parent = FXT_NO_PARENT,
	};
	char name[TASK_COMM_LEN];
	unsigned int i;

	for (i = 1; i < FXT_S_FIRST_DYNAMIC; i++) {
		const char *str = fxt_const_string(i);

		if (str)
			fxt_emit_string(c, i, str);
	}
	fxt_emit_thread(c, FXT_IRQ_THREAD_INDEX, FXT_KOID_IRQ_PROCESS,
			FXT_KOID_IRQ_THREAD(c->cpu));
	snprintf(name, sizeof(name), FXT_IRQ_THREAD_NAME_FORMAT, c->cpu);
	fxt_emit_kobj_process(c, &irq_process, false);
	fxt_emit_kobj_thread(c, FXT_KOID_IRQ_THREAD(c->cpu),
			     FXT_KOID_IRQ_PROCESS, name, 0, false);
}
