// SPDX-License-Identifier: MIT
/*
 * archives.c - the test archives (see archives.h).
 *
 * Golden archives are written with the writer API only, the way fxt-collect
 * and the kernel write them (Documentation/records.rst). Check archives add
 * one kind of defect each, spelled as raw words built from the encoders of
 * include/fxt/format.h with the offending bits added by hand.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <fxt/perfetto_blob.h>

#include "archives.h"

#define IRQ_PID		FXT_KOID_IRQ_PROCESS
#define IRQ_TID(c)	FXT_KOID_IRQ_THREAD(c)
#define NS		1000000000ull

/* Raw words: RAW(w, a, b, c) appends three words. */
#define RAW(w, ...)							\
	fxt_write_raw((w), (const uint64_t[]){ __VA_ARGS__ },		\
		      sizeof((const uint64_t[]){ __VA_ARGS__ }))

/* Bytes of a short string packed in one little-endian word. */
static uint64_t sw(const char *s)
{
	uint64_t v = 0;

	memcpy(&v, s, strlen(s) < 8 ? strlen(s) : 8);
	return v;
}

static void prelude(struct fxt_writer *w)
{
	fxt_write_magic(w);
	fxt_write_provider_info(w, 0, "cpu0");
	fxt_write_init(w, NS);
}

/* ------------------------------------------------------------------ */
/* Golden archives.                                                     */

/* What fxt-collect writes first for two CPUs: magic, then each provider. */
static void prelude_two_cpus(struct fxt_writer *w)
{
	fxt_write_magic(w);
	fxt_write_provider_info(w, 0, "cpu0");
	fxt_write_init(w, NS);
	fxt_write_provider_info(w, 1, "cpu1");
	fxt_write_init(w, NS);
}

/*
 * Two CPUs as fxt-collect writes them: per-CPU providers, the irq
 * pseudo-threads, names, switches inline then indexed, wakeups from a task
 * and from an interrupt, irq and softirq slices, a drop counter.
 */
static void build_basic(struct fxt_writer *w)
{
	struct fxt_arg a;

	prelude_two_cpus(w);

	/* CPU 0: durable data. */
	fxt_write_provider_section(w, 0);
	fxt_write_string(w, 1, "irq", 3);
	fxt_write_string(w, 2, "softirq", 7);
	fxt_write_string(w, 3, "eth0", 4);
	fxt_write_string(w, 4, "NET_RX", 6);
	fxt_write_string(w, 5, "vector", 6);
	fxt_write_string(w, 6, "handled", 7);
	fxt_write_thread(w, 1, IRQ_PID, IRQ_TID(0));
	fxt_write_process(w, IRQ_PID, "irq");
	fxt_write_thread_kobj(w, IRQ_TID(0), "irq/cpu0", IRQ_PID);
	fxt_write_thread_kobj(w, IRQ_TID(1), "irq/cpu1", IRQ_PID);
	fxt_write_process(w, 100, "bash");
	fxt_write_thread_kobj(w, 100, "bash", 100);
	fxt_write_thread_kobj(w, 101, "bash-worker", 100);
	fxt_write_process(w, 200, "nginx");
	fxt_write_thread_kobj(w, 200, "nginx", 200);

	/* CPU 0: rolling data. */
	fxt_write_switch(w, 0, 1000, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_inline(100, 100), 20);
	a = fxt_arg_i32(fxt_str_index(1), 24);
	fxt_write_event(w, FXT_EVENT_DURATION_BEGIN, 1500, fxt_thread_index(1),
			fxt_str_index(1), fxt_str_index(3), &a, 1, 0);
	fxt_write_wakeup(w, 0, 1600, 200, 20, IRQ_TID(0));
	a = fxt_arg_bool(fxt_str_index(6), true);
	fxt_write_event(w, FXT_EVENT_DURATION_END, 1800, fxt_thread_index(1),
			fxt_str_index(1), fxt_str_index(3), &a, 1, 0);
	a = fxt_arg_u32(fxt_str_index(5), 3);
	fxt_write_event(w, FXT_EVENT_DURATION_BEGIN, 1900, fxt_thread_index(1),
			fxt_str_index(2), fxt_str_index(4), &a, 1, 0);
	fxt_write_event(w, FXT_EVENT_DURATION_END, 2100, fxt_thread_index(1),
			fxt_str_index(2), fxt_str_index(4), NULL, 0, 0);
	fxt_write_switch(w, 0, 2500, FXT_THREAD_BLOCKED, fxt_thread_inline(100, 100), 20,
			 fxt_thread_inline(200, 200), 20);
	fxt_write_thread(w, 2, 100, 100);
	fxt_write_thread(w, 3, 200, 200);
	fxt_write_wakeup(w, 0, 3500, 100, 20, 200);
	fxt_write_switch(w, 0, 4000, FXT_THREAD_NEW, fxt_thread_index(3), 20,
			 fxt_thread_index(2), 20);
	fxt_write_switch(w, 0, 6000, FXT_THREAD_BLOCKED, fxt_thread_index(2), 20,
			 fxt_thread_index(3), 20);
	fxt_write_switch(w, 0, 7000, FXT_THREAD_BLOCKED, fxt_thread_index(3), 20,
			 fxt_thread_inline(0, 0), 0);
	fxt_write_provider_event(w, 0, FXT_PROVIDER_EVENT_BUFFER_FULL);
	fxt_write_counter_u64(w, 7500, IRQ_PID, IRQ_TID(0), "fxt", "dropped", 0,
			      "records", 3);

	/* CPU 1: its own tables. */
	fxt_write_provider_section(w, 1);
	fxt_write_string(w, 1, "irq", 3);
	fxt_write_string(w, 2, "local_timer", 11);
	fxt_write_string(w, 3, "vector", 6);
	fxt_write_thread(w, 1, IRQ_PID, IRQ_TID(1));
	fxt_write_switch(w, 1, 1200, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_inline(100, 101), 25);
	a = fxt_arg_i32(fxt_str_index(3), 236);
	fxt_write_event(w, FXT_EVENT_DURATION_BEGIN, 2000, fxt_thread_index(1),
			fxt_str_index(1), fxt_str_index(2), &a, 1, 0);
	fxt_write_event(w, FXT_EVENT_DURATION_END, 2050, fxt_thread_index(1),
			fxt_str_index(1), fxt_str_index(2), NULL, 0, 0);
	fxt_write_switch(w, 1, 3000, FXT_THREAD_BLOCKED, fxt_thread_inline(100, 101), 25,
			 fxt_thread_inline(0, 0), 0);
	fxt_write_thread(w, 2, 100, 101);
	fxt_write_wakeup(w, 1, 5000, 101, 25, 100);
	fxt_write_switch(w, 1, 5200, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_index(2), 25);
	/*
	 * An interrupt still open when the trace ends, an end without a begin
	 * (local_timer began and ended before: --check warns, DURATION_UNMATCHED).
	 */
	fxt_write_event(w, FXT_EVENT_DURATION_END, 5300, fxt_thread_index(1),
			fxt_str_index(1), fxt_str_index(2), NULL, 0, 0);
	fxt_write_switch(w, 1, 7000, FXT_THREAD_DEAD, fxt_thread_index(2), 25,
			 fxt_thread_inline(0, 0), 0);
	fxt_write_event(w, FXT_EVENT_DURATION_BEGIN, 7800, fxt_thread_index(1),
			fxt_str_index(1), fxt_str_index(2), NULL, 0, 0);
	fxt_write_counter_u64(w, 8000, IRQ_PID, IRQ_TID(1), "fxt", "dropped", 1,
			      "records", 0);
}

/* Every record type, event type and argument type, refs inline and indexed. */
static void build_all_types(struct fxt_writer *w)
{
	static const uint8_t payload[13] = "blob payload";
	struct fxt_arg args[FXT_MAX_ARGS];
	unsigned int n = 0, t;

	fxt_write_magic(w);
	fxt_write_provider_info(w, 7, "all-types provider");
	fxt_write_init(w, NS);
	fxt_write_string(w, 1, "cat", 3);
	fxt_write_string(w, 2, "name", 4);
	fxt_write_string(w, 3, "arg", 3);
	fxt_write_string(w, 4, "", 0);
	fxt_write_string(w, 0x7fff, "last index", 10);
	fxt_write_thread(w, 1, 10, 11);
	fxt_write_thread(w, 255, 10, 12);

	args[n++] = fxt_arg_null(fxt_str("null"));
	args[n++] = fxt_arg_i32(fxt_str("i32"), -5);
	args[n++] = fxt_arg_u32(fxt_str("u32"), 0xfffffffeu);
	args[n++] = fxt_arg_i64(fxt_str("i64"), INT64_MIN);
	args[n++] = fxt_arg_u64(fxt_str("u64"), UINT64_MAX);
	args[n++] = fxt_arg_f64(fxt_str("f64"), 3.25);
	args[n++] = fxt_arg_string(fxt_str("str"), fxt_str("inline \"value\"\n"));
	args[n++] = fxt_arg_string(fxt_str_index(3), fxt_str_index(2));
	args[n++] = fxt_arg_ptr(fxt_str("ptr"), 0xdeadbeef);
	args[n++] = fxt_arg_koid(fxt_str("koid"), 11);
	args[n++] = fxt_arg_bool(fxt_str("yes"), true);
	args[n++] = fxt_arg_bool(fxt_str("no"), false);
	args[n++] = fxt_arg_string(fxt_str("empty"), fxt_str(""));
	args[n++] = fxt_arg_i32(fxt_str_index(0x7fff), 0);
	args[n++] = fxt_arg_f64(fxt_str("tiny"), 1e-300);

	fxt_write_process(w, 10, "proc");
	fxt_write_thread_kobj(w, 11, "main", 10);
	fxt_write_thread_kobj(w, 12, "helper", 10);
	fxt_write_kobj(w, 17, 99, fxt_str_index(2), args, 3);	/* ZX_OBJ_TYPE_VCPU */

	for (t = FXT_EVENT_INSTANT; t <= FXT_EVENT_FLOW_END; t++) {
		uint64_t ts = 1000 + 100 * t;

		fxt_write_event(w, t, ts, fxt_thread_index(1), fxt_str_index(1),
				fxt_str_index(2), args, t == 0 ? FXT_MAX_ARGS : t % 3,
				t == FXT_EVENT_DURATION_COMPLETE ? ts + 50 : 0x1234 + t);
		fxt_write_event(w, t, ts + 10, fxt_thread_inline(10, 12), fxt_str("inline cat"),
				fxt_str("inline name"), args + t, 1,
				t == FXT_EVENT_DURATION_COMPLETE ? ts + 20 : 0x1234 + t);
	}
	fxt_write_blob(w, fxt_str("blob"), 1, payload, sizeof(payload));
	fxt_write_blob(w, fxt_str_index(2), 2, payload, 8);
	fxt_write_uobj(w, 0x1000, fxt_thread_index(1), fxt_str("object"), args + 1, 2);
	fxt_write_uobj(w, 0x2000, fxt_thread_inline(10, 0), fxt_str_index(2), NULL, 0);
	fxt_write_switch(w, 3, 3000, FXT_THREAD_NEW, fxt_thread_index(1), 20,
			 fxt_thread_inline(10, 12), 30);
	fxt_write_switch(w, 3, 3100, FXT_THREAD_SUSPENDED, fxt_thread_inline(10, 12), 30,
			 fxt_thread_index(255), 1);
	fxt_write_switch(w, 3, 3200, FXT_THREAD_DYING, fxt_thread_index(255), 1,
			 fxt_thread_index(1), 140);
	args[0] = fxt_arg_i32(fxt_str("outgoing_weight"), 20);
	args[1] = fxt_arg_i32(fxt_str("incoming_weight"), 40);
	fxt_write_switch_v2(w, 300, 3300, FXT_THREAD_DEAD, 11, 12, args, 2);
	fxt_write_wakeup(w, 300, 3400, 11, 20, 12);
	fxt_write_log(w, 3500, fxt_thread_index(1), "log message", 11);
	fxt_write_log(w, 3600, fxt_thread_inline(10, 11), "", 0);
	args[0] = fxt_arg_u64(fxt_str("size"), 4);
	fxt_write_large_blob(w, FXT_LARGE_BLOB_WITH_METADATA, fxt_str_index(1),
			     fxt_str("large"), 3700, fxt_thread_index(255), args, 1,
			     payload, sizeof(payload));
	fxt_write_large_blob(w, FXT_LARGE_BLOB_NO_METADATA, fxt_str("c"),
			     fxt_str_index(2), 0, fxt_thread_index(0), NULL, 0, payload, 4);
	fxt_write_provider_section(w, 7);
	fxt_write_provider_event(w, 7, FXT_PROVIDER_EVENT_BUFFER_FULL);
}

/* A provider counting microseconds: conversion of ticks to nanoseconds. */
static void build_ticks(struct fxt_writer *w)
{
	fxt_write_magic(w);
	fxt_write_provider_info(w, 0, "cpu0");
	fxt_write_init(w, 1000000);		/* 1 tick = 1 us */
	fxt_write_process(w, 5, "app");
	fxt_write_thread_kobj(w, 5, "app", 5);
	fxt_write_thread_kobj(w, 6, "app-io", 5);
	fxt_write_switch(w, 0, 10, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_inline(5, 5), 20);
	fxt_write_switch(w, 0, 15, FXT_THREAD_NEW, fxt_thread_inline(5, 5), 20,
			 fxt_thread_inline(5, 6), 20);
	fxt_write_switch(w, 0, 25, FXT_THREAD_NEW, fxt_thread_inline(5, 6), 20,
			 fxt_thread_inline(5, 5), 20);
	fxt_write_switch(w, 0, 1000000, FXT_THREAD_BLOCKED, fxt_thread_inline(5, 5), 20,
			 fxt_thread_inline(0, 0), 0);
}

/*
 * Two CPUs whose chunks overlap in time, as fxt-collect saves them: CPU 0's
 * chunk comes first in the file, but thread 7 ran on CPU 1 before it moved
 * to CPU 0, and its wakeup (on CPU 1, at 4000) precedes its switch in on
 * CPU 0 (at 5000) although it comes later in the file. Read in time order,
 * the delay is 1000 ns.
 */
static void build_cross_cpu(struct fxt_writer *w)
{
	prelude_two_cpus(w);
	fxt_write_provider_section(w, 0);
	fxt_write_process(w, 7, "app");
	fxt_write_thread_kobj(w, 7, "app", 7);
	fxt_write_thread_kobj(w, 8, "app-helper", 7);
	fxt_write_switch(w, 0, 1000, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_inline(7, 8), 20);
	fxt_write_switch(w, 0, 5000, FXT_THREAD_BLOCKED, fxt_thread_inline(7, 8), 20,
			 fxt_thread_inline(7, 7), 20);
	fxt_write_switch(w, 0, 6000, FXT_THREAD_BLOCKED, fxt_thread_inline(7, 7), 20,
			 fxt_thread_inline(0, 0), 0);
	fxt_write_provider_section(w, 1);
	fxt_write_switch(w, 1, 1000, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_inline(7, 7), 20);
	fxt_write_switch(w, 1, 2000, FXT_THREAD_BLOCKED, fxt_thread_inline(7, 7), 20,
			 fxt_thread_inline(0, 0), 0);
	fxt_write_wakeup(w, 1, 4000, 7, 20, 8);
	fxt_write_switch(w, 1, 7000, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_inline(0, 0), 0);
}

/*
 * The instant event a latency trigger writes when it fires (records.rst,
 * "Latency triggers"), as the module writes it: on the thread concerned,
 * inline, its category, name and argument names the CPU's string indices
 * 1.. (fxt, trigger, kind, latency_ns, threshold_ns, first, then the kind).
 */
static void trigger_event(struct fxt_writer *w, uint64_t ts, uint64_t pid, uint64_t tid,
			  uint16_t kind, uint64_t latency, uint64_t threshold,
			  uint32_t index, bool first)
{
	const struct fxt_arg a[] = {
		fxt_arg_string(fxt_str_index(3), fxt_str_index(kind)),
		fxt_arg_u64(fxt_str_index(4), latency),
		fxt_arg_u64(fxt_str_index(5), threshold),
		fxt_arg_u32(fxt_str_index(2), index),
		fxt_arg_bool(fxt_str_index(6), first),
	};

	fxt_write_event(w, FXT_EVENT_INSTANT, ts, fxt_thread_inline(pid, tid),
			fxt_str_index(1), fxt_str_index(2), a, 5, 0);
}

static void trigger_strings(struct fxt_writer *w)
{
	fxt_write_string(w, 1, FXT_TRIGGER_CATEGORY, strlen(FXT_TRIGGER_CATEGORY));
	fxt_write_string(w, 2, FXT_TRIGGER_EVENT_NAME, strlen(FXT_TRIGGER_EVENT_NAME));
	fxt_write_string(w, 3, FXT_TRIGGER_ARG_KIND, strlen(FXT_TRIGGER_ARG_KIND));
	fxt_write_string(w, 4, FXT_TRIGGER_ARG_LATENCY, strlen(FXT_TRIGGER_ARG_LATENCY));
	fxt_write_string(w, 5, FXT_TRIGGER_ARG_THRESHOLD, strlen(FXT_TRIGGER_ARG_THRESHOLD));
	fxt_write_string(w, 6, FXT_TRIGGER_ARG_FIRST, strlen(FXT_TRIGGER_ARG_FIRST));
	fxt_write_string(w, 7, FXT_TRIGGER_NAME_WAKEUP_LATENCY,
			 strlen(FXT_TRIGGER_NAME_WAKEUP_LATENCY));
	fxt_write_string(w, 8, FXT_TRIGGER_NAME_IRQ_DURATION,
			 strlen(FXT_TRIGGER_NAME_IRQ_DURATION));
	fxt_write_string(w, 9, FXT_CAT_NAME_IRQ, strlen(FXT_CAT_NAME_IRQ));
	fxt_write_string(w, 10, "eth0", 4);
}

/*
 * A window two latency triggers fired in (--trigger wakeup-latency=10ms
 * --trigger irq-duration=1ms): victim (500/501) woken on CPU 0 at 1 ms
 * while spinner holds CPU 1, switched in there at 13 ms: 12 ms, over
 * 10 ms, opens the window (trigger 0, first). Then eth0's interrupt on
 * CPU 0 runs 1.5 ms, over 1 ms: trigger 1's event, on irq/cpu0, not first.
 */
static void build_triggers(struct fxt_writer *w)
{
	prelude_two_cpus(w);

	fxt_write_provider_section(w, 0);
	trigger_strings(w);
	fxt_write_thread(w, 1, IRQ_PID, IRQ_TID(0));
	fxt_write_process(w, IRQ_PID, "irq");
	fxt_write_thread_kobj(w, IRQ_TID(0), "irq/cpu0", IRQ_PID);
	fxt_write_thread_kobj(w, IRQ_TID(1), "irq/cpu1", IRQ_PID);
	fxt_write_process(w, 500, "victim");
	fxt_write_thread_kobj(w, 500, "victim", 500);
	fxt_write_thread_kobj(w, 501, "victim-worker", 500);
	fxt_write_process(w, 600, "hog");
	fxt_write_thread_kobj(w, 600, "hog", 600);
	fxt_write_process(w, 700, "spinner");
	fxt_write_thread_kobj(w, 700, "spinner", 700);
	fxt_write_switch(w, 0, 500000, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_inline(600, 600), 20);
	fxt_write_wakeup(w, 0, 1000000, 501, 20, 600);
	fxt_write_event(w, FXT_EVENT_DURATION_BEGIN, 13500000, fxt_thread_index(1),
			fxt_str_index(9), fxt_str_index(10), NULL, 0, 0);
	fxt_write_event(w, FXT_EVENT_DURATION_END, 15000000, fxt_thread_index(1),
			fxt_str_index(9), fxt_str_index(10), NULL, 0, 0);
	trigger_event(w, 15000000, IRQ_PID, IRQ_TID(0), 8, 1500000, 1000000, 1, false);
	fxt_write_switch(w, 0, 16000000, FXT_THREAD_BLOCKED, fxt_thread_inline(600, 600), 20,
			 fxt_thread_inline(0, 0), 0);

	fxt_write_provider_section(w, 1);
	trigger_strings(w);
	fxt_write_switch(w, 1, 500000, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_inline(700, 700), 20);
	fxt_write_switch(w, 1, 13000000, FXT_THREAD_NEW, fxt_thread_inline(700, 700), 20,
			 fxt_thread_inline(500, 501), 20);
	trigger_event(w, 13000000, 500, 501, 7, 12000000, 10000000, 0, true);
	fxt_write_switch(w, 1, 14000000, FXT_THREAD_BLOCKED, fxt_thread_inline(500, 501), 20,
			 fxt_thread_inline(700, 700), 20);
	fxt_write_switch(w, 1, 16000000, FXT_THREAD_BLOCKED, fxt_thread_inline(700, 700), 20,
			 fxt_thread_inline(0, 0), 0);
}

/* An interrupt of CPU 0 from t to t + 100 + extra, named by string index name. */
static void irq0(struct fxt_writer *w, uint64_t t, uint16_t name, unsigned int extra)
{
	fxt_write_event(w, FXT_EVENT_DURATION_BEGIN, t, fxt_thread_index(1),
			fxt_str_index(1), fxt_str_index(name), NULL, 0, 0);
	fxt_write_event(w, FXT_EVENT_DURATION_END, t + 100 + extra, fxt_thread_index(1),
			fxt_str_index(1), fxt_str_index(name), NULL, 0, 0);
}

/*
 * Interrupt names whose string indices change meaning: redefined by a
 * string record, by the provider being announced again, and the same
 * index naming another handler in another provider.
 */
static void build_irq_names(struct fxt_writer *w)
{
	fxt_write_magic(w);
	fxt_write_provider_info(w, 0, "cpu0");
	fxt_write_provider_info(w, 1, "cpu1");
	fxt_write_string(w, 1, "softirq", 7);
	fxt_write_string(w, 3, "RCU", 3);
	fxt_write_provider_section(w, 0);
	fxt_write_string(w, 1, "irq", 3);
	fxt_write_string(w, 3, "eth0", 4);
	fxt_write_string(w, 67, "nvme0q1", 7);	/* 67 % 64 == 3 */
	fxt_write_thread(w, 1, IRQ_PID, IRQ_TID(0));
	irq0(w, 1000, 3, 0);
	irq0(w, 2000, 3, 1);
	fxt_write_string(w, 3, "ahci", 4);
	irq0(w, 3000, 3, 2);
	irq0(w, 4000, 67, 3);
	irq0(w, 5000, 3, 4);
	fxt_write_provider_section(w, 1);
	fxt_write_event(w, FXT_EVENT_DURATION_BEGIN, 5005, fxt_thread_inline(IRQ_PID, IRQ_TID(1)),
			fxt_str_index(1), fxt_str_index(3), NULL, 0, 0);
	fxt_write_event(w, FXT_EVENT_DURATION_END, 5050, fxt_thread_inline(IRQ_PID, IRQ_TID(1)),
			fxt_str_index(1), fxt_str_index(3), NULL, 0, 0);
	fxt_write_provider_info(w, 0, "cpu0");
	fxt_write_string(w, 1, "irq", 3);
	fxt_write_string(w, 3, "i915", 4);
	fxt_write_string(w, 67, "xhci_hcd", 8);
	fxt_write_thread(w, 1, IRQ_PID, IRQ_TID(0));
	irq0(w, 6000, 3, 5);
	irq0(w, 7000, 67, 6);
}

/*
 * CPU 0 and CPU cpu as fxt-collect writes them: providers "cpu0" and
 * "cpu<cpu>", process 30 "db" with threads 30 and 31, thread 30 running on
 * CPU 0 from 1000 to 4000; the section of CPU cpu is open.
 */
static void two_cpus_db(struct fxt_writer *w, unsigned int cpu)
{
	char name[16];

	snprintf(name, sizeof(name), "cpu%u", cpu);
	fxt_write_magic(w);
	fxt_write_provider_info(w, 0, "cpu0");
	fxt_write_init(w, NS);
	fxt_write_provider_info(w, cpu, name);
	fxt_write_init(w, NS);
	fxt_write_provider_section(w, 0);
	fxt_write_process(w, 30, "db");
	fxt_write_thread_kobj(w, 30, "db", 30);
	fxt_write_thread_kobj(w, 31, "db-log", 30);
	fxt_write_switch(w, 0, 1000, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_inline(30, 30), 20);
	fxt_write_switch(w, 0, 4000, FXT_THREAD_BLOCKED, fxt_thread_inline(30, 30), 20,
			 fxt_thread_inline(0, 0), 0);
	fxt_write_provider_section(w, cpu);
}

/*
 * CPUs 0 and 256 as fxt-collect writes them: providers 0 and 256, named
 * "cpu0" and "cpu256". The context switch's 8-bit cpu field holds 0 on
 * both (records.rst), the wakeup's 16-bit field 256: the CPU is the
 * provider, so the report and the JSON show CPU 256 apart from CPU 0.
 */
/*
 * CPUs 0 and 300 as fxt.ko writes them since a CPU above 255 gets the wide
 * context switch (subtype 1, 16-bit cpu field), with its weight names as
 * string indices of the CPU: Perfetto puts CPU 300's slices on CPU 300.
 */
static void build_cpu300_wide(struct fxt_writer *w)
{
	two_cpus_db(w, 300);
	fxt_write_string(w, 11, FXT_ARG_NAME_OUTGOING_WEIGHT,
			 strlen(FXT_ARG_NAME_OUTGOING_WEIGHT));
	fxt_write_string(w, 12, FXT_ARG_NAME_INCOMING_WEIGHT,
			 strlen(FXT_ARG_NAME_INCOMING_WEIGHT));
	fxt_write_switch_wide(w, 300, 1500, FXT_THREAD_NEW, 0, FXT_WEIGHT_IDLE,
			      31, 20, 11, 12);
	fxt_write_switch_wide(w, 300, 3000, FXT_THREAD_BLOCKED, 31, 20, 0,
			      FXT_WEIGHT_IDLE, 11, 12);
}

static void build_cpu256(struct fxt_writer *w)
{
	two_cpus_db(w, 256);
	/* The kernel writes CPU 256 mod 256 into the switch's 8 bits. */
	fxt_write_switch(w, 256 & 0xff, 1500, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_inline(30, 31), 20);
	fxt_write_wakeup(w, 256, 2000, 30, 20, 31);
	fxt_write_switch(w, 256 & 0xff, 3000, FXT_THREAD_BLOCKED, fxt_thread_inline(30, 31), 20,
			 fxt_thread_inline(0, 0), 0);
}

/* A thread kernel object with the kernel's indexed argument names. */
static void names_thread(struct fxt_writer *w, uint64_t koid, const char *name,
			 uint64_t process, uint64_t named_at)
{
	struct fxt_arg a[2] = {
		fxt_arg_koid(fxt_str_index(1), process),
		fxt_arg_u64(fxt_str_index(2), named_at),
	};

	fxt_write_kobj(w, FXT_OBJ_THREAD, koid, fxt_str(name), a, named_at ? 2 : 1);
}

/*
 * Names as fxt.ko writes them (records.rst): the start snapshot without
 * "named_at", fork and rename records with it, each in the durable data
 * of the CPU that ran the probe. Thread 8 was forked on CPU 1 ("app", at
 * 1000) and renamed itself on CPU 0 ("app-renamed", at 3000); CPU 0's
 * chunk comes first, so the older name is the last one in the CPUs' data.
 * fxt-collect's trailer restates the newest (what lib/name_trailer.c writes,
 * checked by the unit tests), and the tools name thread 8 by it.
 */
static void build_names(struct fxt_writer *w)
{
	prelude_two_cpus(w);
	fxt_write_provider_section(w, 0);
	fxt_write_string(w, 1, "process", 7);
	fxt_write_string(w, 2, "named_at", 8);
	fxt_write_process(w, 7, "app");
	names_thread(w, 7, "app", 7, 0);
	names_thread(w, 8, "app-renamed", 7, 3000);
	fxt_write_switch(w, 0, 2500, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_inline(7, 8), 20);
	fxt_write_switch(w, 0, 4000, FXT_THREAD_BLOCKED, fxt_thread_inline(7, 8), 20,
			 fxt_thread_inline(0, 0), 0);
	fxt_write_provider_section(w, 1);
	fxt_write_string(w, 1, "process", 7);
	fxt_write_string(w, 2, "named_at", 8);
	names_thread(w, 8, "app", 7, 1000);
	fxt_write_switch(w, 1, 1500, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_inline(7, 8), 20);
	fxt_write_switch(w, 1, 2000, FXT_THREAD_BLOCKED, fxt_thread_inline(7, 8), 20,
			 fxt_thread_inline(0, 0), 0);
	/* the trailer: inline strings, its own provider */
	fxt_write_provider_info(w, FXT_NAMES_PROVIDER_ID, FXT_NAMES_PROVIDER_NAME);
	fxt_write_init(w, NS);
	fxt_write_kobj(w, FXT_OBJ_THREAD, 8, fxt_str("app-renamed"),
		       (const struct fxt_arg[]){
				fxt_arg_koid(fxt_str("process"), 7),
				fxt_arg_u64(fxt_str("named_at"), 3000) }, 2);
}

/*
 * Records lost in the middle of a thread's stint (what stress.fxt showed on
 * 6.12-rt), as fxt-collect writes them: thread 8 switched in on CPU 0,
 * whose next records were dropped (the counter says 5; the loss record
 * spans 1000..2000), so its switch out is missing; it is woken on CPU 1
 * at 3000, just before CPU 1 loses 4 records (3000..5000), and switched
 * out on CPU 1 with its switch in lost too. fxt-report and --json count
 * no run of thread 8 (unknown from 1000, and from 3000 again); Perfetto,
 * which FXT cannot tell "unknown", draws it running from 1000 to 5000
 * (perfetto-check excuses exactly a thread running at a loss record).
 */
static void build_lost_switch(struct fxt_writer *w)
{
	prelude_two_cpus(w);
	fxt_write_provider_section(w, 0);
	fxt_write_process(w, 7, "app");
	fxt_write_thread_kobj(w, 7, "app", 7);
	fxt_write_thread_kobj(w, 8, "app-helper", 7);
	fxt_write_switch(w, 0, 1000, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_inline(7, 8), 20);
	fxt_write_counter_u64(w, 1000, IRQ_PID, IRQ_TID(0), "fxt", "dropped", 0,
			      "records", 5);
	fxt_write_lost(w, 0, 1000, 2000, 5);
	fxt_write_switch(w, 0, 2000, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_inline(0, 0), 0);
	fxt_write_provider_section(w, 1);
	fxt_write_switch(w, 1, 1000, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_inline(7, 7), 20);
	fxt_write_switch(w, 1, 2500, FXT_THREAD_BLOCKED, fxt_thread_inline(7, 7), 20,
			 fxt_thread_inline(0, 0), 0);
	fxt_write_wakeup(w, 1, 3000, 8, 20, IRQ_TID(1));
	fxt_write_counter_u64(w, 3000, IRQ_PID, IRQ_TID(1), "fxt", "dropped", 1,
			      "records", 4);
	fxt_write_lost(w, 1, 3000, 5000, 4);
	fxt_write_switch(w, 1, 5000, FXT_THREAD_BLOCKED, fxt_thread_inline(7, 8), 20,
			 fxt_thread_inline(0, 0), 0);
}

/* A process kernel object with the kernel's indexed argument name. */
static void names_process(struct fxt_writer *w, uint64_t koid, const char *name,
			  uint64_t named_at)
{
	struct fxt_arg a = fxt_arg_u64(fxt_str_index(2), named_at);

	fxt_write_kobj(w, FXT_OBJ_PROCESS, koid, fxt_str(name), &a, named_at ? 1 : 0);
}

/*
 * Tids reused within one trace: process 7 "first" and its thread 9
 * "worker" run and exit (final switches dead), then tid 7 is a new
 * process "second" and tid 9 a new process "other", named at their forks
 * (named_at 4000). The readers must give the earlier threads their own
 * names, not the later ones (records.rst, "Threads, processes and names").
 */
static void build_pid_reuse(struct fxt_writer *w)
{
	prelude_two_cpus(w);
	fxt_write_provider_section(w, 0);
	fxt_write_string(w, 1, "process", 7);
	fxt_write_string(w, 2, "named_at", 8);
	names_process(w, 7, "first", 0);
	names_thread(w, 7, "first", 7, 0);
	names_thread(w, 9, "worker", 7, 1000);
	fxt_write_switch(w, 0, 1500, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_inline(7, 7), 20);
	fxt_write_switch(w, 0, 2500, FXT_THREAD_DEAD, fxt_thread_inline(7, 7), 20,
			 fxt_thread_inline(7, 9), 20);
	fxt_write_switch(w, 0, 3000, FXT_THREAD_DYING, fxt_thread_inline(7, 9), 20,
			 fxt_thread_inline(0, 0), 0);
	names_process(w, 7, "second", 4000);
	names_thread(w, 7, "second", 7, 4000);
	names_process(w, 9, "other", 4500);
	names_thread(w, 9, "other", 9, 4500);
	fxt_write_wakeup(w, 0, 4900, 7, 20, 0);
	fxt_write_switch(w, 0, 5000, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_inline(7, 7), 20);
	fxt_write_switch(w, 0, 7000, FXT_THREAD_BLOCKED, fxt_thread_inline(7, 7), 20,
			 fxt_thread_inline(9, 9), 20);
	fxt_write_switch(w, 0, 8000, FXT_THREAD_BLOCKED, fxt_thread_inline(9, 9), 20,
			 fxt_thread_inline(0, 0), 0);
	fxt_write_provider_section(w, 1);
	fxt_write_switch(w, 1, 1000, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_inline(0, 0), 0);
}

/*
 * Processes' lives as fxt.ko writes them (records.rst "Names"): process 7
 * "sh" (parent 1) forks process 9, first named "sh" with parent 7, which
 * execs "sleep": its process record then carries the command line.
 * fxt-collect's trailer restates process 9's name without a parent, which
 * must not lose it. Process 11's record has no parent (an older fxt.ko).
 */
static void build_process_life(struct fxt_writer *w)
{
	prelude_two_cpus(w);
	fxt_write_provider_section(w, 0);
	fxt_write_string(w, 1, "process", 7);
	fxt_write_string(w, 2, "named_at", 8);
	fxt_write_kobj(w, FXT_OBJ_PROCESS, 7, fxt_str("sh"),
		       (const struct fxt_arg[]){ fxt_arg_koid(fxt_str("parent"), 1) }, 1);
	names_thread(w, 7, "sh", 7, 0);
	fxt_write_switch(w, 0, 500, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_inline(7, 7), 20);
	fxt_write_kobj(w, FXT_OBJ_PROCESS, 9, fxt_str("sh"),
		       (const struct fxt_arg[]){
				fxt_arg_u64(fxt_str_index(2), 1000),
				fxt_arg_koid(fxt_str("parent"), 7) }, 2);
	names_thread(w, 9, "sh", 9, 1000);
	fxt_write_switch(w, 0, 1200, FXT_THREAD_BLOCKED, fxt_thread_inline(7, 7), 20,
			 fxt_thread_inline(9, 9), 20);
	names_thread(w, 9, "sleep", 9, 1500);
	fxt_write_kobj(w, FXT_OBJ_PROCESS, 9, fxt_str("sleep"),
		       (const struct fxt_arg[]){
				fxt_arg_u64(fxt_str_index(2), 1500),
				fxt_arg_koid(fxt_str("parent"), 7),
				fxt_arg_string(fxt_str("cmdline"), fxt_str("sleep 0.1")) }, 3);
	fxt_write_switch(w, 0, 2000, FXT_THREAD_DEAD, fxt_thread_inline(9, 9), 20,
			 fxt_thread_inline(11, 11), 20);
	names_process(w, 11, "old", 0);
	names_thread(w, 11, "old", 11, 0);
	fxt_write_switch(w, 0, 2500, FXT_THREAD_BLOCKED, fxt_thread_inline(11, 11), 20,
			 fxt_thread_inline(0, 0), 0);
	fxt_write_provider_section(w, 1);
	fxt_write_switch(w, 1, 1000, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_inline(0, 0), 0);
	fxt_write_provider_info(w, FXT_NAMES_PROVIDER_ID, FXT_NAMES_PROVIDER_NAME);
	fxt_write_init(w, NS);
	fxt_write_kobj(w, FXT_OBJ_PROCESS, 9, fxt_str("sleep"),
		       (const struct fxt_arg[]){ fxt_arg_u64(fxt_str("named_at"), 1500) }, 1);
}

/*
 * A process and its main thread share a koid (fxt.ko's koids are pids),
 * and each has its own newest name. What stress.fxt showed on 6.12-rt:
 * thread 7 ("app") forked process 9 on CPU 0 ("fxt_stress" for both, at
 * 1000), which ran on CPU 1 and exec'd "true" at 2000; of the exec's two
 * records the process's was kept, the thread's dropped (the counter says
 * 1). CPU 1 was saved first, so fxt-collect's trailer restates process 9's
 * newest name. Thread 9 is "fxt_stress", process 9 "true": a reader that
 * keeps one name per koid gives the thread the process's.
 */
static void build_names_process_thread(struct fxt_writer *w)
{
	prelude_two_cpus(w);
	fxt_write_provider_section(w, 1);
	fxt_write_string(w, 1, "process", 7);
	fxt_write_string(w, 2, "named_at", 8);
	fxt_write_switch(w, 1, 1500, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_inline(9, 9), 20);
	names_process(w, 9, "true", 2000);
	fxt_write_counter_u64(w, 2000, IRQ_PID, IRQ_TID(1), "fxt", "dropped", 1,
			      "records", 1);
	fxt_write_switch(w, 1, 3000, FXT_THREAD_DEAD, fxt_thread_inline(9, 9), 20,
			 fxt_thread_inline(0, 0), 0);
	fxt_write_provider_section(w, 0);
	fxt_write_string(w, 1, "process", 7);
	fxt_write_string(w, 2, "named_at", 8);
	names_process(w, 7, "app", 0);
	names_thread(w, 7, "app", 7, 0);
	fxt_write_switch(w, 0, 500, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_inline(7, 7), 20);
	names_process(w, 9, "fxt_stress", 1000);
	names_thread(w, 9, "fxt_stress", 9, 1000);
	fxt_write_wakeup(w, 0, 1000, 9, 20, 7);
	fxt_write_switch(w, 0, 1200, FXT_THREAD_BLOCKED, fxt_thread_inline(7, 7), 20,
			 fxt_thread_inline(0, 0), 0);
	fxt_write_provider_info(w, FXT_NAMES_PROVIDER_ID, FXT_NAMES_PROVIDER_NAME);
	fxt_write_init(w, NS);
	fxt_write_kobj(w, FXT_OBJ_PROCESS, 9, fxt_str("true"),
		       (const struct fxt_arg[]){ fxt_arg_u64(fxt_str("named_at"), 2000) }, 1);
}

/* ------------------------------------------------------------------ */
/* Check archives: one kind of defect each.                             */

/* Not a byte: not an FXT archive either (nothing says what it is). */
static void build_empty(struct fxt_writer *w)
{
	(void)w;
}

static void build_no_magic(struct fxt_writer *w)
{
	fxt_write_provider_info(w, 0, "cpu0");
	fxt_write_init(w, NS);
}

static void build_big_endian(struct fxt_writer *w)
{
	RAW(w, __builtin_bswap64(FXT_MAGIC_RECORD));
	fxt_write_provider_info(w, 0, "cpu0");
}

static void build_bad_magic(struct fxt_writer *w)
{
	uint64_t ti = fxt_record_header(FXT_REC_METADATA, 1) |
		      FXT_F(FXT_META_TRACE_INFO, FXT_META_TYPE_FIELD) |
		      FXT_F(FXT_TRACE_INFO_MAGIC, FXT_TRACE_INFO_TYPE_FIELD);

	prelude(w);
	RAW(w, ti | FXT_F(0x12345678, FXT_TRACE_INFO_MAGIC_FIELD));	/* wrong number */
	RAW(w, FXT_MAGIC_RECORD | FXT_F(1, FXT_TRACE_INFO_RESERVED_FIELD));
	RAW(w, (FXT_MAGIC_RECORD & ~FXT_F(0xfff, FXT_RECORD_WORDS_FIELD)) |
	       FXT_F(2, FXT_RECORD_WORDS_FIELD), 0);
}

static void build_size_zero(struct fxt_writer *w)
{
	prelude(w);
	RAW(w, fxt_record_header(FXT_REC_STRING, 0) | FXT_F(1, FXT_STRING_INDEX_FIELD));
	fxt_write_string(w, 1, "never read", 10);
}

static void build_truncated(struct fxt_writer *w)
{
	prelude(w);
	fxt_write_string(w, 1, "whole", 5);
	RAW(w, fxt_string_header(2, 20), sw("only"));	/* 4 words said, 2 here */
}

static void build_size_mismatch(struct fxt_writer *w)
{
	prelude(w);
	RAW(w, fxt_record_header(FXT_REC_INIT, 3), NS, 0);		/* extra word */
	/* a thread record of 2 words, short of its 3 */
	RAW(w, fxt_record_header(FXT_REC_THREAD, 2) | FXT_F(1, FXT_THREAD_INDEX_FIELD), 1);
	RAW(w, fxt_provider_info_header(1, 4) | FXT_F(3, FXT_RECORD_WORDS_FIELD), sw("cpu1"), 0);
}

/*
 * Every reserved field the reader checks, one record each (the unit tests
 * list the messages; run-tests.sh checks that every reserved() of
 * lib/reader_decode.c is among them). The bits are spelled FXT_FIELD(bit, bit),
 * not as format.h's *_RESERVED_FIELDs: these records test those ranges.
 */
static void build_reserved_bits(struct fxt_writer *w)
{
	prelude(w);
	RAW(w, fxt_string_header(1, 3) | FXT_F(1, FXT_FIELD(47, 47)), sw("abc"));
	RAW(w, fxt_string_header(2, 3) | FXT_F(1, FXT_FIELD(31, 31)), sw("def"));
	RAW(w, fxt_init_header() | FXT_F(1, FXT_FIELD(20, 20)), NS);
	RAW(w, fxt_thread_header(1) | FXT_F(5, FXT_FIELD(24, 31)), 1, 2);
	RAW(w, fxt_provider_section_header(0) | FXT_F(1, FXT_FIELD(60, 60)));
	RAW(w, fxt_provider_event_header(0, FXT_PROVIDER_EVENT_BUFFER_FULL) |
	       FXT_F(1, FXT_FIELD(58, 58)));
	RAW(w, fxt_wakeup_header(3, 0, 0) | FXT_F(1, FXT_FIELD(40, 40)), 10, 1);
	RAW(w, fxt_switch_v2_header(4, 0, 0, FXT_THREAD_NEW) | FXT_F(1, FXT_FIELD(45, 45)),
	    20, 1, 2);
	RAW(w, fxt_kobj_header(3, FXT_OBJ_PROCESS, fxt_inline_string_ref(1), 0) |
	       FXT_F(1, FXT_FIELD(50, 50)), 9, sw("p"));
	RAW(w, fxt_blob_header(2, 0, 8, 1) | FXT_F(1, FXT_FIELD(47, 47)), 42);
	RAW(w, fxt_blob_header(2, 0, 8, 1) | FXT_F(1, FXT_FIELD(60, 60)), 42);
	RAW(w, fxt_uobj_header(3, 0, 0, 0) | FXT_F(1, FXT_FIELD(50, 50)), 0x1000, 9);
	RAW(w, fxt_log_header(4, 0, 0) | FXT_F(1, FXT_FIELD(31, 31)), 30, 1, 2);
	RAW(w, fxt_log_header(4, 0, 0) | FXT_F(1, FXT_FIELD(45, 45)), 40, 1, 2);
	RAW(w, fxt_large_blob_header(3, FXT_LARGE_BLOB_NO_METADATA) | FXT_F(1, FXT_FIELD(50, 50)),
	    fxt_large_blob_format_word(0, 0, 0, 0), 0);
	RAW(w, fxt_large_blob_header(3, FXT_LARGE_BLOB_NO_METADATA),
	    fxt_large_blob_format_word(0, 0, 0, 0) | FXT_F(1, FXT_FIELD(40, 40)), 0);
	RAW(w, fxt_large_blob_header(6, FXT_LARGE_BLOB_WITH_METADATA),
	    fxt_large_blob_format_word(0, 0, 0, 0) | FXT_F(1, FXT_FIELD(50, 50)), 50, 1, 2, 0);
	RAW(w, fxt_provider_info_header(1, 4) | FXT_F(1, FXT_FIELD(61, 61)), sw("cpu1"));
}

static void build_unknown_record(struct fxt_writer *w)
{
	prelude(w);
	RAW(w, fxt_record_header(11, 2), 42);
	RAW(w, fxt_record_header(14, 1));
}

static void build_unknown_subtype(struct fxt_writer *w)
{
	prelude(w);
	RAW(w, fxt_record_header(FXT_REC_METADATA, 1) | FXT_F(7, FXT_META_TYPE_FIELD));
	RAW(w, fxt_record_header(FXT_REC_METADATA, 1) |
	       FXT_F(FXT_META_TRACE_INFO, FXT_META_TYPE_FIELD) |
	       FXT_F(3, FXT_TRACE_INFO_TYPE_FIELD));
	RAW(w, fxt_provider_event_header(0, 5));
	RAW(w, fxt_event_header(2, 12, 0, 0, 0, 0), 100);
	RAW(w, fxt_record_header(FXT_REC_SCHED, 2) | FXT_F(5, FXT_SCHED_TYPE_FIELD), 100);
	RAW(w, fxt_large_record_header(2, 3), 0);
	RAW(w, fxt_large_blob_header(2, 4), 0);
}

static void build_provider_unknown(struct fxt_writer *w)
{
	fxt_write_magic(w);
	fxt_write_string(w, 1, "before any provider", 19);
	fxt_write_provider_info(w, 0, "cpu0");
	fxt_write_provider_section(w, 9);
	fxt_write_switch(w, 0, 10, 0, fxt_thread_inline(0, 0), 0, fxt_thread_inline(1, 1), 20);
	fxt_write_provider_section(w, 0);
	fxt_write_provider_event(w, 5, FXT_PROVIDER_EVENT_BUFFER_FULL);
}

static void build_init_zero(struct fxt_writer *w)
{
	prelude(w);
	fxt_write_init(w, 0);
}

static void build_string_index_0(struct fxt_writer *w)
{
	prelude(w);
	RAW(w, fxt_string_header(0, 3), sw("abc"));
}

static void build_thread_index_0(struct fxt_writer *w)
{
	prelude(w);
	RAW(w, fxt_thread_header(0), 1, 2);
}

static void build_string_undefined(struct fxt_writer *w)
{
	prelude(w);
	fxt_write_provider_info(w, 1, "cpu1");
	fxt_write_string(w, 5, "irq", 3);
	fxt_write_provider_section(w, 0);
	/* Index 5 belongs to provider 1 only; 77 to nobody. */
	fxt_write_event(w, FXT_EVENT_INSTANT, 10, fxt_thread_inline(1, 2), fxt_str_index(5),
			fxt_str_index(77), NULL, 0, 0);
}

static void build_thread_undefined(struct fxt_writer *w)
{
	prelude(w);
	fxt_write_provider_info(w, 1, "cpu1");
	fxt_write_thread(w, 9, 1, 1);
	fxt_write_provider_section(w, 0);
	fxt_write_switch(w, 0, 10, FXT_THREAD_NEW, fxt_thread_index(9), 20,
			 fxt_thread_index(10), 20);
}

/* A string record and an inline string (an event's name) of 32001 bytes. */
static void build_string_too_long(struct fxt_writer *w)
{
	size_t len = FXT_STRING_MAX_LEN + 1, words = 1 + FXT_WORDS(len);
	uint64_t *rec = calloc(words + 4, 8);

	prelude(w);
	if (!rec)
		return;
	rec[0] = fxt_string_header(2, (uint32_t)len);
	memset(rec + 1, 'a', len);
	fxt_write_raw(w, rec, words * 8);
	memset(rec, 0, (words + 4) * 8);
	rec[0] = fxt_event_header((unsigned int)words + 3, FXT_EVENT_INSTANT, 0, 0, 0,
				  fxt_inline_string_ref((uint32_t)len));
	rec[1] = 10;		/* timestamp */
	rec[2] = 1;		/* process koid */
	rec[3] = 2;		/* thread koid */
	memset(rec + 4, 'b', len);
	fxt_write_raw(w, rec, (words + 3) * 8);
	free(rec);
}

/* Non-zero bytes after every kind of string and payload stream. */
static void build_padding(struct fxt_writer *w)
{
	prelude(w);
	RAW(w, fxt_string_header(1, 3), sw("abcxyz"));
	RAW(w, fxt_event_header(6, FXT_EVENT_INSTANT, 0, 0, fxt_inline_string_ref(1),
				fxt_inline_string_ref(2)), 10, 1, 2, sw("cX"), sw("nmY"));
	RAW(w, fxt_event_header(7, FXT_EVENT_INSTANT, 1, 0, 0, 0), 20, 1, 2,
	    fxt_arg_header(FXT_ARG_STRING, 3, fxt_inline_string_ref(1), fxt_inline_string_ref(1)),
	    sw("aZ"), sw("vZ"));
	RAW(w, fxt_kobj_header(3, FXT_OBJ_PROCESS, fxt_inline_string_ref(2), 0), 9, sw("pnQ"));
	RAW(w, fxt_blob_header(3, fxt_inline_string_ref(1), 3, 1), sw("bX"), sw("xyzW"));
	RAW(w, fxt_uobj_header(4, 0, fxt_inline_string_ref(1), 0), 0x1000, 9, sw("oV"));
	RAW(w, fxt_log_header(5, 3, 0), 30, 1, 2, sw("logU"));
	RAW(w, fxt_large_blob_header(4, FXT_LARGE_BLOB_NO_METADATA),
	    fxt_large_blob_format_word(0, 0, 0, 0), 2, sw("lbT"));
	RAW(w, fxt_provider_info_header(1, 4), sw("cpu1S"));
}

static void build_arg_size(struct fxt_writer *w)
{
	prelude(w);
	/* int64 without its value word, then int32 with an extra word. */
	RAW(w, fxt_event_header(7, FXT_EVENT_INSTANT, 2, 0, 0, 0), 10, 1, 2,
	    fxt_arg_header(FXT_ARG_INT64, 1, 0, 0),
	    fxt_arg_header(FXT_ARG_INT32, 2, 0, 5), 0);
	/* size 0 */
	RAW(w, fxt_event_header(5, FXT_EVENT_INSTANT, 1, 0, 0, 0), 20, 1, 2,
	    fxt_arg_header(FXT_ARG_INT32, 0, 0, 5));
}

static void build_arg_overflow(struct fxt_writer *w)
{
	prelude(w);
	RAW(w, fxt_event_header(5, FXT_EVENT_INSTANT, 2, 0, 0, 0), 10, 1, 2,
	    fxt_arg_header(FXT_ARG_INT32, 1, 0, 5));
	RAW(w, fxt_event_header(5, FXT_EVENT_INSTANT, 1, 0, 0, 0), 20, 1, 2,
	    fxt_arg_header(FXT_ARG_UINT64, 5, 0, 0));
}

static void build_arg_unknown(struct fxt_writer *w)
{
	prelude(w);
	RAW(w, fxt_event_header(6, FXT_EVENT_INSTANT, 1, 0, 0, 0), 10, 1, 2,
	    fxt_arg_header(12, 2, 0, 0), 99);
}

static void build_arg_reserved(struct fxt_writer *w)
{
	prelude(w);
	RAW(w, fxt_event_header(7, FXT_EVENT_INSTANT, 2, 0, 0, 0), 10, 1, 2,
	    fxt_arg_header(FXT_ARG_INT64, 2, 0, 1), 7,
	    fxt_arg_header(FXT_ARG_BOOL, 1, 0, 2));
	RAW(w, fxt_event_header(5, FXT_EVENT_INSTANT, 1, 0, 0, 0), 20, 1, 2,
	    fxt_arg_header(FXT_ARG_STRING, 1, 0, 0x10000));
}

static void build_kobj_no_process(struct fxt_writer *w)
{
	struct fxt_arg a = fxt_arg_u64(fxt_str("process"), 5);

	prelude(w);
	fxt_write_kobj(w, FXT_OBJ_THREAD, 6, fxt_str("no-args"), NULL, 0);
	fxt_write_kobj(w, FXT_OBJ_THREAD, 7, fxt_str("wrong-type"), &a, 1);
}

static void build_kobj_name(struct fxt_writer *w)
{
	prelude(w);
	fxt_write_kobj(w, FXT_OBJ_PROCESS, 5, fxt_str(""), NULL, 0);
}

static void build_switch_state(struct fxt_writer *w)
{
	prelude(w);
	fxt_write_switch(w, 0, 10, FXT_THREAD_RUNNING, fxt_thread_inline(1, 1), 20,
			 fxt_thread_inline(2, 2), 20);
	fxt_write_switch(w, 0, 20, 7, fxt_thread_inline(2, 2), 20,
			 fxt_thread_inline(1, 1), 20);
}

static void build_sched_args(struct fxt_writer *w)
{
	struct fxt_arg a[2];

	prelude(w);
	a[0] = fxt_arg_u32(fxt_str("weight"), 20);
	a[1] = fxt_arg_koid(fxt_str("waker"), 1);
	fxt_write_wakeup_args(w, 0, 10, 2, a, 2);
	a[0] = fxt_arg_i32(fxt_str("weight"), 20);
	a[1] = fxt_arg_u64(fxt_str("waker"), 1);
	fxt_write_wakeup_args(w, 0, 20, 2, a, 2);
	a[0] = fxt_arg_i64(fxt_str("outgoing_weight"), 20);
	fxt_write_switch_v2(w, 0, 30, FXT_THREAD_NEW, 1, 2, a, 1);
}

/*
 * cpu fields that contradict their per-CPU provider, and the same fields
 * in providers that are not per-CPU (no defect there).
 */
static void build_cpu_mismatch(struct fxt_writer *w)
{
	struct fxt_arg a = fxt_arg_i32(fxt_str("incoming_weight"), 20);

	prelude(w);
	fxt_write_switch(w, 0, 10, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_inline(1, 1), 20);			/* right */
	fxt_write_provider_info(w, 1, "cpu1");
	fxt_write_switch(w, 2, 10, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_inline(2, 2), 20);			/* wrong */
	fxt_write_switch_v2(w, 5, 20, FXT_THREAD_NEW, 2, 3, &a, 1);	/* wrong */
	fxt_write_wakeup(w, 3, 30, 2, 20, 3);				/* wrong */
	fxt_write_provider_info(w, 257, "cpu257");
	fxt_write_switch(w, 1, 10, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_inline(4, 4), 20);			/* right: 257 mod 256 */
	fxt_write_switch_v2(w, 257, 20, FXT_THREAD_NEW, 4, 5, &a, 1);	/* right */
	fxt_write_wakeup(w, 1, 30, 4, 20, 5);				/* wrong: 16 bits */
	fxt_write_provider_info(w, 2, "cpu02");		/* not per-CPU: any field */
	fxt_write_switch(w, 9, 10, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_inline(6, 6), 20);
	fxt_write_provider_info(w, 3, "app");
	fxt_write_wakeup(w, 4, 30, 6, 20, 7);
}

static void build_time_backwards(struct fxt_writer *w)
{
	prelude(w);
	fxt_write_provider_info(w, 1, "cpu1");
	fxt_write_init(w, NS);
	fxt_write_provider_section(w, 0);
	fxt_write_switch(w, 0, 100, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_inline(1, 1), 20);
	fxt_write_provider_section(w, 1);
	fxt_write_switch(w, 1, 10, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_inline(2, 2), 20);	/* another provider: fine */
	fxt_write_provider_section(w, 0);
	fxt_write_wakeup(w, 0, 50, 3, 20, 1);
}

static void build_duration_end(struct fxt_writer *w)
{
	prelude(w);
	fxt_write_event(w, FXT_EVENT_DURATION_COMPLETE, 100, fxt_thread_inline(1, 1),
			fxt_str("c"), fxt_str("n"), NULL, 0, 50);
}

/* A duration begin or end of thread tid (pid 1) in category "c". */
static void dur(struct fxt_writer *w, unsigned int type, uint64_t ts, uint64_t tid,
		const char *name)
{
	fxt_write_event(w, type, ts, fxt_thread_inline(1, tid), fxt_str("c"), fxt_str(name),
			NULL, 0, 0);
}

#define B(ts, tid, name)	dur(w, FXT_EVENT_DURATION_BEGIN, ts, tid, name)
#define E(ts, tid, name)	dur(w, FXT_EVENT_DURATION_END, ts, tid, name)

/*
 * One end without a begin (thread 1: "a" again after it was closed); ends
 * whose begin may precede the archive, each thread's first said once as
 * DURATION_NO_BEGIN: before any begin (thread 2: the archive may start
 * inside "pre", and inside "pre2" around it, not said again), one whose
 * name was never begun after other levels came and went (thread 3: inside
 * "outer" since before the archive), the same name on another thread (4)
 * or in another provider (1); and what must not be reported: levels past
 * the 32 kept (thread 5, 40 deep), and a begin left open.
 */
static void build_duration_unmatched(struct fxt_writer *w)
{
	unsigned int i;

	prelude(w);
	B(10, 1, "a");
	E(20, 1, "a");
	E(30, 1, "a");		/* the one warning */
	E(40, 2, "pre");
	E(45, 2, "pre2");
	B(50, 2, "x");
	E(60, 2, "x");
	B(70, 3, "inner");
	E(80, 3, "inner");
	E(90, 3, "outer");
	E(100, 4, "a");
	for (i = 0; i < 40; i++)
		B(200 + i, 5, i % 2 ? "odd" : "even");
	for (i = 40; i-- > 0;)
		E(300 + 40 - i, 5, i % 2 ? "odd" : "even");
	B(400, 1, "open at the end");
	fxt_write_provider_info(w, 1, "cpu1");
	fxt_write_init(w, NS);
	E(50, 1, "a");
}

/*
 * Ends that are not the innermost level's: "a" closing below "b" (as on
 * PREEMPT_RT: the level is taken out, "b" ends fine after it), then "z",
 * which no open level has (ignored: "a" still closes its own).
 */
static void build_duration_mismatch(struct fxt_writer *w)
{
	prelude(w);
	B(10, 1, "a");
	B(20, 1, "b");
	E(30, 1, "a");		/* warning: level 1 of 2 */
	E(40, 1, "b");
	B(50, 1, "a");
	E(60, 1, "z");		/* warning: none of 1 */
	E(70, 1, "a");
}

#undef B
#undef E

/*
 * Sleep events without their switch: one whose next switch switches
 * another thread out, one followed by another sleep event first, one with
 * no switch after it (CPU 1); then a paired one, not reported.
 */
static void build_sleep_unpaired(struct fxt_writer *w)
{
	struct fxt_str sched = fxt_str(FXT_CAT_NAME_SCHED);
	struct fxt_arg fn = fxt_arg_string(fxt_str(FXT_ARG_NAME_BLOCKED_IN), fxt_str("msleep"));

	prelude_two_cpus(w);
	fxt_write_provider_section(w, 0);
	fxt_write_event(w, FXT_EVENT_INSTANT, 1000, fxt_thread_inline(5, 5), sched,
			fxt_str("D"), &fn, 1, 0);
	fxt_write_switch(w, 0, 1000, FXT_THREAD_BLOCKED, fxt_thread_inline(6, 6), 20,
			 fxt_thread_inline(5, 5), 20);
	fxt_write_event(w, FXT_EVENT_INSTANT, 2000, fxt_thread_inline(5, 5), sched,
			fxt_str("I"), NULL, 0, 0);
	fxt_write_event(w, FXT_EVENT_INSTANT, 2000, fxt_thread_inline(5, 5), sched,
			fxt_str("t"), NULL, 0, 0);
	fxt_write_switch(w, 0, 2000, FXT_THREAD_SUSPENDED, fxt_thread_inline(5, 5), 20,
			 fxt_thread_inline(6, 6), 20);
	fxt_write_provider_section(w, 1);
	fxt_write_event(w, FXT_EVENT_INSTANT, 3000, fxt_thread_inline(7, 7), sched,
			fxt_str("P"), NULL, 0, 0);
}

static void build_blob_size(struct fxt_writer *w)
{
	prelude(w);
	RAW(w, fxt_blob_header(2, 0, 100, 1), 0);			/* 100 bytes in 1 word */
	RAW(w, fxt_large_blob_header(5, FXT_LARGE_BLOB_NO_METADATA),
	    fxt_large_blob_format_word(0, 0, 0, 0), 3, 0, 0);		/* 3 bytes in 2 words */
	RAW(w, fxt_large_blob_header(3, FXT_LARGE_BLOB_NO_METADATA),
	    fxt_large_blob_format_word(0, 0, 0, 0), 1000);		/* 1000 in 0 */
}

static void build_memory_limit(struct fxt_writer *w)
{
	char s[1000];
	unsigned int i;

	memset(s, 's', sizeof(s));
	prelude(w);
	for (i = 1; i <= 300; i++)
		fxt_write_string(w, (uint16_t)i, s, sizeof(s));
}

static void build_too_large(struct fxt_writer *w)
{
	size_t size = 80 << 10;
	uint8_t *p = calloc(1, size);

	prelude(w);
	if (p)
		fxt_write_large_blob(w, FXT_LARGE_BLOB_NO_METADATA, fxt_str("c"), fxt_str("n"),
				     0, fxt_thread_index(0), NULL, 0, p, size);
	free(p);
	fxt_write_string(w, 1, "after", 5);
}

/* A sleep event (records.rst, "Sleep states"): letter, thread, blocked_in. */
static void sleep_event(struct fxt_writer *w, uint64_t ts, struct fxt_thread th,
			struct fxt_str cat, struct fxt_str letter, const struct fxt_arg *fn)
{
	fxt_write_event(w, FXT_EVENT_INSTANT, ts, th, cat, letter, fn, fn ? 1 : 0, 0);
}

/*
 * Sleep events on two CPUs, as fxt.ko writes them just before the switch
 * out: CPU 0 with inline threads and indexed strings, CPU 1 with indexed
 * threads and inline strings. D in msleep (twice, woken), D without a
 * function, D in p9_client_rpc never woken (its switch in ends it), I
 * and P (idle sleeps: S), t (suspended), a plain S, a preemption, and a D
 * event whose switch switches another thread out (SLEEP_UNPAIRED).
 */
static void build_sleep_states(struct fxt_writer *w)
{
	struct fxt_arg msleep = fxt_arg_string(fxt_str_index(4), fxt_str_index(3));
	struct fxt_arg p9 = fxt_arg_string(fxt_str(FXT_ARG_NAME_BLOCKED_IN),
					   fxt_str("p9_client_rpc"));
	struct fxt_arg msleep_inline = fxt_arg_string(fxt_str(FXT_ARG_NAME_BLOCKED_IN),
						      fxt_str("msleep"));
	struct fxt_str sched = fxt_str_index(1), d = fxt_str_index(2);
	struct fxt_str sched_inline = fxt_str(FXT_CAT_NAME_SCHED);

	prelude_two_cpus(w);

	/* CPU 0: names, then the interned strings of its sleep events. */
	fxt_write_provider_section(w, 0);
	fxt_write_process(w, 100, "app");
	fxt_write_thread_kobj(w, 100, "worker", 100);
	fxt_write_thread_kobj(w, 101, "io-worker", 100);
	fxt_write_process(w, 2, "kthreadd");
	fxt_write_thread_kobj(w, 102, "kworker/1:0", 2);
	fxt_write_process(w, 103, "stuck");
	fxt_write_thread_kobj(w, 103, "stuck", 103);
	fxt_write_process(w, 104, "traced");
	fxt_write_thread_kobj(w, 104, "traced", 104);
	fxt_write_process(w, 105, "bash");
	fxt_write_thread_kobj(w, 105, "bash", 105);
	fxt_write_process(w, 106, "spin");
	fxt_write_thread_kobj(w, 106, "spin", 106);
	fxt_write_string(w, 1, FXT_CAT_NAME_SCHED, strlen(FXT_CAT_NAME_SCHED));
	fxt_write_string(w, 2, "D", 1);
	fxt_write_string(w, 3, "msleep", 6);
	fxt_write_string(w, 4, FXT_ARG_NAME_BLOCKED_IN, strlen(FXT_ARG_NAME_BLOCKED_IN));

	fxt_write_switch(w, 0, 1000, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_inline(100, 100), 20);
	sleep_event(w, 2000, fxt_thread_inline(100, 100), sched, d, &msleep);
	fxt_write_switch(w, 0, 2000, FXT_THREAD_BLOCKED, fxt_thread_inline(100, 100), 20,
			 fxt_thread_inline(105, 105), 20);
	fxt_write_switch(w, 0, 2500, FXT_THREAD_BLOCKED, fxt_thread_inline(105, 105), 20,
			 fxt_thread_inline(106, 106), 20);
	/* A D event on bash, but the switch after it switches spin out. */
	sleep_event(w, 3000, fxt_thread_inline(105, 105), sched, d, &msleep);
	fxt_write_switch(w, 0, 3200, FXT_THREAD_NEW, fxt_thread_inline(106, 106), 20,
			 fxt_thread_inline(103, 103), 20);
	sleep_event(w, 3400, fxt_thread_inline(103, 103), sched, d, NULL);
	fxt_write_switch(w, 0, 3400, FXT_THREAD_BLOCKED, fxt_thread_inline(103, 103), 20,
			 fxt_thread_inline(106, 106), 20);
	fxt_write_wakeup(w, 0, 4000, 105, 20, 106);
	fxt_write_wakeup(w, 0, 4200, 100, 20, 106);
	fxt_write_switch(w, 0, 4300, FXT_THREAD_NEW, fxt_thread_inline(106, 106), 20,
			 fxt_thread_inline(100, 100), 20);
	sleep_event(w, 5000, fxt_thread_inline(100, 100), sched_inline, fxt_str("D"),
		    &msleep_inline);
	fxt_write_switch(w, 0, 5000, FXT_THREAD_BLOCKED, fxt_thread_inline(100, 100), 20,
			 fxt_thread_inline(106, 106), 20);
	fxt_write_wakeup(w, 0, 5600, 100, 20, 106);
	fxt_write_wakeup(w, 0, 5700, 103, 20, 106);
	fxt_write_switch(w, 0, 6000, FXT_THREAD_BLOCKED, fxt_thread_inline(106, 106), 20,
			 fxt_thread_inline(0, 0), 0);

	/* CPU 1: indexed threads, inline strings. */
	fxt_write_provider_section(w, 1);
	fxt_write_thread(w, 1, 100, 101);
	fxt_write_thread(w, 2, 2, 102);
	fxt_write_thread(w, 3, 104, 104);
	fxt_write_switch(w, 1, 1000, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_index(1), 20);
	sleep_event(w, 1500, fxt_thread_index(1), sched_inline, fxt_str("D"), &p9);
	fxt_write_switch(w, 1, 1500, FXT_THREAD_BLOCKED, fxt_thread_index(1), 20,
			 fxt_thread_index(2), 20);
	sleep_event(w, 3000, fxt_thread_index(2), sched_inline, fxt_str("I"), NULL);
	fxt_write_switch(w, 1, 3000, FXT_THREAD_BLOCKED, fxt_thread_index(2), 20,
			 fxt_thread_index(3), 20);
	fxt_write_wakeup(w, 1, 3500, 102, 20, 104);
	sleep_event(w, 3600, fxt_thread_index(3), sched_inline, fxt_str("t"), NULL);
	fxt_write_switch(w, 1, 3600, FXT_THREAD_SUSPENDED, fxt_thread_index(3), 20,
			 fxt_thread_index(2), 20);
	sleep_event(w, 3800, fxt_thread_index(2), sched_inline, fxt_str("P"), NULL);
	fxt_write_switch(w, 1, 3800, FXT_THREAD_BLOCKED, fxt_thread_index(2), 20,
			 fxt_thread_inline(0, 0), 0);
	fxt_write_wakeup(w, 1, 4500, 104, 20, 0);
	/* io-worker's D ends at its switch in: no wakeup was recorded. */
	fxt_write_switch(w, 1, 7000, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_index(1), 20);
	fxt_write_switch(w, 1, 8000, FXT_THREAD_NEW, fxt_thread_index(1), 20,
			 fxt_thread_index(3), 20);
	fxt_write_switch(w, 1, 9000, FXT_THREAD_BLOCKED, fxt_thread_index(3), 20,
			 fxt_thread_inline(0, 0), 0);
}

/* ------------------------------------------------------------------ */
/* Report archives.                                                     */

/* A power event as fxt.ko writes it: one Perfetto packet in a blob. */
static void power_blob(struct fxt_writer *w, unsigned int event, uint32_t cpu, uint64_t ms,
		       uint32_t state)
{
	__u8 buf[FXT_PB_POWER_PACKET_MAX];
	unsigned int n = fxt_pb_power_packet(buf, event, cpu, ms * 1000000, 0, state);

	fxt_write_blob(w, fxt_str(FXT_BLOB_NAME_PERFETTO), FXT_BLOB_TYPE_PERFETTO, buf, n);
}

#define IDLE(w, cpu, ms, state)	power_blob(w, FXT_PB_EVENT_CPU_IDLE, cpu, ms, state)
#define FREQ(w, cpu, ms, khz)	power_blob(w, FXT_PB_EVENT_CPU_FREQUENCY, cpu, ms, khz)
#define MS			1000000ull

/*
 * The two CPUs of the power archives: worker (100) runs on CPU 0 from
 * 1 ms, spinner (200) will on CPU 1; CPU 0's section is open.
 */
static void power_prelude(struct fxt_writer *w)
{
	prelude_two_cpus(w);
	fxt_write_process(w, 100, "worker");
	fxt_write_thread_kobj(w, 100, "worker", 100);
	fxt_write_process(w, 200, "spinner");
	fxt_write_thread_kobj(w, 200, "spinner", 200);

	fxt_write_provider_section(w, 0);
	fxt_write_switch(w, 0, 1 * MS, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_inline(100, 100), 20);
}

/*
 * cpu_idle and cpu_frequency events of three CPUs over 1..11 ms, their
 * figures worked out by hand in tests/run-tests.sh (2c). CPU 0: idle from
 * 3 ms, state 1 twice (3..5, 8..9 ms), state 2 once (7..8, left for 1
 * without an exit), active 5..7 and 9..11: 4 of 8 ms; 1 GHz from 2 ms,
 * 2 GHz from 6 ms (a second 2 GHz event at 10 ms is no change): mean
 * (4 x 1 + 5 x 2) / 9 GHz. CPU 1: idle from 4 ms, state 0 until 10 ms.
 * CPU 2: no cpu_idle, 800 MHz from 5 ms, written by CPU 1 (one cpufreq
 * policy). A loss report blob (no power event) changes nothing.
 */
static void build_power(struct fxt_writer *w)
{
	power_prelude(w);
	FREQ(w, 0, 2, 1000000);
	fxt_write_switch(w, 0, 3 * MS, FXT_THREAD_BLOCKED, fxt_thread_inline(100, 100), 20,
			 fxt_thread_inline(0, 0), 0);
	IDLE(w, 0, 3, 1);
	IDLE(w, 0, 5, FXT_PB_IDLE_EXIT);
	fxt_write_wakeup(w, 0, 5 * MS, 100, 20, 0);
	fxt_write_switch(w, 0, 5 * MS, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_inline(100, 100), 20);
	FREQ(w, 0, 6, 2000000);
	fxt_write_switch(w, 0, 7 * MS, FXT_THREAD_BLOCKED, fxt_thread_inline(100, 100), 20,
			 fxt_thread_inline(0, 0), 0);
	IDLE(w, 0, 7, 2);
	IDLE(w, 0, 8, 1);
	IDLE(w, 0, 9, FXT_PB_IDLE_EXIT);
	FREQ(w, 0, 10, 2000000);

	fxt_write_provider_section(w, 1);
	fxt_write_switch(w, 1, 1 * MS, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_inline(200, 200), 20);
	fxt_write_perfetto_lost_events(w, 1);
	fxt_write_switch(w, 1, 4 * MS, FXT_THREAD_BLOCKED, fxt_thread_inline(200, 200), 20,
			 fxt_thread_inline(0, 0), 0);
	IDLE(w, 1, 4, 0);
	FREQ(w, 2, 5, 800000);
	IDLE(w, 1, 10, FXT_PB_IDLE_EXIT);
	fxt_write_wakeup(w, 1, 10 * MS, 200, 20, 0);
	fxt_write_switch(w, 1, 10 * MS, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_inline(200, 200), 20);
	fxt_write_switch(w, 1, 11 * MS, FXT_THREAD_NEW, fxt_thread_inline(200, 200), 20,
			 fxt_thread_inline(0, 0), 0);
}

/*
 * Power events but no idle state entered: a CPU idle from an exit on
 * (active throughout), with no state of its own (the fuzzer's first find
 * in the Power section), and a frequency event at the last timestamp.
 */
static void build_power_no_state(struct fxt_writer *w)
{
	prelude(w);
	fxt_write_switch(w, 0, 1 * MS, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_inline(100, 100), 20);
	IDLE(w, 0, 2, FXT_PB_IDLE_EXIT);
	fxt_write_switch(w, 0, 3 * MS, FXT_THREAD_NEW, fxt_thread_inline(100, 100), 20,
			 fxt_thread_inline(0, 0), 0);
	FREQ(w, 0, 3, 1200000);
}

/*
 * A loss that ends the archive (what stress.fxt showed on a debug kernel):
 * CPU 1 drops its records from 3 ms to the stop at 9 ms, so the loss
 * record's end is the archive's last time, later than any record's own.
 * CPU 0 entered idle state 1 at 2 ms and has no event after it: its idle
 * time runs to 9 ms, in fxt-report and in perfetto-check's sums alike.
 */
static void build_power_lost_end(struct fxt_writer *w)
{
	power_prelude(w);
	fxt_write_switch(w, 0, 2 * MS, FXT_THREAD_BLOCKED, fxt_thread_inline(100, 100), 20,
			 fxt_thread_inline(0, 0), 0);
	IDLE(w, 0, 2, 1);

	fxt_write_provider_section(w, 1);
	fxt_write_switch(w, 1, 1 * MS, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_inline(200, 200), 20);
	IDLE(w, 1, 1, FXT_PB_IDLE_EXIT);
	fxt_write_counter_u64(w, 3 * MS, IRQ_PID, IRQ_TID(1), "fxt", "dropped", 1,
			      "records", 6);
	fxt_write_lost(w, 1, 3 * MS, 9 * MS, 6);
}

/*
 * A loss record as records.rst ("Loss") has it, as fxt-collect writes one:
 * fxt/lost on CPU cpu's interrupt pseudo-thread from the CPU's last kept
 * record to its first kept one after the loss, "cpu" and "records".
 */
static void lost(struct fxt_writer *w, uint32_t cpu, uint64_t from, uint64_t to,
		 uint64_t records)
{
	struct fxt_arg a[2] = {
		fxt_arg_u32(fxt_str("cpu"), cpu),
		fxt_arg_u64(fxt_str(FXT_DROPPED_ARG_NAME), records),
	};

	fxt_write_event(w, FXT_EVENT_DURATION_COMPLETE, from,
			fxt_thread_inline(IRQ_PID, IRQ_TID(cpu)), fxt_str(FXT_DROPPED_CATEGORY),
			fxt_str("lost"), a, 2, to);
}

static void timer_irq(struct fxt_writer *w, unsigned int type, uint32_t cpu, uint64_t ts)
{
	fxt_write_event(w, type, ts, fxt_thread_inline(IRQ_PID, IRQ_TID(cpu)),
			fxt_str(FXT_CAT_NAME_IRQ), fxt_str("timer"), NULL, 0, 0);
}

/*
 * CPU 1 lost 42 records from 4 ms (its last kept record, an interrupt's
 * begin) to 7 ms (its first kept one, a switch), the figures worked out by
 * hand in tests/run-tests.sh (2c). runner (100) runs on CPU 1 from 1 ms:
 * its run time ends at 4 ms; preempted at 7 ms (from an unknown state: no
 * run added), it waits 7..9 ms and runs 9..10. waiter (200), woken at
 * 3 ms, is switched in on CPU 0 at 8 ms: no scheduling delay (it may have
 * run on CPU 1 in the gap). On CPU 0, steady (300) runs throughout the
 * gap (its run time stays), is preempted at 5 ms and back at 6 (in the
 * gap: no wait), preempted at 8 and back at 9 (after it: 1 ms wait);
 * brief (400) runs 5..6 ms and blocks in the gap: no S time. CPU 1 is
 * busy 1..4 and 9..10 ms, idle 7..9: 7..9 counts from its first switch
 * after the gap; the interrupt open at 4 ms ends there (its end lost; the
 * end at 8 ms is of nothing). mixed: the loss record is written in CPU
 * 0's provider instead, without the interrupts: the figures of CPU 1 come
 * from two cursors and are replayed in time order (report_early()).
 */
static void build_gaps_of(struct fxt_writer *w, bool mixed)
{
	prelude_two_cpus(w);
	fxt_write_process(w, 100, "runner");
	fxt_write_thread_kobj(w, 100, "runner", 100);
	fxt_write_process(w, 200, "waiter");
	fxt_write_thread_kobj(w, 200, "waiter", 200);
	fxt_write_process(w, 300, "steady");
	fxt_write_thread_kobj(w, 300, "steady", 300);
	fxt_write_process(w, 400, "brief");
	fxt_write_thread_kobj(w, 400, "brief", 400);

	fxt_write_provider_section(w, 0);
	fxt_write_switch(w, 0, 1 * MS, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_inline(200, 200), 20);
	fxt_write_switch(w, 0, 2 * MS, FXT_THREAD_BLOCKED, fxt_thread_inline(200, 200), 20,
			 fxt_thread_inline(300, 300), 20);
	if (mixed)
		lost(w, 1, 4 * MS, 7 * MS, 42);
	fxt_write_switch(w, 0, 5 * MS, FXT_THREAD_NEW, fxt_thread_inline(300, 300), 20,
			 fxt_thread_inline(400, 400), 20);
	fxt_write_switch(w, 0, 6 * MS, FXT_THREAD_BLOCKED, fxt_thread_inline(400, 400), 20,
			 fxt_thread_inline(300, 300), 20);
	fxt_write_switch(w, 0, 8 * MS, FXT_THREAD_NEW, fxt_thread_inline(300, 300), 20,
			 fxt_thread_inline(200, 200), 20);
	fxt_write_switch(w, 0, 9 * MS, FXT_THREAD_BLOCKED, fxt_thread_inline(200, 200), 20,
			 fxt_thread_inline(300, 300), 20);
	fxt_write_switch(w, 0, 10 * MS, FXT_THREAD_BLOCKED, fxt_thread_inline(300, 300), 20,
			 fxt_thread_inline(0, 0), 0);

	fxt_write_provider_section(w, 1);
	fxt_write_switch(w, 1, 1 * MS, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_inline(100, 100), 20);
	fxt_write_wakeup(w, 1, 3 * MS, 200, 20, 100);
	if (!mixed) {
		timer_irq(w, FXT_EVENT_DURATION_BEGIN, 1, 4 * MS);
		lost(w, 1, 4 * MS, 7 * MS, 42);
	}
	fxt_write_switch(w, 1, 7 * MS, FXT_THREAD_NEW, fxt_thread_inline(100, 100), 20,
			 fxt_thread_inline(0, 0), 0);
	fxt_write_counter_u64(w, 7 * MS, IRQ_PID, IRQ_TID(1), FXT_DROPPED_CATEGORY,
			      FXT_DROPPED_NAME, 1, FXT_DROPPED_ARG_NAME, 42);
	if (!mixed)
		timer_irq(w, FXT_EVENT_DURATION_END, 1, 8 * MS);
	fxt_write_switch(w, 1, 9 * MS, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_inline(100, 100), 20);
	fxt_write_switch(w, 1, 10 * MS, FXT_THREAD_BLOCKED, fxt_thread_inline(100, 100), 20,
			 fxt_thread_inline(0, 0), 0);
}

static void build_gaps(struct fxt_writer *w)
{
	build_gaps_of(w, false);
}

static void build_gaps_mixed(struct fxt_writer *w)
{
	build_gaps_of(w, true);
}

#define GOLDEN(n, fn, desc) { .name = n, .kind = T_GOLDEN, .build = fn, .what = desc }
/* A golden archive Perfetto must read as the tools do (perfetto-check). */
#define GOLDEN_PERFETTO(n, fn, desc)					\
	{ .name = n, .kind = T_GOLDEN, .build = fn, .what = desc, .perfetto = true }
#define CHECK(n, fn, desc, ...)						\
	{ .name = n, .kind = T_CHECK, .build = fn,			\
	  .nexpect = sizeof((enum fxt_diag_id[]){ __VA_ARGS__ }) / sizeof(enum fxt_diag_id), \
	  .expect = { __VA_ARGS__ }, .what = desc }

const struct tcase tcases[] = {
	GOLDEN_PERFETTO("basic", build_basic,
	       "two CPUs as fxt-collect writes them: switches, wakeups, irqs, drops"),
	GOLDEN("all-types", build_all_types,
	       "every record, event and argument type"),
	GOLDEN_PERFETTO("ticks", build_ticks, "1 tick = 1 microsecond"),
	GOLDEN_PERFETTO("names", build_names,
	       "a thread renamed on another CPU than it was forked on, saved oldest last"),
	GOLDEN_PERFETTO("cross-cpu", build_cross_cpu,
	       "chunks of two CPUs overlapping in time: a wakeup later in the file"),
	GOLDEN_PERFETTO("triggers", build_triggers,
	       "two latency triggers fired: a wakeup latency (first) and an interrupt"),
	GOLDEN("irq-names", build_irq_names,
	       "interrupt name indices redefined by strings and providers"),
	GOLDEN_PERFETTO("lost-switch", build_lost_switch,
	       "a switch out dropped: the thread woken and switched out elsewhere"),
	GOLDEN_PERFETTO("pid-reuse", build_pid_reuse,
	       "tids 7 and 9 exit and are reused by new processes"),
	GOLDEN_PERFETTO("names-process-thread", build_names_process_thread,
	       "process 9 renamed by an exec whose thread record was dropped"),
	GOLDEN_PERFETTO("process-life", build_process_life,
	       "a fork and an exec: parents and a command line on process records"),
	GOLDEN_PERFETTO("cpu300-wide", build_cpu300_wide,
	       "CPUs 0 and 300: CPU 300's switches of subtype 1 (16-bit cpu field)"),
	GOLDEN("cpu256", build_cpu256,
	       "CPUs 0 and 256: the 8-bit cpu field of their switches is 0 on both"),
	GOLDEN_PERFETTO("power-lost-end", build_power_lost_end,
	       "CPU 1's loss runs to the end, past every record's time; CPU 0 idle"),
	GOLDEN_PERFETTO("sleep-states", build_sleep_states,
	       "sleep events D (with and without blocked_in), I, P, t, one unpaired"),

	{ .name = "power", .kind = T_REPORT, .build = build_power,
	  .what = "cpu_idle and cpu_frequency events of three CPUs, and a loss report" },
	{ .name = "power-no-state", .kind = T_REPORT, .build = build_power_no_state,
	  .what = "an idle exit but no idle state entered; a frequency at the end" },
	{ .name = "gaps", .kind = T_REPORT, .build = build_gaps,
	  .what = "CPU 1 lost records from 4 to 7 ms: a thread running, one woken" },
	{ .name = "gaps-mixed", .kind = T_REPORT, .build = build_gaps_mixed,
	  .what = "the gaps archive's loss record in another CPU's provider" },

	{ .name = "empty", .kind = T_CHECK, .build = build_empty,
	  .nexpect = 1, .expect = { FXT_D_NO_MAGIC }, .golden_check = true,
	  .what = "0 bytes: no magic number record", .count = 1 },
	{ .name = "no-magic", .kind = T_CHECK, .build = build_no_magic,
	  .nexpect = 1, .expect = { FXT_D_NO_MAGIC }, .golden_check = true,
	  .what = "records without the magic number record first", .count = 1 },
	CHECK("big-endian", build_big_endian, "byte-swapped magic", FXT_D_BIG_ENDIAN),
	CHECK("bad-magic", build_bad_magic, "malformed magic records", FXT_D_BAD_MAGIC_RECORD),
	CHECK("size-zero", build_size_zero, "a record of size 0", FXT_D_SIZE_ZERO),
	CHECK("truncated", build_truncated, "the last record cut short", FXT_D_TRUNCATED),
	CHECK("size-mismatch", build_size_mismatch, "sizes not matching content",
	      FXT_D_SIZE_MISMATCH),
	{ .name = "reserved-bits", .kind = T_CHECK, .build = build_reserved_bits,
	  .nexpect = 1, .expect = { FXT_D_RESERVED_BITS }, .golden_check = true,
	  .what = "every reserved field the reader checks, set",
	  .msgs = { "string record [47..63]", "string record [31..31]",
		    "initialization record [16..63]", "thread record [24..63]",
		    "provider section [52..63]", "provider event [56..63]",
		    "thread wakeup [36..59]", "context switch [40..59]",
		    "kernel object record [44..63]", "blob record [47..47]",
		    "blob record [56..63]", "userspace object record [44..63]",
		    "log record [31..31]", "log record [40..63]", "large blob [44..63]",
		    "large blob format header [32..63]",
		    "large blob format header [44..63]", "provider info [60..63]" },
	  .count = 18 },
	CHECK("unknown-record", build_unknown_record, "record types 11 and 14",
	      FXT_D_UNKNOWN_RECORD),
	CHECK("unknown-subtype", build_unknown_subtype, "undefined subtypes",
	      FXT_D_UNKNOWN_SUBTYPE),
	CHECK("provider-unknown", build_provider_unknown, "unannounced providers",
	      FXT_D_PROVIDER_UNKNOWN),
	CHECK("init-zero", build_init_zero, "0 ticks per second", FXT_D_INIT_ZERO),
	CHECK("string-index-0", build_string_index_0, "string index 0",
	      FXT_D_STRING_INDEX_0),
	CHECK("thread-index-0", build_thread_index_0, "thread index 0",
	      FXT_D_THREAD_INDEX_0),
	CHECK("string-undefined", build_string_undefined,
	      "string refs undefined in the current provider", FXT_D_STRING_UNDEFINED),
	CHECK("thread-undefined", build_thread_undefined,
	      "thread refs undefined in the current provider", FXT_D_THREAD_UNDEFINED),
	{ .name = "string-too-long", .kind = T_CHECK, .build = build_string_too_long,
	  .nexpect = 1, .expect = { FXT_D_STRING_TOO_LONG },
	  .what = "a 32001-byte string record and inline event name",
	  .msgs = { "string record of 32001 bytes", "event name of 32001 bytes" },
	  .count = 2 },
	{ .name = "padding", .kind = T_CHECK, .build = build_padding,
	  .nexpect = 1, .expect = { FXT_D_PADDING }, .golden_check = true,
	  .what = "garbage in the padding of every kind of stream",
	  .msgs = { "after string", "after category", "after event name",
		    "after argument name", "after argument value",
		    "after kernel object name", "after blob name", "after blob payload",
		    "after object name", "after log message", "after provider name" },
	  .count = 12 },
	CHECK("arg-size", build_arg_size, "argument sizes not matching types",
	      FXT_D_ARG_SIZE),
	CHECK("arg-overflow", build_arg_overflow, "arguments past the record end",
	      FXT_D_ARG_OVERFLOW),
	CHECK("arg-unknown", build_arg_unknown, "argument type 12", FXT_D_ARG_UNKNOWN),
	CHECK("arg-reserved", build_arg_reserved, "argument reserved bits",
	      FXT_D_ARG_RESERVED),
	CHECK("kobj-no-process", build_kobj_no_process,
	      "thread objects without a koid \"process\"", FXT_D_KOBJ_NO_PROCESS),
	CHECK("kobj-name", build_kobj_name, "a kernel object without a name",
	      FXT_D_KOBJ_NAME),
	CHECK("switch-state", build_switch_state, "outgoing state running and 7",
	      FXT_D_SWITCH_STATE),
	CHECK("sched-args", build_sched_args, "wakeup/switch arguments of the wrong type",
	      FXT_D_SCHED_ARGS),
	{ .name = "cpu-mismatch", .kind = T_CHECK, .build = build_cpu_mismatch,
	  .nexpect = 1, .expect = { FXT_D_CPU_MISMATCH }, .golden_check = true,
	  .what = "cpu fields contradicting their per-CPU provider",
	  .msgs = { "context switch cpu 2 in provider \"cpu1\" (8-bit field: expected 1)",
		    "context switch cpu 5 in provider \"cpu1\" (16-bit field: expected 1)",
		    "thread wakeup cpu 3 in provider \"cpu1\"",
		    "thread wakeup cpu 1 in provider \"cpu257\" (16-bit field: expected 257)" },
	  .count = 4 },
	CHECK("time-backwards", build_time_backwards, "time going back in one provider",
	      FXT_D_TIME_BACKWARDS),
	CHECK("duration-end", build_duration_end, "a complete event ending before it begins",
	      FXT_D_DURATION_END),
	{ .name = "duration-unmatched", .kind = T_CHECK, .build = build_duration_unmatched,
	  .nexpect = 2, .expect = { FXT_D_DURATION_UNMATCHED, FXT_D_DURATION_NO_BEGIN },
	  .golden_check = true,
	  .what = "duration ends without a begin: after their thread closed it, or before any",
	  .msgs = { "\"c\" \"a\" on thread 1, which began and ended it before",
		    "\"c\" \"pre\" on thread 2 (said once per thread)",
		    "\"c\" \"outer\" on thread 3 (said once per thread)" },
	  .count = 5 },
	{ .name = "duration-mismatch", .kind = T_CHECK, .build = build_duration_mismatch,
	  .nexpect = 1, .expect = { FXT_D_DURATION_MISMATCH }, .golden_check = true,
	  .what = "duration ends that do not close their thread's innermost begin",
	  .msgs = { "\"c\" \"a\" on thread 1 closes level 1 of 2 open, not the innermost",
		    "\"c\" \"z\" on thread 1 matches no open level (1 open; ignored)" },
	  .count = 2 },
	{ .name = "sleep-unpaired", .kind = T_CHECK, .build = build_sleep_unpaired,
	  .nexpect = 1, .expect = { FXT_D_SLEEP_UNPAIRED }, .golden_check = true,
	  .what = "sleep events not followed by their thread's switch out",
	  .msgs = { "\"D\" on thread 5, but the next switch (offset 0x",
		    "\"I\" on thread 5, then another sleep event (offset 0x",
		    "\"P\" on thread 7, and no switch after it in provider 1" },
	  .count = 3 },
	CHECK("blob-size", build_blob_size, "blob sizes not matching the record",
	      FXT_D_BLOB_SIZE),
	{ .name = "memory-limit", .kind = T_CHECK, .build = build_memory_limit,
	  .nexpect = 1, .expect = { FXT_D_MEMORY_LIMIT }, .memlimit = 64 << 10,
	  .what = "300 KB of strings read with a 64 KiB memory limit" },
	{ .name = "too-large", .kind = T_CHECK, .build = build_too_large,
	  .nexpect = 1, .expect = { FXT_D_TOO_LARGE }, .bufsize = 64 << 10,
	  .what = "an 80 KiB record read with a 64 KiB buffer" },
};

const unsigned int ntcases = sizeof(tcases) / sizeof(tcases[0]);

const struct tcase *tcase_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < ntcases; i++)
		if (!strcmp(tcases[i].name, name))
			return &tcases[i];
	return NULL;
}

int tcase_write(const struct tcase *t, int fd)
{
	struct fxt_writer w;
	int err = fxt_writer_init(&w, fd);

	if (err)
		return err;
	t->build(&w);
	err = fxt_writer_flush(&w);
	fxt_writer_destroy(&w);
	return err;
}
