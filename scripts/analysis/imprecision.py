#!/usr/bin/env python3
"""Why each vector is in each section's mask: the imprecision report.

Usage: imprecision.py --vectors FILE [--oracle FILE] [--prefix DIR/]
                      [--hot FUNCTION]... [--out FILE]

--vectors is the analysis's vectors.json (make analyze); --oracle the
lockdep oracle's oracle.json (its per-section observed masks say which
vectors lockdep ever saw a section's classes take); --prefix keeps the
sections of one tree (net/).  Prints the report (markdown) or writes it
to --out.

A vector is in a section's mask because a class the section holds (or
takes inside it) has it in its mask, and each class has, per vector, one
chain of evidence (vectors.json "evidence": from the vector's root down
to the step that gives the class the vector).  The last step names the
rule:

  direct take        a function the vector reaches through direct calls
                     takes the class, a static lock
  per-CPU data       ... or touches the per-CPU data the class stands for
  direct take, field class
                     ... a class T.f: the lock in field f of every struct
                     T, where lockdep keys each init site apart
                     (socket_lock_t.slock: every family's socket lock)
  direct take, indirect call
                     ... through an indirect call the points-to resolved
                     (a function pointer loaded from a field holds every
                     function stored into that field of any object)
  unresolved acquisition
                     ... takes a lock through a pointer the analysis
                     cannot resolve, and this class's address is stored
                     in memory, so it may be that lock
  lock order         the class is taken while another class the vector
                     takes is held (the vector must be masked in the
                     other's sections too)
  lock order (cycle) ... where both classes are in the largest strongly
                     connected component of the lock order, whose classes
                     all get every vector of any of them
  prototype fallback the chain calls through an indirect call the
                     analysis bound by prototype only (the pointer's own
                     values do not hold the callee), whatever its last step
  shared dispatcher  HI through tasklet_action_common(), which
                     tasklet_hi_action() and tasklet_action() share
                     although each walks only its own list
  section            the section itself: its lock is not resolved, or it
                     is not released on every path (every vector)

A pair (section, vector) may have several causes (several classes); the
report counts each pair once under its least removable cause, in the
order above (a direct take cannot be removed by precision; a shared
dispatcher can), and says how many pairs have that cause alone.  A chain
is one path (the shortest the analysis found): a pair whose cause is
removed may still be kept by another path.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections import Counter, defaultdict
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rules import VECTORS  # noqa: E402
from va_world import strong_components  # noqa: E402

# least removable first
CAUSES = ("section", "direct take", "per-CPU data", "lock order", "direct take, field class",
          "direct take, indirect call", "unresolved acquisition", "lock order (cycle)", "prototype fallback",
          "shared dispatcher")
SHARED = "tasklet_action_common"
# the solve's chain steps (va_reach.py's chain()): how a call edge was bound
PROTO = ", bound by prototype)"
INDIRECT = ", indirect)"
# a class named T.f: the lock in field f of every struct T of the kernel
FIELD_CLASS = re.compile(r"[A-Za-z_]\w*\.[\w.]+")


def largest_component(classes: dict[str, Any]) -> set[str]:
    """The largest strongly connected component of the lock order (an
    edge b -> c for each b in c's "before"), as the solve's
    order_component() (va_order.py) finds it, with the same
    strong_components()."""
    succ: dict[str, list[str]] = defaultdict(list)
    for c, info in classes.items():
        for b in info.get("before", ()):
            succ[b].append(c)
    nodes = sorted(set(classes) | set(succ))
    best: list[str] = max(strong_components(nodes, lambda n: sorted(succ.get(n, ()))),
                          key=len, default=[])
    return set(best) if len(best) > 1 else set()


def chain_cause(vec: str, chain: list[str], cls: str, cycle: set[str]) -> str:
    """The rule that gave class cls the vector, from its evidence chain."""
    if vec == "HI" and any(SHARED in step for step in chain):
        return "shared dispatcher"
    if any(step.endswith(PROTO) for step in chain):
        return "prototype fallback"
    last = chain[-1] if chain else ""
    if " is held while " in last:
        other = last.split(" is held while ", 1)[0].strip()
        return "lock order (cycle)" if cls in cycle and other in cycle else "lock order"
    if "a lock pointer it cannot resolve" in last:
        return "unresolved acquisition"
    if " takes " in last and "(pcpu" in last:
        return "per-CPU data"
    if any(step.endswith(INDIRECT) for step in chain):
        return "direct take, indirect call"
    if FIELD_CLASS.fullmatch(cls):
        return "direct take, field class"
    return "direct take"


def causes_of(blame: list[dict[str, list[list[str]]]]) -> list[dict[str, list[str]]]:
    """section_blame()'s causes without their classes."""
    return [{v: [c for c, _cls in found] for v, found in mine.items()} for mine in blame]


def section_causes(data: dict[str, Any], cycle: set[str] | None = None) -> list[dict[str, list[str]]]:
    """Per section of data["sections"], per vector of its mask (IRQ_POLL,
    which has no handler, aside), the causes, least removable first."""
    return causes_of(section_blame(data, cycle))


def encode(mine: dict[str, list[list[str]]]) -> str:
    """One section's blame as one line (the audit note's committed
    evidence): "VECTOR i,j,k CLASS; ..." with indices into CAUSES, least
    removable first, and the class behind the first ("-": none)."""
    return "; ".join(f"{v} {','.join(str(CAUSES.index(c)) for c, _ in found)} {found[0][1] or '-'}"
                     for v, found in mine.items())


def decode(line: str) -> dict[str, list[list[str]]]:
    """encode()'s inverse (the other causes' classes are not kept)."""
    out: dict[str, list[list[str]]] = {}
    for part in filter(None, (p.strip() for p in line.split(";"))):
        v, idx, cls = part.split(" ", 2)
        found = [[CAUSES[int(i)], ""] for i in idx.split(",")]
        found[0][1] = "" if cls == "-" else cls
        out[v] = found
    return out


def stored_blame(data: dict[str, Any]) -> list[dict[str, list[list[str]]]] | None:
    """The blame vectors.py stored per section ("causes"), when every
    section has it (a table without the evidence chains)."""
    secs = data["sections"]
    if secs and all("causes" in sec for sec in secs):
        return [sec["causes"] for sec in secs]
    return None


def section_blame(data: dict[str, Any], cycle: set[str] | None = None) -> list[dict[str, list[list[str]]]]:
    """As section_causes(), with the first class (by name) of each cause:
    [cause, class] pairs."""
    classes: dict[str, Any] = data["classes"]
    if cycle is None:
        cycle = largest_component(classes)
    memo: dict[tuple[str, str], str] = {}
    out = []
    for sec in data["sections"]:
        mask = set(VECTORS) if sec["mask"] == "ALL" else \
            (set() if sec["mask"] == "NONE" else set(sec["mask"].split("|")))
        mine: dict[str, list[list[str]]] = {}
        for v in sorted(mask - {"IRQ_POLL"}):
            found: dict[str, str] = {}
            if sec.get("why"):
                found["section"] = ""
            for c in sorted(set(sec.get("classes", [])) | set(sec.get("inner", []))):
                ev = classes.get(c, {}).get("evidence", {}).get(v)
                if not ev:
                    continue
                if (c, v) not in memo:
                    memo[(c, v)] = chain_cause(v, ev, c, cycle)
                found.setdefault(memo[(c, v)], c)
            found = found or {"section": ""}
            mine[v] = [[k, found[k]] for k in sorted(found, key=CAUSES.index)]
        out.append(mine)
    return out


def observed_masks(oracle: dict[str, Any] | None) -> dict[str, set[str]]:
    """Per section location, the vectors lockdep saw (exercised ones)."""
    if not oracle:
        return {}
    seen: dict[str, set[str]] = defaultdict(set)
    for r in oracle.get("sections", []):
        if r.get("exercised"):
            m = r["observed"]
            seen[r["loc"]] |= set(VECTORS) if m == "ALL" else (set() if m == "NONE" else set(m.split("|")))
    return seen


def table(data: dict[str, Any], causes: list[dict[str, list[str]]], prefix: str = "",
          oracle: dict[str, Any] | None = None) -> list[str]:
    """The report's table: per cause, the (section, vector) pairs it
    is the least removable cause of, those it is the only cause of, and
    (with the oracle) how many of those lockdep observed."""
    seen = observed_masks(oracle)
    first: Counter[str] = Counter()
    alone: Counter[str] = Counter()
    obs: Counter[str] = Counter()
    nsec = 0
    for sec, mine in zip(data["sections"], causes):
        if not sec["loc"].startswith(prefix):
            continue
        nsec += 1
        for v, found in mine.items():
            first[found[0]] += 1
            if len(found) == 1:
                alone[found[0]] += 1
            if v in seen.get(sec["loc"], set()):
                obs[found[0]] += 1
    total = sum(first.values())
    head = "| cause | pairs (least removable cause) | cause alone |"
    rule = "|---|---|---|"
    if oracle is not None:
        head += " lockdep observed |"
        rule += "---|"
    lines = [f"(section, vector) pairs of {nsec} sections{' of ' + prefix if prefix else ''}"
             f" (IRQ_POLL aside): {total}", "", head, rule]
    for c in CAUSES:
        row = f"| {c} | {first[c]} | {alone[c]} |"
        if oracle is not None:
            row += f" {obs[c]} |"
        lines.append(row)
    return lines


def hot_rows(data: dict[str, Any], blame: list[dict[str, list[list[str]]]], hot: list[str],
             oracle: dict[str, Any] | None = None) -> list[str]:
    """Per section of a hot function, per vector: its least removable
    cause and the class behind it, the other causes ('*': lockdep saw
    the vector for the section)."""
    seen = observed_masks(oracle)
    lines = ["| section | function | vector | least removable cause (class) | other causes |",
             "|---|---|---|---|---|"]
    for sec, mine in zip(data["sections"], blame):
        fn = sec["function"].rsplit(":", 1)[-1]
        if fn not in hot:
            continue
        for v, found in mine.items():
            star = "*" if v in seen.get(sec["loc"], set()) else ""
            first = f"{found[0][0]} ({found[0][1]})" if found[0][1] else found[0][0]
            lines.append(f"| {sec['loc']} | {fn} | {v}{star} | {first} |"
                         f" {', '.join(c for c, _ in found[1:]) or '-'} |")
    return lines


def summary_lines(data: dict[str, Any], causes: list[dict[str, list[str]]], cycle: set[str]) -> list[str]:
    """summary.txt's lines: the pairs per cause, all sections and net/."""
    out = []
    for prefix, label in (("", "all"), ("net/", "net/")):
        first: Counter[str] = Counter()
        alone: Counter[str] = Counter()
        for sec, mine in zip(data["sections"], causes):
            if sec["loc"].startswith(prefix):
                for found in mine.values():
                    first[found[0]] += 1
                    alone[found[0]] += len(found) == 1
        out.append(f"imprecision ({label}): (section, vector) pairs by least removable cause"
                   f" (alone): " + "; ".join(f"{c} {first[c]} ({alone[c]})" for c in CAUSES))
    out.append(f"imprecision: largest lock-order component {len(cycle)} classes"
               " (its classes share every vector of any of them)")
    return out


def report(data: dict[str, Any], blame: list[dict[str, list[list[str]]]], ncycle: int,
           source: str, prefix: str = "", oracle: dict[str, Any] | None = None,
           hot: list[str] | None = None) -> str:
    """The report (markdown): the table for every section (or prefix's),
    and for net/ too, and the hot sections' rows."""
    causes = causes_of(blame)
    md = ["# Why each vector is in each section's mask", "",
          f"From `{source}` (`scripts/analysis/imprecision.py`); the largest"
          f" lock-order component has {ncycle} classes. Per (section, vector)"
          " pair its least removable cause; \"alone\": the pairs with no other cause.", ""]
    md += table(data, causes, prefix, oracle)
    if not prefix:
        md += [""] + table(data, causes, "net/", oracle)
    if hot:
        md += ["", "## Hot sections", ""] + hot_rows(data, blame, hot, oracle)
    return "\n".join(md) + "\n"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--vectors", required=True)
    ap.add_argument("--oracle")
    ap.add_argument("--prefix", default="")
    ap.add_argument("--hot", action="append", default=[])
    ap.add_argument("--out")
    a = ap.parse_args(argv[1:])
    try:
        with open(a.vectors, encoding="utf-8") as f:
            data = json.load(f)
        oracle = None
        if a.oracle:
            with open(a.oracle, encoding="utf-8") as f:
                oracle = json.load(f)
        if not isinstance(data.get("classes"), dict) or not isinstance(data.get("sections"), list):
            raise ValueError("no classes and sections (not a vectors.json)")
    except (OSError, ValueError) as err:
        print(f"imprecision: cannot read the analysis: {err}", file=sys.stderr)
        return 2
    cycle = largest_component(data["classes"])
    blame = stored_blame(data)
    if blame is None:
        if data["classes"] and not any("evidence" in v for v in data["classes"].values()):
            print(f"imprecision: {a.vectors} has neither causes per section nor evidence per"
                  " class (a trimmed table?)", file=sys.stderr)
            return 2
        blame = section_blame(data, cycle)
    text = report(data, blame, len(cycle), os.path.basename(a.vectors), a.prefix, oracle, a.hot)
    if a.out:
        with open(a.out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
