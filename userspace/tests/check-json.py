#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Validate fxt-dump --json output against the JSON Trace Event Format.

Usage: check-json.py FILE...   (exit 1 and a message per problem)

Checks: the file parses; the object has traceEvents and displayTimeUnit;
every event has the fields its phase requires (name, ph, pid, tid, ts,
dur, s, id, args); ts and dur are written with exactly three decimals
(microseconds with nanosecond precision); complete events on one track
nest properly (what Perfetto's importer needs to keep them all).
"""
import json
import re
import sys

PHASES = set("BEXiICbnestfM")
TS_RE = re.compile(rb'"(ts|dur)":(-?[0-9.eE+]+)')


def check(path):
    problems = []
    raw = open(path, "rb").read()
    try:
        doc = json.loads(raw)
    except ValueError as e:
        return ["%s: not JSON: %s" % (path, e)]
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        return ["%s: no traceEvents array" % path]
    if doc.get("displayTimeUnit") not in ("ms", "ns"):
        problems.append("%s: displayTimeUnit missing or invalid" % path)
    for m in TS_RE.finditer(raw):
        if not re.fullmatch(rb"[0-9]+\.[0-9]{3}", m.group(2)):
            problems.append("%s: %s written as %s" % (path, m.group(1).decode(), m.group(2).decode()))
            break
    tracks = {}
    for i, ev in enumerate(doc["traceEvents"]):
        where = "%s: event %d %r" % (path, i, ev)
        if not isinstance(ev, dict):
            problems.append(where + ": not an object")
            continue
        ph = ev.get("ph")
        if ph not in PHASES:
            problems.append(where + ": bad ph")
            continue
        for f in ("pid", "tid"):
            if not isinstance(ev.get(f), int):
                problems.append(where + ": %s missing" % f)
        if ph != "E" and not isinstance(ev.get("name"), str):
            problems.append(where + ": name missing")
        if ph != "M" and not isinstance(ev.get("ts"), (int, float)):
            problems.append(where + ": ts missing")
        if "args" in ev and not isinstance(ev["args"], dict):
            problems.append(where + ": args not an object")
        if ph == "X":
            if not isinstance(ev.get("dur"), (int, float)) or ev["dur"] < 0:
                problems.append(where + ": dur missing")
            else:
                tracks.setdefault((ev["pid"], ev["tid"]), []).append(
                    (ev["ts"], ev["dur"], ev["name"]))
        if ph in "iI" and ev.get("s", "t") not in ("t", "p", "g"):
            problems.append(where + ": bad scope")
        if ph in "bnestf" and "id" not in ev:
            problems.append(where + ": id missing")
        if ph in "bnestfC" and "cat" not in ev and ph != "C":
            problems.append(where + ": cat missing")
        if ph == "C":
            args = ev.get("args")
            if not isinstance(args, dict) or not all(
                    isinstance(v, (int, float)) and not isinstance(v, bool)
                    for v in args.values()):
                problems.append(where + ": counter args must be numbers")
        if ph == "M":
            args = ev.get("args", {})
            if ev.get("name") in ("process_name", "thread_name") and \
                    not isinstance(args.get("name"), str):
                problems.append(where + ": metadata name missing")
    # Complete events on a track must nest (1 ns slack for rounding).
    for key, slices in tracks.items():
        slices.sort(key=lambda s: (s[0], -s[1]))
        stack = []
        for ts, dur, name in slices:
            end = ts + dur
            while stack and stack[-1][0] <= ts + 0.0005:
                stack.pop()
            if stack and end > stack[-1][0] + 0.0005:
                problems.append("%s: track %s: %s [%s, %s] overlaps %s ending %s" %
                                (path, key, name, ts, end, stack[-1][1], stack[-1][0]))
                break
            stack.append((end, name))
    return problems


def main():
    problems = []
    for path in sys.argv[1:]:
        problems += check(path)
    for p in problems[:20]:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
