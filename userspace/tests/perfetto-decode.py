#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Decode fxt-dump --perfetto output into text, for the golden tests.

Usage: perfetto-decode.py FILE   (the text on standard output; exit 1 and a
message on standard error when FILE is not what the converter must write)

A decoder that shares nothing with fxt-dump's encoder (dump/protobuf.c,
dump/perfetto.c): the wire format from the Protocol Buffers documentation
("Encoding"), the field numbers from Perfetto's public protos (trace.proto,
trace_packet.proto, ftrace/ftrace_event_bundle.proto, ftrace_event.proto,
sched.proto, power.proto, ps/process_tree.proto, system_info.proto,
interned_data/interned_data.proto, profiling/profile_common.proto). Every
field must be one of those the converter is meant to write, with its wire
type; the text names each field, one packet per line.
"""
import sys

# message -> {field: (name, kind)}; kind: "u" varint, "s" string, or a message
SCHEMA = {
    "Trace": {1: ("packet", "TracePacket")},
    "TracePacket": {1: ("ftrace_events", "FtraceEventBundle"),
                    2: ("process_tree", "ProcessTree"),
                    8: ("timestamp", "u"),
                    10: ("trusted_packet_sequence_id", "u"),
                    12: ("interned_data", "InternedData"),
                    13: ("sequence_flags", "u"),
                    45: ("system_info", "SystemInfo")},
    "SystemInfo": {1: ("utsname", "Utsname")},
    "Utsname": {1: ("sysname", "s"), 2: ("version", "s"), 3: ("release", "s")},
    "InternedData": {26: ("kernel_symbols", "InternedString")},
    "InternedString": {1: ("iid", "u"), 2: ("str", "s")},
    "FtraceEventBundle": {1: ("cpu", "u"), 2: ("event", "FtraceEvent"),
                          3: ("lost_events", "u")},
    "FtraceEvent": {1: ("timestamp", "u"), 2: ("pid", "u"),
                    4: ("sched_switch", "SchedSwitch"),
                    11: ("cpu_frequency", "CpuFrequency"),
                    13: ("cpu_idle", "CpuIdle"),
                    18: ("sched_blocked_reason", "SchedBlockedReason"),
                    20: ("sched_waking", "SchedWaking"),
                    24: ("softirq_entry", "Softirq"),
                    25: ("softirq_exit", "Softirq"),
                    36: ("irq_handler_entry", "IrqHandlerEntry"),
                    37: ("irq_handler_exit", "IrqHandlerExit"),
                    240: ("sched_process_free", "SchedProcessFree"),
                    559: ("local_timer_entry", "Empty"),
                    560: ("local_timer_exit", "Empty")},
    "Softirq": {1: ("vec", "u")},
    "CpuFrequency": {1: ("state", "u"), 2: ("cpu_id", "u")},
    "CpuIdle": {1: ("state", "u"), 2: ("cpu_id", "u")},
    "IrqHandlerEntry": {1: ("irq", "i"), 2: ("name", "s"), 3: ("handler", "u")},
    "IrqHandlerExit": {1: ("irq", "i"), 2: ("ret", "i")},
    "Empty": {},
    "SchedSwitch": {1: ("prev_comm", "s"), 2: ("prev_pid", "u"), 3: ("prev_prio", "i"),
                    4: ("prev_state", "x"), 5: ("next_comm", "s"), 6: ("next_pid", "u"),
                    7: ("next_prio", "i")},
    "SchedBlockedReason": {1: ("pid", "u"), 2: ("caller", "u"), 3: ("io_wait", "u")},
    "SchedWaking": {1: ("comm", "s"), 2: ("pid", "u"), 3: ("prio", "i"),
                    4: ("success", "u"), 5: ("target_cpu", "u")},
    "SchedProcessFree": {1: ("comm", "s"), 2: ("pid", "u")},
    "ProcessTree": {1: ("processes", "Process"), 2: ("threads", "Thread")},
    "Process": {1: ("pid", "u"), 2: ("ppid", "u"), 3: ("cmdline", "s"),
                9: ("cmdline_is_comm", "u")},
    "Thread": {1: ("tid", "u"), 2: ("name", "s"), 3: ("tgid", "u")},
}


class Bad(Exception):
    pass


def varint(b, i):
    v = shift = 0
    while True:
        if i >= len(b):
            raise Bad("varint past the end")
        c = b[i]
        i += 1
        v |= (c & 0x7f) << shift
        shift += 7
        if not c & 0x80:
            return v, i
        if shift > 63:
            raise Bad("varint over 10 bytes")


def decode(msg, b):
    """The fields of message msg in b, as text."""
    out = []
    i = 0
    while i < len(b):
        key, i = varint(b, i)
        field, wire = key >> 3, key & 7
        if field not in SCHEMA[msg]:
            raise Bad("%s: unknown field %d" % (msg, field))
        name, kind = SCHEMA[msg][field]
        if wire == 0:
            if kind not in ("u", "i", "x"):
                raise Bad("%s.%s: a varint, expected %s" % (msg, name, kind))
            v, i = varint(b, i)
            if kind == "i" and v >= 1 << 63:
                v -= 1 << 64
            out.append("%s=%s" % (name, hex(v) if kind == "x" else v))
        elif wire == 2:
            n, i = varint(b, i)
            if i + n > len(b):
                raise Bad("%s.%s: length %d past the end" % (msg, name, n))
            data = b[i:i + n]
            i += n
            if kind == "s":
                out.append("%s=%r" % (name, data.decode("utf-8", "backslashreplace")))
            elif kind in SCHEMA:
                out.append("%s={%s}" % (name, " ".join(decode(kind, data))))
            else:
                raise Bad("%s.%s: length-delimited, expected %s" % (msg, name, kind))
        else:
            raise Bad("%s.%s: wire type %d" % (msg, name, wire))
    return out


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    b = open(argv[1], "rb").read()
    i = 0
    try:
        while i < len(b):
            key, i = varint(b, i)
            if key != (1 << 3 | 2):
                raise Bad("Trace: field %d wire %d, expected packet" % (key >> 3, key & 7))
            n, i = varint(b, i)
            if i + n > len(b):
                raise Bad("packet past the end")
            print(" ".join(decode("TracePacket", b[i:i + n])))
            i += n
    except Bad as e:
        print("%s: offset %d: %s" % (argv[1], i, e), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
