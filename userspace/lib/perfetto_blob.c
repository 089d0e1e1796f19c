// SPDX-License-Identifier: MIT
/*
 * perfetto_blob.c - the Perfetto packets fxt-collect embeds in an archive
 * (blob records of FXT_BLOB_TYPE_PERFETTO, Documentation/records.rst,
 * "Loss").
 *
 * Perfetto's FXT importer reads nothing that says records were lost: it
 * ignores provider events, and a counter is only a track. Its protobuf
 * importer does: an FtraceEventBundle whose lost_events is set makes
 * stats' ftrace_cpu_has_data_loss (severity data_loss) for that CPU. So
 * when a CPU dropped records, the collector also writes one such bundle,
 * with no events, for that CPU. The field numbers are those of Perfetto's
 * public protos (trace_packet.proto, ftrace_event_bundle.proto).
 */
#include <string.h>

#include "libfxt.h"

#define TRACE_PACKET			1	/* Trace.packet */
#define PACKET_FTRACE_EVENTS		1	/* TracePacket.ftrace_events */
#define PACKET_SEQUENCE_ID		10	/* TracePacket.trusted_packet_sequence_id */
#define BUNDLE_CPU			1	/* FtraceEventBundle.cpu */
#define BUNDLE_LOST_EVENTS		3	/* FtraceEventBundle.lost_events */
#define WIRE_VARINT			0
#define WIRE_LEN			2
#define SEQUENCE			1	/* the one sequence fxt embeds */

static size_t put_varint(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	do {
		p[n] = (uint8_t)(v & 0x7f) | (v > 0x7f ? 0x80 : 0);
		v >>= 7;
		n++;
	} while (v);
	return n;
}

static size_t put_key(uint8_t *p, unsigned int field, unsigned int wire)
{
	return put_varint(p, (uint64_t)field << 3 | wire);
}

size_t fxt_perfetto_lost_events(uint32_t cpu, uint8_t *buf, size_t cap)
{
	uint8_t bundle[16], packet[32];
	size_t nb = 0, np = 0, n = 0;

	if (cap < FXT_PERFETTO_LOST_EVENTS_MAX)
		return 0;
	nb += put_key(bundle + nb, BUNDLE_CPU, WIRE_VARINT);
	nb += put_varint(bundle + nb, cpu);
	nb += put_key(bundle + nb, BUNDLE_LOST_EVENTS, WIRE_VARINT);
	nb += put_varint(bundle + nb, 1);
	np += put_key(packet + np, PACKET_FTRACE_EVENTS, WIRE_LEN);
	np += put_varint(packet + np, nb);
	memcpy(packet + np, bundle, nb);
	np += nb;
	np += put_key(packet + np, PACKET_SEQUENCE_ID, WIRE_VARINT);
	np += put_varint(packet + np, SEQUENCE);
	n += put_key(buf + n, TRACE_PACKET, WIRE_LEN);
	n += put_varint(buf + n, np);
	memcpy(buf + n, packet, np);
	return n + np;
}

int fxt_write_perfetto_lost_events(struct fxt_writer *w, uint32_t cpu)
{
	uint8_t payload[FXT_PERFETTO_LOST_EVENTS_MAX];
	size_t n = fxt_perfetto_lost_events(cpu, payload, sizeof(payload));

	return fxt_write_blob(w, fxt_str(FXT_BLOB_NAME_PERFETTO),
			      FXT_BLOB_TYPE_PERFETTO, payload, n);
}
