#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""spec-decode.py - an independent FXT decoder, to check fxt-dump against.

    spec-decode.py ARCHIVE                    print its records
    spec-decode.py --compare FXT_DUMP ARCHIVE compare with FXT_DUMP ARCHIVE

Every field position below is taken from the text of the Fuchsia trace
format specification ("the spec"), section by section, and from nothing in
fxt: no table or constant is shared with include/fxt/format.h or libfxt, so
an encoding mistake there cannot agree with itself here.  The scheduling
record subtypes 1 (context switch) and 2 (thread wakeup) are from the
specification's current "Scheduling record" section; subtype 0 is its
"Context switch record".

Records are printed in fxt-dump's text format, so that --compare can match
them line by line (by offset) and then field by field: any difference, a
record only one side has, or a record kind fxt-dump reports that this
decoder did not decode is a failure.  Exit status: 0 when all agree, 1 when
not, 2 on usage errors.
"""
import collections
import struct
import subprocess
import sys

MAX_FAILURES = 20       # per archive, then only counted
KOBJ_NAME_MAX = 44      # fxt-dump keeps 44 bytes of a kernel object's name


def bits(word, lo, hi):
    """The spec's field [lo .. hi] of a 64-bit word (both inclusive)."""
    return (word >> lo) & ((1 << (hi - lo + 1)) - 1)


def signed(value, nbits):
    return value - (1 << nbits) if value >> (nbits - 1) else value


class Malformed(Exception):
    pass


class Record:
    """The words of one record, read in order ("atoms")."""

    def __init__(self, data, offset, nwords):
        self.data, self.offset, self.end = data, offset, offset + 8 * nwords
        self.pos = offset
        self.notes = []         # reserved bits the spec says must be zero

    def word(self):
        if self.pos + 8 > self.end:
            raise Malformed("fields run past the record size")
        (w,) = struct.unpack_from("<Q", self.data, self.pos)
        self.pos += 8
        return w

    def stream(self, nbytes):
        """A stream: nbytes, padded with zeros to 8 bytes."""
        padded = (nbytes + 7) & ~7
        if self.pos + padded > self.end:
            raise Malformed("stream runs past the record size")
        s = self.data[self.pos:self.pos + nbytes]
        if any(self.data[self.pos + nbytes:self.pos + padded]):
            self.notes.append("stream padding not zero")
        self.pos += padded
        return s

    def reserved(self, word, lo, hi, what):
        if bits(word, lo, hi):
            self.notes.append("reserved bits [%d..%d] set: %s" % (lo, hi, what))


class Provider:
    """Per-provider state, as the spec's provider section metadata says."""

    def __init__(self):
        self.strings = {}       # string index -> bytes
        self.threads = {}       # thread index -> (pid, tid)
        self.tps = 10**9        # ticks per second until an init record


class Decoder:
    def __init__(self):
        self.providers = {0: Provider()}
        self.cur = self.providers[0]
        self.kobj_names = {}    # (obj type, koid) -> (name, named_at): global table
        self.thread_names = {}  # thread koid -> [(named_at or 0, name)], as read
        self.arg_counts = collections.Counter()

    # ----- Encoding primitives -------------------------------------

    def quoted(self, s):
        out = []
        for c in s:
            if c in b'"\\':
                out.append("\\" + chr(c))
            elif 0x20 <= c < 0x7f:
                out.append(chr(c))
            elif c == 0x0a:
                out.append("\\n")
            else:
                out.append("\\x%02x" % c)
        return '"' + "".join(out) + '"'

    def string_ref(self, rec, ref):
        """String refs: 0 empty; top bit set: inline, length in the low 15
        bits; else an index into the string table.  Returns (bytes, text)."""
        if ref == 0:
            return b"", '""'
        if ref & 0x8000:
            s = rec.stream(ref & 0x7fff)
            return s, self.quoted(s)
        s = self.cur.strings.get(ref)
        if s is None:
            return None, "<undefined #%d>" % ref
        return s, self.quoted(s) + "#%d" % ref

    def koid_name(self, koid, arg=None):
        """A koid argument shows the process's name for "process", else
        the thread's, else the process's (fxt's rule, Documentation/
        records.rst: a process and its main thread share a koid, each
        with its own name; objects of other types name no argument)."""
        order = [1, 2] if arg == b"process" else [2, 1]
        entry = next((self.kobj_names[(t, koid)] for t in order
                      if (t, koid) in self.kobj_names), (b"", None))
        name = entry[0]
        return " " + self.quoted(name) if name else ""

    def thread_name(self, koid, ts):
        """The name thread koid had at tick ts (Documentation/records.rst:
        a tid reused by a later thread keeps the earlier name before the
        later "named_at"): of its thread records read so far, the one with
        the latest named_at <= ts in ns, else the one with the earliest;
        the last read among equals.  No thread record: no name."""
        names = self.thread_names.get(koid)
        if not names:
            return ""
        ns = ts * 10**9 // self.cur.tps
        before = [n for n in names if n[0] <= ns]
        if before:
            at = max(n[0] for n in before)
        else:
            at = min(n[0] for n in names)
        name = [n for n in names if n[0] == at][-1][1]
        return " " + self.quoted(name) if name else ""

    def thread_ref(self, rec, ref, ts):
        """Thread refs: 0 inline (process koid word, thread koid word
        follow), else an index into the thread table."""
        if ref == 0:
            pid = rec.word()
            tid = rec.word()
        elif ref in self.cur.threads:
            pid, tid = self.cur.threads[ref]
        else:
            return "{ref=%d undefined}" % ref
        return self.thread_text(pid, tid, ts, ref)

    def thread_text(self, pid, tid, ts, ref=0):
        return "{tid=%d pid=%d%s%s}" % (tid, pid, self.thread_name(tid, ts),
                                        " ref=%d" % ref if ref else "")

    def double(self, w):
        v = struct.unpack("<d", struct.pack("<Q", w))[0]
        if v != v:
            return '"NaN"'
        if v in (float("inf"), float("-inf")):
            return '"Infinity"' if v > 0 else '"-Infinity"'
        s = "%.15g" % v
        return s if float(s) == v else "%.17g" % v

    # ----- Arguments ------------------------------------------------

    def args(self, rec, nargs):
        """Argument data: a list of (name bytes, name text, type, value,
        value text); args_text() renders it."""
        out = []
        for _ in range(nargs):
            start = rec.pos
            h = rec.word()
            atype, size = bits(h, 0, 3), bits(h, 4, 15)
            name, name_text = self.string_ref(rec, bits(h, 16, 31))
            if atype not in ARG_TYPES:
                raise Malformed("argument type %d is not in the spec" % atype)
            tname, decode = ARG_TYPES[atype]
            value, text = decode(self, rec, h)
            self.arg_counts[tname] += 1
            if rec.pos != start + 8 * size:
                raise Malformed("argument %s: size %d words, fields take %d"
                                % (name_text, size, (rec.pos - start) // 8))
            out.append((name, name_text, tname, value, text))
        return out

    def args_text(self, args):
        """Koid values show the koid's name as known once the whole record
        is read (a kernel object record can name the koid it carries)."""
        if not args:
            return ""
        return " args={%s}" % ", ".join(
            "%s: %s%s" % (nt, tn, text if text is not None else
                          " %d%s" % (value, self.koid_name(value, n)))
            for n, nt, tn, value, text in args)

    def arg_null(self, rec, h):
        rec.reserved(h, 32, 63, "null argument")
        return None, ""

    def arg_int32(self, rec, h):
        v = signed(bits(h, 32, 63), 32)
        return v, " %d" % v

    def arg_uint32(self, rec, h):
        v = bits(h, 32, 63)
        return v, " %d" % v

    def arg_int64(self, rec, h):
        rec.reserved(h, 32, 63, "int64 argument")
        v = signed(rec.word(), 64)
        return v, " %d" % v

    def arg_uint64(self, rec, h):
        rec.reserved(h, 32, 63, "uint64 argument")
        v = rec.word()
        return v, " %d" % v

    def arg_double(self, rec, h):
        rec.reserved(h, 32, 63, "double argument")
        return None, " " + self.double(rec.word())

    def arg_string(self, rec, h):
        rec.reserved(h, 48, 63, "string argument")
        s, text = self.string_ref(rec, bits(h, 32, 47))
        return s, " " + text

    def arg_pointer(self, rec, h):
        rec.reserved(h, 32, 63, "pointer argument")
        return None, " 0x%x" % rec.word()

    def arg_koid(self, rec, h):
        rec.reserved(h, 32, 63, "koid argument")
        return rec.word(), None       # text: see args_text()

    def arg_bool(self, rec, h):
        rec.reserved(h, 33, 63, "bool argument")
        return bool(bits(h, 32, 32)), " true" if bits(h, 32, 32) else " false"

    # ----- Records ---------------------------------------------------

    def metadata(self, rec, h):
        mtype = bits(h, 16, 19)
        if mtype == 1:      # provider info
            rec.reserved(h, 60, 63, "provider info")
            pid = bits(h, 20, 51)
            name = rec.stream(bits(h, 52, 59))
            self.providers[pid] = self.cur = Provider()
            return "provider_info", "provider_info id=%d name=%s" % (pid, self.quoted(name))
        if mtype == 2:      # provider section
            rec.reserved(h, 52, 63, "provider section")
            pid = bits(h, 20, 51)
            self.cur = self.providers.setdefault(pid, Provider())
            return "provider_section", "provider_section id=%d" % pid
        if mtype == 3:      # provider event; event 0: buffer full
            rec.reserved(h, 56, 63, "provider event")
            ev = bits(h, 52, 55)
            return "provider_event", "provider_event id=%d event=%d%s" % (
                bits(h, 20, 51), ev, " (buffer full)" if ev == 0 else "")
        if mtype == 4 and bits(h, 20, 23) == 0:     # trace info: magic number
            rec.reserved(h, 56, 63, "magic number record")
            if rec.end - rec.offset != 8:
                rec.notes.append("magic number record is not one word")
            if bits(h, 24, 55) != 0x16547846:
                rec.notes.append("magic number is 0x%x" % bits(h, 24, 55))
            return "magic", "magic 0x%x" % bits(h, 24, 55)
        return None, None

    def initialization(self, rec, h):
        rec.reserved(h, 16, 63, "initialization")
        tps = rec.word()
        if tps:
            self.cur.tps = tps
        return "init", "init ticks_per_second=%d" % tps

    def string(self, rec, h):
        rec.reserved(h, 31, 31, "string index")
        rec.reserved(h, 47, 63, "string record")
        index = bits(h, 16, 30)
        s = rec.stream(bits(h, 32, 46))
        if index:           # index 0 is the empty string: ignored
            self.cur.strings[index] = s
        return "string", "string index=%d %s" % (index, self.quoted(s))

    def thread(self, rec, h):
        rec.reserved(h, 24, 63, "thread record")
        index, pid, tid = bits(h, 16, 23), rec.word(), rec.word()
        if index:           # index 0 is the inline thread: ignored
            self.cur.threads[index] = (pid, tid)
        return "thread", "thread index=%d pid=%d tid=%d" % (index, pid, tid)

    def event(self, rec, h):
        etype = bits(h, 16, 19)
        if etype not in EVENT_TYPES:
            return None, None
        ename, data = EVENT_TYPES[etype]
        ts = rec.word()
        thread = self.thread_ref(rec, bits(h, 24, 31), ts)
        _, cat = self.string_ref(rec, bits(h, 32, 47))
        _, name = self.string_ref(rec, bits(h, 48, 63))
        args = self.args_text(self.args(rec, bits(h, 20, 23)))
        extra = " %s=%d" % (data, rec.word()) if data else ""
        return "event " + ename, "event %s ts=%d thread=%s category=%s name=%s%s%s" % (
            ename, ts, thread, cat, name, extra, args)

    def blob(self, rec, h):
        rec.reserved(h, 47, 47, "blob")
        rec.reserved(h, 56, 63, "blob")
        _, name = self.string_ref(rec, bits(h, 16, 31))
        size = bits(h, 32, 46)
        rec.stream(size)
        return "blob", "blob name=%s type=%d size=%d" % (name, bits(h, 48, 55), size)

    def userspace_object(self, rec, h):
        rec.reserved(h, 44, 63, "userspace object")
        pointer, ref = rec.word(), bits(h, 16, 23)
        if ref == 0:
            pid = "%d" % rec.word()
        elif ref in self.cur.threads:
            pid = "%d" % self.cur.threads[ref][0]
        else:
            pid = "<undefined ref %d>" % ref
        _, name = self.string_ref(rec, bits(h, 24, 39))
        args = self.args_text(self.args(rec, bits(h, 40, 43)))
        return "uobject", "uobject pointer=0x%x pid=%s name=%s%s" % (pointer, pid, name, args)

    def kernel_object(self, rec, h):
        rec.reserved(h, 44, 63, "kernel object")
        otype, koid = bits(h, 16, 23), rec.word()
        name, name_text = self.string_ref(rec, bits(h, 24, 39))
        args = self.args(rec, bits(h, 40, 43))
        # The global kernel object table.  Which name a koid shows is fxt's
        # rule (Documentation/records.rst): the one with the latest
        # "named_at" argument; a record without one replaces only one
        # without.  The spec leaves this to the reader.
        named_at = next((v for n, _, t, v, _ in args if n == b"named_at" and
                         t in ("int32", "uint32", "int64", "uint64")), None)
        old = self.kobj_names.get((otype, koid))
        if old is None or (named_at is None and old[1] is None) or (
                named_at is not None and (old[1] is None or named_at >= old[1])):
            self.kobj_names[(otype, koid)] = ((name or b"")[:KOBJ_NAME_MAX], named_at)
        if otype == 2:
            self.thread_names.setdefault(koid, []).append(
                (named_at or 0, (name or b"")[:KOBJ_NAME_MAX]))
        kind = {1: "process", 2: "thread"}.get(otype, "other")  # ZX_OBJ_TYPE_*
        return "kobject", "kobject type=%s koid=%d name=%s%s%s" % (
            kind, koid, name_text, "" if kind != "other" else " obj_type=%d" % otype,
            self.args_text(args))

    def scheduling(self, rec, h):
        sub = bits(h, 60, 63)
        if sub == 0:        # context switch (legacy): 8-bit cpu
            cpu, state = bits(h, 16, 23), bits(h, 24, 27)
            ts = rec.word()
            out = self.thread_ref(rec, bits(h, 28, 35), ts)
            inn = self.thread_ref(rec, bits(h, 36, 43), ts)
            return "switch", "switch cpu=%d ts=%d out=%s state=%s prio=%d in=%s prio=%d" % (
                cpu, ts, out, state_name(state), bits(h, 44, 51), inn, bits(h, 52, 59))
        if sub == 1:        # context switch: 16-bit cpu, thread koids only
            rec.reserved(h, 40, 59, "context switch")
            cpu, state = bits(h, 20, 35), bits(h, 36, 39)
            ts, out_tid, in_tid = rec.word(), rec.word(), rec.word()
            args = self.args_text(self.args(rec, bits(h, 16, 19)))
            return "switch_v2", "switch_v2 cpu=%d ts=%d out=%s state=%s in=%s%s" % (
                cpu, ts, self.thread_text(0, out_tid, ts), state_name(state),
                self.thread_text(0, in_tid, ts), args)
        if sub == 2:        # thread wakeup
            rec.reserved(h, 36, 59, "thread wakeup")
            cpu, ts, tid = bits(h, 20, 35), rec.word(), rec.word()
            args = self.args_text(self.args(rec, bits(h, 16, 19)))
            return "wakeup", "wakeup cpu=%d ts=%d tid=%d%s%s" % (
                cpu, ts, tid, self.thread_name(tid, ts), args)
        return None, None

    def log(self, rec, h):
        rec.reserved(h, 31, 31, "log")
        rec.reserved(h, 40, 63, "log")
        ts = rec.word()
        thread = self.thread_ref(rec, bits(h, 32, 39), ts)
        msg = rec.stream(bits(h, 16, 30))
        return "log", "log ts=%d thread=%s msg=%s" % (ts, thread, self.quoted(msg))

    def large(self, rec, h):
        rec.reserved(h, 44, 63, "large record")
        fmt = bits(h, 40, 43)
        if bits(h, 36, 39) != 0 or fmt > 1:     # only large blobs exist
            return None, None
        f = rec.word()
        _, cat = self.string_ref(rec, bits(f, 0, 15))
        _, name = self.string_ref(rec, bits(f, 16, 31))
        text = "large_blob format=%d category=%s name=%s" % (fmt, cat, name)
        if fmt == 0:        # in band, with metadata
            rec.reserved(f, 44, 63, "large blob format header")
            ts = rec.word()
            thread = self.thread_ref(rec, bits(f, 36, 43), ts)
            args = self.args_text(self.args(rec, bits(f, 32, 35)))
            text += " ts=%d thread=%s%s" % (ts, thread, args)
        else:               # in band, no metadata
            rec.reserved(f, 32, 63, "large blob format header")
        size = rec.word()
        rec.stream(size)
        return "large_blob format=%d" % fmt, text + " size=%d" % size

    # ----- The archive -----------------------------------------------

    def records(self, data):
        """Yield (offset, kind, text, notes) for each record of data."""
        off = 0
        while off + 8 <= len(data):
            (h,) = struct.unpack_from("<Q", data, off)
            rtype = bits(h, 0, 3)
            # Large records (type 15) have a 32-bit size at [4 .. 35].
            nwords = bits(h, 4, 35) if rtype == 15 else bits(h, 4, 15)
            if nwords == 0:
                yield off, None, "record size 0: cannot go on", []
                return
            if off + 8 * nwords > len(data):
                # The spec: a reader keeps everything up to the last
                # well-formed record.
                yield off, "truncated", "truncated record at offset 0x%x" % off, []
                return
            rec = Record(data, off, nwords)
            rec.word()
            kind, text = None, None
            try:
                if rtype in RECORD_TYPES:
                    kind, text = RECORD_TYPES[rtype](self, rec, h)
                if kind is None:
                    text = "undecoded record type %d, header 0x%016x" % (rtype, h)
                elif rec.pos != rec.end:
                    rec.notes.append("record size %d words, fields take %d"
                                     % (nwords, (rec.pos - off) // 8))
            except Malformed as e:
                kind, text = None, "malformed record type %d: %s" % (rtype, e)
            yield off, kind, text, rec.notes
            off += 8 * nwords


def state_name(state):
    # Thread states, from the spec's context switch record.
    names = ["new", "running", "suspended", "blocked", "dying", "dead"]
    return names[state] if state < len(names) else "invalid"


# Record types of the spec's "Record Types" list.
RECORD_TYPES = {
    0: Decoder.metadata,
    1: Decoder.initialization,
    2: Decoder.string,
    3: Decoder.thread,
    4: Decoder.event,
    5: Decoder.blob,
    6: Decoder.userspace_object,
    7: Decoder.kernel_object,
    8: Decoder.scheduling,
    9: Decoder.log,
    15: Decoder.large,
}

# Event types: name, and the name of the one word of event-type specific
# data that follows the arguments (None: no such word).
EVENT_TYPES = {
    0: ("instant", None),
    1: ("counter", "counter_id"),
    2: ("begin", None),
    3: ("end", None),
    4: ("complete", "end_ts"),
    5: ("async_begin", "id"),
    6: ("async_instant", "id"),
    7: ("async_end", "id"),
    8: ("flow_begin", "id"),
    9: ("flow_step", "id"),
    10: ("flow_end", "id"),
}

# Argument types of the spec's "Argument types" list.
ARG_TYPES = {
    0: ("null", Decoder.arg_null),
    1: ("int32", Decoder.arg_int32),
    2: ("uint32", Decoder.arg_uint32),
    3: ("int64", Decoder.arg_int64),
    4: ("uint64", Decoder.arg_uint64),
    5: ("double", Decoder.arg_double),
    6: ("string", Decoder.arg_string),
    7: ("pointer", Decoder.arg_pointer),
    8: ("koid", Decoder.arg_koid),
    9: ("bool", Decoder.arg_bool),
}


# ----- Comparison with fxt-dump -----------------------------------------

def split_top(s, seps):
    """Split s at any character of seps outside quotes, {} and ()."""
    parts, depth, quote, cur, i = [], 0, False, [], 0
    while i < len(s):
        c = s[i]
        if quote:
            if c == "\\":
                cur.append(s[i:i + 2])
                i += 2
                continue
            quote = c != '"'
        elif c == '"':
            quote = True
        elif c in "{(":
            depth += 1
        elif c in "})":
            depth -= 1
        elif c in seps and depth == 0:
            parts.append("".join(cur))
            cur = []
            i += 1
            continue
        cur.append(c)
        i += 1
    parts.append("".join(cur))
    return [p.strip() for p in parts if p.strip()]


def fields(line, prefix=""):
    """A dump line as [(field name, text)]: key=value pairs (a {...} value
    split in turn, args one by one), other words named after the key before
    them; a switch's state and prio after the thread they belong to."""
    out, seen, last, group = [], collections.Counter(), "record", ""
    for tok in split_top(line, " "):
        key, eq, value = tok.partition("=")
        if not eq or tok[0] in '"<({':
            key, value = ("name" if prefix else last + " name") if tok[0] in '"<' else last, tok
        elif key in ("state", "prio") and group:
            key = group + "." + key
        seen[key] += 1
        name = prefix + key + ("#%d" % seen[key] if seen[key] > 1 else "")
        if key == "args" and value.startswith("{"):
            for i, arg in enumerate(split_top(value[1:-1], ",")):
                aname, _, rest = arg.rpartition(": ")
                atype, _, aval = rest.partition(" ")
                out += [("%sargs[%d].name" % (prefix, i), aname),
                        ("%sargs[%d].type" % (prefix, i), atype),
                        ("%sargs[%d].value" % (prefix, i), aval)]
        elif value.startswith("{"):
            out += fields(value[1:-1], name + ".")
            group = key
        else:
            out.append((name, value))
        if eq:
            last = key
    return out


def kind_of(text):
    """The record kind of a dump line (without its offset)."""
    w = text.split(" ")
    return " ".join(w[:2]) if w[0] in ("event", "large_blob", "malformed", "unknown") else w[0]


def compare(fxt_dump, path):
    with open(path, "rb") as f:
        data = f.read()
    dec = Decoder()
    spec = collections.OrderedDict()
    failures = []

    def fail(msg):
        failures.append(msg)

    truncated = None
    for off, kind, text, notes in dec.records(data):
        if kind == "truncated":
            truncated = text
            continue
        spec[off] = (kind, text)
        for n in notes:
            fail("offset 0x%08x (%s): spec: %s" % (off, kind or "?", n))
    run = subprocess.run([fxt_dump, path], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if run.returncode != 0:
        fail("%s %s exited %d: %s" % (fxt_dump, path, run.returncode,
                                      run.stderr.decode(errors="replace").strip()))
    if truncated and truncated not in run.stderr.decode(errors="replace"):
        fail("spec: %s; fxt-dump does not say so" % truncated)
    dump = collections.OrderedDict()
    for line in run.stdout.decode("utf-8", "replace").splitlines():
        off, _, text = line.partition(" ")
        try:
            dump[int(off, 16)] = text
        except ValueError:
            fail("fxt-dump printed a line without an offset: %r" % line)

    spec_kinds, dump_kinds = collections.Counter(), collections.Counter()
    for off in sorted(set(spec) | set(dump)):
        kind, stext = spec.get(off, (None, None))
        dtext = dump.get(off)
        if kind:
            spec_kinds[kind] += 1
        if dtext is None:
            fail("offset 0x%08x: spec: %s; fxt-dump: no record here" % (off, stext))
            continue
        dkind = kind_of(dtext)
        dump_kinds[dkind] += 1
        if stext is None:
            fail("offset 0x%08x: fxt-dump: %s; spec: no record here" % (off, dtext))
            continue
        if kind is None:
            fail("offset 0x%08x: spec: %s; fxt-dump: %s" % (off, stext, dtext))
            continue
        if stext == dtext:
            continue
        # What fxt-dump reads in a blob's payload (a Perfetto packet's power
        # event) is beyond the FXT specification: the header must agree.
        if kind == "blob" and dtext.startswith(stext + " "):
            continue
        sf, df = fields(stext), fields(dtext)
        sd, dd = dict(sf), dict(df)
        diff = [n for n in [n for n, _ in sf] + [n for n, _ in df if n not in sd]
                if sd.get(n) != dd.get(n)]
        for n in diff:
            fail("offset 0x%08x (%s): field %s: spec %s, fxt-dump %s"
                 % (off, kind, n, sd.get(n, "(none)"), dd.get(n, "(none)")))
        if not diff:    # same fields, told apart only by spacing or order
            fail("offset 0x%08x (%s): spec %r, fxt-dump %r" % (off, kind, stext, dtext))

    for k in sorted(dump_kinds):
        if not spec_kinds[k]:
            fail("fxt-dump reports %d %r records; the spec decoder decoded none"
                 % (dump_kinds[k], k))
    name = path.rsplit("/", 1)[-1]
    print("%s: %d records: %s" % (name, sum(spec_kinds.values()), ", ".join(
        "%s %d" % kv for kv in sorted(spec_kinds.items()))))
    if truncated:
        print("%s: %s (fxt-dump too)" % (name, truncated))
    if dec.arg_counts:
        print("%s: arguments: %s" % (name, ", ".join(
            "%s %d" % kv for kv in sorted(dec.arg_counts.items()))))
    for msg in failures[:MAX_FAILURES]:
        print("%s: FAIL: %s" % (name, msg))
    if len(failures) > MAX_FAILURES:
        print("%s: FAIL: ... and %d more" % (name, len(failures) - MAX_FAILURES))
    print("%s: %s" % (name, "%d differences" % len(failures) if failures
                      else "spec decoder and fxt-dump agree"))
    return 1 if failures else 0


def main(argv):
    if len(argv) == 4 and argv[1] == "--compare":
        return compare(argv[2], argv[3])
    if len(argv) == 2 and not argv[1].startswith("-"):
        with open(argv[1], "rb") as f:
            data = f.read()
        bad = 0
        for off, kind, text, notes in Decoder().records(data):
            print("0x%08x %s" % (off, text) if kind != "truncated" else text)
            for n in notes:
                print("0x%08x   spec: %s" % (off, n))
            bad |= kind is None or bool(notes)
        return 1 if bad else 0
    sys.stderr.write("usage: spec-decode.py ARCHIVE\n"
                     "       spec-decode.py --compare FXT_DUMP ARCHIVE\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
