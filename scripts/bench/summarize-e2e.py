#!/usr/bin/env python3
"""summarize-e2e.py: the tables and plots of the end-to-end benchmark.

Usage:
  summarize-e2e.py OUTDIR --run LABEL=CONSOLE [--run LABEL=CONSOLE ...]
                   [--blame CONSOLE] [--base LABEL] [--conv LABEL]
                   [--hz N] [--conditions TEXT] [--no-plots]

Each --run is one boot of one kernel (scripts/guest/bench-e2e in the
console); several --run with the same LABEL are that kernel's rounds.
Per round it takes BLOCK read latency (softirq-victims), soft hrtimer
lateness, timer_list lateness, raise-to-entry delay per vector and network
throughput (guest-traffic); per kernel it gives the median of the rounds
and their range. --blame is the console of the tracing kernel
(CONFIG_SOFTIRQ_BH_BLAME): who each vector waited behind, and the longest
BH-disabled stretches of task context. The target (issue 15) compares
--conv with --base in the same run: BLOCK p99 at least 10x lower, soft
hrtimer p99 lower, throughput within 5%.

Writes OUTDIR/e2e.md and, unless --no-plots or gnuplot is missing,
OUTDIR/e2e-block-cdf.png, e2e-hrtimer-cdf.png and e2e-throughput.png.
Exit: 0 when every run is complete, 1 when one is not (the file says
which), 2 on bad usage.
"""
from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence
from pathlib import Path

VECTORS = ["HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET",
           "SCHED", "HRTIMER", "RCU"]
STAMP = re.compile(r"^\[ *[0-9.]+\] ")


def fields(line: str) -> dict[str, str]:
    return dict(w.split("=", 1) for w in line.split() if "=" in w)


def pct(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of a non-empty list."""
    v = sorted(values)
    k = max(1, -(-len(v) * q // 100))
    return v[int(k) - 1]


@dataclass
class Run:
    label: str
    path: str
    ended: bool = False
    block_us: list[float] = field(default_factory=list)
    block: dict[str, str] = field(default_factory=dict)
    paced: dict[str, str] = field(default_factory=dict)
    hrtimer_us: list[float] = field(default_factory=list)
    hrtimer_fn: dict[str, int] = field(default_factory=dict)
    timer_late: dict[int, int] = field(default_factory=dict)
    latency: dict[str, dict[str, str]] = field(default_factory=dict)
    softirqs: dict[str, int] = field(default_factory=dict)
    traffic: dict[str, dict[str, str]] = field(default_factory=dict)
    blame: dict[str, list[tuple[str, float]]] = field(default_factory=dict)
    held: list[dict[str, str]] = field(default_factory=list)
    tracing: dict[str, str] = field(default_factory=dict)

    def tcp_mbps(self) -> float | None:
        vals = [float(t["MBps"]) for t in self.traffic.values() if "MBps" in t]
        return sum(vals) if vals else None

    def udp_bytes(self) -> int | None:
        vals = [int(t["received"]) for t in self.traffic.values()
                if "MBps" not in t and t.get("received", "").isdigit()]
        return sum(vals) if vals else None

    def timer_p99_jiffies(self) -> float | None:
        flat = [float(j) for j, n in self.timer_late.items() for _ in range(n)]
        return pct(flat, 99) if flat else None


def parse(label: str, path: str) -> Run:
    run = Run(label, path)
    for raw in Path(path).read_text(errors="replace").splitlines():
        line = STAMP.sub("", raw.strip())
        f = fields(line)
        if line.startswith("BENCH-E2E-END"):
            run.ended = True
        elif line.startswith("VICTIMS block-us "):
            run.block_us += [float(x) for x in line.split()[2:]]
        elif line.startswith("VICTIMS block "):
            run.block = f
        elif line.startswith("VICTIMS paced "):
            run.paced = f
        elif line.startswith("BENCH-E2E hrtimer-us "):
            run.hrtimer_us += [float(x) for x in line.split()[2:]]
        elif line.startswith("BENCH-E2E hrtimer fn="):
            run.hrtimer_fn[f["fn"]] = int(f["n"])
        elif line.startswith("BENCH-E2E timer-late "):
            run.timer_late[int(f["jiffies"])] = int(f["n"])
        elif line.startswith("BENCH-E2E latency "):
            run.latency[f["vec"]] = f
        elif line.startswith("BENCH-E2E softirqs "):
            run.softirqs[f["vec"]] = int(f["count"])
        elif line.startswith("BENCH-E2E blame "):
            run.blame.setdefault(f["vec"], []).append((f["label"], float(f["us"])))
        elif line.startswith("BENCH-E2E held "):
            run.held.append(f)
        elif line.startswith("BENCH-E2E tracing="):
            run.tracing = f
        elif line.startswith("TRAFFIC path=") and "proto" in f:
            run.traffic[f"{f['path']}/{f['proto']}"] = f
    return run


def problems(run: Run) -> list[str]:
    out = []
    where = f"{run.label} ({run.path})"
    if not run.ended:
        out.append(f"{where}: no BENCH-E2E-END line (the guest did not finish the plan)")
    if not run.block_us:
        out.append(f"{where}: no BLOCK read latencies (VICTIMS block-us)")
    elif run.block.get("errors", "0") != "0":
        out.append(f"{where}: {run.block['errors']} BLOCK reads failed")
    if not run.paced or int(run.paced.get("bytes", "0")) <= 0:
        out.append(f"{where}: the paced TCP flow moved no data (no soft hrtimer load)")
    if not run.traffic:
        out.append(f"{where}: no TRAFFIC lines (no network load)")
    return out


def spread(values: list[float], digits: int = 1) -> str:
    """Median of the rounds and their range."""
    if not values:
        return "-"
    med = statistics.median(values)
    if len(values) == 1:
        return f"{med:.{digits}f}"
    return f"{med:.{digits}f} [{min(values):.{digits}f}-{max(values):.{digits}f}]"


def at(attr: str, q: float) -> Callable[[Run], float | None]:
    """The q-th percentile of a run's samples in field attr, or None."""
    def get(r: Run) -> float | None:
        vals: list[float] = getattr(r, attr)
        return pct(vals, q) if vals else None
    return get


def median_or_none(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def per_round(runs: list[Run], get: Callable[[Run], float | int | str | None]) -> list[float]:
    vals = []
    for r in runs:
        v = get(r)
        if v is not None:
            vals.append(float(v))
    return vals


def stat_rows(kernels: dict[str, list[Run]], hz: int | None) -> list[tuple[str, dict[str, list[float]]]]:
    rows: list[tuple[str, dict[str, list[float]]]] = []

    def add(name: str, get: Callable[[Run], float | int | str | None]) -> None:
        rows.append((name, {k: per_round(rs, get) for k, rs in kernels.items()}))

    for q, qn in ((50, "p50"), (99, "p99"), (99.9, "p99.9"), (100, "max")):
        add(f"BLOCK read latency {qn}, µs", at("block_us", q))
    for q, qn in ((50, "p50"), (99, "p99"), (100, "max")):
        add(f"soft hrtimer lateness {qn}, µs", at("hrtimer_us", q))
    unit = "ms" if hz else "jiffies"
    scale = 1000.0 / hz if hz else 1.0

    def timer_p99(r: Run) -> float | None:
        j = r.timer_p99_jiffies()
        return None if j is None else j * scale

    def udp_mb(r: Run) -> float | None:
        b = r.udp_bytes()
        return None if b is None else b / 1e6

    add(f"timer_list lateness p99, {unit}", timer_p99)
    add("TCP throughput, MB/s (sum of paths)", lambda r: r.tcp_mbps())
    add("UDP received, MB (sum of paths)", udp_mb)
    add("paced flow received, KB",
        lambda r: int(r.paced["bytes"]) / 1e3 if int(r.paced.get("bytes", "0")) > 0 else None)
    add("NET_RX softirqs served", lambda r: r.softirqs.get("NET_RX"))
    return rows


def raise_rows(kernels: dict[str, list[Run]]) -> list[tuple[str, dict[str, list[float]]]]:
    rows = []
    seen = {v for rs in kernels.values() for r in rs for v in r.latency}
    for vec in [v for v in VECTORS if v in seen]:
        def p99(r: Run, vec: str = vec) -> str | None:
            return r.latency.get(vec, {}).get("p99_us")
        rows.append((f"{vec} raise-to-entry p99, µs",
                     {k: per_round(rs, p99) for k, rs in kernels.items()}))
    return rows


def target_lines(kernels: dict[str, list[Run]], base: str, conv: str) -> list[str]:
    if base not in kernels or conv not in kernels:
        return [f"- not judged: the run has no kernel '{base}' or '{conv}'"]
    b, c = kernels[base], kernels[conv]
    out = []
    bb = median_or_none(per_round(b, at("block_us", 99)))
    cb = median_or_none(per_round(c, at("block_us", 99)))
    if bb and cb:
        ratio = bb / cb
        verdict = "met" if ratio >= 10 else f"missed: {ratio:.2f}x, {10 / ratio:.1f} times short of 10x"
        out.append(f"- BLOCK p99 {base} / {conv} = {bb:.1f} / {cb:.1f} µs = {ratio:.2f}x "
                   f"(target at least 10x lower): {verdict}")
    else:
        out.append("- BLOCK p99: not judged (no BLOCK samples on one side)")
    bh = median_or_none(per_round(b, at("hrtimer_us", 99)))
    ch = median_or_none(per_round(c, at("hrtimer_us", 99)))
    if bh is not None and ch is not None:
        out.append(f"- soft hrtimer lateness p99 {base} / {conv} = {bh:.1f} / {ch:.1f} µs "
                   f"(target lower): {'met' if ch < bh else 'missed'}")
    else:
        out.append("- soft hrtimer lateness: not judged (no soft hrtimer samples on one side)")
    bt = median_or_none(per_round(b, lambda r: r.tcp_mbps()))
    ct = median_or_none(per_round(c, lambda r: r.tcp_mbps()))
    if bt and ct is not None:
        change = (ct - bt) / bt * 100
        out.append(f"- TCP throughput {base} / {conv} = {bt:.2f} / {ct:.2f} MB/s ({change:+.1f}%, "
                   f"target within 5%): {'met' if abs(change) <= 5 else 'missed'}")
    else:
        out.append("- throughput: not judged (no TCP figures on one side)")
    return out


def why_lines(blame: Run) -> list[str]:
    """What per-vector masking could win at most, from the tracing kernel's
    blame: only the wait behind BH-disabled stretches of task context can
    shrink when sections mask fewer vectors; the wait behind other vectors'
    handlers and "elsewhere" (ksoftirqd not yet on the CPU, interrupts off)
    stays.  The blame lists a vector's largest causes only, so the shares
    are of the listed wait."""
    out = []
    for vec in ("BLOCK", "HRTIMER"):
        items = blame.blame.get(vec)
        total = sum(us for _, us in items or [])
        if not items or total <= 0:
            out.append(f"- why, {vec}: no blame for it in the tracing boot")
            continue
        share = {kind: sum(us for label, us in items if label.startswith(kind)) / total
                 for kind in ("stretch_", "softirq_", "elsewhere")}
        bound = 1 / (1 - share["stretch_"]) if share["stretch_"] < 1 else float("inf")
        out.append(f"- why, {vec} (tracing boot, raise-to-entry wait): "
                   f"{share['stretch_'] * 100:.1f}% behind BH-disabled stretches of task context, "
                   f"{share['softirq_'] * 100:.1f}% behind other vectors' handlers, "
                   f"{share['elsewhere'] * 100:.1f}% elsewhere (ksoftirqd not yet running, interrupts off); "
                   f"masking every stretch would cut this wait by at most {bound:.2f}x")
    return out


def table(rows: list[tuple[str, dict[str, list[float]]]], labels: list[str]) -> list[str]:
    out = ["| | " + " | ".join(labels) + " |", "|---|" + "---|" * len(labels)]
    for name, per in rows:
        if not any(per.get(k) for k in labels):
            continue
        digits = 0 if "served" in name else (2 if "MB" in name else 1)
        out.append(f"| {name} | " + " | ".join(spread(per.get(k, []), digits) for k in labels) + " |")
    return out


def is_wrapper(label: str) -> bool:
    """A stretch label that is an out-of-line wrapper with no caller: the
    rule scripts/guest/e2e-trace-stats names CALLER/WRAPPER by."""
    return "/" not in label and (label == "local_bh_disable" or label.endswith("_bh"))


def blame_section(run: Run) -> list[str]:
    out = [f"Kernel: {run.label} ({Path(run.path).name}); tracing: "
           + " ".join(f"{k}={v}" for k, v in run.tracing.items()), ""]
    if run.tracing.get("stretches") != "yes":
        out += ["This kernel has no softirq_bh_stretch tracepoint: waits behind BH-disabled "
                "sections of task context show as 'elsewhere'.", ""]
    for vec in [v for v in VECTORS if v in run.blame]:
        items = sorted(run.blame[vec], key=lambda x: -x[1])
        total = sum(us for _, us in items)
        out += [f"### {vec}: what it waited behind (12 largest, µs summed over the run)", "",
                "| behind | µs | share of the listed wait |", "|---|---|---|"]
        for label, us in items:
            out.append(f"| {label.replace('_', ' ', 1)} | {us:.0f} | {us / total * 100:.1f}% |")
        out.append("")
    if run.held:
        out += ["### BH-disabled stretches of task context, by total time held", "",
                "| function that disabled BH | stretches | total µs | longest µs |",
                "|---|---|---|---|"]
        for h in run.held:
            out.append(f"| {h['label']} | {h['n']} | {float(h['total_us']):.0f} | {float(h['max_us']):.0f} |")
        out.append("")
        if any("/" in h["label"] for h in run.held):
            out += ["`a/b`: the stretch began in `b`, an out-of-line copy of a static inline "
                    "wrapper, called from `a`.", ""]
        bare = [h["label"] for h in run.held if is_wrapper(h["label"])]
        if bare:
            out += [f"Not named: {', '.join(bare)} (the kernel gave no caller; it needs "
                    "frame pointers, see build-e2e-kernels.sh).", ""]
    return out


def gnuplot_ok() -> bool:
    if not shutil.which("gnuplot"):
        return False
    res = subprocess.run(["gnuplot", "-e", "set terminal"], capture_output=True, text=True)
    return "pngcairo" in res.stdout + res.stderr


def write_cdf(kernels: dict[str, list[Run]], get: Callable[[Run], Iterable[float]], title: str, xlabel: str, png: Path) -> bool:
    series = {k: sorted(v for r in rs for v in get(r)) for k, rs in kernels.items()}
    series = {k: v for k, v in series.items() if v}
    if not series:
        return False
    with tempfile.TemporaryDirectory() as tmp:
        plots = []
        for i, (k, vals) in enumerate(series.items()):
            dat = Path(tmp) / f"{i}.dat"
            n = len(vals)
            dat.write_text("".join(f"{v} {(j + 1) / n}\n" for j, v in enumerate(vals)))
            plots.append(f"'{dat}' using 1:2 with steps lw 2 title '{k} (n={n})'")
        script = (f"set terminal pngcairo size 900,550; set output '{png}';"
                  f"set title '{title}' noenhanced; set xlabel '{xlabel}'; set ylabel 'fraction of samples';"
                  "set logscale x; set grid; set key bottom right;"
                  "plot " + ", ".join(plots))
        subprocess.run(["gnuplot", "-e", script], check=True)
    return True


def write_bars(kernels: dict[str, list[Run]], png: Path) -> bool:
    with tempfile.TemporaryDirectory() as tmp:
        dat = Path(tmp) / "t.dat"
        lines = []
        for k, rs in kernels.items():
            vals = per_round(rs, lambda r: r.tcp_mbps())
            if vals:
                lines.append(f'"{k}" {statistics.median(vals)} {min(vals)} {max(vals)}')
        if not lines:
            return False
        dat.write_text("\n".join(lines) + "\n")
        script = (f"set terminal pngcairo size 700,450; set output '{png}';"
                  "set title 'TCP throughput under load (median of rounds, range)';"
                  "set ylabel 'MB/s (sum of paths)'; set style fill solid 0.5; set boxwidth 0.6;"
                  "set yrange [0:*]; set grid ytics;"
                  f"plot '{dat}' using 0:2:xtic(1) with boxes notitle,"
                  f" '' using 0:2:3:4 with yerrorbars lc rgb 'black' notitle")
        subprocess.run(["gnuplot", "-e", script], check=True)
    return True


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir")
    ap.add_argument("--run", action="append", default=[], metavar="LABEL=CONSOLE")
    ap.add_argument("--blame", metavar="CONSOLE")
    ap.add_argument("--base", default="base")
    ap.add_argument("--conv", default="net")
    ap.add_argument("--hz", type=int)
    ap.add_argument("--conditions", default="")
    ap.add_argument("--no-plots", action="store_true")
    args = ap.parse_args(argv)
    if not args.run:
        print("summarize-e2e: give at least one --run LABEL=CONSOLE", file=sys.stderr)
        return 2
    kernels: dict[str, list[Run]] = {}
    try:
        for spec in args.run:
            label, sep, path = spec.partition("=")
            if not sep or not label:
                print(f"summarize-e2e: '{spec}' is not LABEL=CONSOLE", file=sys.stderr)
                return 2
            kernels.setdefault(label, []).append(parse(label, path))
        blame = parse("blame", args.blame) if args.blame else None
    except OSError as err:
        print(f"summarize-e2e: {err}", file=sys.stderr)
        return 2
    bad = [p for rs in kernels.values() for r in rs for p in problems(r)]
    if blame is not None and not blame.ended:
        bad.append(f"blame ({blame.path}): no BENCH-E2E-END line")
    labels = list(kernels)
    rounds = ", ".join(f"{k}: {len(rs)}" for k, rs in kernels.items())
    out = ["# Per-vector softirq masking, end to end: other vectors under network load", ""]
    if args.conditions:
        out += [args.conditions, ""]
    out += [f"Rounds per kernel: {rounds}. Each cell: median of the rounds [range]; "
            "percentiles are per round.", "", "## Target (issue 15)", ""]
    out += target_lines(kernels, args.base, args.conv)
    if blame is not None:
        out += why_lines(blame)
    out += [""]
    out += ["## Victims and load", ""] + table(stat_rows(kernels, args.hz), labels) + [""]
    out += ["## Raise-to-entry delay (irq:softirq_raise to softirq_entry), per vector", ""]
    out += table(raise_rows(kernels), labels) + [""]
    if blame is not None:
        out += ["## Who the vectors waited behind (tracing kernel)", ""] + blame_section(blame)
    plots = []
    outdir = Path(args.outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    if not args.no_plots and gnuplot_ok():
        if write_cdf(kernels, lambda r: r.block_us, "BLOCK: O_DIRECT 4 KiB read latency under network load",
                     "µs (log)", outdir / "e2e-block-cdf.png"):
            plots.append("e2e-block-cdf.png")
        if write_cdf(kernels, lambda r: [max(v, 0.1) for v in r.hrtimer_us],
                     "soft hrtimer lateness (expiry to callback) under network load",
                     "µs (log; <=0.1 shown as 0.1)", outdir / "e2e-hrtimer-cdf.png"):
            plots.append("e2e-hrtimer-cdf.png")
        if write_bars(kernels, outdir / "e2e-throughput.png"):
            plots.append("e2e-throughput.png")
    if plots:
        out += ["## Plots", ""] + [f"![{p}]({p})" for p in plots] + [""]
    if bad:
        out += ["## Problems in this run", ""] + [f"- {b}" for b in bad] + [""]
    md = "\n".join(out)
    (outdir / "e2e.md").write_text(md)
    print(md, end="")
    for b in bad:
        print(f"summarize-e2e: {b}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
