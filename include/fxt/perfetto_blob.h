/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * fxt/perfetto_blob.h - the Perfetto trace packets fxt embeds in FXT blob
 * records of FXT_BLOB_TYPE_PERFETTO (format.h), written once for the
 * kernel module and the user-space library.
 *
 * A blob's payload is serialized perfetto.protos.Trace: TracePacket
 * messages in its field 1, which Perfetto's FXT importer hands to its
 * protobuf importer. fxt writes one packet per blob, each an
 * FtraceEventBundle of one CPU: Perfetto then draws what its own ftrace
 * import draws, under the CPU (cpu_idle and cpu_frequency as the CPU's
 * "cpuidle" and "cpufreq" counter tracks; lost_events as data loss in
 * its stats). The field numbers are those of Perfetto's public protos:
 * trace.proto, trace_packet.proto, ftrace_event_bundle.proto,
 * ftrace_event.proto and power.proto. Every length here is below 128, so
 * each length prefix is one byte.
 */
#ifndef _FXT_PERFETTO_BLOB_H
#define _FXT_PERFETTO_BLOB_H

#include <linux/types.h>

#define FXT_PB_WIRE_VARINT		0
#define FXT_PB_WIRE_LEN			2

#define FXT_PB_TRACE_PACKET		1	/* Trace.packet */
#define FXT_PB_PACKET_FTRACE_EVENTS	1	/* TracePacket.ftrace_events */
#define FXT_PB_PACKET_SEQUENCE_ID	10	/* .trusted_packet_sequence_id */
#define FXT_PB_BUNDLE_CPU		1	/* FtraceEventBundle.cpu */
#define FXT_PB_BUNDLE_EVENT		2	/* FtraceEventBundle.event */
#define FXT_PB_BUNDLE_LOST_EVENTS	3	/* FtraceEventBundle.lost_events */
#define FXT_PB_EVENT_TIMESTAMP		1	/* FtraceEvent.timestamp */
#define FXT_PB_EVENT_PID		2	/* FtraceEvent.pid: required */
#define FXT_PB_EVENT_CPU_FREQUENCY	11	/* FtraceEvent.cpu_frequency */
#define FXT_PB_EVENT_CPU_IDLE		13	/* FtraceEvent.cpu_idle */
#define FXT_PB_POWER_STATE		1	/* CpuIdle/CpuFrequency .state */
#define FXT_PB_POWER_CPU_ID		2	/* CpuIdle/CpuFrequency .cpu_id */

/* The one packet sequence fxt writes (no interned data crosses packets). */
#define FXT_PB_SEQUENCE			1

/* cpu_idle's state when the CPU leaves idle (PWR_EVENT_EXIT, (u32)-1). */
#define FXT_PB_IDLE_EXIT		0xffffffffu

/* The largest power packet fxt_pb_power_packet() writes, in bytes. */
#define FXT_PB_POWER_PACKET_MAX		64

static inline unsigned int fxt_pb_varint(__u8 *p, __u64 v)
{
	unsigned int n = 0;

	do {
		p[n++] = (__u8)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	return n;
}

static inline unsigned int fxt_pb_varint_len(__u64 v)
{
	unsigned int n = 1;

	while (v > 0x7f) {
		v >>= 7;
		n++;
	}
	return n;
}

static inline unsigned int fxt_pb_key(__u8 *p, unsigned int field,
				      unsigned int wire)
{
	return fxt_pb_varint(p, (__u64)field << 3 | wire);
}

/* A field of varint type: key and value. */
static inline unsigned int fxt_pb_uint(__u8 *p, unsigned int field, __u64 v)
{
	unsigned int n = fxt_pb_key(p, field, FXT_PB_WIRE_VARINT);

	return n + fxt_pb_varint(p + n, v);
}

/* The key and one-byte length of a message field of @len bytes (< 128). */
static inline unsigned int fxt_pb_msg(__u8 *p, unsigned int field,
				      unsigned int len)
{
	unsigned int n = fxt_pb_key(p, field, FXT_PB_WIRE_LEN);

	p[n] = (__u8)len;
	return n + 1;
}

/**
 * fxt_pb_power_packet() - a Trace holding one packet: the ftrace event
 *	@event (FXT_PB_EVENT_CPU_IDLE or FXT_PB_EVENT_CPU_FREQUENCY) of
 *	CPU @cpu at @ts, with @state (an idle state, FXT_PB_IDLE_EXIT, or
 *	a frequency in kHz)
 * @buf: at least FXT_PB_POWER_PACKET_MAX bytes
 * @event: the FtraceEvent field
 * @cpu: the CPU, as the bundle's cpu and the event's cpu_id
 * @ts: ns, CLOCK_BOOTTIME (Perfetto's default for ftrace)
 * @pid: the thread the event fired in (0: the idle task); Perfetto drops
 *	an ftrace event without one
 * @state: the event's state
 *
 * Return: the bytes written.
 */
static inline unsigned int fxt_pb_power_packet(__u8 *buf, unsigned int event,
					       __u32 cpu, __u64 ts, __u32 pid,
					       __u32 state)
{
	unsigned int power = 2 + fxt_pb_varint_len(state) +
			     fxt_pb_varint_len(cpu);
	unsigned int ev = 2 + fxt_pb_varint_len(ts) + fxt_pb_varint_len(pid) +
			  2 + power;
	unsigned int bundle = 1 + fxt_pb_varint_len(cpu) + 2 + ev;
	unsigned int packet = 2 + bundle + 2;
	unsigned int n = 0;

	n += fxt_pb_msg(buf + n, FXT_PB_TRACE_PACKET, packet);
	n += fxt_pb_msg(buf + n, FXT_PB_PACKET_FTRACE_EVENTS, bundle);
	n += fxt_pb_uint(buf + n, FXT_PB_BUNDLE_CPU, cpu);
	n += fxt_pb_msg(buf + n, FXT_PB_BUNDLE_EVENT, ev);
	n += fxt_pb_uint(buf + n, FXT_PB_EVENT_TIMESTAMP, ts);
	n += fxt_pb_uint(buf + n, FXT_PB_EVENT_PID, pid);
	n += fxt_pb_msg(buf + n, event, power);
	n += fxt_pb_uint(buf + n, FXT_PB_POWER_STATE, state);
	n += fxt_pb_uint(buf + n, FXT_PB_POWER_CPU_ID, cpu);
	n += fxt_pb_uint(buf + n, FXT_PB_PACKET_SEQUENCE_ID, FXT_PB_SEQUENCE);
	return n;
}

#endif /* _FXT_PERFETTO_BLOB_H */
