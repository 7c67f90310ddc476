"""Small hand-built worlds for the unit tests of the vector analysis's
modules (scripts/analysis/va_*.py).  Importing this puts
scripts/analysis on the import path: the modules import each other and
rules.py by name, so a test imports them by name too (loading one by
path a second time would make a second copy of the layers below it).

A world is given the way ir_facts.py writes one unit's facts (the
format vectors.py reads), reduced to what a test sets:
- fn(), straight(): a function, its blocks as {"name": ([events],
  [successors])}, an event ["call", SITE] (SITE indexes the unit's
  calls), ["ld"|"st", POINTER NODE, LOC] or ["pc", NODE, WRITE, ATOMIC,
  LOC];
- call(): a call site, [caller, callee ("" for an indirect call),
  function pointer node, argument nodes, result node, LOC, prototype,
  constant arguments];
- unit(): the unit's JSON; load() a World from units, run() the solve's
  steps in the order vectors.py runs them."""
import json
import os
import sys
import tempfile
from typing import Any

from script_module import TOP

sys.path.insert(0, str(TOP / "scripts" / "analysis"))

import va_order  # noqa: E402
import va_world  # noqa: E402

Blocks = dict[str, tuple[list[list[Any]], list[str]]]


def fn(fid: str, blocks: Blocks | None = None, params: list[str] | None = None,
       proto: str = "void()", internal: bool = False, loc: str = "") -> dict[str, Any]:
    """A function fid with blocks (one empty entry block if none); the
    entry is the first block.  Its name is fid less a static function's
    "file:" (ir_facts.py's ids)."""
    blocks = blocks or {"entry": ([], [])}
    return {"fid": fid, "name": fid.rpartition(":")[2], "internal": internal,
            "params": params or [], "proto": proto,
            "loc": loc or f"{fid}.c:1",
            "blocks": {b: [list(evs), list(succ)] for b, (evs, succ) in blocks.items()},
            "entry": next(iter(blocks))}


def straight(fid: str, sites: list[int], **kw: Any) -> dict[str, Any]:
    """A function of one block that makes the calls at sites in order."""
    return fn(fid, {"entry": ([["call", s] for s in sites], [])}, **kw)


def call(caller: str, callee: str, args: list[str] | None = None, loc: str = "",
         fp: str = "", dst: str = "", proto: str = "void()",
         consts: list[Any] | None = None) -> list[Any]:
    args = args or []
    return [caller, callee, fp, args, dst, loc or f"{caller}.c:{callee or 'icall'}",
            proto, consts if consts is not None else [None] * len(args)]


def unit(functions: list[dict[str, Any]], calls: list[list[Any]],
         cons: list[list[Any]] | None = None, declared: list[str] | None = None,
         locks: list[str] | None = None, globals_: dict[str, dict[str, Any]] | None = None,
         fields: dict[str, list[str]] | None = None, tu: str = "t.c",
         **extra: Any) -> dict[str, Any]:
    """One unit's facts (extra: other keys, such as inits).  Callees that
    no function of the unit defines are declared, as ir_facts.py lists
    them."""
    funcs = {f["fid"]: {k: v for k, v in f.items() if k != "fid"} for f in functions}
    decl = set(declared or ()) | {c[1] for c in calls if c[1] and c[1] not in funcs}
    return {"tu": tu, "inits": [], "pinits": [], "static_maps": [], "functions": funcs,
            "declared": sorted(decl), "globals": globals_ or {}, "fields": fields or {},
            "cons": cons or [], "calls": calls, "asm": [], "locks": locks or [],
            "pcpu_alias": [], **extra}


def load(*units: dict[str, Any]) -> va_world.World:
    """A World loaded from units, as vectors.py loads the fact files."""
    w = va_world.World()
    with tempfile.TemporaryDirectory() as d:
        paths = []
        for i, u in enumerate(units):
            p = os.path.join(d, f"{i}.json")
            with open(p, "w", encoding="utf-8") as f:
                json.dump(u, f)
            paths.append(p)
        w.load(paths)
    return w


def run(w: va_world.World, until: str = "section_masks",
        overrides: list[dict[str, str]] | None = None) -> va_order.Analysis:
    """The solve's steps on w, in vectors.py's order, up to until."""
    a = va_order.Analysis(w, overrides or [])
    for step in ("solve", "callgraph", "site_events", "reach", "takes", "acq_trans",
                 "sections_and_order", "class_masks", "section_masks"):
        getattr(a, step)()
        if step == until:
            break
    return a


# The stub kernel's primitives, by the names rules.PRIMITIVES knows.
LOCK, UNLOCK = "_raw_spin_lock", "_raw_spin_unlock"
LOCK_BH, UNLOCK_BH = "_raw_spin_lock_bh", "_raw_spin_unlock_bh"
TRYLOCK = "_raw_spin_trylock"
LOCK_IRQSAVE, UNLOCK_IRQRESTORE = "_raw_spin_lock_irqsave", "_raw_spin_unlock_irqrestore"
