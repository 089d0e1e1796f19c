#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench/analyze.py OUTDIR [INFO]: turn OUTDIR/raw.csv, micro.csv and
keepup.csv (bench/run-guest.sh) into OUTDIR/results.md (printed too),
OUTDIR/overhead.png and OUTDIR/probe.png (gnuplot).

Overhead per event is paired by repetition: within one repetition every
tracer ran once on the same workload, so for each repetition we take
(t_tracer - t_none) and divide by the number of events the empty probe
counted for that workload (median over its runs): sched_switch only for
the "sched" configurations, every event tracepoint of fxt's categories for
the "all" ones (switch, wakeups, irq, softirq, x86 vectors). The
median over repetitions is reported with its interquartile range.
"""
import csv
import re
import os
import statistics as st
import subprocess
import sys

out = sys.argv[1]
info = sys.argv[2] if len(sys.argv) > 2 else ""
rows = list(csv.DictReader(open(os.path.join(out, "raw.csv"))))

TRACERS = ["none", "null-sched", "fxt-sched", "ftrace-sched", "trace-cmd",
           "bpf-sched", "perf-sched", "lttng-sched", "null-all", "fxt-all",
           "fxt-power", "ftrace-all", "bpf-all", "lttng-all"]
# fxt-power records fxt-all's categories and power: its ns/event is over
# the same events as fxt-all's (the empty probe counts no power event)
SCOPE = {t: ("all" if t.endswith("-all") or t == "fxt-power" else "sched")
         for t in TRACERS}
WORKLOADS = ["pingpong", "messaging", "fork", "timer"]
WL_DESC = {
    "pingpong": "two-thread pipe ping-pong on CPU 0",
    "messaging": "perf bench sched messaging (threads)",
    "fork": "fork + exec of a static no-op, one at a time",
    "timer": "threads in 50 us clock_nanosleep loops (timer IRQs)",
}


def num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def quart(xs):
    xs = sorted(xs)
    if len(xs) < 2:
        return (xs[0], xs[0]) if xs else (None, None)
    q = st.quantiles(xs, n=4, method="inclusive")
    return q[0], q[2]


def med(xs):
    xs = [x for x in xs if x is not None]
    return st.median(xs) if xs else None


def fmt(v, d=0):
    if v is None:
        return "-"
    return f"{v:.{d}f}"


runs = {}
for r in rows:
    if r["ok"] != "1" or num(r["wall_ns"]) is None:
        continue
    runs.setdefault((r["workload"], r["tracer"]), []).append(r)

failed = [r for r in rows if r["ok"] != "1"]


def col(w, t, c):
    return [num(r[c]) for r in runs.get((w, t), []) if num(r[c]) is not None]


res = {}
for w in WORKLOADS:
    base = {r["rep"]: num(r["wall_ns"]) for r in runs.get((w, "none"), [])}
    e_sw = med(col(w, "null-sched", "np_switches"))
    e_all = med(col(w, "null-all", "np_count"))
    for t in TRACERS:
        rs = runs.get((w, t), [])
        if not rs:
            continue
        walls = [num(r["wall_ns"]) for r in rs]
        d = dict(n=len(rs), med=st.median(walls), min=min(walls),
                 max=max(walls))
        e = e_all if SCOPE[t] == "all" else e_sw
        diffs = [num(r["wall_ns"]) - base[r["rep"]] for r in rs
                 if r["rep"] in base]
        d["ovh_pct"] = (100 * st.median([x / st.median(list(base.values()))
                                        for x in diffs])
                        if diffs and base else None)
        if e and diffs and t != "none":
            per = [x / e for x in diffs]
            d["ns_ev"] = st.median(per)
            d["ns_q1"], d["ns_q3"] = quart(per)
        ev = med(col(w, t, "events"))
        sw = med(col(w, t, "switches"))
        ob = med(col(w, t, "out_bytes"))
        d["events"] = ev
        d["switches"] = sw
        d["bytes"] = ob
        if ob:
            # switches the tracer itself saw, else the empty probe's count
            d["b_sw"] = ob / (sw or e_sw) if (sw or e_sw) else None
            d["b_ev"] = ob / ev if ev else None
        lost = col(w, t, "lost")
        d["lost"] = sum(lost) if lost else None
        cpu = [num(r["cpu_user_s"]) + num(r["cpu_sys_s"]) for r in rs
               if num(r["cpu_user_s"]) is not None]
        d["cpu"] = med(cpu)
        d["rss"] = med(col(w, t, "maxrss_kb"))
        res[(w, t)] = d
    res[(w, "_e")] = (e_sw, e_all)


def ratio(w, t, ref):
    a = res.get((w, t), {}).get("ns_ev")
    b = res.get((w, ref), {}).get("ns_ev")
    if a is None or b is None or b <= 0:
        return None
    return a / b


L = []
L.append("# fxt benchmark results\n")
if info:
    L.append(info + "\n")
L.append("Overhead per event = median over repetitions of (workload time with "
         "the tracer - workload time with no tracer, same repetition) / events "
         "the empty probe counts in that workload (sched_switch for *-sched "
         "rows, every event tracepoint of fxt's categories for *-all rows: "
         "switch, wakeups, irq, softirq, x86 interrupt vectors); IQR in brackets. "
         "x ftrace / x null / x bpf / x lttng: that ratio against ftrace / the "
         "empty probe / BPF / LTTng of the same scope. B/sw: output bytes per context switch; B/ev: output bytes "
         "per event the tracer counted. cpu: collector CPU seconds per run; rss: "
         "collector peak RSS. perf-sched runs in fewer repetitions than the "
         "others (its start-up costs ~8 s per run in TCG): see its runs column.\n")
for w in WORKLOADS:
    if (w, "none") not in res:
        continue
    e_sw, e_all = res[(w, "_e")]
    L.append(f"\n## {w}: {WL_DESC[w]}\n")
    vec = med(col(w, "null-all", "np_vectors"))
    nam = med(col(w, "null-sched", "np_names"))
    L.append(f"Events per run (empty probe): {fmt(e_sw)} switches, "
             f"{fmt(e_all)} in every event tracepoint (of which {fmt(vec)} x86 "
             f"vector entries/exits); {fmt(nam)} fork/exec/rename (hooked by "
             f"fxt and the empty probe in both scopes, not counted as events).\n")
    L.append("| tracer | runs | time ms median [min-max] | overhead | ns/event [IQR] "
             "| x ftrace | x null | x bpf | x lttng | events | lost | B/sw | B/ev | cpu s | rss MB |")
    L.append("|---|---:|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for t in TRACERS:
        d = res.get((w, t))
        if not d:
            continue
        sc = SCOPE[t]
        ns = (f"{d['ns_ev']:.0f} [{d['ns_q1']:.0f}..{d['ns_q3']:.0f}]"
              if d.get("ns_ev") is not None else "-")
        L.append("| {} | {} | {} [{}-{}] | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |".format(
            t, d["n"], fmt(d["med"] / 1e6, 1), fmt(d["min"] / 1e6, 1),
            fmt(d["max"] / 1e6, 1),
            (fmt(d["ovh_pct"], 1) + "%") if d.get("ovh_pct") is not None and t != "none" else "-",
            ns, fmt(ratio(w, t, "ftrace-" + sc), 2),
            fmt(ratio(w, t, "null-" + sc), 2), fmt(ratio(w, t, "bpf-" + sc), 2),
            fmt(ratio(w, t, "lttng-" + sc), 2),
            fmt(d["events"]), fmt(d["lost"]), fmt(d.get("b_sw"), 1),
            fmt(d.get("b_ev"), 1), fmt(d["cpu"], 2),
            fmt(d["rss"] / 1024 if d["rss"] else None, 1)))

# Micro-benchmark: bench/probebench, cost of the probes on sched_switch
micro = {}
mpath = os.path.join(out, "micro.csv")
if os.path.exists(mpath):
    for r in csv.DictReader(open(mpath)):
        if r["ok"] == "1" and num(r["median_ns"]) is not None:
            micro.setdefault(r["tracer"], []).append(r)
mres = {}
if micro:
    def mbase(t):
        # real-switch rows (-real-s, -real-d) against the bracket alone
        ref = "none" + t[t.index("-real-"):] if "-real-" in t else "none"
        return med([num(r["median_ns"]) for r in micro.get(ref, [])]) or 0
    def mbase_min(t):
        ref = "none" + t[t.index("-real-"):] if "-real-" in t else "none"
        return min((num(r["min_ns"]) for r in micro.get(ref, [])), default=0)
    for t, rs in micro.items():
        m = med([num(r["median_ns"]) for r in rs])
        meds = [num(r["median_ns"]) - mbase(t) for r in rs]
        mres[t] = dict(n=len(rs), med=m, min=min(num(r["min_ns"]) for r in rs),
                       probes=med([num(r["probes"]) for r in rs]),
                       net=m - mbase(t),
                       # the least batch of all rounds, loop's least
                       # subtracted: the figure that repeats across boots
                       mnet=min(num(r["min_ns"]) for r in rs) - mbase_min(t),
                       lo=min(meds), hi=max(meds))
    L.append("\n## Probe cost on sched_switch, in the kernel (noise-free view)\n")
    L.append("bench/probebench calls the probes attached to sched_switch directly "
             "(interrupts off, prev = next = current), 100 batches of 200 calls, "
             "while the tracer records; ns per call: median over rounds of the "
             "median batch, minus the loop alone (tracer none).\n")
    L.append("| tracer | rounds | probes | ns/call (net) | min batch ns | x ftrace | x null | x bpf | x lttng |")
    L.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for t in ["none", "null-sched", "fxt-sched", "fxt-base", "fxt-part1", "fxt-part2",
              "fxt-cpart2", "fxt-cpart3", "fxt-cpart4",
              "none-real-s", "none-real-d", "fxt-sched-real-s", "fxt-sched-real-d",
              "fxt-circ", "fxt-armed", "fxt-circ-block", "fxt-armed-block",
              "fxt-wake-waking", "fxt-circ-waking", "none-idle", "fxt-power-idle",
              "ftrace-power-idle", "ftrace-sched", "trace-cmd", "bpf-sched", "perf-sched",
              "lttng-sched"]:
        d = mres.get(t)
        if not d:
            continue
        def mr(ref):
            b = mres.get(ref, {}).get("net")
            return fmt(d["net"] / b, 2) if b and b > 0 and t != "none" else "-"
        L.append(f"| {t} | {d['n']} | {fmt(d['probes'])} | {fmt(d['net'])} | "
                 f"{fmt(d['min'])} | {mr('ftrace-sched')} | {mr('null-sched')} | "
                 f"{mr('bpf-sched')} | {mr('lttng-sched')} |")


PARTS = [("part-inc", "this_cpu_inc() of a counter (what the empty probe does)"),
         ("part-clock", "ktime_get_boot_fast_ns(), the clock fxt reads"),
         ("part-cmpxchg", "one local_cmpxchg() on a per-CPU word"),
         ("part-record", "a whole 16-byte record as fxt writes one: clock, "
          "cmpxchg reserve, 2 stores, smp_wmb, 2 local counter updates; "
          "no thread lookups")]
if any(mres.get(p) for p, _ in PARTS):
    L.append("\nThe pieces of fxt's write path, timed alone the same way (no tracer; "
             "a direct call instead of the tracepoint's indirect one; ns per call, "
             "loop subtracted):\n")
    L.append("| piece | rounds | ns/call (net) |")
    L.append("|---|---:|---:|")
    for p, desc in PARTS:
        d = mres.get(p)
        if d:
            L.append(f"| {desc} | {d['n']} | {fmt(d['net'])} |")
    if mres.get("fxt-sched-real-d"):
        L.append("\n-real-s, -real-d: probebench real=1, the probes on real switches: "
                 "a kernel thread sleeps 1000 times in usleep_range_state(), in S "
                 "(TASK_INTERRUPTIBLE) or D (TASK_UNINTERRUPTIBLE), and two probes "
                 "of probebench's own, first and last on sched_switch, time the "
                 "others for each of its switches; net is minus the same row with "
                 "no tracer (none-real-s, none-real-d: the bracket alone). A switch "
                 "into D makes fxt write the sleep event and walk the stack from "
                 "__schedule() for the function blocked in (records.rst, "
                 "\"Sleep states\").")
    if mres.get("fxt-circ") or mres.get("fxt-armed"):
        L.append("\nfxt-circ and fxt-armed: fxt-collect -m circular -c sched,wakeup, "
                 "without and with latency triggers (--trigger wakeup-latency=10s "
                 "--trigger off-cpu=100s, never firing); the armed probe looks up "
                 "the incoming thread's notes (a preemption: nothing to note). "
                 "-block: probebench called with prev_state=1, every call blocks "
                 "and switches in the same thread, so the armed probe also notes "
                 "the block and takes the note (an atomic exchange and a "
                 "compare-and-exchange: the most its switch probe does short of "
                 "firing).")
    if mres.get("fxt-wake-waking") or mres.get("fxt-circ-waking"):
        L.append("\n-waking: probebench tp=sched_waking, the probes attached to "
                 "sched_waking, called with p = current: a wakeup of a running "
                 "task, written at once. fxt-wake records streaming with the "
                 "categories fxt-circ records (-c sched,wakeup).")
    if mres.get("fxt-power-idle") or mres.get("ftrace-power-idle"):
        L.append("\n-idle: probebench tp=cpu_idle, the probes attached to cpu_idle, "
                 "called as the idle loop calls them on entry (state 1, this CPU, "
                 "interrupts off). fxt-power records every category, power too "
                 "(-c all); ftrace-power enables ftrace-all's events and "
                 "power/cpu_idle, power/cpu_frequency; none-idle: no probe.")
    rec = mres.get("part-record", {}).get("net")
    fx = mres.get("fxt-sched", {}).get("net")
    if rec is not None and fx is not None:
        L.append(f"\nfxt-sched's probe minus that record: {fx - rec:.0f} ns "
                 "(two thread-index lookups, the header, the call).")

# fxt.ko built to return from its sched_switch probe after piece N
# (bench/fxt-parts): where the real probe's time goes.
p1 = mres.get("fxt-part1", {}).get("net")
p2 = mres.get("fxt-part2", {}).get("net")
fx = mres.get("fxt-sched", {}).get("net")
if p1 is not None and p2 is not None and fx is not None:
    L.append("\nWhere fxt-sched's probe time goes: fxt.ko built to return "
             "from its sched_switch probe after each piece (bench/fxt-parts, "
             "FXT_PROBE_PART), timed like fxt-sched; each piece is the "
             "difference between two builds (ns per call, net):\n")
    L.append("| piece | ns/call |")
    L.append("|---|---:|")
    L.append(f"| 1: the probe's entry and its CPU's state (fxt-part1) | {fmt(p1)} |")
    L.append(f"| 2: both thread lookups, the outgoing state, the priorities "
             f"(fxt-part2 - fxt-part1) | {fmt(p2 - p1)} |")
    L.append(f"| 3: reserve (clock, cmpxchg), the record's words, commit, the "
             f"CPU's last thread (fxt-sched - fxt-part2) | {fmt(fx - p2)} |")
    L.append(f"| the whole probe (fxt-sched) | {fmt(fx)} |")

# The same in circular mode (fxt-cpartN: part N's build, recording like
# fxt-circ), and the armed probe's trigger note: what issue 30's 1.3x and
# 1.5x are made of. Minimum batches, loop subtracted, beside the medians.
cp = [mres.get(t) for t in ("fxt-cpart2", "fxt-cpart3", "fxt-cpart4", "fxt-circ", "fxt-armed")]
if all(cp):
    c2, c3, c4, ci, ar = cp
    L.append("\nWhere fxt-circ's probe time goes: the fxt-parts builds recording in "
             "circular mode (rows fxt-cpartN), each piece the difference between two "
             "builds (ns per call; min batch, loop subtracted, and median net):\n")
    L.append("| piece | min batch | median |")
    L.append("|---|---:|---:|")
    for what, a, b in [("1-2: entry, thread lookups, state, priorities (fxt-cpart2)", c2, None),
                       ("3: room made for names (fxt-cpart3 - fxt-cpart2)", c3, c2),
                       ("4: the name cache, both threads (fxt-cpart4 - fxt-cpart3)", c4, c3),
                       ("5: reserve, record, commit (fxt-circ - fxt-cpart4)", ci, c4),
                       ("the whole circular probe (fxt-circ)", ci, None),
                       ("triggers armed: the notes (fxt-armed - fxt-circ)", ar, ci)]:
        L.append(f"| {what} | {fmt(a['mnet'] - (b['mnet'] if b else 0))} | "
                 f"{fmt(a['net'] - (b['net'] if b else 0))} |")


def mratio(ref, t="fxt-sched"):
    a = mres.get(t, {}).get("net")
    b = mres.get(ref, {}).get("net")
    return a / b if a is not None and b and b > 0 else None


# Targets
L.append("\n## Targets (tracked, not asserted)\n")
L.append("| target | workload | measured | met |")
L.append("|---|---|---:|---|")
def over(r, lim):
    """how far over its limit a missed target is"""
    x = r / lim
    return "NO (%.0f%% over)" % (100 * (x - 1)) if x < 2 else "NO (%.1fx the limit)" % x


def ns_iqr(d):
    return f"{d['ns_ev']:.0f} [{d['ns_q1']:.0f}..{d['ns_q3']:.0f}]"


for w in ["pingpong", "messaging"]:
    for ref, lim in [("ftrace-sched", 0.5), ("bpf-sched", 0.7), ("null-sched", 1.5)]:
        a = res.get((w, "fxt-sched"), {})
        b = res.get((w, ref), {})
        if a.get("ns_ev") is None or b.get("ns_ev") is None:
            L.append(f"| fxt-sched ns/event <= {lim}x {ref} | {w} | - | - |")
            continue
        r = ratio(w, "fxt-sched", ref)
        # a ratio of medians whose IQR includes 0 (or below) says nothing
        if a["ns_q1"] <= 0 or b["ns_q1"] <= 0 or r is None:
            verdict = "inconclusive (an IQR reaches 0: noise)"
        else:
            verdict = "yes" if r <= lim else over(r, lim)
        L.append(f"| fxt-sched ns/event <= {lim}x {ref} | {w} | {fmt(r, 2)}x: "
                 f"{ns_iqr(a)} vs {ns_iqr(b)} ns | {verdict} |")
def ptarget(t, ref, lim, what, strict=False):
    """A probe target, judged on the minimum batches (loop subtracted):
    medians swung by half between boots of one module while the minimum
    batches agreed within 2 %. The medians' ratio and each row's spread
    of round medians (net) are printed beside it."""
    a, b = mres.get(t), mres.get(ref)
    if not a or not b or b["mnet"] <= 0 or b["net"] <= 0:
        L.append(f"| {what} | probebench | - | - |")
        return
    r = a["mnet"] / b["mnet"]
    met = r < lim if strict else r <= lim
    L.append(f"| {what} | probebench | {fmt(r, 2)}x: {fmt(a['mnet'])} vs {fmt(b['mnet'])} ns "
             f"min batch (medians {fmt(a['net'] / b['net'], 2)}x; rounds {fmt(a['lo'])}-"
             f"{fmt(a['hi'])} vs {fmt(b['lo'])}-{fmt(b['hi'])}) | "
             f"{'yes' if met else over(r, lim)} |")


for ref, lim in [("ftrace-sched", 0.5), ("bpf-sched", 0.7), ("null-sched", 1.5),
                 ("lttng-sched", 0.5)]:
    ptarget("fxt-sched", ref, lim, f"fxt-sched probe cost <= {lim}x {ref}")
# "<= 0.3x bpf-sched" is retired: it measured TCG's emulated clock read
# (performance.rst, "Findings of the run at e9c027d").
nul, clk, fx = (mres.get(t) for t in ("null-sched", "part-clock", "fxt-sched"))
if nul and clk and fx and nul["mnet"] + clk["mnet"] > 0:
    r = fx["mnet"] / (nul["mnet"] + clk["mnet"])
    L.append(f"| fxt-sched probe cost <= 2x (empty probe + one clock read) | "
             f"probebench | {fmt(r, 2)}x: {fmt(fx['mnet'])} vs {fmt(nul['mnet'])} + "
             f"{fmt(clk['mnet'])} ns min batch (medians {fmt(fx['net'])} vs {fmt(nul['net'])} + "
             f"{fmt(clk['net'])}) | {'yes' if r <= 2 else over(r, 2)} |")
else:
    L.append("| fxt-sched probe cost <= 2x (empty probe + one clock read) | probebench | - | - |")
for t in ("fxt-armed", "fxt-armed-block"):
    ptarget(t, "bpf-sched", 1, f"{t} (triggers armed) probe cost < bpf-sched", strict=True)
# The flight recorder at streaming's cost (circular, triggers armed).
ptarget("fxt-circ", "fxt-sched", 1.3, "fxt-circ (circular) probe cost <= 1.3x fxt-sched")
ptarget("fxt-armed", "fxt-sched", 1.5, "fxt-armed (circular, triggers armed) <= 1.5x fxt-sched")
ptarget("fxt-armed-block", "fxt-sched", 1.5,
        "fxt-armed-block (armed, a blocking switch) <= 1.5x fxt-sched")
ptarget("fxt-circ-waking", "fxt-wake-waking", 1.3,
        "fxt-circ-waking (circular, the sched_waking probe) <= 1.3x fxt-wake-waking")
# The power category: its cpu_idle probe against ftrace's on the same
# tracepoint (records.rst, "Power").
ptarget("fxt-power-idle", "ftrace-power-idle", 1,
        "fxt-power-idle (the cpu_idle probe) <= 1x ftrace-power-idle")
# A plain switch costs what it cost before sleep events, parents and
# command lines (fxt-base: bench/fxt-base/build.sh, the same guest boot).
ptarget("fxt-sched", "fxt-base", 1.05,
        "fxt-sched plain switch <= 1.05x fxt-base (before sleep events)")
# Real switches (-real-): each batch is real sleeps, whose cost varies
# more than the synthetic calls'; judged on the medians, min beside.
r = mratio("fxt-sched-real-s", "fxt-sched-real-d")
a, b = mres.get("fxt-sched-real-d"), mres.get("fxt-sched-real-s")
rmin = a["mnet"] / b["mnet"] if a and b and b["mnet"] > 0 else None
L.append(f"| fxt-sched-real-d (a real switch into D: sleep event, function) probe cost <= 3x fxt-sched-real-s | "
         f"probebench | {fmt(r, 2)}x medians (min batches {fmt(rmin, 2)}x) | "
         f"{'-' if r is None else ('yes' if r <= 3 else over(r, 3))} |")
# sleep events (records.rst, "Sleep states"): their bytes per event fxt
# counted, on the workloads with every category
for w in ["timer", "messaging"]:
    rs = [r for r in runs.get((w, "fxt-all"), [])
          if num(r.get("sleep_bytes")) is not None and num(r.get("events"))]
    v = med([num(r["sleep_bytes"]) / num(r["events"]) for r in rs]) if rs else None
    L.append(f"| sleep events add <= 1 byte per event (fxt-all) | {w} | "
             f"{fmt(v, 3)} | {'-' if v is None else ('yes' if v <= 1 else over(v, 1))} |")
# The flight recorder's collector: CPU seconds (user + system) per
# million events fxt wrote, circular (and armed) against streaming.
def cpu_per_mev(w, t):
    v = [(num(r["cpu_user_s"]) + num(r["cpu_sys_s"])) / (num(r["events"]) / 1e6)
         for r in runs.get((w, t), [])
         if num(r.get("cpu_user_s")) is not None and num(r.get("cpu_sys_s")) is not None
         and num(r.get("events"))]
    return med(v) if v else None


for w in ["messaging"]:
    s_, c_, a_ = (cpu_per_mev(w, t) for t in ("fxt-wake", "fxt-circ", "fxt-armed"))
    rel = (f" ({fmt(c_ / s_, 2)}x / {fmt(a_ / s_, 2)}x streaming)"
           if s_ and c_ is not None and a_ is not None else "")
    L.append(f"| (collector CPU s per M events, -c sched,wakeup: streaming / circular / "
             f"armed) | {w} | {fmt(s_, 2)} / {fmt(c_, 2)} / {fmt(a_, 2)}{rel} | |")
b = res.get(("messaging", "fxt-sched"), {}).get("b_sw")
L.append(f"| <= 20 bytes per switch (fxt -c sched) | messaging | {fmt(b, 1)} | "
         f"{'-' if b is None else ('yes' if b <= 20 else over(b, 20))} |")


def bsw_parts(w, t):
    """median switch-record bytes per switch, and median other bytes
    (names, strings, metadata) per archive"""
    rs = runs.get((w, t), [])
    per = [num(r["sw_bytes"]) / num(r["switches"]) for r in rs
           if num(r.get("sw_bytes")) and num(r["switches"])]
    return med(per), med(col(w, t, "other_bytes"))


sw_part, fixed = bsw_parts("messaging", "fxt-sched")
if sw_part is not None:
    sw = res.get(("messaging", "fxt-sched"), {}).get("switches")
    L.append(f"| (of which switch records; converged value of a long run) | messaging | "
             f"{fmt(sw_part, 1)} | {'yes' if sw_part <= 20 else 'NO'} |")
    L.append(f"| (the rest: names, strings, metadata, per archive) | messaging | "
             f"{fmt(fixed)} bytes over {fmt(sw)} switches | |")
b = res.get(("messaging", "fxt-all"), {}).get("b_sw")
L.append(f"| (for reference: archive bytes per switch, fxt all categories) | messaging | {fmt(b, 1)} | |")
for w in ["timer", "messaging"]:
    b = res.get((w, "fxt-all"), {}).get("b_ev")
    L.append(f"| <= 20 bytes per event (fxt, every category) | {w} | {fmt(b, 1)} | "
             f"{'-' if b is None else ('yes' if b <= 20 else over(b, 20))} |")
# The reader benchmark's Perfetto line (scripts/bench, userspace/bench/reader-bench.sh)
rpath = os.path.join(out, "reader.md")
rline = None
if os.path.exists(rpath):
    for l in open(rpath):
        if l.startswith("fxt-report is ") or l.startswith("Perfetto: trace_processor_shell is not"):
            rline = l.strip()
m = re.match(r"fxt-report is ([0-9.]+)x faster.*agree for ([0-9]+) of ([0-9]+) threads", rline or "")
if m:
    x, same, n = float(m.group(1)), int(m.group(2)), int(m.group(3))
    L.append(f"| fxt-report >= 10x faster than Perfetto's import, same per-thread "
             f"run times | reader benchmark | {rline} | "
             f"{'yes' if x >= 10 and same == n else 'NO'} |")
else:
    L.append(f"| fxt-report >= 10x faster than Perfetto's import, same per-thread "
             f"run times | reader benchmark | {rline or 'not run'} | - |")
keep = []
kpath = os.path.join(out, "keepup.csv")
if os.path.exists(kpath):
    keep = list(csv.DictReader(open(kpath)))
for r in keep:
    if r["phase"] != "keepup":
        continue
    secs = (num(r["wall_ms"]) or 0) / 1e3
    sw, rec = num(r["switches"]), num(r["records"])
    saves, lost = num(r["saves"]), num(r["dropped"])
    met = saves is not None and lost is not None and saves > 0 and lost == 0
    L.append(f"| streaming keeps up, default 8 MiB/CPU, all categories, no loss "
             f"| keep-up ({r['load']}) | {fmt(sw / secs if sw and secs else None)} "
             f"switches/s, {fmt(rec / secs if rec and secs else None)} records/s, "
             f"{fmt(saves)} buffers saved (per-CPU rolls: {r['wraps'] or '-'}), "
             f"{fmt(lost)} dropped | "
             f"{'yes' if met else 'NO (needs buffers saved > 0 and 0 dropped)'} |")
lost_fxt = sum((res.get((w, t), {}).get("lost") or 0) for w in WORKLOADS
               for t in ("fxt-sched", "fxt-all"))
L.append(f"| no loss in any fxt run above | all | {lost_fxt:.0f} dropped | "
         f"{'yes' if lost_fxt == 0 else 'NO'} |")
if failed:
    L.append(f"\n{len(failed)} run(s) failed and are left out: " +
             ", ".join(f"{r['workload']}/{r['tracer']}/rep{r['rep']}" for r in failed))
lpath = os.path.join(out, "lttng.txt")
lst = open(lpath).read().strip() if os.path.exists(lpath) else "not run"
if lst.startswith("ok: "):
    L.append("\nLTTng: " + lst[4:] + "; lttng-sched records the kernel event "
             "sched_switch, lttng-all the events of fxt's categories (sched_switch, "
             "sched_waking, sched_wakeup_new, sched_process_fork/exec, "
             "irq_handler_*, irq_softirq_*, x86_irq_vectors_*; LTTng has no "
             "task_rename event: its sched_switch carries the names), 8 sub-buffers "
             "of 1 MiB per CPU, discard mode. events: babeltrace2's count; B/ev: "
             "trace directory bytes (streams, indexes, metadata) per event; cpu, "
             "rss: lttng-sessiond + lttng-consumerd (CPU time over the run, VmRSS "
             "at the stop; the daemons outlive the runs).")
else:
    L.append("\nLTTng: " + lst + ".")


def kind_parts(w, t="fxt-all"):
    """medians over runs of fxt's records by kind (bench/fxtcount.c);
    None when the run predates these columns"""
    rs = [r for r in runs.get((w, t), []) if num(r.get("wakeups")) is not None]
    if not rs:
        return None
    out = {}
    for k in ("events", "switches", "sw_bytes", "wakeups", "wk_bytes",
              "ev_records", "ev_bytes", "other_bytes", "out_bytes"):
        out[k] = med([num(r[k]) for r in rs if num(r.get(k)) is not None])
    # lower bounds (Documentation/performance.rst, Findings): switch 16
    # (header, time), wakeup 40 (header, time, woken koid, waker koid
    # argument: no weight), and an interrupt record either 16 (a begin or
    # an end with no argument, name by index: records stay in time order)
    # or 12 (begin and end as one 24-byte duration-complete event, written
    # at the end: records no longer in time order within a CPU)
    def floor(irq_bytes):
        return med([(16 * num(r["switches"]) + 40 * num(r["wakeups"]) +
                     irq_bytes * num(r["ev_records"]) + num(r["other_bytes"])) /
                    num(r["events"]) for r in rs if num(r.get("events"))])
    out["floor_ordered"] = floor(16)
    out["floor"] = floor(12)
    return out


parts = {w: kind_parts(w) for w in WORKLOADS}
if any(parts.values()):
    L.append("\n## fxt's bytes by record kind (fxt-all)\n")
    L.append("Medians over the fxt-all runs (bench/fxtcount.c). B/ev: archive "
             "bytes per event fxt counted. floors: lower bounds, the same "
             "records at the least the format allows with Perfetto still drawing "
             "them and naming each wakeup's waker (switch 16 bytes, wakeup 40: no "
             "weight), names and metadata as measured; in time order: each "
             "interrupt's begin and end 16 bytes (no argument); any order: an "
             "interrupt as one 24-byte complete event written at its end, after "
             "the records of what ran inside it.\n")
    L.append("| workload | events | switches | B/switch | wakeups | B/wakeup | "
             "irq records | B/irq record | names, metadata bytes | B/ev | "
             "floor B/ev, in time order | floor B/ev, any order |")
    L.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for w in WORKLOADS:
        p = parts[w]
        if not p:
            continue
        def per(b, n):
            return p[b] / p[n] if p[b] is not None and p[n] else None
        L.append(f"| {w} | {fmt(p['events'])} | {fmt(p['switches'])} | "
                 f"{fmt(per('sw_bytes', 'switches'), 1)} | {fmt(p['wakeups'])} | "
                 f"{fmt(per('wk_bytes', 'wakeups'), 1)} | {fmt(p['ev_records'])} | "
                 f"{fmt(per('ev_bytes', 'ev_records'), 1)} | {fmt(p['other_bytes'])} | "
                 f"{fmt(per('out_bytes', 'events'), 1)} | "
                 f"{fmt(p['floor_ordered'], 1)} | {fmt(p['floor'], 1)} |")

# The power category (fxt-power = fxt-all's categories and power): what
# it adds to a workload's time and to the archive, to decide its default.
pw_rows = []
for w in WORKLOADS:
    a, p = res.get((w, "fxt-all"), {}), res.get((w, "fxt-power"), {})
    rs = [r for r in runs.get((w, "fxt-power"), []) if num(r.get("power"))]
    if not p or not rs:
        continue
    n = med([num(r["power"]) for r in rs])
    per_ev = med([num(r["power_bytes"]) / num(r["power"]) for r in rs])
    share = med([num(r["power_bytes"]) / num(r["out_bytes"]) for r in rs
                 if num(r.get("out_bytes"))])
    per_sw = med([num(r["power"]) / num(r["switches"]) for r in rs if num(r.get("switches"))])
    pw_rows.append(f"| {w} | {fmt(a.get('ovh_pct'), 1)}% | {fmt(p.get('ovh_pct'), 1)}% | "
                   f"{fmt(n)} | {fmt(per_sw, 2)} | {fmt(per_ev, 1)} | "
                   f"{fmt(100 * share if share is not None else None, 1)}% |")
if pw_rows:
    L.append("\n## The power category\n")
    L.append("fxt-power records fxt-all's categories and power (cpu_idle, "
             "cpu_frequency: one blob record of an embedded Perfetto packet per "
             "event, records.rst \"Power\"). Overheads: the median over "
             "repetitions of the wall time added to the untraced run; power "
             "events, per switch, bytes per power event and their share of the "
             "archive: medians over the fxt-power runs (bench/fxtcount.c).\n")
    L.append("| workload | fxt-all overhead | fxt-power overhead | power events | "
             "per switch | B/power event | share of archive bytes |")
    L.append("|---|---:|---:|---:|---:|---:|---:|")
    L.extend(pw_rows)

if keep:
    L.append("\n## Streaming keep-up run\n")
    L.append("The fastest-switching load of the guest (each candidate 20000 round "
             "trips untraced), then that load under `fxt-collect -m streaming` "
             "with its defaults (8 MiB per CPU: 1 MiB durable, two rolling "
             "buffers of ~3.5 MiB; every category). Met when rolling buffers "
             "were saved (the streaming hand-shake ran) and nothing was dropped.\n")
    L.append("| phase | load | round trips | time s | switches | switches/s | records | records/s | MB | buffers saved | per-CPU rolls | dropped |")
    L.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|")
    for r in keep:
        secs = (num(r["wall_ms"]) or 0) / 1e3
        sw = num(r["switches"]) if r["phase"] == "keepup" else num(r["ctxt"])
        rec = num(r["records"])
        ob = num(r["out_bytes"])
        L.append(f"| {r['phase']} | {r['load']} | {r['round_trips']} | {fmt(secs, 1)} | "
                 f"{fmt(sw)} | {fmt(sw / secs if sw and secs else None)} | {fmt(rec)} | "
                 f"{fmt(rec / secs if rec and secs else None)} | "
                 f"{fmt(ob / 1e6 if ob else None, 1)} | {r['saves'] or '-'} | "
                 f"{r['wraps'] or '-'} | {r['dropped'] or '-'} |")
    L.append("\nswitches: counted in the archive (keep-up), /proc/stat (calibration).")

# Where the guest's time went: tracer start-up and tear-down per run
tt = {}
for r in rows:
    if num(r.get("start_ms")) is None:
        continue
    d = tt.setdefault(r["tracer"], dict(n=0, start=[], stop=[], work=0.0, tot=0.0))
    d["n"] += 1
    d["start"].append(num(r["start_ms"]) / 1e3)
    d["stop"].append(num(r["stop_ms"]) / 1e3)
    wk = (num(r["wall_ns"]) or 0) / 1e9
    d["work"] += wk
    d["tot"] += num(r["start_ms"]) / 1e3 + num(r["stop_ms"]) / 1e3 + wk
if tt:
    L.append("\n## Where the time went (repetitions phase)\n")
    L.append("Per tracer: runs, median start-up and tear-down per run (s), "
             "and the total of start-up + workload + tear-down over all runs (s).\n")
    L.append("| tracer | runs | start s | stop s | workload s (all runs) | total s |")
    L.append("|---|---:|---:|---:|---:|---:|")
    for t in TRACERS:
        d = tt.get(t)
        if d:
            L.append(f"| {t} | {d['n']} | {st.median(d['start']):.2f} | "
                     f"{st.median(d['stop']):.2f} | {d['work']:.0f} | {d['tot']:.0f} |")
    gl = os.path.join(out, "guest.log")
    if os.path.exists(gl):
        ph = [l.split("bench: ", 1)[1].strip() for l in open(gl)
              if l.startswith("bench: phase ") or "guest part done" in l]
        if ph:
            L.append("\nGuest phases: " + "; ".join(ph) + ".")
if os.path.exists(rpath):
    L.append("\n## Reader benchmark (on the host; userspace/bench/reader-bench.sh)\n")
    L.append(open(rpath).read().rstrip())
text = "\n".join(L) + "\n"
open(os.path.join(out, "results.md"), "w").write(text)
print(text)

# Chart: ns/event by tracer, ping-pong and messaging, IQR error bars.
dat = os.path.join(out, "overhead.dat")
chart_tr = [t for t in TRACERS if t != "none"]
with open(dat, "w") as f:
    f.write("tracer")
    for w in ("pingpong", "messaging"):
        f.write(f" {w} {w}_q1 {w}_q3")
    f.write("\n")
    for t in chart_tr:
        f.write(t)
        for w in ("pingpong", "messaging"):
            d = res.get((w, t), {})
            if d.get("ns_ev") is None:
                f.write(" 0 0 0")
            else:
                f.write(f" {d['ns_ev']:.1f} {d['ns_q1']:.1f} {d['ns_q3']:.1f}")
        f.write("\n")
gp = f"""
set terminal pngcairo size 1100,600 font ",11"
set output '{os.path.join(out, "overhead.png")}'
set title "Tracer overhead per event above no tracing (median, IQR bars; 2-vCPU TCG guest)"
set ylabel "ns per event"
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics rotate by -30 nomirror
set grid ytics
set key top left
set yrange [0:*]
plot '{dat}' using 2:3:4:xtic(1) title "ping-pong (per switch / per event)" lc rgb "#3b75af", \\
     '' using 5:6:7 title "messaging" lc rgb "#ef8636"
"""
try:
    subprocess.run(["gnuplot"], input=gp, text=True, check=True)
except (OSError, subprocess.CalledProcessError) as e:
    print(f"analyze: gnuplot failed: {e}", file=sys.stderr)

# Chart 2, the noise-free view: probe cost per sched_switch call (probebench).
mdat = os.path.join(out, "probe.dat")
probe_tr = [t for t in ["null-sched", "fxt-part1", "fxt-part2", "fxt-sched", "fxt-sched-real-s", "fxt-sched-real-d", "fxt-circ", "fxt-armed",
                        "fxt-circ-block", "fxt-armed-block", "bpf-sched", "ftrace-sched",
                        "trace-cmd", "perf-sched", "lttng-sched"] if mres.get(t)]
if probe_tr:
    with open(mdat, "w") as f:
        for t in probe_tr:
            f.write(f"{t} {mres[t]['net']:.1f}\n")
    gp = f"""
set terminal pngcairo size 900,500 font ",11"
set output '{os.path.join(out, "probe.png")}'
set title "Probe cost per sched_switch, in the kernel (bench/probebench; median; TCG guest)" noenhanced
set ylabel "ns per call (loop subtracted)"
set style data histograms
set style fill solid 0.8 border -1
set boxwidth 0.7
set xtics nomirror rotate by -30
set grid ytics
set key off
set yrange [0:*]
plot '{mdat}' using 2:xtic(1) lc rgb "#3b75af", '' using 0:2:(sprintf("%.0f", $2)) with labels offset 0,1 notitle
"""
    try:
        subprocess.run(["gnuplot"], input=gp, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"analyze: gnuplot failed: {e}", file=sys.stderr)

