#!/usr/bin/env python3
"""Check the vector analysis against what lockdep observed at run time.

Usage: lockdep-oracle.py --vectors FILE --lockdep FILE [--lockdep FILE]...
                         [--keys FILE] [--stats FILE]... --out DIR

--vectors is the analysis's vectors.json (make analyze: the campaign
world), or the table --write-table wrote from one (gzip'd when its name
ends in .gz); each --lockdep a copy of /proc/lockdep from a boot of a kernel
with the core series (per-vector lockdep states) under load
(scripts/guest/lockdep-dump, written to the boot folder's lockdep/ by
scripts/kernel/parse-boot-log.py).  The copies are taken together: what
any boot observed must be predicted.

Lockdep records, per class, the softirq vectors it was taken in (the
usage characters '-' and '?' of a vector's state) and every direct
dependency A -> B (B taken while A was held).  A sound analysis predicts
all of it:

  usage   every vector lockdep saw take a class "takes" the class in the
          analysis (vectors.json: "takes"), and so is in its mask;
  order   every observed edge A -> B is a path of the analysis's lock
          order (B reachable from A along "before" reversed).

A miss is a soundness bug of the analysis (or of a mapping rule below)
and fails the run.  Classes are mapped from lockdep's names:

  key     a reviewed rule of --keys (scripts/analysis/lockdep-keys.txt):
          a lockdep_set_class*() name such as slock-AF_INET, or a lockdep
          map that is not a lock (a timer's, a work item's, RCU's)
  symbol  a static lock (DEFINE_SPINLOCK(x): lockdep names it x): the
          analysis classes x or FILE:x
  static  the name of a lockdep map in a global's initializer (a lock in
          a static struct, "rcu_state.barrier_lock"; vectors.json
          "static_names"): the class of the lock that holds it
  site    the name a lock-init call of the world gives (vectors.json
          "inits": any call passing a lock_class_key and a constant name,
          spin_lock_init(), lockdep_set_class*(), init_waitqueue_head(),
          followed through helpers that pass the name on): the classes
          the analysis gives those calls' locks; "unresolved" when it
          resolves none of them
  sleeping  a name only sleeping locks are given (mutex_init(),
          init_rwsem(), DEFINE_MUTEX(), lockdep_set_class() on a mutex or
          rw_semaphore; vectors.json "sleeping"): no class of the
          analysis, which models spinning locks; lockdep seeing one taken
          in a vector is a miss
  field   otherwise, spin_lock_init(&p->f) names the class "&p->f": the analysis
          classes T.f of any struct T (ambiguous when several T have an f
          lock; the check then takes the union, which is weaker); an
          element of a lock array ("locks + i", "&locks[i]") is the
          array's symbol

A class that lockdep marks in every vector (IRQ_POLL, which has no
handler in the campaign world, too) was taken in softirq context outside
any handler: that usage is not checked per vector.  Nor is that of a
class lockdep saw taken in hard interrupt context: an interrupt that
arrives while a vector's handler runs marks its locks in that vector
too (i8042_lock, taken by i8042_interrupt(), marked RCU in one boot of
two), and a section that holds such a lock keeps interrupts off.

Unmapped classes are listed by name; those lockdep saw in a vector are
counted apart (the oracle cannot check them).  The report also gives,
per BH section of the world, the observed mask (vectors lockdep saw for
the section's classes and for classes observed ordered before them,
through unambiguous mappings only) next to the static mask: a lower
bound beside the upper bound.  With --stats (copies of
/proc/lockdep_stats), the tables' fill levels are reported and a table
over 90% full fails the run (lockdep would soon turn itself off).

Writes DIR/oracle.md (for people), DIR/oracle.json (counts, misses,
per-section bounds) and DIR/unmapped.txt; with --annotate, the bounds
and counts also go into the analysis's vectors.json and summary.txt.  Exit status: 0 nothing
missed, 1 a miss or a table nearly full, 2 bad input.
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import sys
from collections import defaultdict, deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rules import VECTORS  # noqa: E402
from va_world import mask_str  # noqa: E402

# /proc/lockdep's usage string with the core series: a write and a read
# character per state, in kernel/locking/lockdep_states.h's order.
STATES = ("HARDIRQ",) + VECTORS
# The key is a hashed pointer, "(____ptrval____)" until the kernel's
# random key is ready (a guest with little entropy); the name with its
# "#N" version and "/N" subclass is unique among the classes listed.
CLASS_LINE = re.compile(r"^(?P<key>\S+)(?: OPS:\s*\d+)? FD:\s*\d+ BD:\s*\d+"
                        r" (?P<usage>[-+?.]+): (?P<name>.+)$")
DEP_LINE = re.compile(r"^ -> \[(?P<key>[^]]+)\] (?P<name>.+)$")
STAT_LINE = re.compile(r"^ *(?P<what>[^:]+): *(?P<n>\d+)(?: \[max: (?P<max>\d+)\])?$")
FULL_PCT = 90


@dataclass
class LdClass:
    name: str
    usage: str
    vectors: set[str] = field(default_factory=set)
    after: set[str] = field(default_factory=set)  # keys taken while this is held
    hardirq: bool = False                          # taken in hard irq (in_hardirq())


def die(msg: str) -> NoReturn:
    print(f"lockdep-oracle: {msg}", file=sys.stderr)
    sys.exit(2)


def usage_states(usage: str) -> set[str]:
    """The states (hard irq, vectors) a usage string says the class was
    taken in."""
    if len(usage) != 2 * len(STATES):
        raise ValueError(f"usage '{usage}' has {len(usage)} characters, not the"
                         f" {2 * len(STATES)} of the core series' states")
    return {st for i, st in enumerate(STATES) if set(usage[2 * i:2 * i + 2]) & {"-", "?"}}


def usage_vectors(usage: str) -> set[str]:
    """The vectors a usage string says the class was taken in."""
    return usage_states(usage) - {"HARDIRQ"}


def in_hardirq(usage: str) -> bool:
    """Did lockdep see the class taken in hard interrupt context?  Its
    vector marks may then come from an interrupt that arrived while the
    vector's handler ran (mark_usage() marks both contexts), not from
    the handler (i8042_lock, taken by i8042_interrupt(), marked RCU)."""
    return "HARDIRQ" in usage_states(usage)


def read_lockdep(path: Path) -> dict[str, LdClass]:
    """Classes of one /proc/lockdep copy, keyed by name (with its
    suffixes, unique among the classes listed)."""
    classes: dict[str, LdClass] = {}
    cur: LdClass | None = None
    for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
        if (m := CLASS_LINE.match(line)):
            try:
                states = usage_states(m.group("usage"))
            except ValueError as err:
                die(f"{path}:{n}: {err} (a kernel without the core series?)")
            cur = LdClass(m.group("name").strip(), m.group("usage"),
                          states - {"HARDIRQ"}, hardirq="HARDIRQ" in states)
            classes[cur.name] = cur
        elif (m := DEP_LINE.match(line)):
            if cur is None:
                die(f"{path}:{n}: a dependency before any class")
            cur.after.add(m.group("name").strip())
    if not classes:
        die(f"{path}: no lock classes (not a copy of /proc/lockdep with PROVE_LOCKING?)")
    return classes


def read_keys(path: Path) -> list[tuple[re.Pattern[str], str, str]]:
    """Reviewed mapping rules: 'REGEX CLASS[,CLASS...]|-pseudo|-unmapped
    # why' per line (a name two locks share maps to both; -unmapped: a
    name that says nothing of the lock, such as a helper's parameter)."""
    rules = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        body, _, why = line.partition("#")
        if not body.strip():
            continue
        parts = body.split()
        if len(parts) != 2 or not why.strip():
            die(f"{path}:{n}: expected 'REGEX CLASS  # reason', got {line!r}")
        try:
            rules.append((re.compile(parts[0]), parts[1], why.strip()))
        except re.error as err:
            die(f"{path}:{n}: bad regular expression: {err}")
    return rules


def base_name(name: str) -> str:
    """A lockdep class name without its '#N' version and '/N' subclass."""
    return re.sub(r"(#\d+)?(/\d+)?$", "", name)


class Mapper:
    def __init__(self, static: dict[str, Any], keys: list[tuple[re.Pattern[str], str, str]],
                 inits: dict[str, list[str]], static_names: dict[str, list[str]] | None = None,
                 sleeping: list[str] | None = None, pseudo: list[str] | None = None):
        self.keys = keys
        self.inits = inits
        self.static_names = {k: v for k, v in (static_names or {}).items() if v}
        self.sleeping = set(sleeping or ())
        self.pseudo = set(pseudo or ())
        self.by_symbol: dict[str, list[str]] = defaultdict(list)
        self.by_field: dict[str, list[str]] = defaultdict(list)
        for c in static:
            tail = c.rsplit(":", 1)[-1]
            if re.fullmatch(r"[A-Za-z_]\w*", tail):
                self.by_symbol[tail].append(c)
            elif re.fullmatch(r"[\w.]+", c) and "." in c:
                self.by_field[c.rsplit(".", 1)[-1]].append(c)

    def map(self, name: str) -> tuple[str, list[str]]:
        """(how, analysis classes); how is key, symbol, field, pseudo or
        unmapped."""
        bare = base_name(name)
        for rx, target, _why in self.keys:
            if rx.fullmatch(bare):
                if target in ("-pseudo", "-unmapped"):
                    return target[1:], []
                return "key", target.split(",")
        if re.fullmatch(r"[A-Za-z_]\w*", bare) and bare in self.by_symbol:
            return "symbol", sorted(self.by_symbol[bare])
        if bare in self.pseudo and bare not in self.inits:
            # a static lockdep map that is no lock (DECLARE_WORK()'s)
            return "pseudo", []
        if bare in self.static_names:
            # the name of a lock in a static initializer (a lock in a
            # static struct: rcu_state.barrier_lock): that field's class
            return "static", sorted(self.static_names[bare])
        if bare in self.inits and self.inits[bare]:
            # the name a lock-init site of the world gives: the classes
            # of those sites' locks
            return "site", list(self.inits[bare])
        if bare in self.sleeping:
            # a mutex, rw_semaphore, ...: no class of the analysis, and
            # no vector may take it (checked below)
            return "sleeping", []
        if bare in self.inits:
            # no site's lock pointer is resolved, and guessing by the
            # name would be a guess
            return "unresolved", []
        m = re.fullmatch(r"([A-Za-z_]\w*)(\.[A-Za-z_]\w*)*\.seqcount", bare)
        if m and m.group(1) in self.by_symbol:
            # DEFINE_SEQLOCK(x): the sequence counter's map "x.seqcount"
            # (SEQCNT_SPINLOCK_ZERO()); the analysis takes a seqlock's
            # writers and readers as acquisitions of x itself.  Likewise
            # a counter inside a static object, "tk_core.seq.seqcount"
            # (SEQCNT_RAW_SPINLOCK_ZERO(tk_core.seq, ...)): the object's
            # symbol, not the field "seqcount" of whatever struct has one
            return "symbol", sorted(self.by_symbol[m.group(1)])
        idents = re.findall(r"[A-Za-z_]\w*", bare)
        if not idents:
            return "unmapped", []
        if "->" in bare or "." in bare:
            # spin_lock_init(&p->f), spin_lock_init(&obj.f.g): the last
            # member names the lock's field, in whatever struct
            if idents[-1] in self.by_field:
                return "field", sorted(self.by_field[idents[-1]])
            return "unmapped", []
        # spin_lock_init(locks + i), spin_lock_init(&locks[i]): an
        # element of a lock array, a static symbol
        if idents[0] in self.by_symbol:
            return "symbol", sorted(self.by_symbol[idents[0]])
        return "unmapped", []


def reach(graph: dict[str, set[str]], src: str, memo: dict[str, set[str]]) -> set[str]:
    if src not in memo:
        seen: set[str] = set()
        q = deque([src])
        while q:
            x = q.popleft()
            for y in graph.get(x, ()):
                if y not in seen:
                    seen.add(y)
                    q.append(y)
        memo[src] = seen
    return memo[src]


def read_stats(paths: list[Path]) -> tuple[list[str], list[str]]:
    """Fill levels of lockdep's tables; the ones over FULL_PCT."""
    rows, full = [], []
    for p in paths:
        for line in p.read_text(errors="replace").splitlines():
            m = STAT_LINE.match(line)
            if not m or not m.group("max"):
                continue
            n, mx = int(m.group("n")), int(m.group("max"))
            pct = 100 * n / mx if mx else 0
            rows.append(f"| {p.name} | {m.group('what').strip()} | {n} | {mx} | {pct:.0f}% |")
            if pct > FULL_PCT:
                full.append(f"{p}: {m.group('what').strip()} {n} of {mx}")
    return rows, full


SUMMARY_MARK = "lockdep oracle"


def annotate(folder: Path, summary: dict[str, Any], rows: list[dict[str, Any]]) -> None:
    """The lower bound beside the upper bound, in the analysis's own
    output: per section of vectors.json, "observed" (the vectors lockdep
    saw for its classes and those held before them) and "exercised"; the
    counts in summary.txt (its "lockdep oracle" lines are replaced)."""
    vpath, spath = folder / "vectors.json", folder / "summary.txt"
    try:
        data = json.loads(vpath.read_text())
        lines = spath.read_text().splitlines()
    except (OSError, ValueError) as err:
        die(f"--annotate: cannot read the analysis in {folder}: {err}")
    secs = data.get("sections", [])
    if len(secs) != len(rows) or any(s.get("loc") != r["loc"] for s, r in zip(secs, rows)):
        die(f"--annotate: {vpath} is not the analysis the oracle read (its sections differ)")
    for sec, r in zip(secs, rows):
        sec["observed"] = r["observed"]
        sec["exercised"] = r["exercised"]
    data["oracle"] = {k: v for k, v in summary.items() if k != "tables_nearly_full"}
    tmp = vpath.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(data, sort_keys=True, separators=(",", ":")))
    tmp.replace(vpath)
    m = summary["mapped"]
    mine = [f"{SUMMARY_MARK}: {summary['boots']} boot(s); classes observed {summary['observed_classes']},"
            f" named {summary['mapped_total']} ({summary['mapped_pct']}%: {m['key']} by key,"
            f" {m['symbol']} by symbol, {m['static']} by static initializer, {m['site']} by init"
            f" site, {m['field']} by field, {m['sleeping']} sleeping, {m['pseudo']} pseudo),"
            f" unresolved {m['unresolved']}, unmapped {m['unmapped']}",
            f"{SUMMARY_MARK}: usage checked {summary['in_vector_checked']} of"
            f" {summary['in_vector']} in a vector, missed {summary['usage_missed']};"
            f" edges checked {summary['edges_checked']} of {summary['observed_edges']},"
            f" missed {summary['edges_missed']}",
            f"{SUMMARY_MARK}: coverage: classes {summary['static_classes_observed']} of"
            f" {summary['static_classes']}, order edges {summary['static_edges_observed']} of"
            f" {summary['static_edges']}, sections {summary['sections_exercised']} of"
            f" {summary['sections']} (net/: {summary['net_sections_exercised']} of"
            f" {summary['net_sections']})"]
    keep = [ln for ln in lines if not ln.startswith(f"{SUMMARY_MARK}:")]
    spath.write_text("\n".join(keep + mine) + "\n")


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--vectors", type=Path, required=True)
    ap.add_argument("--lockdep", type=Path, action="append", required=True)
    ap.add_argument("--keys", type=Path, default=Path(__file__).with_name("lockdep-keys.txt"))
    ap.add_argument("--stats", type=Path, action="append", default=[])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--hot", action="append", default=[], metavar="FUNCTION",
                    help="a function whose sections hold vectors back under load"
                    " (results/e2e.md's stretch table): say whether the boots exercised them")
    ap.add_argument("--write-table", type=Path, default=None, metavar="FILE",
                    help="also write the part of --vectors the oracle reads (classes: mask,"
                    " takes, before; sections), the table make check checks its boot against")
    ap.add_argument("--annotate", type=Path, default=None, metavar="DIR",
                    help="the analysis's output folder (make analyze: $OUT/vectors): write each"
                    " section's observed mask beside its static one into DIR/vectors.json and"
                    " the oracle's counts into DIR/summary.txt")
    a = ap.parse_args(argv[1:])
    try:
        raw = a.vectors.read_bytes()
        data = json.loads(gzip.decompress(raw) if a.vectors.suffix == ".gz" else raw)
        static: dict[str, Any] = data["classes"]
        sections: list[dict[str, Any]] = data["sections"]
        keys = read_keys(a.keys)
    except (OSError, ValueError, KeyError, EOFError) as err:
        die(f"cannot read the analysis or the key rules: {err}")
    if static and not all("takes" in v for v in static.values()):
        die(f"{a.vectors} has no 'takes' per class: an analysis older than the oracle;"
            " run 'make analyze' again")
    if a.write_table:
        table = {"classes": {c: {k: v.get(k) for k in ("mask", "takes", "before")}
                             for c, v in static.items()},
                 "inits": data.get("inits", {}),
                 "static_names": data.get("static_names", {}),
                 "sleeping": data.get("sleeping", []),
                 "pseudo_names": data.get("pseudo_names", []),
                 "sections": [{k: sec.get(k) for k in ("loc", "function", "classes", "inner", "mask")}
                              for sec in sections]}
        a.write_table.parent.mkdir(parents=True, exist_ok=True)
        text = (json.dumps(table, sort_keys=True, separators=(",", ":")) + "\n").encode()
        # mtime=0: the same table gives the same bytes (git sees no change)
        a.write_table.write_bytes(gzip.compress(text, mtime=0)
                                  if a.write_table.suffix == ".gz" else text)
    obs: dict[str, LdClass] = {}
    for p in a.lockdep:
        try:
            # one kernel in every boot: a name is the same class in each
            # (the suffixes follow registration order, which may differ;
            # merged classes share their base name, hence their analysis
            # classes, and the union of what they saw is checked against
            # the same prediction, so merging never hides a miss)
            for c in read_lockdep(p).values():
                have = obs.setdefault(c.name, LdClass(c.name, c.usage))
                have.vectors |= c.vectors
                have.after |= c.after
                have.hardirq |= c.hardirq
        except OSError as err:
            die(f"cannot read {p}: {err}")
    mapper = Mapper(static, keys, data.get("inits", {}), data.get("static_names", {}),
                    data.get("sleeping", []), data.get("pseudo_names", []))
    mapped: dict[str, tuple[str, list[str]]] = {k: mapper.map(c.name) for k, c in obs.items()}

    # static order: l is ordered after b when b is in l's "before"
    after: dict[str, set[str]] = defaultdict(set)
    nedges = 0
    for sc, info in static.items():
        for b in info.get("before", ()):
            after[b].add(sc)
            nedges += 1
    memo: dict[str, set[str]] = {}

    counts: dict[str, int] = defaultdict(int)
    usage_miss, usage_unchecked = [], []
    checked_vectors: set[str] = set()
    for k, c in obs.items():
        how, cands = mapped[k]
        counts[how] += 1
        if how in ("field", "site") and len(cands) > 1:
            counts[f"{how}-ambiguous"] += 1
        if not c.vectors:
            continue
        counts["in-vector"] += 1
        if c.vectors == set(VECTORS):
            # every vector, IRQ_POLL too: lockdep's mark for a softirq
            # context that serves no vector in particular (outside the
            # handlers, the self-tests' simulated softirqs), which says
            # nothing about any one vector
            counts["any-vector"] += 1
            usage_unchecked.append(f"{c.name} (no vector in particular): every vector")
            continue
        if how == "sleeping":
            # a sleeping lock in a softirq: lockdep's own report would say
            # so too; for the oracle, a mapping rule (or the world) is wrong
            usage_miss.append({"class": c.name, "mapped": how, "candidates": [],
                               "observed": sorted(c.vectors), "predicted": [],
                               "missed": sorted(c.vectors)})
            continue
        if how in ("unmapped", "unresolved", "pseudo"):
            usage_unchecked.append(f"{c.name} ({how}): {' '.join(sorted(c.vectors))}")
            continue
        if c.hardirq:
            # taken in hard irq: a section holding it keeps interrupts
            # off (lockdep checks that), and its vector marks may be an
            # interrupt's nested in a handler: not checked per vector
            usage_unchecked.append(f"{c.name} (taken in hard irq): {' '.join(sorted(c.vectors))}")
            continue
        counts["in-vector-checked"] += 1
        checked_vectors |= c.vectors
        takes = set().union(*(set(static.get(x, {}).get("takes", ())) for x in cands))
        miss = c.vectors - takes
        if miss:
            usage_miss.append({"class": c.name, "mapped": how, "candidates": cands,
                               "observed": sorted(c.vectors), "predicted": sorted(takes),
                               "missed": sorted(miss)})

    edge_miss, nobs_edges, nchecked = [], 0, 0
    seen_static: set[tuple[str, str]] = set()
    for k, c in obs.items():
        ca = mapped[k][1]
        for k2 in c.after:
            nobs_edges += 1
            if k2 not in obs:
                continue
            cb = mapped[k2][1]
            if not ca or not cb:
                continue
            nchecked += 1
            # two lockdep classes of one analysis class (a seqlock and its
            # counter, two instances of one field) nest: the analysis
            # keeps no edge from a class to itself, and none is needed,
            # since such an edge adds no vector to any mask
            ok = bool(set(ca) & set(cb)) or any(y in reach(after, x, memo) for x in ca for y in cb)
            if len(ca) == 1 and len(cb) == 1 and cb[0] in after.get(ca[0], ()):
                seen_static.add((ca[0], cb[0]))
            if not ok:
                edge_miss.append({"from": c.name, "to": obs[k2].name,
                                  "from_classes": ca, "to_classes": cb})

    # lower bound per section: unambiguous mappings only
    vec_of: dict[str, set[str]] = defaultdict(set)
    pred: dict[str, set[str]] = defaultdict(set)  # observed: class -> held before it
    for k, c in obs.items():
        how, cands = mapped[k]
        if len(cands) != 1:
            continue
        if c.vectors != set(VECTORS):
            # (marked in every vector: taken in softirq context outside
            # any handler, no vector in particular; see above)
            vec_of[cands[0]] |= c.vectors
        for k2 in c.after:
            if k2 in obs and len(mapped[k2][1]) == 1:
                pred[mapped[k2][1][0]].add(cands[0])
    pmemo: dict[str, set[str]] = {}
    rows = []
    exercised = 0
    for sec in sections:
        cls = list(sec.get("classes", [])) + list(sec.get("inner", []))
        seen = [x for x in cls if x in vec_of]
        low: set[str] = set()
        for x in cls:
            for y in {x} | reach(pred, x, pmemo):
                low |= vec_of.get(y, set())
        if seen:
            exercised += 1
        rows.append({"loc": sec["loc"], "function": sec["function"],
                     "static": sec["mask"], "observed": mask_str(low),
                     "exercised": bool(seen)})

    net = [r for r in rows if r["loc"].startswith("net/")]
    hot_rows = []
    for fn in a.hot:
        mine = [r for r in rows if r["function"] == fn or r["function"].endswith(":" + fn)]
        hot_rows.append({"function": fn, "sections": len(mine),
                         "exercised": sum(r["exercised"] for r in mine)})
    stat_rows, full = read_stats(a.stats)
    static_seen = {x for k in obs for x in mapped[k][1] if len(mapped[k][1]) == 1}
    mapped_counts = {h: counts[h] for h in ("key", "symbol", "static", "site", "field",
                                            "sleeping", "pseudo", "unresolved", "unmapped")}
    named = len(obs) - counts["unresolved"] - counts["unmapped"]
    summary: dict[str, Any] = {
        "boots": len(a.lockdep), "observed_classes": len(obs),
        "mapped": mapped_counts,
        "mapped_to_analysis": len(obs) - counts["unresolved"] - counts["unmapped"]
        - counts["sleeping"] - counts["pseudo"],
        "mapped_total": named,
        "mapped_pct": round(100 * named / len(obs), 1) if obs else 0.0,
        "field_ambiguous": counts["field-ambiguous"], "site_ambiguous": counts["site-ambiguous"],
        "in_vector": counts["in-vector"], "in_vector_checked": counts["in-vector-checked"],
        "in_any_vector": counts["any-vector"],
        "usage_missed": len(usage_miss), "observed_edges": nobs_edges,
        "edges_checked": nchecked, "edges_missed": len(edge_miss),
        "static_classes": len(static), "static_classes_observed": len(static_seen),
        "static_edges": nedges, "static_edges_observed": len(seen_static),
        "sections": len(sections), "sections_exercised": exercised,
        "net_sections": len(net), "net_sections_exercised": sum(r["exercised"] for r in net),
        "tables_nearly_full": full,
    }
    a.out.mkdir(parents=True, exist_ok=True)
    (a.out / "oracle.json").write_text(json.dumps(
        {"summary": summary, "checked_vectors": sorted(checked_vectors), "usage_missed": usage_miss, "edges_missed": edge_miss,
         "usage_unchecked": usage_unchecked, "hot": hot_rows, "sections": rows}, indent=1) + "\n")
    unm = sorted({obs[k].name for k in obs if mapped[k][0] in ("unmapped", "unresolved")})
    why = {n: next((w for rx, t, w in keys if t == "-unmapped" and rx.fullmatch(base_name(n))),
                   "named by lock-init sites whose lock the analysis does not resolve"
                   if base_name(n) in mapper.inits else "")
           for n in unm}
    (a.out / "unmapped.txt").write_text("".join(f"{n}{'  # ' + why[n] if why[n] else ''}\n"
                                                for n in unm))
    md = ["# Lockdep as the analysis's oracle", "",
          f"Boots: {', '.join(f'{p.parent.parent.name} ({p.name})' for p in a.lockdep)};"
          f" analysis: {a.vectors.name}.", "",
          "| what | count |", "|---|---|"]
    md += [f"| {k} | {v} |" for k, v in summary.items() if not isinstance(v, (dict, list))]
    md += [f"| mapped by {k} | {v} |" for k, v in mapped_counts.items()]
    md += ["", f"## Usage missed ({len(usage_miss)})", ""]
    md += [f"- {m['class']} ({m['mapped']}: {', '.join(m['candidates'])}): lockdep saw"
           f" {' '.join(m['missed'])}; the analysis predicts {' '.join(m['predicted']) or 'none'}"
           for m in usage_miss] or ["none"]
    md += ["", f"## Order edges missed ({len(edge_miss)})", ""]
    md += [f"- {e['from']} -> {e['to']}" for e in edge_miss[:200]] or ["none"]
    md += ["", f"## Taken in a vector, not checkable ({len(usage_unchecked)})", ""]
    md += [f"- {u}" for u in usage_unchecked] or ["none"]
    if hot_rows:
        md += ["", "## Hot functions (the stretch table of results/e2e.md)", "",
               "| function | its BH sections | exercised (a class seen) |", "|---|---|---|"]
        md += [f"| {h['function']} | {h['sections']} | {h['exercised']} |" for h in hot_rows]
    md += ["", "## Sections of net/ not exercised (lockdep saw none of their classes)", ""]
    md += [f"- {r['loc']} {r['function']} ({r['static']})" for r in net if not r["exercised"]] or ["none"]
    md += ["", "## Sections: static mask and observed mask (exercised: lockdep saw a class"
           " of theirs, through an unambiguous mapping)", "",
           "| section | function | static | observed |", "|---|---|---|---|"]
    md += [f"| {r['loc']} | {r['function']} | {r['static']} | {r['observed']} |"
           for r in rows if r["exercised"]]
    if stat_rows:
        md += ["", "## Lockdep's tables", "", "| copy | table | used | max | fill |",
               "|---|---|---|---|---|"] + stat_rows
    (a.out / "oracle.md").write_text("\n".join(md) + "\n")
    print(f"lockdep-oracle: {len(obs)} classes observed in {len(a.lockdep)} boot(s):"
          f" {counts['key']} by key, {counts['symbol']} by symbol,"
          f" {counts['static']} by static initializer,"
          f" {counts['site']} by init site ({counts['site-ambiguous']} ambiguous),"
          f" {counts['field']} by field ({counts['field-ambiguous']} ambiguous),"
          f" {counts['sleeping']} sleeping, {counts['pseudo']} pseudo,"
          f" {counts['unresolved']} unresolved, {counts['unmapped']} unmapped"
          f" ({named} of {len(obs)} named, {summary['mapped_pct']}%);"
          f" in a vector {counts['in-vector']} ({counts['in-vector-checked']} checked),"
          f" usage missed {len(usage_miss)}; edges {nobs_edges} ({nchecked} checked),"
          f" missed {len(edge_miss)}; sections exercised {exercised} of {len(sections)}")
    if a.annotate:
        annotate(a.annotate, summary, rows)
    for f in full:
        print(f"lockdep-oracle: table nearly full: {f}", file=sys.stderr)
    return 1 if usage_miss or edge_miss or full else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
