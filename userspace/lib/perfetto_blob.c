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

#include <fxt/perfetto_blob.h>

#include <fxt/format.h>

#include "libfxt_perfetto.h"

#define TRACE_PACKET			FXT_PB_TRACE_PACKET
#define PACKET_FTRACE_EVENTS		FXT_PB_PACKET_FTRACE_EVENTS
#define PACKET_SEQUENCE_ID		FXT_PB_PACKET_SEQUENCE_ID
#define BUNDLE_CPU			FXT_PB_BUNDLE_CPU
#define BUNDLE_LOST_EVENTS		FXT_PB_BUNDLE_LOST_EVENTS
#define WIRE_VARINT			FXT_PB_WIRE_VARINT
#define WIRE_LEN			FXT_PB_WIRE_LEN
#define SEQUENCE			FXT_PB_SEQUENCE

static size_t put_varint(uint8_t *p, uint64_t v)
{
	return fxt_pb_varint(p, v);
}

static size_t put_key(uint8_t *p, unsigned int field, unsigned int wire)
{
	return fxt_pb_key(p, field, wire);
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

/* A protobuf field: its number, wire type, and value or bytes. */
struct pb_field {
	unsigned int num, wire;
	uint64_t v;
	const uint8_t *p;	/* WIRE_LEN: the bytes, v of them */
};

static bool get_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	unsigned int shift = 0;

	*v = 0;
	while (*p < end && shift < 64) {
		uint8_t b = *(*p)++;

		*v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return true;
		shift += 7;
	}
	return false;
}

/* The next field in [*p, end): false at the end or on anything malformed. */
static bool next_field(const uint8_t **p, const uint8_t *end, struct pb_field *f,
		       bool *bad)
{
	uint64_t key;

	if (*p >= end)
		return false;
	if (!get_varint(p, end, &key) || (key >> 3) == 0 || (key >> 3) > UINT32_MAX)
		goto bad;
	f->num = (unsigned int)(key >> 3);
	f->wire = (unsigned int)(key & 7);
	if (f->wire == WIRE_VARINT)
		return get_varint(p, end, &f->v) || (*bad = true, false);
	if (f->wire == WIRE_LEN) {
		if (!get_varint(p, end, &f->v) || f->v > (uint64_t)(end - *p))
			goto bad;
		f->p = *p;
		*p += f->v;
		return true;
	}
	if (f->wire == 1 && end - *p >= 8) {	/* fixed64 */
		*p += 8;
		return true;
	}
	if (f->wire == 5 && end - *p >= 4) {	/* fixed32 */
		*p += 4;
		return true;
	}
bad:
	*bad = true;
	return false;
}

/* One FtraceEvent of a bundle for cpu: a power event, or nothing. */
static int power_event(const uint8_t *p, const uint8_t *end, uint32_t cpu,
		       struct fxt_power_event *out)
{
	struct fxt_power_event e = { .cpu = cpu };
	struct pb_field f, g;
	bool bad = false, power = false;

	while (next_field(&p, end, &f, &bad)) {
		if (f.num == FXT_PB_EVENT_TIMESTAMP && f.wire == WIRE_VARINT) {
			e.ts = f.v;
		} else if (f.num == FXT_PB_EVENT_PID && f.wire == WIRE_VARINT) {
			e.pid = (uint32_t)f.v;
		} else if ((f.num == FXT_PB_EVENT_CPU_IDLE ||
			    f.num == FXT_PB_EVENT_CPU_FREQUENCY) && f.wire == WIRE_LEN) {
			const uint8_t *q = f.p, *qend = f.p + f.v;

			e.event = f.num;
			e.cpu_id = cpu;
			power = true;
			while (next_field(&q, qend, &g, &bad)) {
				if (g.wire != WIRE_VARINT)
					continue;
				if (g.num == FXT_PB_POWER_STATE)
					e.state = (uint32_t)g.v;
				else if (g.num == FXT_PB_POWER_CPU_ID)
					e.cpu_id = (uint32_t)g.v;
			}
		}
	}
	if (bad)
		return -1;
	if (!power)
		return 0;
	*out = e;
	return 1;
}

int fxt_perfetto_power_events(const void *payload, size_t size,
			      struct fxt_power_event *out, size_t max)
{
	const uint8_t *p = payload, *end = p + size;
	struct pb_field f, g, h;
	bool bad = false;
	size_t n = 0;

	while (next_field(&p, end, &f, &bad)) {
		const uint8_t *q, *qend;

		/* Only a length field has bytes: f.p of another is NULL. */
		if (f.num != TRACE_PACKET || f.wire != WIRE_LEN)
			continue;
		q = f.p;
		qend = f.p + f.v;
		while (next_field(&q, qend, &g, &bad)) {
			const uint8_t *r, *rend;
			uint64_t cpu = 0;

			if (g.num != PACKET_FTRACE_EVENTS || g.wire != WIRE_LEN)
				continue;
			r = g.p;
			rend = g.p + g.v;
			/* The bundle's cpu may follow its events. */
			while (next_field(&r, rend, &h, &bad)) {
				if (h.num == BUNDLE_CPU && h.wire == WIRE_VARINT)
					cpu = h.v;
			}
			r = g.p;
			while (!bad && next_field(&r, rend, &h, &bad)) {
				int k;

				if (h.num != FXT_PB_BUNDLE_EVENT || h.wire != WIRE_LEN)
					continue;
				k = power_event(h.p, h.p + h.v, (uint32_t)cpu,
						n < max ? &out[n] : &(struct fxt_power_event){ 0 });
				if (k < 0)
					bad = true;
				else
					n += (size_t)k;
			}
		}
	}
	return bad ? -1 : (int)(n > INT32_MAX ? INT32_MAX : n);
}

bool fxt_perfetto_blob_time(const void *payload, size_t size, uint64_t *ts_ns)
{
	struct fxt_power_event e;

	if (fxt_perfetto_power_events(payload, size, &e, 1) < 1)
		return false;
	*ts_ns = e.ts;
	return true;
}
