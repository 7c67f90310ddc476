#!/usr/bin/env python3
"""Summarize the softirq-mask benchmarks from saved console logs.

Usage:
  summarize-bench.py micro CONSOLE OUTDIR [--expect-d "10 100 1000"]
        [--expect-rounds N] [--conditions TEXT] [--no-plots]
        [--base-console FILE] [--icount-console FILE]
        [--base-icount-console FILE] [--sizes FILE]

micro reads the "BENCH ..." lines of the boot-time benchmark
(kernel/softirq_mask_bench.c, scripts/bench/) and writes OUTDIR/bench.md
(overhead ratios and latency percentiles: medians over rounds with their
min-max spread), OUTDIR/data/*.dat and, with gnuplot, OUTDIR/overhead.png and
OUTDIR/latency-VEC.png.  CONSOLE is the series' kernel; --base-console is
pristine 6.1 with the same benchmark (all-vector API only), whose pairs and
deferral figures are then set side by side with the series'.  The
--icount consoles come from boots under QEMU -icount shift=0 with a 1 GHz
TSC, where a nanosecond of guest time is one instruction: their overhead
lines give instructions per pair.  --sizes is a text file of object sizes
(scripts/bench/object-sizes.sh) included as it is.  The end-to-end benchmark has its own summarizer,
scripts/bench/summarize-e2e.py.

Exit: 0 when every expected line is present and sane, 1 when lines are
missing or a figure is not sane (the reasons are printed), 2 on bad usage or
an unreadable log.
"""
from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

# printk prefix "[   12.345678] " is optional: the parser runs on any log.
PREFIX = re.compile(r"^(?:\[\s*\d+\.\d+\]\s*)?")
KV = re.compile(r"(\w+)=(\S+)")
APIS = ("spin_lock_bh", "spin_lock_bh_mask", "local_bh_disable", "local_bh_disable_mask")
PLAIN_APIS = ("spin_lock_bh", "local_bh_disable")
PATHS = ("idle", "pending")
DEF_VECS = ("BLOCK", "HRTIMER")
DEF_CLASSES = ("task", "handler", "other")
PAIRS = (("spin_lock_bh_mask", "spin_lock_bh"), ("local_bh_disable_mask", "local_bh_disable"))
MODES = ("none", "bh", "mask")
VECS = ("HRTIMER", "TASKLET")


def strip(line: str) -> str:
    """The line without the printk timestamp and trailing blanks."""
    return PREFIX.sub("", line.rstrip("\r\n"), count=1)


def fields(line: str) -> dict[str, str]:
    return dict(KV.findall(line))


@dataclass
class Spread:
    """Median of a list of values and its min-max range."""

    values: list[float]

    @property
    def median(self) -> float:
        return statistics.median(self.values)

    def fmt(self, scale: float = 1.0, digits: int = 1) -> str:
        lo, hi = min(self.values) / scale, max(self.values) / scale
        return f"{self.median / scale:.{digits}f} [{lo:.{digits}f}-{hi:.{digits}f}]"


@dataclass
class Micro:
    """What one boot of the benchmark kernel printed."""

    start: dict[str, str] = field(default_factory=dict)
    end: dict[str, str] | None = None
    # (api, path) -> round -> ns per pair; path "idle" for logs without one
    paths: dict[tuple[str, str], dict[int, float]] = field(default_factory=dict)
    # (mode, vec, class) -> list of per-round figure dicts
    deferral: dict[tuple[str, str, str], list[dict[str, int]]] = field(default_factory=dict)
    # per round: the competitor's share of the CPU under the flood, in percent
    hog_share: list[int] = field(default_factory=list)
    # (vec, mode, d_us) -> list of per-round figure dicts
    latency: dict[tuple[str, str, int], list[dict[str, int]]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)


def parse_micro(text: str) -> Micro:
    res = Micro()
    for raw in text.splitlines():
        line = strip(raw)
        if line.startswith("BENCH-START "):
            res.start = fields(line)
        elif line.startswith("BENCH-END"):
            res.end = fields(line)
        elif line.startswith("BENCH overhead "):
            f = fields(line)
            ns = int(f["total_ns"]) / max(int(f["iters"]), 1)
            path = f.get("path", "idle")
            res.paths.setdefault((f["api"], path), {})[int(f["round"])] = ns
        elif line.startswith("BENCH deferral "):
            f = fields(line)
            if "error" in f:
                res.errors.append(line)
                continue
            nums = {k: int(v) for k, v in f.items() if k.endswith("_ns") or k in ("n", "round")}
            res.deferral.setdefault((f["mode"], f["vec"], f["class"]), []).append(nums)
        elif line.startswith("BENCH deferral-load "):
            res.hog_share.append(int(fields(line)["hog_share_pct"]))
        elif line.startswith("BENCH latency "):
            f = fields(line)
            if "error" in f:
                res.errors.append(line)
                continue
            key = (f["vec"], f["mode"], int(f["D_us"]))
            nums = {k: int(v) for k, v in f.items() if k.endswith("_ns") or k in ("n", "round")}
            res.latency.setdefault(key, []).append(nums)
    return res


def check_micro(res: Micro, want_d: list[int], want_rounds: int | None,
                mask: bool = True) -> list[str]:
    """Reasons why the run is incomplete or not sane; empty when fine.
    mask=False: a kernel without the mask API (pristine 6.1)."""
    bad: list[str] = list(res.errors)
    if not res.start:
        bad.append("no BENCH-START line (benchmark not built in, or not asked for)")
    if res.end is None:
        bad.append("no BENCH-END line (the benchmark did not finish)")
    elif res.end.get("errors", "0") != "0":
        bad.append(f"BENCH-END reports errors={res.end.get('errors')}")
    rounds = want_rounds or int(res.start.get("rounds", "0") or 0)
    run = res.start.get("run", "overhead,latency")
    apis = APIS if mask else PLAIN_APIS
    paths = sorted({p for (_, p) in res.paths}) or ["idle"]
    if "overhead" in run:
        for api in apis:
            for path in paths:
                got = res.paths.get((api, path), {})
                if len(got) < rounds or not got:
                    bad.append(f"overhead {api} ({path}): {len(got)} rounds, expected {rounds}")
                if any(v <= 0 or v > 1e6 for v in got.values()):
                    bad.append(f"overhead {api} ({path}): implausible ns per pair {sorted(got.values())}")
    if "latency" in run:
        modes = ("bh", "mask") if mask else ("bh",)
        for vec in VECS:
            keys = [(vec, "none", 0)] + [(vec, m, d) for d in want_d for m in modes]
            for key in keys:
                runs = res.latency.get(key, [])
                if len(runs) < max(rounds, 1):
                    bad.append(f"latency {' '.join(map(str, key))}: {len(runs)} rounds, expected {rounds}")
                for r in runs:
                    if not (0 < r["n"] and r["min_ns"] <= r["p50_ns"] <= r["p99_ns"] <= r["max_ns"]):
                        bad.append(f"latency {' '.join(map(str, key))}: figures out of order {r}")
    if "deferral" in run:
        for vec in DEF_VECS:
            floor = [r for c in DEF_CLASSES for r in res.deferral.get(("floor", vec, c), [])]
            if len({r["round"] for r in floor}) < max(rounds, 1):
                bad.append(f"deferral floor {vec}: samples in {len({r['round'] for r in floor})} rounds, expected {rounds}")
            load = res.deferral.get(("load", vec, "task"), [])
            if not load:
                bad.append(f"deferral load {vec}: no raise landed while the competing task ran")
        for dkey, druns in res.deferral.items():
            for r in druns:
                if not (0 < r["n"] and r["p50_ns"] <= r["p99_ns"] <= r["max_ns"]):
                    bad.append(f"deferral {' '.join(dkey)}: figures out of order {r}")
        if len(res.hog_share) < max(rounds, 1):
            bad.append(f"deferral: competitor share in {len(res.hog_share)} rounds, expected {rounds}")
    return bad


def ratio_rows(res: Micro) -> list[tuple[str, str, str, Spread, Spread, Spread]]:
    """Per pair and path: mask API, plain API, path, ns of each, and the
    per-round ratio."""
    rows = []
    for path in PATHS:
        for mask, plain in PAIRS:
            m, p = res.paths.get((mask, path), {}), res.paths.get((plain, path), {})
            common = sorted(set(m) & set(p))
            if not common:
                continue
            ratios = [m[r] / p[r] for r in common]
            rows.append((mask, plain, path, Spread([m[r] for r in common]),
                         Spread([p[r] for r in common]), Spread(ratios)))
    return rows


def micro_markdown(res: Micro, conditions: str, want_d: list[int]) -> str:
    out = ["# Per-vector softirq masking: micro-benchmarks", ""]
    if conditions:
        out += [conditions, ""]
    s = res.start
    out += [f"Parameters: rounds={s.get('rounds', '?')}, iterations per variant and round="
            f"{s.get('iters', '?')}, latency samples per run={s.get('samples', '?')}, "
            f"guest CPUs={s.get('cpus', '?')}, HZ={s.get('hz', '?')}. "
            "Figures are medians over rounds, [min-max] over rounds.", ""]
    out += ["## API overhead (uncontended, mask = NET_RX)", "",
            "| mask API | end | ns/pair | all-vector API | ns/pair | ratio mask/all | within 10% |",
            "|---|---|---|---|---|---|---|"]
    for mask, plain, path, mns, pns, ratio in ratio_rows(res):
        ok = "yes" if ratio.median <= 1.10 else "no"
        out.append(f"| {mask} | {path} | {mns.fmt()} | {plain} | {pns.fmt()} | {ratio.fmt(digits=3)} | {ok} |")
    out += ["", "Both pairs of the series' kernel. `idle`: nothing pending at the end of the",
            "section; `pending`: HI raised inside it. The ratio is taken per round (the",
            "variants run interleaved in every round), then the median and range over",
            "rounds are reported.", ""]
    out += ["## Delay from raising a vector to its handler, while a kthread holds sections of D",
            "", "Mode `bh`: spin_lock_bh() (all vectors held back); `mask`: spin_lock_bh_mask()",
            "with NET_RX only; `none`: the kthread spins without a section (the floor).",
            "HRTIMER: soft hrtimer, expiry to callback; TASKLET: tasklet_schedule() from a",
            "hard hrtimer callback to the tasklet. Times in microseconds.", "",
            "| vector | D (µs) | mode | p50 | p99 | max | samples |", "|---|---|---|---|---|---|---|"]
    for vec in VECS:
        for d in [0] + want_d:
            for mode in (("none",) if d == 0 else ("bh", "mask")):
                runs = res.latency.get((vec, mode, d), [])
                if not runs:
                    continue
                cells = [Spread([float(r[k]) for r in runs]).fmt(1000.0)
                         for k in ("p50_ns", "p99_ns", "max_ns")]
                n = sum(r["n"] for r in runs)
                out.append(f"| {vec} | {d if d else '-'} | {mode} | {' | '.join(cells)} | {n} |")
    return "\n".join(out) + "\n"


def spread_of(d: dict[int, float] | None) -> Spread | None:
    return Spread(list(d.values())) if d else None


def pristine_markdown(core: Micro, base: Micro | None, icore: Micro | None,
                      ibase: Micro | None) -> list[str]:
    """The pairs of the series against pristine 6.1's all-vector pair."""
    if base is None:
        return []
    out = ["## Against pristine 6.1", "",
           "Three kernels of the same run, same configuration: pristine 6.1 with the",
           "benchmark (all-vector API only), the series with its all-vector pair (what",
           "every existing caller pays) and with its mask pair (NET_RX). `idle`: nothing",
           "pending when the section ends; `pending`: HI raised inside the section, so",
           "its end runs softirqs. ns per pair: median over rounds [min-max]; the",
           "kernels boot one after the other, so ratios are of medians. Instructions",
           "per pair: the same loops under QEMU -icount shift=0 (one guest nanosecond",
           "per instruction), median over rounds; a call and a `ret` cost an",
           "instruction each there, but a `ret` is slow under TCG, so the ns",
           "figures overweight calls.", "",
           "| pair | end | pristine all-vector ns | series all-vector ns | series mask ns "
           "| series all / pristine (target <= 1.02) | mask / pristine all (target <= 1.05) "
           "| instructions: pristine / series all / mask |",
           "|---|---|---|---|---|---|---|---|"]
    for plain, mask in (("spin_lock_bh", "spin_lock_bh_mask"),
                        ("local_bh_disable", "local_bh_disable_mask")):
        for path in PATHS:
            p = spread_of(base.paths.get((plain, path)))
            a = spread_of(core.paths.get((plain, path)))
            m = spread_of(core.paths.get((mask, path)))
            if not (p and a and m):
                continue
            ra, rm = a.median / p.median, m.median / p.median
            ins = []
            for src, api in ((ibase, plain), (icore, plain), (icore, mask)):
                sp = spread_of(src.paths.get((api, path))) if src else None
                ins.append(f"{sp.median:.0f}" if sp else "-")
            out.append(f"| {plain} | {path} | {p.fmt()} | {a.fmt()} | {m.fmt()} "
                       f"| {ra:.3f} {'yes' if ra <= 1.02 else 'no'} "
                       f"| {rm:.3f} {'yes' if rm <= 1.05 else 'no'} | {' / '.join(ins)} |")
    return out + [""]


def floor_runs(res: Micro, vec: str) -> list[dict[str, int]]:
    """Per round, the floor figures of the class with the most samples."""
    best: dict[int, dict[str, int]] = {}
    for c in DEF_CLASSES:
        for r in res.deferral.get(("floor", vec, c), []):
            if r["round"] not in best or r["n"] > best[r["round"]]["n"]:
                best[r["round"]] = r
    return [best[k] for k in sorted(best)]


def deferral_markdown(kernels: list[tuple[str, Micro]]) -> list[str]:
    kernels = [(name, res) for name, res in kernels if res.deferral]
    if not kernels:
        return []
    out = ["## Deferral: BLOCK and HRTIMER raised in hard irq during a NET_RX flood", "",
           "One CPU: a NAPI poll that always uses its budget floods NET_RX, which sends",
           "softirq processing to ksoftirqd, while a kthread at the default priority",
           "competes for the CPU as a user task would. BLOCK (raised by a hard hrtimer)",
           "and HRTIMER (a soft hrtimer's expiry) are raised meanwhile; the delay is",
           "from the raise to the handler's entry (softirq_raise and softirq_entry",
           "tracepoints). `task`: the raise interrupted the competing task, the case",
           "deferral is about; `handler`: it interrupted a softirq handler (NET_RX in",
           "ksoftirqd, mostly), which it has to wait for in every kernel; the floor is",
           "the same probes without flood and competitor. Microseconds, median over",
           "rounds of each round's percentile [min-max]; n is summed over rounds.", "",
           "| vector | kernel | floor p50 | floor p99 | task p50 | task p99 | task n "
           "| task p50 / floor p50 | task p99 / floor p99 | within 2x | handler p50 | handler p99 | handler n |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for vec in DEF_VECS:
        for name, res in kernels:
            fl = floor_runs(res, vec)
            task = res.deferral.get(("load", vec, "task"), [])
            hnd = res.deferral.get(("load", vec, "handler"), [])
            if not fl or not task:
                out.append(f"| {vec} | {name} | - | - | - | - | 0 | - | - | - | - | - | - |")
                continue
            f50, f99 = (Spread([float(r[k]) for r in fl]) for k in ("p50_ns", "p99_ns"))
            t50, t99 = (Spread([float(r[k]) for r in task]) for k in ("p50_ns", "p99_ns"))
            r50, r99 = t50.median / f50.median, t99.median / f99.median
            ok = "yes" if r50 <= 2 and r99 <= 2 else "no"
            if hnd:
                h50, h99 = (Spread([float(r[k]) for r in hnd]).fmt(1000.0)
                            for k in ("p50_ns", "p99_ns"))
            else:
                h50 = h99 = "-"
            out.append(f"| {vec} | {name} | {f50.fmt(1000.0)} | {f99.fmt(1000.0)} "
                       f"| {t50.fmt(1000.0)} | {t99.fmt(1000.0)} | {sum(r['n'] for r in task)} "
                       f"| {r50:.1f} | {r99:.1f} | {ok} | {h50} | {h99} "
                       f"| {sum(r['n'] for r in hnd)} |")
    out += ["", "The competing task's share of its CPU under the flood (flood protection:",
            "user space must still get the CPU): " + "; ".join(
                f"{name} {statistics.median(res.hog_share):.0f}% "
                f"[{min(res.hog_share)}-{max(res.hog_share)}]"
                for name, res in kernels if res.hog_share) + ".", ""]
    return out


def write_micro_plots(res: Micro, outdir: Path, want_d: list[int]) -> list[str]:
    """Data files and gnuplot PNGs; returns the PNG names written."""
    data = outdir / "data"
    data.mkdir(parents=True, exist_ok=True)
    idle = {api: res.paths.get((api, "idle"), {}) for api in APIS}
    rounds = sorted({r for api in APIS for r in idle[api]})
    with open(data / "overhead.dat", "w") as fh:
        fh.write("# round " + " ".join(APIS) + "  (ns per pair)\n")
        for r in rounds:
            vals = [f"{idle[a].get(r, float('nan')):.2f}" for a in APIS]
            fh.write(f"{r} {' '.join(vals)}\n")
    for vec in VECS:
        with open(data / f"latency-{vec}.dat", "w") as fh:
            fh.write("# D_us bh_p50 bh_p99 bh_max mask_p50 mask_p99 mask_max none_p50 none_p99"
                     "  (us, medians over rounds; none = no section, the floor)\n")
            floor = res.latency.get((vec, "none", 0), [])
            for d in want_d:
                lat: list[float] = []
                for mode in ("bh", "mask"):
                    runs = res.latency.get((vec, mode, d), [])
                    for k in ("p50_ns", "p99_ns", "max_ns"):
                        lat.append(statistics.median([r[k] for r in runs]) / 1000.0
                                    if runs else float("nan"))
                for k in ("p50_ns", "p99_ns"):
                    lat.append(statistics.median([r[k] for r in floor]) / 1000.0
                               if floor else float("nan"))
                fh.write(f"{d} " + " ".join(f"{v:.2f}" for v in lat) + "\n")
    if not shutil.which("gnuplot"):
        print("summarize-bench: gnuplot not installed; plots skipped", file=sys.stderr)
        return []
    script = [
        "set terminal pngcairo size 900,540 noenhanced" if has_pngcairo() else
        "set terminal png size 900,540 noenhanced",
        f"set output '{outdir / 'overhead.png'}'",
        "set title 'Uncontended pair cost per round (mask = NET_RX)'",
        "set xlabel 'round'", "set ylabel 'ns per lock/unlock pair'", "set key outside",
        "plot " + ", ".join(f"'{data / 'overhead.dat'}' using 1:{i + 2} with linespoints title '{a}'"
                            for i, a in enumerate(APIS)),
    ]
    names = ["overhead.png"]
    for vec in VECS:
        dat = data / f"latency-{vec}.dat"
        script += [
            f"set output '{outdir / f'latency-{vec}.png'}'",
            f"set title '{vec}: raise-to-handler delay while another kthread holds D-long sections'",
            "set xlabel 'section length D (us)'", "set ylabel 'delay (us)'",
            "set logscale xy", "set key outside",
            "plot " + ", ".join(
                f"'{dat}' using 1:{col} with linespoints dt {dt} lc {'rgb ' if isinstance(lc, str) else ''}{lc} "
                f"title '{mode} {stat}'"
                for col, mode, stat, dt, lc in (
                    (2, "bh", "p50", 1, 1), (3, "bh", "p99", 2, 1), (4, "bh", "max", 3, 1),
                    (5, "mask", "p50", 1, 2), (6, "mask", "p99", 2, 2), (7, "mask", "max", 3, 2),
                    (8, "none", "p50", 1, "'gray'"), (9, "none", "p99", 2, "'gray'"))),
            "unset logscale",
        ]
        names.append(f"latency-{vec}.png")
    proc = subprocess.run(["gnuplot"], input="\n".join(script) + "\n", text=True,
                          capture_output=True, check=False)
    if proc.returncode != 0:
        print(f"summarize-bench: gnuplot failed: {proc.stderr.strip()}", file=sys.stderr)
        return []
    return names


def has_pngcairo() -> bool:
    proc = subprocess.run(["gnuplot", "-e", "set terminal"], capture_output=True, text=True,
                          check=False)
    return "pngcairo" in proc.stdout + proc.stderr


def cmd_micro(args: argparse.Namespace) -> int:
    try:
        text = Path(args.console).read_text(errors="replace")
    except OSError as err:
        print(f"summarize-bench: {err}", file=sys.stderr)
        return 2
    want_d = [int(x) for x in args.expect_d.split()]
    res = parse_micro(text)
    bad = check_micro(res, want_d, args.expect_rounds)
    extra: dict[str, Micro | None] = {}
    for name in ("base_console", "icount_console", "base_icount_console"):
        path = getattr(args, name)
        if not path:
            extra[name] = None
            continue
        try:
            other = parse_micro(Path(path).read_text(errors="replace"))
        except OSError as err:
            print(f"summarize-bench: {err}", file=sys.stderr)
            return 2
        extra[name] = other
        label = name.replace("_console", "").replace("_", " ")
        is_base = name.startswith("base")
        rounds = None if "icount" in name else args.expect_rounds
        bad += [f"{label}: {b}" for b in check_micro(other, [], rounds, mask=not is_base)]
    outdir = Path(args.outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    md = micro_markdown(res, args.conditions, want_d)
    md += "\n".join(pristine_markdown(res, extra["base_console"], extra["icount_console"],
                                      extra["base_icount_console"]))
    md += "\n".join(deferral_markdown([("pristine 6.1", extra["base_console"] or Micro()),
                                       ("series", res)]))
    if args.sizes:
        try:
            md += "\n" + Path(args.sizes).read_text()
        except OSError as err:
            print(f"summarize-bench: {err}", file=sys.stderr)
            return 2
    pngs = [] if args.no_plots else write_micro_plots(res, outdir, want_d)
    if pngs:
        md += "\n## Plots\n\n" + "\n".join(f"![{p}]({p})" for p in pngs) + "\n"
    if bad:
        md += "\n## Problems in this run\n\n" + "\n".join(f"- {b}" for b in bad) + "\n"
    (outdir / "bench.md").write_text(md)
    print(md, end="")
    for b in bad:
        print(f"summarize-bench: {b}", file=sys.stderr)
    return 1 if bad else 0


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("micro", help="the boot-time micro-benchmarks")
    m.add_argument("console")
    m.add_argument("outdir")
    m.add_argument("--expect-d", default="10 100 1000", help="section lengths (us) that must appear")
    m.add_argument("--expect-rounds", type=int, default=None)
    m.add_argument("--conditions", default="")
    m.add_argument("--no-plots", action="store_true")
    m.add_argument("--base-console", help="the same benchmark on pristine 6.1")
    m.add_argument("--icount-console", help="overhead of the series' kernel under -icount")
    m.add_argument("--base-icount-console", help="overhead of pristine 6.1 under -icount")
    m.add_argument("--sizes", help="a markdown file of object sizes to append")
    args = ap.parse_args(argv)
    return cmd_micro(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
