#!/usr/bin/env python3
"""Merge per-file spatch facts into softirq-vector reachability and masks.

Usage:  analyze-vectors.py --root TREE --facts DIR --sites DIR --out DIR
Reads:  DIR/*.jsonl written by semantic-patches/bh_vectors.cocci (facts:
        definitions, calls, field calls, field stores) and by
        semantic-patches/bh_lock_mask.cocci without a mask table (sites:
        every BH acquisition with its lock class); source files under TREE
        for designated initializers, file-scope macros and EXPORT_SYMBOL.
Writes: OUT/masks.txt (the mask table), OUT/vectors.json (per class: the
        vectors, one evidence chain per vector, why a class stays ALL),
        OUT/evidence.md (the same for humans), OUT/pcpu-functions.txt
        (functions that touch per-CPU data, directly or through calls).
Exit:   0 done, 2 usage error or missing input.

The rule (safety over coverage): a class gets a partial mask only when
every acquisition is resolved, at least one vector reaches it, and no
acquiring function is reachable from an "open" function (one that code
outside the analyzed directories may call: exported, address passed to an
unknown function, stored into a field that is never called here, or
non-static without any caller here; --closed-world drops this
rule, which is unsafe and only meant for trying the pipeline).  Unresolved acquisitions (lock
parameters, pointer fields) of the same lock type add their vectors to
every class of that type, and make it ALL when they are open-reachable.
Everything else is ALL.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import re
import sys
from collections import deque
from dataclasses import dataclass, field

VECTORS = ("HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL",
           "TASKLET", "SCHED", "HRTIMER", "RCU")

# Registration calls: callee -> (argument index of the callback, vector).
REGISTER_ARG: dict[str, tuple[int, str]] = {
    "timer_setup": (1, "TIMER"),
    "timer_setup_on_stack": (1, "TIMER"),
    "__init_timer": (1, "TIMER"),
    "tasklet_setup": (1, "TASKLET"),
    "tasklet_init": (1, "TASKLET"),
    "netif_napi_add": (2, "NET_RX"),
    "netif_napi_add_weight": (2, "NET_RX"),
    "netif_napi_add_tx": (2, "NET_RX"),
    "netif_napi_add_tx_weight": (2, "NET_RX"),
    "call_rcu": (1, "RCU"),
    "irq_poll_init": (2, "IRQ_POLL"),
}
# Fields whose stored functions run in a vector.
ENTRY_FIELDS: dict[str, str] = {
    "function": "TIMER",          # timer_list (and hrtimer, see below)
    "poll": "NET_RX",             # napi_struct
    "func": "NET_RX",             # packet_type
    "handler": "NET_RX",          # net_protocol, inet6_protocol, xfrm
    "err_handler": "NET_RX",
    "early_demux": "NET_RX",
    "gro_receive": "NET_RX",
    "gro_complete": "NET_RX",
    "dequeue": "NET_TX",          # Qdisc_ops
    "ndo_start_xmit": "NET_TX",   # transmit path
    "complete": "BLOCK",          # blk_mq_ops
}
FILE_MACROS = (
    (re.compile(r"\bDEFINE_TIMER\s*\(\s*\w+\s*,\s*(\w+)"), "TIMER"),
    (re.compile(r"\b__TIMER_INITIALIZER\s*\(\s*(\w+)"), "TIMER"),
    (re.compile(r"\bDECLARE_TASKLET\w*\s*\(\s*\w+\s*,\s*(\w+)"), "TASKLET"),
)
DESIG_RE = re.compile(r"\.\s*([A-Za-z_]\w*)\s*=\s*&?\s*([A-Za-z_]\w*)\s*[,}\n]")
EXPORT_RE = re.compile(r"\bEXPORT_SYMBOL(?:_GPL)?(?:_NS)?\s*\(\s*(\w+)")
OPEN_SOFTIRQ_RE = re.compile(r"\bopen_softirq\s*\(\s*(\w+)_SOFTIRQ\s*,\s*(\w+)")
COMMENT_RE = re.compile(r"/\*.*?\*/|//[^\n]*|\"(\\.|[^\"\\\n])*\"|'(\\.|[^'\\\n])*'",
                        re.S)
# A name used as a value: not called, not a member, not a declaration.
ADDR_RE = re.compile(r"(\.|->|\bstruct\s|\benum\s)?\b([A-Za-z_]\w*)\b(?!\s*[(\w])")
HRTIMER_SOFT_RE = re.compile(r"\bhrtimer_init\w*\s*\([^;]*HRTIMER_MODE_\w*SOFT")
PCPU_RE = re.compile(r"^(__this_cpu_|this_cpu_|raw_cpu_|per_cpu|"
                     r"get_cpu_var$|put_cpu_var$|get_cpu_ptr$|get_cpu$|"
                     r"smp_processor_id$|raw_smp_processor_id$|"
                     r"_*[A-Z][A-Z0-9_]*_(INC|DEC|ADD|SUB|UPD)_STATS|_*SNMP_)")


@dataclass
class Graph:
    """Call graph over function keys ("name", or "file:name" if static)."""

    defs: dict[str, tuple[str, int]] = field(default_factory=dict)
    statics: dict[str, set[str]] = field(default_factory=dict)  # file->names
    edges: dict[str, dict[str, str]] = field(default_factory=dict)  # how
    field_values: dict[str, set[str]] = field(default_factory=dict)
    field_calls: dict[str, set[str]] = field(default_factory=dict)
    entries: dict[str, dict[str, str]] = field(default_factory=dict)
    open_why: dict[str, str] = field(default_factory=dict)
    callers: dict[str, int] = field(default_factory=dict)
    pcpu_direct: set[str] = field(default_factory=set)

    def key(self, fname: str, name: str) -> str | None:
        """Resolve a name used in fname to a defined function key."""
        if name in self.statics.get(fname, set()):
            return f"{fname}:{name}"
        if name in self.defs:
            return name
        return None

    def add_edge(self, src: str, dst: str, how: str) -> None:
        self.edges.setdefault(src, {}).setdefault(dst, how)
        self.callers[dst] = self.callers.get(dst, 0) + 1

    def add_entry(self, func: str, vec: str, how: str) -> None:
        self.entries.setdefault(vec, {}).setdefault(func, how)


def read_jsonl(folder: str) -> list[dict[str, object]]:
    recs: list[dict[str, object]] = []
    for path in sorted(glob.glob(os.path.join(folder, "*.jsonl"))):
        with open(path, encoding="utf-8") as fh:
            recs.extend(json.loads(line) for line in fh if line.strip())
    return recs


def code_only(text: str) -> str:
    """Blank out comments and string/char literals, keeping line numbers."""
    def blank(m: re.Match[str]) -> str:
        return re.sub(r"[^\n]", " ", m.group(0))
    return COMMENT_RE.sub(blank, text)


def split_args(args: str) -> list[str]:
    """Split a call's argument text at top-level commas."""
    out, depth, cur = [], 0, ""
    for ch in args:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return [re.sub(r"^&\s*", "", a) for a in out]


def build(root: str, facts: list[dict[str, object]]) -> Graph:
    g = Graph()
    for r in facts:
        if r["t"] == "static":
            g.statics.setdefault(str(r["file"]), set()).add(str(r["name"]))
    for r in facts:
        if r["t"] == "def":
            fname, name = str(r["file"]), str(r["name"])
            k = g.key(fname, name) or name
            g.defs.setdefault(k, (fname, int(str(r["line"]))))
    files = sorted({str(r["file"]) for r in facts})
    texts: dict[str, str] = {}
    for fname in files:
        try:
            with open(os.path.join(root, fname), encoding="utf-8",
                      errors="replace") as fh:
                texts[fname] = fh.read()
        except OSError:
            texts[fname] = ""
    soft = {f for f, t in texts.items() if HRTIMER_SOFT_RE.search(t)}
    registered: set[str] = set()
    hi = {f for f, t in texts.items() if "tasklet_hi_" in t}

    def store(fname: str, fld: str, value: str, where: str) -> None:
        k = g.key(fname, value)
        if k is None:
            return
        g.field_values.setdefault(fld, set()).add(k)
        vec = ENTRY_FIELDS.get(fld)
        if vec:
            g.add_entry(k, vec, f".{fld} = {value} ({where})")
            if fld == "function" and fname in soft:
                g.add_entry(k, "HRTIMER", f".{fld} = {value} ({where})")

    for r in facts:
        t, fname = r["t"], str(r["file"])
        caller = g.key(fname, str(r.get("func", "")))
        where = f"{fname}:{r['line']}"
        if t == "call":
            callee = str(r["callee"])
            if PCPU_RE.match(callee) and caller:
                g.pcpu_direct.add(caller)
            target = g.key(fname, callee)
            if caller and target:
                g.add_edge(caller, target, f"calls {callee}() at {where}")
        elif t == "reg":
            callee = str(r["callee"])
            reg = REGISTER_ARG.get(callee)
            args = split_args(str(r["args"]))
            if reg and len(args) > reg[0] and re.match(r"^\w+$", args[reg[0]]):
                fk = g.key(fname, args[reg[0]])
                if fk:
                    registered.add(fk)
                    g.add_entry(fk, reg[1], f"{callee}() at {where}")
                    if reg[1] == "TASKLET" and fname in hi:
                        g.add_entry(fk, "HI", f"{callee}() at {where}")
        elif t == "fcall" and caller:
            g.field_calls.setdefault(str(r["field"]), set()).add(caller)
        elif t == "fset":
            store(fname, str(r["field"]), str(r["value"]), where)
    for fname, text in texts.items():
        for m in DESIG_RE.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            store(fname, m.group(1), m.group(2), f"{fname}:{line}")
        for rx, vec in FILE_MACROS:
            for m in rx.finditer(text):
                hit = g.key(fname, m.group(1))
                if hit:
                    g.add_entry(hit, vec, f"{m.group(0)}) in {fname}")
                    if vec == "TASKLET" and fname in hi:
                        g.add_entry(hit, "HI", f"{m.group(0)}) in {fname}")
        for m in OPEN_SOFTIRQ_RE.finditer(text):
            hit = g.key(fname, m.group(2))
            if hit:
                registered.add(hit)
                if m.group(1) in VECTORS:
                    g.add_entry(hit, m.group(1), f"open_softirq() in {fname}")
        for m in EXPORT_RE.finditer(text):
            hit = g.key(fname, m.group(1))
            if hit:
                registered.add(hit)
                g.open_why.setdefault(hit, f"exported ({fname})")
    # A function whose address is taken other than by a recognised
    # registration or field store may be called by anything: open.
    stored = {hit for v in g.field_values.values() for hit in v}
    entry_funcs = {hit for per in g.entries.values() for hit in per}
    for fname, text in texts.items():
        code = code_only(text)
        for m in ADDR_RE.finditer(code):
            hit = g.key(fname, m.group(2))
            if (hit is None or hit in g.open_why or hit in stored
                    or hit in registered or hit in entry_funcs or m.group(1)):
                continue
            line = code.count("\n", 0, m.start()) + 1
            g.open_why[hit] = f"address taken at {fname}:{line}"
    # Calls through ->f may reach every function stored into a field f.
    for fld, callers in g.field_calls.items():
        for src in callers:
            for dst in g.field_values.get(fld, set()):
                g.add_edge(src, dst, f"calls ->{fld}()")
    for fld, values in g.field_values.items():
        if fld not in g.field_calls and fld not in ENTRY_FIELDS:
            for k in values:
                g.open_why.setdefault(
                    k, f"stored in .{fld}, which nothing here calls")
    for k in g.defs:
        if (":" not in k and k not in entry_funcs and k not in stored
                and not g.callers.get(k)):
            g.open_why.setdefault(k, "non-static, no caller in the "
                                     "analyzed directories")
    return g


def reach(g: Graph, starts: dict[str, str]) -> dict[str, tuple[str, str]]:
    """BFS; node -> (parent, how).  Starts have parent ""."""
    seen: dict[str, tuple[str, str]] = {s: ("", how) for s, how in starts.items()}
    todo = deque(sorted(starts))
    while todo:
        cur = todo.popleft()
        for nxt, how in sorted(g.edges.get(cur, {}).items()):
            if nxt not in seen:
                seen[nxt] = (cur, how)
                todo.append(nxt)
    return seen


def chain(tree: dict[str, tuple[str, str]], node: str) -> list[str]:
    out: list[str] = []
    while node:
        parent, how = tree[node]
        out.append(f"{node} [{how}]")
        node = parent
    return list(reversed(out))


@dataclass
class ClassResult:
    """The verdict for one lock class."""

    vectors: list[str]
    mask: str
    why_all: str
    sites: list[str]
    evidence: dict[str, list[str]]


def analyze(g: Graph, sites: list[dict[str, object]],
            closed_world: bool = False) -> dict[str, ClassResult]:
    trees = {v: reach(g, g.entries.get(v, {})) for v in VECTORS}
    open_tree = reach(g, {} if closed_world else g.open_why)
    by_class: dict[str, list[tuple[str, dict[str, object]]]] = {}
    unresolved: dict[str, list[str]] = {"spin": [], "rw": []}
    for s in sites:
        if s.get("event") or s.get("kind") in ("trylock", "bh"):
            continue
        fk = g.key(str(s["file"]), str(s["func"])) or str(s["func"])
        kind = "spin" if s["kind"] == "spin" else "rw"
        if s.get("class"):
            by_class.setdefault(str(s["class"]), []).append((fk, s))
        else:
            unresolved[kind].append(fk)
    taint: dict[str, tuple[set[str], str]] = {}
    for kind, funcs in unresolved.items():
        reached = {v for v in VECTORS for f in funcs if f in trees[v]}
        opened = next((f for f in funcs if f in open_tree), "")
        taint[kind] = (reached, opened)
    results: dict[str, ClassResult] = {}
    for cls, acq in sorted(by_class.items()):
        vecs: set[str] = set()
        evidence: dict[str, list[str]] = {}
        why = ""
        for fk, _ in acq:
            for v in VECTORS:
                if fk in trees[v] and v not in evidence:
                    evidence[v] = chain(trees[v], fk)
                    vecs.add(v)
            if fk in open_tree and not why:
                why = ("acquired in %s, reachable from outside: %s"
                       % (fk, " -> ".join(chain(open_tree, fk))))
        kind = "spin" if acq[0][1]["kind"] == "spin" else "rw"
        tvecs, topen = taint[kind]
        for v in sorted(tvecs - vecs):
            evidence[v] = ["(an unresolved %s acquisition this vector "
                           "reaches may be this lock)" % kind]
        vecs |= tvecs
        if not why and topen:
            why = ("an unresolved %s acquisition in %s is reachable from "
                   "outside the analyzed directories" % (kind, topen))
        if not why and not vecs:
            why = "no vector reaches an acquisition (analysis incomplete?)"
        ordered = [v for v in VECTORS if v in vecs]
        if not why and len(ordered) == len(VECTORS):
            why = "every vector reaches it"
        mask = "ALL" if why else "|".join(ordered)
        where = sorted({f"{s['file']}:{s['line']} {s['func']}" for _, s in acq})
        results[cls] = ClassResult(ordered, mask, why, where, evidence)
    return results


def pcpu_closure(g: Graph) -> set[str]:
    rev: dict[str, set[str]] = {}
    for src, dsts in g.edges.items():
        for dst, how in dsts.items():
            if how.startswith("calls ") and "->" not in how:
                rev.setdefault(dst, set()).add(src)
    seen = set(g.pcpu_direct)
    todo = deque(sorted(seen))
    while todo:
        for caller in rev.get(todo.popleft(), set()):
            if caller not in seen:
                seen.add(caller)
                todo.append(caller)
    return seen


CLOSED_WORLD_MARK = "# CLOSED-WORLD"


def write_outputs(out: str, g: Graph, res: dict[str, ClassResult],
                  pcpu: set[str], closed_world: bool = False) -> None:
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "masks.txt"), "w", encoding="utf-8") as fh:
        fh.write("# Generated by scripts/analysis/analyze-vectors.sh; "
                 "see evidence.md for the reasons.\n")
        if closed_world:
            # scripts/convert/convert-subsys.sh refuses a table with this line
            fh.write(f"{CLOSED_WORLD_MARK} (UNSAFE): callers outside the "
                     "analysed folders were ignored; not for conversions\n")
        for cls, r in res.items():
            fh.write(f"{cls} {r.mask}\n")
    with open(os.path.join(out, "vectors.json"), "w", encoding="utf-8") as fh:
        json.dump({c: r.__dict__ for c, r in res.items()}, fh, indent=1,
                  sort_keys=True)
    with open(os.path.join(out, "pcpu-functions.txt"), "w",
              encoding="utf-8") as fh:
        for k in sorted({k.rsplit(":", 1)[-1] for k in pcpu}):
            fh.write(k + "\n")
    lines = ["# Softirq vector reachability", "",
             f"Functions: {len(g.defs)}; entry points: "
             + ", ".join(f"{v} {len(g.entries.get(v, {}))}" for v in VECTORS),
             f"; open functions: {len(g.open_why)}; lock classes: {len(res)}"
             f" ({sum(1 for r in res.values() if r.mask != 'ALL')} with a "
             "partial mask).", "", "## Locks per vector set", ""]
    sets: dict[str, int] = {}
    for r in res.values():
        label = r.mask if r.mask != "ALL" else "ALL"
        sets[label] = sets.get(label, 0) + 1
    lines += [f"- `{k}`: {n}" for k, n in sorted(sets.items())]
    lines += ["", "## Per lock class", ""]
    for cls, r in res.items():
        lines.append(f"### `{cls}` -> `{r.mask}`")
        if r.why_all:
            lines.append(f"- ALL because: {r.why_all}")
        lines.append(f"- reached from: {' '.join(r.vectors) or 'nothing'}")
        for v, ch in r.evidence.items():
            lines.append(f"- {v}: " + " -> ".join(ch))
        lines.append("- sites: " + "; ".join(r.sites[:8])
                     + (" ..." if len(r.sites) > 8 else ""))
        lines.append("")
    with open(os.path.join(out, "evidence.md"), "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines))


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", required=True)
    ap.add_argument("--facts", required=True)
    ap.add_argument("--sites", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--closed-world", action="store_true",
                    help="assume nothing outside the analyzed directories "
                    "calls in (UNSAFE: for trying the pipeline, not for "
                    "audited conversions)")
    a = ap.parse_args(argv)
    for d in (a.root, a.facts, a.sites):
        if not os.path.isdir(d):
            print(f"analyze-vectors.py: no such folder: {d}", file=sys.stderr)
            return 2
    g = build(a.root, read_jsonl(a.facts))
    res = analyze(g, read_jsonl(a.sites), a.closed_world)
    write_outputs(a.out, g, res, pcpu_closure(g), a.closed_world)
    partial = sum(1 for r in res.values() if r.mask != "ALL")
    print(f"{len(res)} lock classes, {partial} with a partial mask, "
          f"{len(g.defs)} functions")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
