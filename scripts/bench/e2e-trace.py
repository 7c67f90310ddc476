#!/usr/bin/env python3
"""e2e-trace.py: what the victims of the end-to-end benchmark waited for.

Usage:
  e2e-trace.py TRACE [-o JSON] [--victims BLOCK,HRTIMER] [--require-hardirq]
               [--keep-text FILE.gz]

TRACE is the text of /sys/kernel/tracing/trace that scripts/guest/bench-e2e
wrote to its trace disk (the disk image itself: the text between the lines
E2E-TRACE-BEGIN and E2E-TRACE-END), or a plain trace file. It needs the
events irq:softirq_raise/entry/exit, sched:sched_switch/sched_wakeup and,
for naming who served a vector, irq:irq_handler_exit and the irq_vectors
exits; irq:softirq_bh_stretch (CONFIG_SOFTIRQ_BH_BLAME) names the sections,
timer:hrtimer_start/hrtimer_expire_entry give the soft hrtimers' lateness.

A wait runs from the first raise of a vector on a CPU since that vector
last ran there to the vector's next softirq_entry on that CPU. Each wait of
a victim vector is cut at the events of its CPU, and each piece is put in
the first of these that holds for it:
  b   a softirq handler runs on the CPU ("softirq NET_RX")
  c1  ksoftirqd of the CPU is runnable (woken, or preempted) but does not
      run, or runs between handlers: the ksoftirqd gate of 6.1 keeps
      interrupt exits and local_bh_enable() from serving anything; the
      label names the task that held the CPU
  a   the task on the CPU has BH disabled (the 'b' flag of its last event,
      or of the interrupt that interrupted it): a stretch that holds the
      vector back; named by its section when the kernel traces stretches
  c2  the rest: interrupts off in a task, inside a hard interrupt or its
      exit path, or nothing on the CPU says why (the vCPU not running)
A softirq pass is served by whoever started it: the exit of an interrupt
(the previous event on the CPU was in hard irq context), ksoftirqd, or a
task ending a BH-disabled section (local_bh_enable(), an unlock, the end
of a masked section).

Writes JSON (stdout or -o): events, lost events, span, the victims' raise
contexts, every victim wait with its pieces by category and label and who
served it, raise-to-entry delays of every vector, handler run times per
vector, soft hrtimer lateness, and the stretches per section.
Exit: 0; 1 with --require-hardirq when a victim vector was raised outside
hard interrupt context (the benchmark's victims must be raised as real
devices raise them) or the trace has no victim raise; 2 on bad usage or an
unreadable trace.
"""
from __future__ import annotations

import argparse
import bisect
import gzip
import json
import re
import statistics
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

VECTORS = ["HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET",
           "SCHED", "HRTIMER", "RCU"]
LINE = re.compile(r"^\s*(?P<comm>.*?)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+"
                  r"(?P<flags>\S{4,5})\s+(?P<ts>\d+\.\d+):\s+(?P<ev>\w+):\s?(?P<rest>.*)$")
SWITCH = re.compile(r"prev_comm=(?P<pc>.*) prev_pid=(?P<pp>\d+) prev_prio=\S+ "
                    r"prev_state=(?P<ps>\S+) ==> next_comm=(?P<nc>.*) next_pid=(?P<np>\d+)")
WAKEUP = re.compile(r"comm=(?P<c>.*) pid=(?P<p>\d+) prio=\S+ target_cpu=(?P<t>\d+)")
KSOFTIRQD = re.compile(r"^ksoftirqd/(\d+)$")
# Events that mark the start and the end of a hard interrupt's handler
IRQ_ENTRIES = ("irq_handler_entry", "local_timer_entry", "reschedule_entry",
               "call_function_entry", "call_function_single_entry")
IRQ_EXITS = ("irq_handler_exit", "local_timer_exit", "reschedule_exit",
             "call_function_exit", "call_function_single_exit")


def kv(rest: str) -> dict[str, str]:
    return dict(w.split("=", 1) for w in rest.split() if "=" in w)


def trace_text(path: Path) -> list[str]:
    """The trace's lines, from a disk image (between the markers) or a file."""
    data = path.read_bytes()
    begin = data.find(b"E2E-TRACE-BEGIN\n")
    if begin >= 0:
        end = data.find(b"E2E-TRACE-END\n", begin)
        if end < 0:
            raise ValueError(f"{path}: E2E-TRACE-BEGIN without E2E-TRACE-END (the guest's copy was cut)")
        data = data[begin + len(b"E2E-TRACE-BEGIN\n"):end]
    elif b"\0" in data[:4096]:
        raise ValueError(f"{path}: neither a trace nor a trace disk with E2E-TRACE-BEGIN")
    return data.decode("utf-8", "replace").splitlines()


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    v = sorted(values)
    k = max(1, -(-len(v) * q // 100))
    return v[int(k) - 1]


class Cpu:
    """What the sweep knows about one CPU between two of its events."""

    def __init__(self) -> None:
        self.last: float | None = None  # time of the CPU's last event
        self.comm = "?"           # the task on the CPU
        self.handler: int | None = None  # vector whose handler runs
        self.ksd_waiting = False  # ksoftirqd runnable, not on the CPU
        self.ksd_on = False       # ksoftirqd on the CPU
        self.bh_off = False       # the task has BH disabled
        self.irqs_off = False     # the task has interrupts disabled
        self.in_irq = False       # inside a traced interrupt handler
        self.pass_by = "?"        # who started the softirq pass under way
        self.prev_ev = ""         # the last event and its context
        self.prev_ctx = "."

    def piece(self, ev: str, ctx: str) -> tuple[str, str]:
        """The category of the time from the CPU's last event to @ev."""
        if self.handler is not None:
            return "b", f"softirq {VECTORS[self.handler]}"
        if self.prev_ev == "softirq_exit" and ev == "softirq_entry" and ctx == "s":
            return "b", "softirq pass, between handlers"
        if self.prev_ev in IRQ_EXITS and ev == "softirq_entry" and not self.bh_off:
            return "c2", "interrupt exit path"
        if self.prev_ev == "softirq_bh_stretch" and ev == "softirq_entry":
            return "c2", "section end path"
        if self.ksd_waiting:
            return "c1", f"ksoftirqd waits, CPU held by {self.comm}"
        if self.ksd_on:
            return "c1", "ksoftirqd on the CPU, between handlers"
        if self.in_irq:
            return "c2", "hard interrupt handler"
        if self.bh_off:
            return "a", f"stretch in {self.comm}"
        if self.irqs_off:
            return "c2", f"interrupts off in {self.comm}"
        return "c2", "nothing traced (vCPU absent?)"


def analyse(lines: list[str], victims: list[int]) -> dict[str, Any]:
    cpus: dict[int, Cpu] = defaultdict(Cpu)
    raised: dict[tuple[int, int], dict[str, Any]] = {}   # (cpu, vec) -> open wait
    waits: list[dict[str, Any]] = []
    delays: dict[str, list[float]] = defaultdict(list)
    runs: dict[str, list[float]] = defaultdict(list)
    entry_at: dict[int, tuple[int, float]] = {}
    raise_ctx: dict[str, dict[str, int]] = {VECTORS[v]: defaultdict(int) for v in victims}
    served: dict[str, dict[str, int]] = {VECTORS[v]: defaultdict(int) for v in victims}
    stretches: dict[int, list[tuple[float, float, str, int]]] = defaultdict(list)
    soft: dict[str, int] = {}
    hr_late: list[float] = []
    hr_fn: dict[str, int] = defaultdict(int)
    events = 0
    lost = 0
    first: float | None = None
    last = 0.0
    for line in lines:
        if line.startswith("#"):
            m = re.search(r"entries-in-buffer/entries-written: (\d+)/(\d+)", line)
            if m:
                lost = int(m.group(2)) - int(m.group(1))
            continue
        m = LINE.match(line)
        if not m:
            continue
        events += 1
        c = int(m["cpu"])
        ts = float(m["ts"])
        ev = m["ev"]
        flags = m["flags"]
        ctx = flags[2]
        first = ts if first is None else first
        last = ts
        st = cpus[c]
        # The piece since the CPU's last event belongs to every wait open here
        if st.last is not None and ts > st.last:
            cat, label = st.piece(ev, ctx)
            for v in victims:
                w = raised.get((c, v))
                if w is not None:
                    w["pieces"].append((cat, label, st.last, ts))
        st.last = ts
        comm = m["comm"].strip()
        rest = m["rest"]
        if ev in ("softirq_raise", "softirq_entry", "softirq_exit"):
            v = int(kv(rest).get("vec", -1))
            if not 0 <= v < len(VECTORS):
                continue
            if ev == "softirq_raise":
                if v in victims:
                    kind = "hardirq" if ctx in "hH" else ("softirq" if ctx == "s" else "task")
                    raise_ctx[VECTORS[v]][kind] += 1
                if (c, v) not in raised:
                    raised[(c, v)] = {"cpu": c, "vec": v, "raised": ts,
                                      "ctx": ctx, "comm": comm, "pieces": []}
            elif ev == "softirq_entry":
                new_pass = not (st.prev_ev in ("softirq_exit", "softirq_entry")
                                or st.prev_ctx in "sH")
                if new_pass:
                    if KSOFTIRQD.match(comm):
                        st.pass_by = "ksoftirqd"
                    elif (st.prev_ev in IRQ_EXITS or st.prev_ctx in "hH") and not st.bh_off:
                        # an interrupt that came with BH off cannot serve
                        st.pass_by = "interrupt exit"
                    elif st.prev_ev == "softirq_bh_stretch":
                        st.pass_by = "section end"
                    else:
                        st.pass_by = "BH enable in a task"
                w = raised.pop((c, v), None)
                if w is not None:
                    d = (ts - w["raised"]) * 1e6
                    delays[VECTORS[v]].append(round(d, 2))
                    if v in victims:
                        w["entry"] = ts
                        w["served_by"] = st.pass_by
                        served[VECTORS[v]][st.pass_by] += 1
                        waits.append(w)
                st.handler = v
                entry_at[c] = (v, ts)
            else:
                st.handler = None
                e = entry_at.pop(c, None)
                if e is not None and e[0] == v:
                    runs[VECTORS[v]].append(round((ts - e[1]) * 1e6, 2))
        elif ev == "sched_switch":
            s = SWITCH.search(rest)
            if s:
                pk = KSOFTIRQD.match(s["pc"])
                if pk and int(pk.group(1)) == c:
                    st.ksd_on = False
                    st.ksd_waiting = s["ps"].startswith("R")
                nk = KSOFTIRQD.match(s["nc"])
                if nk and int(nk.group(1)) == c:
                    st.ksd_on = True
                    st.ksd_waiting = False
                st.comm = s["nc"]
                # A task switched in runs with BH and interrupts on
                st.bh_off = st.irqs_off = False
        elif ev == "sched_wakeup":
            s = WAKEUP.search(rest)
            if s:
                k = KSOFTIRQD.match(s["c"])
                if k:
                    t = cpus[int(k.group(1))]
                    if not t.ksd_on:
                        t.ksd_waiting = True
        elif ev == "softirq_bh_stretch":
            f = kv(rest)
            fn = re.sub(r"\+.*", "", f.get("ip", "?"))
            par = re.sub(r"\+.*", "", f.get("parent", ""))
            if (fn == "local_bh_disable" or fn.endswith("_bh")) and par not in ("", "0x0"):
                fn = f"{par}/{fn}"
            try:
                held_s = int(f.get("held_ns", "0")) / 1e9
                masked = int(f.get("masked", "0x3ff"), 16)
            except ValueError:
                held_s, masked = 0.0, 0x3ff
            stretches[c].append((ts - held_s, ts, fn, masked))
        elif ev == "hrtimer_start":
            f = kv(rest)
            if "SOFT" in f.get("mode", "") and re.fullmatch(r"[0-9a-f]+", f.get("hrtimer", "")):
                soft[f["hrtimer"]] = int(f.get("softexpires", "0"))
        elif ev == "hrtimer_expire_entry":
            f = kv(rest)
            h = f.get("hrtimer", "")
            if h in soft:
                hr_late.append(round((int(f.get("now", "0")) - soft.pop(h)) / 1000, 2))
                hr_fn[f.get("function", "?")] += 1
        # The state the event shows, for the pieces that follow it
        if ev in IRQ_ENTRIES:
            st.in_irq = True
        elif ev in IRQ_EXITS:
            st.in_irq = False
        if ev == "sched_switch":
            pass  # its flags are __schedule()'s, not the next task's
        elif ev == "softirq_bh_stretch":
            st.bh_off = False  # the stretch ends here
        elif ctx == ".":
            st.bh_off = flags[0] in "bD"
            st.irqs_off = flags[0] in "dD"
            st.comm = comm
        elif ctx == "h":
            # In hard irq the 'b' flag is the interrupted task's BH state
            st.bh_off = flags[0] in "bD"
            st.comm = comm
        st.prev_ev = ev
        st.prev_ctx = ctx
    # Name the stretch pieces by the traced sections that cover them
    starts = {c: [s[0] for s in sorted(v)] for c, v in stretches.items()}
    ordered = {c: sorted(v) for c, v in stretches.items()}
    out_waits = []
    for w in waits:
        parts: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
        for cat, label, t0, t1 in w["pieces"]:
            us = (t1 - t0) * 1e6
            # A traced section that covers the piece names it (and makes it
            # a stretch where the flags did not show one)
            if (cat == "a" or label.startswith("nothing traced")) and w["cpu"] in ordered:
                mid = (t0 + t1) / 2
                i = bisect.bisect_right(starts[w["cpu"]], mid) - 1
                while i >= 0:
                    s0, s1, fn, masked = ordered[w["cpu"]][i]
                    if s1 >= mid:
                        if masked >> w["vec"] & 1:
                            cat, label = "a", f"stretch {fn}"
                        elif cat == "a":
                            label = f"stretch {fn} (lets it through)"
                        break
                    if mid - s0 > 0.1:
                        break
                    i -= 1
            parts[cat][label] += us
        out_waits.append({
            "vec": VECTORS[w["vec"]], "cpu": w["cpu"], "raised": round(w["raised"], 6),
            "us": round((w["entry"] - w["raised"]) * 1e6, 2),
            "ctx": {"h": "hardirq", "H": "hardirq", "s": "softirq"}.get(w["ctx"], "task"),
            "by": w["served_by"],
            "parts": {cat: {k: round(x, 2) for k, x in lab.items()} for cat, lab in parts.items()},
        })
    held: dict[str, list[float]] = defaultdict(list)
    for per_cpu in stretches.values():
        for s0, s1, fn, _ in per_cpu:
            held[fn].append((s1 - s0) * 1e6)
    top = sorted(held.items(), key=lambda kvp: -sum(kvp[1]))[:15]
    return {
        "events": events, "lost": lost,
        "span_s": round((last - first), 3) if first is not None else 0,
        "cpus": sorted(cpus),
        "victims": [VECTORS[v] for v in victims],
        "raise_ctx": {k: dict(v) for k, v in raise_ctx.items()},
        "served_by": {k: dict(v) for k, v in served.items()},
        "waits": out_waits,
        "delays": {k: v for k, v in delays.items()},
        "handler_runs": {k: {"n": len(v), "p50_us": pct(v, 50), "p99_us": pct(v, 99),
                             "max_us": max(v)} for k, v in runs.items() if v},
        "hrtimer_late_us": hr_late,
        "hrtimer_fn": dict(hr_fn),
        "stretches": [{"fn": fn, "n": len(v), "total_us": round(sum(v), 1),
                       "p50_us": round(statistics.median(v), 1), "max_us": round(max(v), 1)}
                      for fn, v in top],
    }


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("trace", type=Path)
    ap.add_argument("-o", "--output", type=Path)
    ap.add_argument("--victims", default="BLOCK,HRTIMER")
    ap.add_argument("--require-hardirq", action="store_true")
    ap.add_argument("--keep-text", type=Path, help="write the trace's text here, gzipped")
    args = ap.parse_args(argv)
    victims = []
    for name in args.victims.split(","):
        if name not in VECTORS:
            print(f"e2e-trace: unknown vector '{name}' in --victims (one of {', '.join(VECTORS)})",
                  file=sys.stderr)
            return 2
        victims.append(VECTORS.index(name))
    try:
        lines = trace_text(args.trace)
    except (OSError, ValueError) as e:
        print(f"e2e-trace: cannot read the trace: {e}", file=sys.stderr)
        return 2
    if args.keep_text:
        with gzip.open(args.keep_text, "wt") as f:
            f.write("\n".join(lines) + "\n")
    res = analyse(lines, victims)
    text = json.dumps(res, separators=(",", ":"))
    if args.output:
        args.output.write_text(text + "\n")
    else:
        print(text)
    status = 0
    if args.require_hardirq:
        for name in res["victims"]:
            ctx = res["raise_ctx"].get(name, {})
            total = sum(ctx.values())
            other = total - ctx.get("hardirq", 0)
            if total == 0:
                print(f"e2e-trace: no {name} raise in the trace: the victim did not run", file=sys.stderr)
                status = 1
            elif other:
                print(f"e2e-trace: {other} of {total} {name} raises outside hard interrupt context "
                      f"({dict(ctx)}): the victim is not raised as a device raises it", file=sys.stderr)
                status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
