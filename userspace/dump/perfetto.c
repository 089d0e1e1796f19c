// SPDX-License-Identifier: MIT
/*
 * perfetto.c - an FXT archive as a Perfetto protobuf trace (fxt-dump
 * --perfetto), for what FXT records cannot say to Perfetto's own FXT
 * importer: a thread in D (or I, P, t), and the function it blocked in.
 *
 * Perfetto's FXT importer writes its thread states itself, from Zircon's
 * states: every sleep is S there. Its ftrace importer knows Linux's. So
 * the scheduling records are written as the ftrace events Perfetto's
 * ftrace data source records (packets of FtraceEventBundle, one CPU
 * each, on one packet sequence):
 *  - a context switch is sched_switch, its outgoing state as ftrace says
 *    it (perfetto_proto.h, PF_STATE_*): S, or the letter of the sleep
 *    event just before it (D, I, P, t), T, Z, X, R+ for a preemption;
 *  - a D sleep event's blocked_in is sched_blocked_reason, its caller an
 *    interned kernel symbol (InternedData.kernel_symbols): Perfetto's
 *    thread_state.blocked_function;
 *  - a wakeup that changes a state is sched_waking, from the waker;
 *  - thread and process kernel objects are ProcessTree packets (the
 *    thread's process, the names, a process's parent and the command
 *    line its exec recorded), one for each run of them;
 *  - a thread's last switch (out dying or dead) is followed by
 *    sched_process_free: Perfetto ends the thread there, and a later
 *    thread with its tid is a new one. As in Linux, a process's leader
 *    is freed with its last thread: Perfetto ends the process with it.
 *  - an interrupt's begin and end are irq_handler_entry/exit (a device
 *    handler, or an x86 vector other than the timer's, under its vector's
 *    name), local_timer_entry/exit or softirq_entry/exit, on the CPU that
 *    took it (irq_levels.c): Perfetto draws them on the CPU's own
 *    "Irq Cpu N" and "SoftIrq Cpu N" tracks.
 *  - a power event (a Perfetto blob of fxt.ko's) is its cpu_idle or
 *    cpu_frequency event as it is: Perfetto's "cpuidle" and "cpufreq"
 *    counter tracks of the CPU;
 *  - fxt-collect's fxt/dropped counter sets lost_events in the CPU's next
 *    FtraceEventBundle: Perfetto's stats then say its data has a loss.
 * Everything else of the archive (other events, counters) is not written
 * yet. Timestamps are the archive's (boot time, ns), which is
 * Perfetto's default clock.
 */
#include <stdlib.h>
#include <string.h>

#include <fxt/perfetto_blob.h>

#include "grow.h"
#include "irq_levels.h"
#include "name_intern.h"
#include "perfetto.h"
#include "perfetto_state.h"
#include "perfetto_proto.h"
#include "protobuf.h"
#include "sleep_pairs.h"
#include "u64map.h"

/* Write the events gathered for a CPU as one FtraceEventBundle packet. */
static void flush_bundle(struct pf *pf, size_t cpu)
{
	struct pbuf *b = &pf->bundles[cpu];
	bool lost = cpu < pf->nlost && pf->lost[cpu];

	if (!b->len && !b->failed && !lost)
		return;
	pb_varint_field(&pf->msg, FXT_PB_BUNDLE_CPU, cpu);
	if (lost) {
		pb_varint_field(&pf->msg, FXT_PB_BUNDLE_LOST_EVENTS, 1);
		pf->lost[cpu] = false;
	}
	if (b->failed)
		pf->msg.failed = true;
	pb_raw(&pf->msg, b->p, b->len);
	pb_msg(&pf->packet, FXT_PB_PACKET_FTRACE_EVENTS, &pf->msg);
	pf_emit_packet(pf);
	pb_reset(b);
}

/* Add the event built in pf->body (field type of FtraceEvent) for cpu. */
static void add_event(struct pf *pf, unsigned int cpu, uint64_t ts, uint64_t pid,
		      unsigned int type)
{
	struct pbuf *b;

	pf_flush_tree(pf);
	if (cpu >= pf->nbundles) {
		b = grow_zeroed(pf->bundles, &pf->nbundles, cpu, 8, sizeof(*b));
		if (!b) {
			pf->failed = true;
			pb_reset(&pf->body);
			return;
		}
		pf->bundles = b;
	}
	b = &pf->bundles[cpu];
	pb_varint_field(&pf->ev, FXT_PB_EVENT_TIMESTAMP, ts);
	pb_varint_field(&pf->ev, FXT_PB_EVENT_PID, pid);
	pb_msg(&pf->ev, type, &pf->body);
	pb_msg(b, FXT_PB_BUNDLE_EVENT, &pf->ev);
	if (b->len > PF_BUNDLE_MAX)
		flush_bundle(pf, cpu);
}

/* ------------------------------------------------------------------ */
/* Scheduling.                                                          */

/* ftrace's prev_state for an FXT outgoing state and its sleep event */
static uint64_t prev_state(unsigned int st, char sleep)
{
	switch (sleep) {
	case 'D':
		return PF_STATE_D;
	case 'I':
		return PF_STATE_I;
	case 'P':
		return PF_STATE_P;
	case 't':
		return PF_STATE_TRACED;
	}
	switch (st) {
	case FXT_THREAD_NEW:
	case FXT_THREAD_RUNNING:
		return PF_STATE_PREEMPTED;
	case FXT_THREAD_SUSPENDED:
		return PF_STATE_T;
	case FXT_THREAD_BLOCKED:
		return PF_STATE_S;
	case FXT_THREAD_DYING:
		return PF_STATE_Z;
	default:
		return PF_STATE_X;
	}
}

/* The interned kernel symbol for syms id fn: its iid, written once. */
static uint64_t symbol_iid(struct pf *pf, uint32_t fn)
{
	while (pf->syms_written <= fn) {
		size_t len;
		const char *s = fxt_name_intern_text(&pf->sleeps.fns, (uint32_t)pf->syms_written, &len);

		pb_varint_field(&pf->body, PF_ISTRING_IID, pf->syms_written + 1);
		pb_bytes_field(&pf->body, PF_ISTRING_STR, s, s ? len : 0);
		pb_msg(&pf->msg, PF_INTERNED_KERNEL_SYMBOLS, &pf->body);
		pf->syms_written++;
	}
	if (pf->msg.len || pf->msg.failed) {
		/* before the bundle that refers to it, on the same sequence */
		struct pbuf keep = pf->msg;

		memset(&pf->msg, 0, sizeof(pf->msg));
		pb_varint_field(&pf->packet, PF_PACKET_SEQUENCE_FLAGS,
				PF_SEQ_NEEDS_INCREMENTAL_STATE);
		pb_msg(&pf->packet, PF_PACKET_INTERNED_DATA, &keep);
		pb_free(&keep);
		pf_emit_packet(pf);
	}
	return (uint64_t)fn + 1;
}

static void put_free(struct pf *pf, unsigned int cpu, uint64_t ts, uint64_t tid,
		     uint64_t cur)
{
	pf_put_comm(&pf->body, PF_FREE_COMM, pf, tid);
	pb_varint_field(&pf->body, PF_FREE_PID, tid);
	add_event(pf, cpu, ts, cur, PF_EVENT_SCHED_PROCESS_FREE);
}

/* Is a thread of process pid other than its leader still alive? */
static bool others_alive(const struct pf *pf, uint64_t pid)
{
	size_t i;

	for (i = 0; i < pf->nthreads; i++)
		if (pf->threads[i].pid == pid && pf->threads[i].tid != pid &&
		    !pf->threads[i].dead)
			return true;
	return false;
}

/*
 * Thread tid switched out for the last time at ts on cpu (cur switched
 * in): sched_process_free for it, and for its process's leader when that
 * waited for its last thread (a leader is freed with its process).
 */
static void on_thread_end(struct pf *pf, unsigned int cpu, uint64_t ts, uint64_t tid,
			  uint64_t cur)
{
	struct pthread *t = pf_thread_get(pf, tid), *leader;
	uint64_t pid;

	if (!t)
		return;
	t->dead = true;
	pid = t->pid;
	if (tid == pid) {
		t->free_pending = others_alive(pf, pid);
		if (!t->free_pending)
			put_free(pf, cpu, ts, tid, cur);
		return;
	}
	put_free(pf, cpu, ts, tid, cur);
	leader = pf_thread_get(pf, pid);
	if (leader && leader->free_pending && !others_alive(pf, pid)) {
		leader->free_pending = false;
		put_free(pf, cpu, ts, pid, cur);
	}
}

static void on_switch(struct pf *pf, const struct fxt_record *rec, uint64_t ts)
{
	const struct fxt_thread *out = &rec->u.sw.out, *in = &rec->u.sw.in;
	bool v1 = rec->subtype == FXT_SCHED_CONTEXT_SWITCH;
	unsigned int st = rec->u.sw.out_state;
	uint64_t otid = out->defined ? out->tid : 0, itid = in->defined ? in->tid : 0;
	int32_t in_prio, out_prio;
	uint64_t iid = 0;
	uint32_t fn;
	char sleep;

	fxt_switch_prios(rec, &out_prio, &in_prio);
	/* The provider's sleep event, when this switch switches its thread out. */
	sleep = sleep_pairs_switch(&pf->sleeps, rec, &fn);
	if (v1 && out->defined && out->pid) {
		struct pthread *t = pf_thread_get(pf, otid);

		if (t)
			t->pid = out->pid;
	}
	if (v1 && in->defined && in->pid) {
		struct pthread *t = pf_thread_get(pf, itid);

		if (t)
			t->pid = in->pid;
	}
	if (fn != NAME_INTERN_NONE)
		iid = symbol_iid(pf, fn);

	pf_put_comm(&pf->body, PF_SWITCH_PREV_COMM, pf, otid);
	pb_varint_field(&pf->body, PF_SWITCH_PREV_PID, otid);
	pb_int_field(&pf->body, PF_SWITCH_PREV_PRIO, out_prio);
	pb_varint_field(&pf->body, PF_SWITCH_PREV_STATE, otid ? prev_state(st, sleep) : 0);
	pf_put_comm(&pf->body, PF_SWITCH_NEXT_COMM, pf, itid);
	pb_varint_field(&pf->body, PF_SWITCH_NEXT_PID, itid);
	pb_int_field(&pf->body, PF_SWITCH_NEXT_PRIO, in_prio);
	add_event(pf, rec->cpu, ts, otid, PF_EVENT_SCHED_SWITCH);
	if (iid) {
		pb_varint_field(&pf->body, PF_BLOCKED_PID, otid);
		pb_varint_field(&pf->body, PF_BLOCKED_CALLER, iid);
		pb_varint_field(&pf->body, PF_BLOCKED_IO_WAIT, 0);
		add_event(pf, rec->cpu, ts, itid, PF_EVENT_SCHED_BLOCKED_REASON);
	}
	if (itid) {
		struct pthread *t = pf_thread_get(pf, itid);

		if (t)
			t->dead = false;	/* a reused tid's new life */
	}
	if (otid && (st == FXT_THREAD_DYING || st == FXT_THREAD_DEAD))
		on_thread_end(pf, rec->cpu, ts, otid, itid);
}

/*
 * fxt-collect's fxt/dropped counter (the CPU's records dropped so far): the
 * CPU's next bundle says it lost events, as ftrace's bundles do when the
 * kernel overwrote some; Perfetto's stats then show the loss.
 */
static void on_counter(struct pf *pf, const struct fxt_record *rec)
{
	uint64_t cpu = rec->u.event.data;
	bool *l;

	if (!NAME_IS(rec->u.event.category, FXT_DROPPED_CATEGORY) ||
	    !NAME_IS(rec->u.event.name, FXT_DROPPED_NAME) || !rec->nargs ||
	    rec->args[0].type != FXT_ARG_UINT64 || !rec->args[0].v.u64 ||
	    cpu >= FXT_MAX_CPUS)
		return;
	if (cpu >= pf->nlost) {
		l = grow_zeroed(pf->lost, &pf->nlost, (size_t)cpu, 8, sizeof(*l));
		if (!l) {
			pf->failed = true;
			return;
		}
		pf->lost = l;
	}
	if (cpu >= pf->nbundles) {
		struct pbuf *b = grow_zeroed(pf->bundles, &pf->nbundles, (size_t)cpu, 8,
					     sizeof(*b));

		if (!b) {
			pf->failed = true;
			return;
		}
		pf->bundles = b;
	}
	pf->lost[cpu] = true;
}

/* An interrupt event (irq_levels.h) as the ftrace event Linux writes. */
static void on_irq(struct pf *pf, const struct fxt_record *rec)
{
	static const unsigned int field[][2] = {	/* entry, exit */
		[IRQ_HANDLER] = { PF_EVENT_IRQ_HANDLER_ENTRY, PF_EVENT_IRQ_HANDLER_EXIT },
		[IRQ_VECTOR] = { PF_EVENT_IRQ_HANDLER_ENTRY, PF_EVENT_IRQ_HANDLER_EXIT },
		[IRQ_LOCAL_TIMER] = { PF_EVENT_LOCAL_TIMER_ENTRY, PF_EVENT_LOCAL_TIMER_EXIT },
		[IRQ_SOFTIRQ] = { PF_EVENT_SOFTIRQ_ENTRY, PF_EVENT_SOFTIRQ_EXIT },
	};
	struct irq_event ev;
	bool failed;

	if (!irq_levels_event(&pf->irqs, rec, &ev, &failed)) {
		pf->failed |= failed;
		return;
	}
	switch (ev.kind) {
	case IRQ_HANDLER:
	case IRQ_VECTOR:
		pb_int_field(&pf->body, ev.entry ? PF_IRQ_ENTRY_IRQ : PF_IRQ_EXIT_IRQ, ev.num);
		if (ev.entry)
			pb_bytes_field(&pf->body, PF_IRQ_ENTRY_NAME, ev.name.data, ev.name.len);
		else
			pb_int_field(&pf->body, PF_IRQ_EXIT_RET, ev.handled);
		break;
	case IRQ_SOFTIRQ:
		pb_varint_field(&pf->body, PF_SOFTIRQ_VEC, (uint64_t)ev.num);
		break;
	case IRQ_LOCAL_TIMER:
		break;
	}
	/* ftrace's pid: the interrupted task; Perfetto draws these by CPU. */
	add_event(pf, ev.cpu, rec->ts_ns, 0, field[ev.kind][!ev.entry]);
}

/*
 * A power blob (records.rst "Power"): its cpu_idle or cpu_frequency events
 * as they are, in the bundle of the CPU they fired on.
 */
static void on_power(struct pf *pf, const struct fxt_record *rec)
{
	struct fxt_power_event ev[4];
	int n;

	if (rec->u.blob.blob_type != FXT_BLOB_TYPE_PERFETTO || !rec->u.blob.payload)
		return;
	n = fxt_perfetto_power_events(rec->u.blob.payload, rec->u.blob.size, ev, 4);
	for (int i = 0; i < n && i < 4; i++) {
		pb_varint_field(&pf->body, FXT_PB_POWER_STATE, ev[i].state);
		pb_varint_field(&pf->body, FXT_PB_POWER_CPU_ID, ev[i].cpu_id);
		add_event(pf, ev[i].cpu, ev[i].ts, ev[i].pid, ev[i].event);
	}
}

static void on_wakeup(struct pf *pf, const struct fxt_record *rec, uint64_t ts)
{
	uint64_t waker = 0, tid = rec->u.wakeup.tid;
	unsigned int i;

	for (i = 0; i < rec->nargs; i++) {
		const struct fxt_arg *a = &rec->args[i];

		if (a->type == FXT_ARG_KOID && NAME_IS(a->name, FXT_ARG_NAME_WAKER))
			waker = a->v.koid;
		/* a wakeup that changes no state (records.rst) */
		if (a->type == FXT_ARG_INT32 && NAME_IS(a->name, FXT_ARG_NAME_WEIGHT) &&
		    (uint32_t)a->v.i32 == FXT_WEIGHT_NO_STATE_CHANGE)
			return;
	}
	pf_put_comm(&pf->body, PF_WAKING_COMM, pf, tid);
	pb_varint_field(&pf->body, PF_WAKING_PID, tid);
	pb_varint_field(&pf->body, PF_WAKING_SUCCESS, 1);
	pb_varint_field(&pf->body, PF_WAKING_TARGET_CPU, rec->cpu);
	add_event(pf, rec->cpu, ts, waker, PF_EVENT_SCHED_WAKING);
}

/* ------------------------------------------------------------------ */

int fxt_perfetto_convert(struct fxt_merge *m, struct outbuf *o, struct progress *pg)
{
	const struct fxt_record *rec;
	struct fxt_reader *r;
	unsigned int n = 0;
	struct fxt_str fn;
	struct pf pf;
	char letter;
	size_t i;
	int rc;

	memset(&pf, 0, sizeof(pf));
	pf.m = m;
	pf.o = o;
	/* The sequence's first packet: its interned data starts empty. */
	pb_varint_field(&pf.packet, PF_PACKET_SEQUENCE_FLAGS, PF_SEQ_INCREMENTAL_STATE_CLEARED);
	pf_emit_packet(&pf);
	pf_put_system_info(&pf);
	while ((rec = fxt_merge_next(m, &r))) {
		if (pg && !(++n & 4095))
			fxt_progress_update(pg, fxt_merge_bytes(m));
		if (rec->flags & (FXT_RF_MALFORMED | FXT_RF_UNKNOWN | FXT_RF_NO_PAYLOAD))
			continue;
		/* Names read so far took effect before this record's time. */
		if (rec->type == FXT_REC_EVENT || rec->type == FXT_REC_SCHED)
			pf_flush_tree(&pf);
		switch (rec->type) {
		case FXT_REC_EVENT:
			if (rec->ts_ns > pf.last_ns)
				pf.last_ns = rec->ts_ns;
			letter = fxt_sleep_event(rec, &fn);
			if (letter)
				sleep_pairs_event(&pf.sleeps, rec, letter, fn);
			else if (rec->subtype == FXT_EVENT_COUNTER)
				on_counter(&pf, rec);
			else
				on_irq(&pf, rec);
			break;
		case FXT_REC_SCHED:
			if (rec->ts_ns > pf.last_ns)
				pf.last_ns = rec->ts_ns;
			if (rec->subtype == FXT_SCHED_THREAD_WAKEUP)
				on_wakeup(&pf, rec, rec->ts_ns);
			else
				on_switch(&pf, rec, rec->ts_ns);
			break;
		case FXT_REC_KERNEL_OBJ:
			pf_on_kobj(&pf, rec);
			break;
		case FXT_REC_BLOB:
			if (rec->ts_ns > pf.last_ns)
				pf.last_ns = rec->ts_ns;
			pf_flush_tree(&pf);
			on_power(&pf, rec);
			break;
		default:
			break;
		}
	}
	pf_flush_tree(&pf);
	for (i = 0; i < pf.nbundles; i++) {
		flush_bundle(&pf, i);
		pb_free(&pf.bundles[i]);
	}
	free(pf.bundles);
	free(pf.lost);
	rc = fxt_merge_status(m);
	if (pf.failed)
		rc = -1;
	pb_free(&pf.out);
	pb_free(&pf.packet);
	pb_free(&pf.msg);
	pb_free(&pf.ev);
	pb_free(&pf.body);
	pb_free(&pf.tree);
	for (i = 0; i < pf.nthreads; i++)
		free(pf.threads[i].cmdline);
	free(pf.threads);
	sleep_pairs_free(&pf.sleeps);
	irq_levels_free(&pf.irqs);
	fxt_u64map_free(&pf.map);
	return rc;
}
