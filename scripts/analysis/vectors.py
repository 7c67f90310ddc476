#!/usr/bin/env python3
"""Which softirq vectors must each BH section mask: the world-wide solve.

Usage:  vectors.py --facts DIR --out DIR [--world NAME] [--overrides FILE]
Reads:  DIR/*.json written by scripts/analysis/ir_facts.py (one per
        translation unit of the world), scripts/analysis/rules.py.
Writes: OUT/masks.txt (class and section masks), OUT/vectors.json (the
        same with evidence), OUT/evidence.md (for reviewers),
        OUT/summary.txt (counts and the indirect-call precision table).
Exit:   0 done, 1 an override is stale or cuts nothing, 2 usage error
        or no facts.

The rules (see scripts/analysis/README.md):
- points-to: field-based and flow-insensitive (every struct S field k is
  one abstract location), whole world, parameters and returns linked at
  every resolved call;
- indirect calls: the functions the loaded pointer can hold (typed
  fields, data flow through parameters), plus, as the sound fallback,
  escaped functions of the same prototype; a pointer with no known
  value reaches every address-taken function of its prototype;
- vectors: a function runs in V when reachable from V's open_softirq()
  handler, not through the softirq dispatcher (a barrier), with the
  per-dispatcher rules of rules.py (RCU callbacks are call_rcu()'s,
  HRTIMER callbacks are those of soft hrtimer objects);
- a lock wrapper (a function whose lock argument is its own parameter)
  acquires at its call sites, so the class is the caller's argument;
- class mask(L) = vectors taking L or any lock ordered before L;
  section mask = union of class masks over the section's lock and every
  lock (and raw per-CPU write) inside it, callees included.
"""

from __future__ import annotations

from typing import Any, Callable, Hashable, Iterable, Iterator, TypeVar

import argparse
import functools
import hashlib
import glob
import json
import os
import re
import sys
import time
from collections import Counter, defaultdict, deque

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import imprecision  # noqa: E402
import rules  # noqa: E402

VECTORS = rules.VECTORS


@functools.lru_cache(maxsize=None)
def proto_parts(proto: str) -> tuple[str, ...] | None:
    """A prototype as (return type, argument types...) for fitting an
    indirect call: a pointer to a struct or union keeps its type, any
    other pointer (void *, char *, a pointer to a pointer or to a
    function) is "ptr", which fits every pointer.  None for a variadic
    prototype, which fits anything."""
    if "..." in proto or not proto.endswith(")"):
        return None
    depth, i = 0, len(proto) - 1
    while i >= 0:
        ch = proto[i]
        if ch == ")":
            depth += 1
        elif ch == "(":
            depth -= 1
            if depth == 0:
                break
        i -= 1
    parts = [proto[:i].strip()]
    depth, cur = 0, ""
    for ch in proto[i + 1:-1] + ",":
        if ch == "," and depth == 0:
            if cur.strip():
                parts.append(cur.strip())
            cur = ""
            continue
        depth += ch in "([{<"
        depth -= ch in ")]}>"
        cur += ch

    def norm(t: str) -> str:
        if not t.endswith("*"):
            return t
        if re.fullmatch(r"%(struct|union)\.[\w.$]+\*", t):
            return t
        return "ptr"
    return tuple(norm(t) for t in parts)


def proto_fits(call_proto: str, fn_proto: str) -> bool:
    """May a call of call_proto run a function of fn_proto?  What kCFI
    enforces, except that void * and other untyped pointers fit any
    pointer (a callback declared with void * and defined with struct
    foo *)."""
    a, b = proto_parts(call_proto), proto_parts(fn_proto)
    if a is None or b is None:
        return True
    if len(a) != len(b):
        return False
    return all(x == y or (x == "ptr" and y.endswith("*")) or
               (y == "ptr" and x.endswith("*")) for x, y in zip(a, b))


N = TypeVar("N", bound=Hashable)


def strong_components(roots: Iterable[N],
                      succ: Callable[[N], Iterable[N]]) -> list[list[N]]:
    """Tarjan's strongly connected components, iterative: every node
    reachable from roots (in their order), each component as its nodes
    leave the stack, components in the order they complete (a node's
    successors' components before its own)."""
    index: dict[N, int] = {}
    low: dict[N, int] = {}
    onstack: set[N] = set()
    stack: list[N] = []
    comps: list[list[N]] = []
    for root in roots:
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        onstack.add(root)
        work = [(root, iter(succ(root)))]
        while work:
            v, it = work[-1]
            advanced = False
            for t in it:
                if t not in index:
                    index[t] = low[t] = len(index)
                    stack.append(t)
                    onstack.add(t)
                    work.append((t, iter(succ(t))))
                    advanced = True
                    break
                if t in onstack:
                    low[v] = min(low[v], index[t])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    x = stack.pop()
                    onstack.discard(x)
                    comp.append(x)
                    if x == v:
                        break
                comps.append(comp)
    return comps


def node_fn(node: str) -> str:
    """The function a value node ("FID/%name") belongs to; a static
    function's id holds its file's path ("kernel/rcu/tree.c:f"), so the
    cut is at the last "/%", not the first "/"."""
    fid, sep, _ = node.rpartition("/%")
    return fid if sep else node.split("/", 1)[0]


def mask_str(vs: Any) -> str:
    vs = set(vs)
    if not vs:
        return "NONE"
    if len(vs) == len(VECTORS):
        return "ALL"
    return "|".join(v for v in VECTORS if v in vs)


class Event:
    """A lock event at a call site (see Analysis.site_events)."""
    __slots__ = ("kind", "classes", "prim", "node", "role", "lifted", "attributed",
                 "unknown", "cond", "paired")

    def __init__(self, kind: str, classes: frozenset[str], prim: str, node: str,
                 role: str) -> None:
        self.kind, self.classes, self.prim, self.node, self.role = \
            kind, classes, prim, node, role
        self.lifted = False         # also an event of the callers; no section here
        self.attributed = False     # its acquisition counts at the callers
        self.unknown = False        # the lock may also be one the solve cannot name
        # held on return only when the function returns true (a bool
        # function that also has a path releasing it: __do_once_start())
        self.cond = False
        # an acquisition and a release under the test that guards both
        # (Analysis.correlated()): neither is lifted, and the
        # acquisition's unended paths cannot run
        self.paired = False

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Event) and \
            (self.kind, self.classes, self.prim, self.node, self.role, self.cond) == \
            (other.kind, other.classes, other.prim, other.node, other.role, other.cond)

    def __hash__(self) -> int:
        return hash((self.kind, self.classes, self.prim, self.node, self.role, self.cond))


class World:
    def __init__(self) -> None:
        self.functions: dict[str, dict[Any, Any]] = {}
        self.declared: set[str] = set()
        self.globals: dict[str, dict[Any, Any]] = {}
        self.fieldnames: dict[str, list[Any]] = defaultdict(list)
        self.cons: list[list[Any]] = []
        self.pcpu_alias: list[list[str]] = []
        self.pcpu_merged = 0
        self.pcpu_named: set[str] = set()
        self.calls: list[list[Any]] = []
        self.fn_tu: dict[str, str] = {}
        self.locks: set[str] = set()
        # (call site, lockdep name, its argument index, the struct the
        # lock argument points into) of each lock-init call; (site,
        # caller's parameter, argument index) of a helper passing its
        # parameter on as the name; (location, type, name) of the lockdep
        # maps in global initializers (ir_facts.py)
        self.inits: list[tuple[int, str, int, str]] = []
        self.pinits: list[tuple[int, int, int]] = []
        self.static_maps: list[tuple[str, str, str]] = []

    def load(self, paths: list[str]) -> None:
        for p in paths:
            with open(p, encoding="utf-8") as f:
                d = json.load(f)
            base = len(self.calls)
            for fid, fn in d["functions"].items():
                if fid in self.functions:
                    continue        # a second definition (weak): keep one
                for b in fn["blocks"].values():
                    for ev in b[0]:
                        if ev[0] == "call":
                            ev[1] += base
                self.functions[fid] = fn
                self.fn_tu[fid] = d["tu"]
            self.declared.update(d["declared"])
            self.locks.update(d.get("locks", ()))
            for g, info in d["globals"].items():
                # a declaration in one unit, the definition (and its
                # type) in another: keep what either says
                self.globals.setdefault(g, {}).update(info)
            for k, names in d["fields"].items():
                for n in names:
                    if n not in self.fieldnames[k]:
                        self.fieldnames[k].append(n)
            self.cons.extend(d["cons"])
            self.inits.extend((site + base, name, k, hint)
                              for site, name, k, hint in d.get("inits", ()))
            self.pinits.extend((site + base, j, k) for site, j, k in d.get("pinits", ()))
            self.static_maps.extend((loc, t, name) for loc, t, name, _w in d.get("static_maps", ()))
            self.calls.extend(d["calls"])
            self.pcpu_alias.extend(d.get("pcpu_alias", ()))
        self.declared -= set(self.functions)
        self.widen_generic_percpu()

    def widen_generic_percpu(self) -> None:
        """alloc_percpu() memory is one class per struct it is reached as
        (ir_facts.dynamic_percpu); a pointer to no struct (void *, u64 *)
        may be any of it, so it points to every such class as well as to
        the generic one, which no struct pointer points to."""
        generic = "P:alloc_percpu"
        named = {c[2] for c in self.cons if c[0] == "addr" and
                 c[2].startswith(generic + ":")}
        # A pointer of a named class B that points into an object of
        # another struct A (ir_facts.percpu_aliases) makes B and A one
        # class, or B generic when A cannot be told.
        parent: dict[str, str] = {}

        def find(x: str) -> str:
            while parent.get(x, x) != x:
                x = parent[x]
            return x
        for own, other in self.pcpu_alias:
            if own not in named:
                continue
            a, b = find(own), find(other)
            if a == b:
                continue
            # the generic class, or else the smaller name, stands for both
            if b == generic or (a != generic and b < a):
                a, b = b, a
            parent[b] = a
        rep = {t: find(t) for t in named}
        self.pcpu_named = named
        self.pcpu_merged = sum(1 for t, r in rep.items() if r != t)
        if any(r != t for t, r in rep.items()):
            for c in self.cons:
                if c[0] == "addr" and c[2] in rep:
                    c[2] = rep[c[2]]
        typed = sorted({r for r in rep.values() if r != generic})
        if not typed:
            return
        self.cons.extend(["addr", c[1], t] for c in list(self.cons)
                         if c[0] == "addr" and c[2] == generic for t in typed)

    # ---- naming ------------------------------------------------------
    def field_name(self, key: str) -> str:
        names = self.fieldnames.get(key, [])
        if not names:
            return key.rsplit(".", 1)[1]
        exact = [n[1:] for n in names if n.startswith("=")]
        if exact:
            return str(exact[0])
        bare = [n for n in names if not re.search(r"\d$", n)]
        if bare:
            return str(min(bare, key=len))
        stems = {re.sub(r"\d+$", "", n) for n in names}
        if len(stems) == 1 and len(names) > 1:
            return stems.pop()
        return str(min(names, key=len))

    def class_name(self, loc: str) -> str:
        if loc.startswith("F:"):
            s, k = loc[2:].rsplit(".", 1)
            tag = re.sub(r"^%(struct|union)\.", "", s)
            return f"{tag}.{self.field_name(loc[2:])}"
        if loc.startswith("G:"):
            return loc[2:]
        if loc.startswith("P:"):
            return "percpu:" + loc[2:]
        if loc.startswith("A:"):
            fid, val = loc[2:].split("/", 1)
            return f"{fid}:{val.lstrip('%')}"
        return loc

    def fname(self, fid: str) -> str:
        """A function's name (a callee outside the world is its name)."""
        fn = self.functions.get(fid)
        return str(fn["name"]) if fn else fid

    def prim(self, fid: str) -> str:
        """The primitive a callee is (rules.PRIMITIVES), by its name: a
        static inline primitive (bit_spin_lock()) is defined in every unit
        that uses it."""
        name = self.fname(fid)
        return name if name in rules.PRIMITIVES else ""

    def disp(self, fid: str) -> str:
        """A function's name for people: external functions by name, static
        ones qualified by the file that defines them (a header's static
        inline is one function whatever unit compiled it)."""
        fn = self.functions.get(fid)
        if not fn or not fn["internal"]:
            return fid
        where = fn["loc"].rsplit(":", 1)[0] if fn["loc"] else fid.rsplit(":", 1)[0]
        return f"{where}:{fn['name']}"


UNKNOWN = "U:"      # the value of a load through a pointer of unknown target
DUNKNOWN = "D:"     # the same, loaded as a struct pointer: data, not a function


class Solver:
    """Inclusion constraints with dynamic call edges, field-based.

    A load or store names its memory by the pointer's own address
    values (its "seeds": the field of a GEP, a global, a stack slot;
    a cast of such a pointer is the same node, merged by union-find).
    Pointers to memory are never sent along copies: in a field-based
    model `p->f` is the cell S.f whatever p points to, and sending object
    addresses around the whole kernel does not finish (every void * in
    a generic helper collects them).  What travels along copies,
    parameters and returns is only what the masks need:
    - functions (indirect call targets, callback registrations);
    - locks (lock-typed fields and globals: a lock pointer passed on or
      stored in a field and loaded again keeps its class);
    - per-CPU variables (not through memory);
    - the addresses of global notifier chain heads, as "N:G:x"
      (rules.NOTIFIER_HEAD_TYPES);
    - UNKNOWN, the value of a load through a pointer with no seed (a
      parameter, a loaded pointer): an indirect call that may use it
      reaches every address-taken function of its prototype, a lock
      acquired through it has no class (see Analysis.stored_locks).
      Loaded as a struct pointer it is DUNKNOWN: data, which no call
      runs (an skb's destructor shares a union with its dst), but still
      no class for a lock.
    A store through a pointer with no seed makes the functions it
    stores escaped (every indirect call of their prototype may reach
    them) and the locks it stores "stored" (Analysis.solve)."""

    def __init__(self, w: World) -> None:
        self.w = w
        self.pts: dict[str, set[Any]] = defaultdict(set)
        self.seeds: dict[str, set[str]] = defaultdict(set)
        self.succ: dict[str, set[Any]] = defaultdict(set)
        # edges that carry no per-CPU address (argument -> parameter: a
        # helper's accesses through its parameter are per-CPU ones only
        # where its caller passes one, Analysis.percpu_params()), and
        # edges that carry only per-CPU addresses (an argument to the
        # result of a call that returns that parameter)
        self.nsucc: dict[str, set[Any]] = defaultdict(set)
        self.psucc: dict[str, set[Any]] = defaultdict(set)
        self.stores: dict[str, list[Any]] = defaultdict(list)
        self.pcpu: dict[str, list[Any]] = defaultdict(list)
        self.icalls: dict[str, list[Any]] = defaultdict(list)
        self.targets: dict[int, set[Any]] = defaultdict(set)
        self.work: deque[Any] = deque()
        self.inwork: set[Any] = set()
        self.pending_delta: dict[str, set[Any]] = defaultdict(set)
        self.rep: dict[str, str] = {}
        self.locks: set[str] = set(w.locks)
        self.open: set[str] = set()         # nodes with a non-seed definition

    def find(self, n: str) -> str:
        root = n
        while root in self.rep:
            root = self.rep[root]
        while n in self.rep and self.rep[n] != root:
            self.rep[n], n = root, self.rep[n]
        return root

    def travels(self, v: str) -> bool:
        return v[:3] == "FN:" or v[:2] in ("P:", "U:", "D:", "N:") or v in self.locks

    def add_pts(self, n: str, vals: Any) -> None:
        n = self.find(n)
        if n[:2] == "C|":
            vals = [v for v in vals if v[:2] != "P:"]
        cur = self.pts[n]
        new = set(vals) - cur
        if new:
            cur |= new
            self.pending_delta[n] |= new
            if n not in self.inwork:
                self.inwork.add(n)
                self.work.append(n)

    def add_edge(self, src: str, dst: str) -> None:
        src, dst = self.find(src), self.find(dst)
        if dst in self.succ[src] or src == dst:
            return
        self.succ[src].add(dst)
        vals = self.pts.get(src)
        if vals:
            out = [v for v in vals if self.travels(v)]
            if out:
                self.add_pts(dst, out)

    def add_filtered(self, src: str, dst: str, percpu: bool) -> None:
        """An edge that carries only per-CPU addresses (percpu) or all
        but them."""
        src, dst = self.find(src), self.find(dst)
        edges = self.psucc if percpu else self.nsucc
        if dst in edges[src] or src == dst:
            return
        edges[src].add(dst)
        vals = self.pts.get(src)
        if vals:
            out = [v for v in vals if self.travels(v) and (v[:2] == "P:") == percpu]
            if out:
                self.add_pts(dst, out)

    def collapse(self) -> None:
        """Merge every node defined by exactly one copy into its source;
        mark the nodes that have a definition other than an address."""
        w = self.w
        ndef: Counter[str] = Counter()
        src_of: dict[str, str] = {}
        for c in w.cons:
            k = c[0]
            if k in ("addr", "copy", "load", "pcpu"):
                ndef[c[1]] += 1
                if k == "copy":
                    src_of[c[1]] = c[2]
        pinned: set[str] = set()
        for fn in w.functions.values():
            pinned.update(p for p in fn["params"] if p)
        for call in w.calls:
            if call[4]:
                pinned.add(call[4])
        for n, src in src_of.items():
            if ndef[n] == 1 and n not in pinned and not n.endswith("/#ret") and \
                    src != n:
                self.rep[n] = src
        for n in list(self.rep):
            seen = {n}
            x = self.rep.get(n)
            while x in self.rep:
                if x in seen:
                    del self.rep[x]
                    break
                seen.add(x)
                x = self.rep[x]
        for c in w.cons:
            # a merged copy is its source, not a second definition
            if c[0] == "load" or (c[0] == "copy" and c[1] not in self.rep):
                self.open.add(self.find(c[1]))
        self.open |= {self.find(p) for p in pinned}

    def cells(self, ptr: str) -> tuple[set[str], bool]:
        """The memory a pointer names (its seeds), and whether it may
        also name memory the solve does not know."""
        r = self.find(ptr)
        return self.seeds.get(r, set()), (r in self.open or r not in self.seeds)

    def setup(self) -> None:
        self.collapse()
        f = self.find
        loads: list[tuple[str, str, bool]] = []
        stores: list[tuple[str, str]] = []
        for c in self.w.cons:
            k = c[0]
            if k == "addr":
                self.seeds[f(c[1])].add(c[2])
                self.add_pts(c[1], [c[2]])
                if c[2][:2] == "G:" and \
                        self.w.globals.get(c[2][2:], {}).get("type") in rules.NOTIFIER_HEAD_TYPES:
                    self.add_pts(c[1], ["N:" + c[2]])
            elif k == "copy":
                self.add_edge(c[2], c[1])
            elif k == "load":
                loads.append((f(c[2]), f(c[1]), len(c) > 3 and c[3] == "data"))
            elif k == "store":
                stores.append((f(c[1]), f(c[2])))
            elif k == "store_at":
                self.add_edge(c[2], "C|" + c[1])
            elif k == "memcpy":
                dcells, dopen = self.cells(c[1])
                scells, sopen = self.cells(c[2])
                for d in dcells:
                    for s2 in scells:
                        self.add_edge("C|" + s2, "C|" + d)
            elif k == "pcpu":
                self.pcpu[f(c[2])].append(f(c[1]))
        for ptr, dst, data in loads:
            cells, unknown = self.cells(ptr)
            for l in cells:
                self.add_edge("C|" + l, dst)
            if unknown:
                self.add_pts(dst, [DUNKNOWN if data else UNKNOWN])
        for ptr, val in stores:
            self.stores[ptr].append(val)
            for l in self.cells(ptr)[0]:
                self.add_edge(val, "C|" + l)
        for site, call in enumerate(self.w.calls):
            callee, fp = call[1], call[2]
            if callee:
                self.bind(site, callee)
            elif fp:
                self.icalls[f(fp)].append(site)
        # every alias reads its root's set
        for n in self.rep:
            self.pts[n] = self.pts[self.find(n)]

    def bind(self, site: int, callee: str) -> None:
        if callee in self.targets[site]:
            return
        self.targets[site].add(callee)
        fn = self.w.functions.get(callee)
        if not fn:
            return
        args = self.w.calls[site][3]
        for a, p in zip(args, fn["params"]):
            if a and p:
                self.add_filtered(a, p, False)
        dst = self.w.calls[site][4]
        if dst:
            self.add_edge(f"{callee}/#ret", dst)

    def run(self) -> None:
        while self.work:
            n = self.work.popleft()
            self.inwork.discard(n)
            delta = self.pending_delta.pop(n, set())
            if not delta:
                continue
            out = [v for v in delta if self.travels(v)]
            if out:
                for d in list(self.succ.get(n, ())):
                    self.add_pts(d, out)
                if n in self.nsucc:
                    rest = [v for v in out if v[:2] != "P:"]
                    for d in list(self.nsucc[n]):
                        self.add_pts(d, rest)
                if n in self.psucc:
                    pc_out = [v for v in out if v[:2] == "P:"]
                    for d in list(self.psucc[n]):
                        self.add_pts(d, pc_out)
            pc = [v for v in delta if v[:2] == "P:"]
            if pc:
                for d in self.pcpu.get(n, ()):
                    self.add_pts(d, pc)
            fns = [v[3:] for v in delta if v[:3] == "FN:"]
            if fns:
                for site in self.icalls.get(n, ()):
                    proto = self.w.calls[site][6]
                    for fv in fns:
                        # a function of another prototype that reached the
                        # pointer through an untyped cell (void *, a union)
                        # is not what this call runs (what kCFI enforces)
                        if self.fits(proto, fv):
                            self.bind(site, fv)

    def fits(self, proto: str, fid: str) -> bool:
        """May a call of proto run fid (a function outside the world: yes)?"""
        fn = self.w.functions.get(fid)
        return fn is None or proto_fits(proto, fn["proto"])

    def open_ptr(self, n: str) -> bool:
        """May n point to memory the solve does not know?"""
        return self.cells(n)[1]


class Analysis:
    def __init__(self, w: World, overrides: list[dict[Any, Any]]) -> None:
        self.w = w
        self.s = Solver(w)
        self.overrides = overrides
        self.notes: list[str] = []
        self._sleepers: set[str] | None = None
        self._post_sleep: dict[str, set[tuple[str, int]]] | None = None
        self._irq_en: set[str] | None = None
        self._saved_memo: dict[str, set[int]] = {}

    # ---- points-to with the fallback rounds -------------------------
    def solve(self) -> None:
        s, w = self.s, self.w
        s.setup()
        s.run()
        self.by_proto: dict[str, set[Any]] = defaultdict(set)
        for fid, fn in w.functions.items():
            self.by_proto[fn["proto"]].add(fid)
        load_ptr = {c[1]: c[2] for c in w.cons if c[0] == "load"}
        # indirect call edges bound by the prototype fallback (the
        # evidence chains say so: the imprecision report counts them)
        self.proto_bound: set[tuple[int, str]] = set()
        rounds = 0
        while True:
            rounds += 1
            taken = {v[3:] for vals in s.pts.values() for v in vals if v.startswith("FN:")}
            self.address_taken = taken
            escaped = self.escaping("FN:")
            self.escaped = escaped
            added = 0
            for site, call in enumerate(w.calls):
                fp = call[2]
                if not fp:
                    continue
                fid = call[0]
                if w.functions.get(fid, {}).get("name") in rules.DISPATCH:
                    continue
                proto = call[6]
                fpv: set[Any] = s.pts.get(fp) or set()
                held = {x[3:] for x in fpv if x.startswith("FN:") and s.fits(proto, x[3:])}
                same = self.by_proto.get(proto, set())
                # A pointer loaded from cells the solve knows completely
                # (a field no store through an unknown pointer can reach
                # but as an escaped function) holds what was stored there,
                # even nothing (an ops field no unit of the world sets).
                closed = UNKNOWN not in fpv and fp in load_ptr and \
                    bool(s.cells(load_ptr[fp])[0]) and not s.open_ptr(load_ptr[fp])
                extra = (same & taken) if (not held and not closed) or UNKNOWN in fpv \
                    else (same & escaped)
                for f in extra:
                    if f not in s.targets[site]:
                        s.bind(site, f)
                        self.proto_bound.add((site, f))
                        added += 1
            s.run()
            if not added or rounds > 10:
                break
        self.rounds = rounds
        # chain heads stored where no load can be told to read them, or
        # passed out of the world: a head loaded from memory may be one
        self.escaped_heads = self.escaping("N:")
        self.dispatch()
        self.list_dispatch()
        self.percpu_params()

    def escaping(self, prefix: str) -> set[str]:
        """The values of one kind (prefix "FN:" functions, "N:" notifier
        heads), without the prefix, stored through a pointer with no
        known target or passed to a function outside the world: every
        load the solve cannot name may give them back."""
        s = self.s
        vals = [v for p, vs in s.stores.items() if s.open_ptr(p) for v in vs]
        vals += self.args_leaving_world()
        n = len(prefix)
        return {x[n:] for v in vals for x in s.pts.get(v, ()) if x.startswith(prefix)}

    def percpu_params(self) -> None:
        """Per-CPU addresses do not travel into parameters (Solver.bind):
        a helper that writes through its parameter (INIT_LIST_HEAD(),
        atomic_set()) writes per-CPU data where its caller passes a
        per-CPU address, not at every call.  Per function: the parameters
        it writes (self.wparam) or reads (self.rparam) through, itself or
        in a callee it passes them to, and those it may return
        (self.retparam): a call returning one gets its per-CPU addresses
        back (a per-CPU-only edge), and a call writing through one is a
        raw per-CPU access at the call (percpu_at())."""
        w, s = self.w, self.s
        self.gep_base: dict[str, str] = {}
        for c in w.cons:
            if c[0] == "base" and c[2]:
                self.gep_base.setdefault(s.find(c[1]), c[2])
        self.prm_all: dict[str, dict[str, int]] = {}
        for fid, fn in w.functions.items():
            d = {s.find(p): i for i, p in enumerate(fn["params"]) if p}
            if d:
                self.prm_all[fid] = d


        wp: dict[str, set[int]] = defaultdict(set)
        rp: dict[str, set[int]] = defaultdict(set)
        ret: dict[str, set[int]] = defaultdict(set)
        for fid, fn in w.functions.items():
            if fid not in self.prm_all:
                continue
            for evs, _succ in fn["blocks"].values():
                for ev in evs:
                    if ev[0] in ("st", "ld"):
                        i = self.param_of(fid, ev[1])
                        if i is not None:
                            (wp if ev[0] == "st" else rp)[fid].add(i)
        ret_src: dict[str, list[str]] = defaultdict(list)
        dst_site: dict[str, int] = {}
        for c in w.cons:
            if c[0] == "copy" and c[1].endswith("/#ret"):
                ret_src[c[1][:-5]].append(c[2])
        for site, call in enumerate(w.calls):
            if call[4]:
                dst_site[s.find(call[4])] = site
        changed = True
        while changed:
            changed = False
            for site, call in enumerate(w.calls):
                f = call[0]
                if f not in self.prm_all:
                    continue
                for t in s.targets.get(site, ()):
                    for summ in (wp, rp):
                        for j in summ.get(t, ()):
                            if j < len(call[3]):
                                i = self.param_of(f, call[3][j])
                                if i is not None and i not in summ[f]:
                                    summ[f].add(i)
                                    changed = True
            for f, srcs in ret_src.items():
                for src in srcs:
                    i = self.param_of(f, src)
                    if i is not None and i not in ret[f]:
                        ret[f].add(i)
                        changed = True
                    st = dst_site.get(s.find(src))
                    if st is None:
                        continue
                    call = w.calls[st]
                    for t in s.targets.get(st, ()):
                        for j in ret.get(t, ()):
                            i = self.param_of(f, call[3][j]) if j < len(call[3]) else None
                            if i is not None and i not in ret[f]:
                                ret[f].add(i)
                                changed = True
        self.wparam, self.rparam, self.retparam = dict(wp), dict(rp), dict(ret)
        for site, call in enumerate(w.calls):
            if not call[4]:
                continue
            for t in s.targets.get(site, ()):
                for j in ret.get(t, ()):
                    if j < len(call[3]) and call[3][j]:
                        s.add_filtered(call[3][j], call[4], True)
        s.run()

    def param_of(self, f: str, node: str) -> int | None:
        """The parameter of f that node is, or is a field address of
        (&p->field, a few steps deep), if any."""
        own = self.prm_all.get(f)
        if not own or not node:
            return None
        r = self.s.find(node)
        for _ in range(6):
            if r in own:
                return own[r]
            nxt = self.gep_base.get(r)
            if nxt is None:
                return None
            r = self.s.find(nxt)
        return None

    def percpu_at(self, site: int, write: bool) -> set[str]:
        """The per-CPU classes a call writes (or reads) through the
        per-CPU addresses it passes to parameters its callee writes (or
        reads) through."""
        out: set[str] = set()
        summ = self.wparam if write else self.rparam
        args = self.w.calls[site][3]
        for t in self.s.targets.get(site, ()):
            for j in summ.get(t, ()):
                if j < len(args) and args[j]:
                    for p in self.s.pts.get(self.s.find(args[j]), ()):
                        if p[:2] == "P:" and not rules.percpu_ignored(p[2:]):
                            out.add("P:" + p[2:])
        return out

    def args_leaving_world(self) -> list[str]:
        """Argument nodes of calls to functions outside the world (declared,
        not defined), which may keep what they are given; the lock
        primitives and the tracepoint trampolines keep nothing."""
        if not hasattr(self, "_leaving"):
            w = self.w
            self._leaving = [a for call in w.calls
                             if call[1] and call[1] in w.declared and
                             call[1] not in rules.PRIMITIVES and
                             not rules.keeps_nothing(call[1]) for a in call[3] if a]
        return self._leaving

    def fnodes(self, node: str) -> set[Any]:
        return {x[3:] for x in self.s.pts.get(node, ()) if x.startswith("FN:")}

    def list_dispatch(self) -> None:
        """self.list_skip[(dispatcher name, vector)]: the callbacks a
        dispatcher that serves two vectors does not run for one of them
        (rules.LIST_DISPATCH), or True: the dispatcher calls nothing for
        it (its calls are all in the walk of the list), since no call of
        the world queues on that vector's list.  Otherwise a callback is
        skipped only when the setup APIs gave it to objects the solve
        names and the vector's queueing API is never given, and no setup
        on another object, static initializer or direct store gives it
        too (a target the solve bound another way, by prototype, has no
        known object and is kept)."""
        s, w = self.s, self.w
        self.list_skip: dict[tuple[str, str], set[str] | bool] = {}
        # any field of the struct: the callback fields sit in an
        # anonymous union, which has no field name
        sname = rules.LIST_STRUCT
        fprefix = f"F:{sname}."

        # an object's address does not travel through parameters in the
        # solve: a parameter's objects are its arguments' at every direct
        # call of its function (a few levels up; a function whose address
        # is taken, or deeper, is unknown)
        direct: dict[str, list[int]] = defaultdict(list)
        for site, call in enumerate(w.calls):
            if call[1]:
                direct[call[1]].append(site)

        def objects(node: str, depth: int = 0) -> tuple[set[str], bool]:
            vals = s.pts.get(node, set()) if node else set()
            objs = {x for x in vals if x[:2] in ("F:", "G:", "A:")}
            if vals:
                return objs, len(objs) < len(vals)
            fid = node_fn(node) if node else ""
            params = w.functions.get(fid, {}).get("params", [])
            if node not in params or depth >= 4 or not direct.get(fid) or \
                    fid in self.address_taken:
                return set(), True
            j = params.index(node)
            unknown = False
            for site in direct[fid]:
                args = w.calls[site][3]
                o, unk = objects(args[j] if j < len(args) else "", depth + 1)
                objs |= o
                unknown |= unk
            return objs, unknown

        # every function stored into the fields outside the setup APIs
        # (a static tasklet of its own, DECLARE_TASKLET(), is its global)
        other: set[str] = set()
        static: dict[str, set[str]] = defaultdict(set)
        for c in w.cons:
            if c[0] == "ginit" and c[2].startswith(fprefix):
                if w.globals.get(c[1][2:], {}).get("type") == sname:
                    static[c[1]] |= self.fnodes(c[3])
                else:
                    other |= self.fnodes(c[3])
        for ptr, vals in s.stores.items():
            owner = node_fn(ptr)
            if w.fname(owner) in rules.LIST_SETUP or \
                    not any(c.startswith(fprefix) for c in s.cells(ptr)[0]):
                continue
            for val in vals:
                other |= self.fnodes(val)
        # one pass over the calls: the queueing APIs' objects, and per
        # setup call its objects and the callbacks it gives
        apis = {api: idx for per_vec in rules.LIST_DISPATCH.values()
                for api, idx in per_vec.values()}
        queued: dict[str, list[tuple[set[str], bool]]] = defaultdict(list)
        setups: list[tuple[set[str], bool, set[str]]] = []
        for call in w.calls:
            name = w.fname(call[1])
            args = call[3]
            if name in apis:
                idx = apis[name]
                queued[name].append(objects(args[idx] if idx < len(args) else ""))
            rule = rules.LIST_SETUP.get(name)
            if rule:
                fns = self.fnodes(args[rule[1]]) if rule[1] < len(args) and args[rule[1]] else set()
                o, unk = objects(args[rule[0]] if rule[0] < len(args) else "")
                setups.append((o, unk, fns))
        for disp, per_vec in rules.LIST_DISPATCH.items():
            for v, (api, _idx) in per_vec.items():
                if not queued.get(api):
                    self.list_skip[(disp, v)] = True
                    continue
                if any(unk for _o, unk in queued[api]):
                    continue
                objs: set[str] = set().union(*(o for o, _unk in queued[api]))
                mine: set[str] = set(other)
                theirs: set[str] = set()
                for g, fns in static.items():
                    if g in objs:
                        mine |= fns
                    else:
                        theirs |= fns
                for o, unk, fns in setups:
                    if unk or o & objs:
                        mine |= fns
                    else:
                        theirs |= fns
                self.list_skip[(disp, v)] = theirs - mine

    def dispatch(self) -> None:
        """Per-dispatcher resolution: the indirect calls of the functions
        in rules.DISPATCH reach only what their registration API was
        given (RCU), or the callbacks of soft objects (hrtimer)."""
        s, w = self.s, self.w
        api_fns: dict[str, set[Any]] = defaultdict(set)
        for fid, fn in w.functions.items():
            name = fn["name"]
            for disp, rule in rules.DISPATCH.items():
                if rule[0] == "param":
                    for api, idx in rule[1] or []:
                        if name == api and idx < len(fn["params"]):
                            api_fns[disp] |= self.fnodes(fn["params"][idx])
        # The dispatcher's own unit may queue callbacks without its API
        # (rcu_barrier() stores rcu_barrier_callback into a head itself):
        # what functions of that unit store into the dispatched field
        # counts too.
        for disp, rule in rules.DISPATCH.items():
            if rule[0] != "param" or not rule[2]:
                continue
            units = {w.fn_tu[f] for f, fn in w.functions.items() if fn["name"] == disp}
            fkeys = {"F:" + k for k in w.fieldnames
                     if k.startswith(rule[2][0] + ".") and w.field_name(k) == rule[2][1]}
            for ptr, vals in s.stores.items():
                owner = node_fn(ptr)
                if w.fn_tu.get(owner) in units and fkeys & s.pts.get(ptr, set()):
                    for v in vals:
                        api_fns[disp] |= self.fnodes(v)
        soft = self.soft_hrtimer_functions()
        api_fns.update({d: soft for d, r in rules.DISPATCH.items() if r[0] == "hrtimer"})
        changed = True
        while changed:
            changed = False
            for site, call in enumerate(w.calls):
                fid, fp = call[0], call[2]
                if not fp:
                    continue
                name = w.functions.get(fid, {}).get("name")
                if name in rules.DISPATCH:
                    want = api_fns.get(name, set())
                    cur = s.targets[site]
                    if cur - want:
                        cur.intersection_update(want)
                    for f in want - cur:
                        s.bind(site, f)
                        changed = True
            s.run()

    def soft_hrtimer_functions(self) -> set[Any]:
        """Callbacks stored into struct hrtimer.function of an object that
        hrtimer_init() set up with a SOFT mode (or an unknown mode), or
        whose object is unknown."""
        s, w = self.s, self.w
        fkey = None
        for key, names in w.fieldnames.items():
            if key.startswith(f"{rules.HRTIMER_STRUCT}.") and \
                    w.field_name(key) == rules.HRTIMER_FIELD:
                fkey = "F:" + key
        if not fkey:
            return set()
        soft_objs, hard_objs = set(), set()
        for call in w.calls:
            callee = call[1]
            if w.fname(callee) in rules.HRTIMER_INIT:
                idx_obj, idx_mode = rules.HRTIMER_INIT[w.functions.get(callee, {}).get(
                    "name", callee)]
                objs = {v for v in s.pts.get(call[3][idx_obj], ()) if v[:2] in ("F:", "G:", "A:")} \
                    if idx_obj < len(call[3]) and call[3][idx_obj] else set()
                mode = call[7][idx_mode] if idx_mode < len(call[7]) else None
                if mode is not None and not mode & rules.HRTIMER_MODE_SOFT:
                    hard_objs |= objs
                else:
                    soft_objs |= objs
        # objects of every GEP into struct hrtimer.function
        base_of: dict[str, set[Any]] = defaultdict(set)
        copy_src: dict[str, list[Any]] = defaultdict(list)
        for c in w.cons:
            if c[0] == "base":
                if c[3]:
                    base_of[c[1]].add(c[3])
                else:
                    base_of[c[1]] |= {v for v in s.pts.get(c[2], ())
                                      if v[:2] in ("F:", "G:", "A:")}
            elif c[0] == "copy":
                copy_src[c[1]].append(c[2])
        result = set()
        for ptr, vals in s.stores.items():
            if fkey not in s.pts.get(ptr, ()):
                continue
            node, objs = ptr, set()
            for _ in range(8):
                if node in base_of:
                    objs = base_of[node]
                    break
                srcs = copy_src.get(node, [])
                if len(srcs) != 1:
                    break
                node = srcs[0]
            # an object hrtimer_init() gave a hard mode, and nothing else
            if objs and objs <= (hard_objs - soft_objs):
                continue
            for v in vals:
                result |= self.fnodes(v)
        return result

    # ---- acquisitions ---------------------------------------------------
    def derive_param(self) -> dict[str, int]:
        """node -> parameter index, for values that are a parameter of
        their function up to casts and lock-internal GEPs."""
        single: dict[str, list[Any]] = defaultdict(list)
        for c in self.w.cons:
            if c[0] == "copy":
                single[c[1]].append(c[2])
        pidx: dict[str, int] = {}
        for fid, fn in self.w.functions.items():
            for i, p in enumerate(fn["params"]):
                if p:
                    pidx[p] = i
        memo: dict[str, int] = {}

        def walk(n: str, depth: int = 0) -> int:
            if n in pidx:
                return pidx[n]
            if n in memo:
                return memo[n]
            r = -1
            srcs = single.get(n, [])
            if len(srcs) == 1 and depth < 16:
                r = walk(srcs[0], depth + 1)
            memo[n] = r
            return r
        self._walk = walk
        # Pass-through functions (spinlock_check(): return their argument
        # up to casts and lock-internal GEPs): the value of a call to one
        # is the caller's argument, not every argument of every caller.
        self.passthrough: dict[str, int] = {}
        for fid in self.w.functions:
            i = walk(f"{fid}/#ret")
            if i >= 0:
                self.passthrough[fid] = i
        self.dst_call: dict[str, int] = {}
        for site, call in enumerate(self.w.calls):
            if call[1] and call[4]:
                self.dst_call[call[4]] = site
        return pidx

    def unknown_ptr(self, node: str) -> bool:
        """May the pointer node hold a value the solve does not know
        (loaded as data or not)?"""
        pts = self.s.pts.get(node, ())
        return UNKNOWN in pts or DUNKNOWN in pts

    def lock_node(self, node: str, depth: int = 0) -> str:
        """The node a lock argument stands for: through calls of
        pass-through functions to the argument they were given."""
        site = self.dst_call.get(node)
        if site is None or depth > 8:
            return node
        call = self.w.calls[site]
        i = self.passthrough.get(call[1], -1)
        if i < 0 or i >= len(call[3]) or not call[3][i]:
            return node
        return self.lock_node(call[3][i], depth + 1)

    def site_events(self) -> None:
        """The lock events of every call site.

        A call to a primitive is a "real" event with the classes its lock
        argument may point to.  Then, for functions with callers:
        - an acquisition still held when the function returns (a HOLD
          region reaching a return: spin_lock_bh(), local_bh_disable(),
          lock_sock_fast()), and a release of a lock the function never
          takes (spin_unlock_bh()), are "lifted": they become real events of
          every call site, and no section starts at them in the function;
        - an acquisition whose lock is a parameter of its function is
          attributed to the callers: an "attr" event at every call site with
          the caller's argument (so a helper called with two locks gives
          each caller its own class), while the function keeps its section
          (whose lock is then every class its callers pass).
        Lifting and attribution repeat up the call chains.  A trylock is
        lifted out of a function that returns its result (spin_trylock_bh()):
        the success path returns holding the lock; elsewhere the path that
        returns without the unlock is the failed trylock."""
        w = self.w
        self.derive_param()
        self.events: dict[int, list[Event]] = defaultdict(list)
        self.kept_cond: dict[str, set[str]] = defaultdict(set)
        self.blind_ends: set[int] = set()
        self._ev_index: dict[int, set[Event]] = {}
        for site, call in enumerate(w.calls):
            prim = w.prim(call[1])
            if not prim:
                continue
            kind, idx = rules.PRIMITIVES[prim]
            node = self.lock_node(call[3][idx]) if 0 <= idx < len(call[3]) and \
                call[3][idx] else ""
            evt = Event(kind, frozenset(self.classes_of(node)) if node else frozenset(),
                        prim, node, "real")
            evt.unknown = bool(node) and self.unknown_ptr(node)
            self.events[site].append(evt)
        sites_in: dict[str, list[int]] = defaultdict(list)
        for fid, fn in w.functions.items():
            for evs, _succ in fn["blocks"].values():
                sites_in[fid].extend(ev[1] for ev in evs if ev[0] == "call")
        # Callees first (the call graph's strongly connected components in
        # reverse topological order), so a function is judged with every
        # event its callees lift into it.  Inside a cycle no order gives
        # every function its callees' events first (ep_remove() was judged
        # before ep_remove_file(), which drops the lock it takes, and
        # looked like a function that returns holding it; oom_badness()
        # before find_lock_task_mm(), and its task_unlock() looked like a
        # release of its callers' lock).  The functions of a cycle are
        # judged in rounds, each function with what the others lift at the
        # time, until a round lifts nothing new; in the first round a call
        # of a function of the cycle not judged yet is taken for one that
        # never returns (no run goes through it yet), not for one that
        # does nothing (ep_remove_file() dropping nothing would make
        # ep_remove() hold its lock, and that hold would then keep itself
        # up through the cycle).
        self._contrib: dict[str, list[tuple[int, Event]]] = {}
        self._ev_refs: Counter[tuple[int, Event]] = Counter()
        self._kept_by: dict[str, list[str]] = defaultdict(list)
        self._appended: set[tuple[int, Event]] = set()
        self.lift_rounds = 0
        self.lift_cycles = 0
        self._dead_sites: set[int] = set()
        self.lift_unsettled: list[int] = []     # sizes of the cycles judged once
        for comp in self.bottom_up_comps():
            comp = [f for f in comp if self.callers.get(f) and not self.is_barrier(f)]
            if not comp:
                continue
            if len(comp) == 1 and comp[0] not in self.callees_set(comp[0]):
                self._apply(comp[0], self._judge(comp[0]))
                continue
            self.lift_cycles += 1
            if len(comp) > rules.LIFT_CYCLE_MAX:
                # judged once each, in the call graph's order
                self.lift_unsettled.append(len(comp))
                for fid in comp:
                    self._apply(fid, self._judge(fid))
                continue
            members = set(comp)
            judged: set[str] = set()
            settled = False
            for rnd in range(rules.LIFT_ROUNDS):
                self.lift_rounds += 1
                changed = 0
                for fid in comp:
                    if rnd == 0:
                        # a call into the cycle that is not judged yet
                        # does not return
                        self._dead_sites = {
                            st for st, _t in self.callees.get(fid, ())
                            if self.s.targets.get(st) and
                            all(t in members and t not in judged
                                for t in self.s.targets[st])}
                    self._reset(fid)
                    added = self._judge(fid)
                    judged.add(fid)
                    if set(added) != set(self._contrib.get(fid, ())):
                        self._retract(fid)
                        self._apply(fid, added)
                        changed += 1
                self._dead_sites = set()
                if rnd > 0 and not changed:
                    settled = True
                    break
            if not settled:
                # judged once each, in the call graph's order, as before
                self.lift_unsettled.append(len(comp))
                for fid in comp:
                    self._retract(fid)
                for fid in comp:
                    self._reset(fid)
                    self._apply(fid, self._judge(fid))

    def callees_set(self, fid: str) -> set[str]:
        return {t for _s, t in self.callees.get(fid, ())}

    def _retract(self, fid: str) -> None:
        """Take back what judging fid lifted into its callers."""
        for site, e2 in self._contrib.pop(fid, []):
            key = (site, e2)
            self._ev_refs[key] -= 1
            if self._ev_refs[key] <= 0:
                del self._ev_refs[key]
                if key not in self._appended:
                    continue        # an event the site has of its own
                self._appended.discard(key)
                lst = self.events[site]
                for j, x in enumerate(lst):
                    if x == e2:
                        del lst[j]
                        break
                self._ev_index.get(site, set()).discard(e2)

    def _reset(self, fid: str) -> None:
        """Clear the marks judging fid set on its own call sites' events
        (and its kept conditional holds), to judge it again."""
        for node in self._kept_by.pop(fid, []):
            self.kept_cond[node].discard(fid)
        for evs, _succ in self.w.functions[fid]["blocks"].values():
            for ev in evs:
                if ev[0] == "call":
                    for e in self.events.get(ev[1], ()):
                        e.lifted = e.attributed = e.paired = False

    def _apply(self, fid: str, added: list[tuple[int, Event]]) -> None:
        """Add the events judging fid lifted to its callers' sites."""
        for s2, e2 in added:
            known = self._ev_index.get(s2)
            if known is None:
                known = self._ev_index[s2] = set(self.events[s2])
            if e2 not in known:
                known.add(e2)
                self.events[s2].append(e2)
                self._appended.add((s2, e2))
            self._ev_refs[(s2, e2)] += 1
        self._contrib[fid] = list(added)

    def _judge(self, fid: str) -> list[tuple[int, Event]]:
        """Decide which events of fid's call sites its callers see (the
        lifting and attribution of site_events()), marking fid's own
        events; returns the events for the callers' sites (_apply())."""
        w = self.w
        fn = w.functions[fid]
        # a reporting function leaves its caller's locks as they were
        sites = [] if fn["name"] in rules.IRQ_KEEPING_CALLS else self.callers.get(fid, [])
        added: list[tuple[int, Event]] = []
        self.correlated(fid)
        for bname, (evs, _succ) in fn["blocks"].items():
            for i, ev in enumerate(evs):
                if ev[0] != "call":
                    continue
                for e in list(self.events.get(ev[1], ())):
                    if e.lifted or e.attributed or e.paired:
                        continue
                    pi = self._walk(e.node) if e.node and not \
                        e.node.startswith("lifted:") else -1
                    lift = False
                    cond = False
                    if e.role == "real" and e.kind in rules.HOLD_KINDS:
                        _r, unended, hit = self.region(fid, bname, i,
                                                       self.ends_for(e, True))
                        tried = e.kind in rules.TRY_KINDS or e.cond
                        # the result says whether the lock is held only
                        # for a trylock or a bool function
                        says = e.kind in rules.TRY_KINDS or \
                            w.calls[ev[1]][6].startswith("i1(")
                        lift = unended and (not tried or (
                            says and self.returns_result(fid, ev[1])))
                        if unended and not lift:
                            # a conditional hold that this function may
                            # keep past its return: not followed further
                            self.kept_cond[e.node].add(fid)
                            self._kept_by[fid].append(e.node)
                        # a function that returns holding the lock on
                        # some paths and releases it on others: its
                        # callers treat it like a trylock
                        cond = lift and (tried or hit)
                    elif e.role == "real" and e.kind in rules.RELEASE_KINDS:
                        # the release may drop the caller's lock: some path
                        # from the entry reaches it without an acquisition
                        lift = self.reaches_unacquired(fid, bname, i, e)
                    if lift:
                        e.lifted = True
                        # a wrapper's lock is its caller's argument
                        e.attributed = pi >= 0
                        role = "real"
                    elif pi >= 0 and e.kind in rules.ACQUIRE_KINDS:
                        e.attributed = True
                        role = "attr"
                    else:
                        continue
                    for s2 in sites:
                        args = w.calls[s2][3]
                        if pi >= 0:
                            node = self.lock_node(args[pi]) if pi < len(args) and \
                                args[pi] else ""
                            classes = frozenset(self.classes_of(node)) if node \
                                else frozenset()
                        else:
                            node, classes = f"lifted:{fid}", e.classes
                        e2 = Event(e.kind, classes, e.prim, node, role)
                        e2.cond = cond
                        e2.unknown = e.unknown if pi < 0 else \
                            bool(node) and self.unknown_ptr(node)
                        added.append((s2, e2))
        return added

    @staticmethod
    def releases(acq: Event, rel: Event) -> bool:
        """May rel release what acq took (same lock, or both unknown)?"""
        return rel.kind in rules.RELEASE_OF.get(acq.kind, ()) and \
            (acq.node == rel.node or bool(acq.classes & rel.classes) or
             (not acq.classes and not rel.classes))

    def correlated(self, fid: str) -> None:
        """Mark (Event.paired) the acquisitions and releases of fid taken
        under one test (netif_rx(): local_bh_disable() only when BH is
        on, and local_bh_enable() under the same test).

        Read without the test, the release is reached from the entry with
        nothing acquired (a release of the caller's lock, to be lifted)
        and the acquisition reaches a return unreleased (a hold, to be
        lifted); both lifts would be wrong, the first one unsafe: the
        callers' sections would end at the call.  A pair is an
        acquisition (not a trylock) whose region ends at that release on
        some path and reaches a return on another, with the release
        reached unacquired.  Neither is lifted, and the acquisition's
        section in fid counts as released.  A function that really
        releases its caller's lock on one path and returns holding its
        own on another does not fit any caller; a function that drops
        and takes back its caller's lock in a loop is left to its caller
        as held throughout, which only makes the caller's section
        longer."""
        blocks = self.w.functions[fid]["blocks"]
        acqs, rels = [], []
        for bname, (evs, _succ) in blocks.items():
            for i, ev in enumerate(evs):
                if ev[0] != "call":
                    continue
                for e in self.events.get(ev[1], ()):
                    if e.lifted or e.attributed or e.role != "real":
                        continue
                    if e.kind in rules.HOLD_KINDS and e.kind not in rules.TRY_KINDS \
                            and not e.cond:
                        acqs.append((bname, i, e))
                    elif e.kind in rules.RELEASE_KINDS:
                        rels.append((bname, i, ev[1], e))
        if not acqs or not rels:
            return
        ends: dict[int, tuple[bool, set[int]]] = {}
        for rb, ri, rsite, r in rels:
            cands = [a for a in acqs if self.releases(a[2], r)]
            if not cands or not self.reaches_unacquired(fid, rb, ri, r):
                continue
            for ab, ai, a in cands:
                if id(a) not in ends:
                    hits: set[int] = set()
                    unended = self.region(fid, ab, ai, self.ends_for(a, True), hits)[1]
                    ends[id(a)] = (unended, hits)
                unended, hits = ends[id(a)]
                if unended and rsite in hits:
                    a.paired = r.paired = True

    def reaches_unacquired(self, fid: str, bname: str, idx: int, rel: Event) -> bool:
        """Is the release at (bname, idx) reachable from fid's entry along
        a path with no acquisition it could release?"""
        fn = self.w.functions[fid]
        blocks = fn["blocks"]

        def matches(e: Event) -> bool:
            return e.role == "real" and self.releases(e, rel)
        seen: set[str] = set()
        stack = [fn["entry"] or next(iter(blocks), "")]
        while stack:
            b = stack.pop()
            if b in seen or b not in blocks:
                continue
            seen.add(b)
            evs, succ = blocks[b]
            blocked = False
            for j, ev in enumerate(evs):
                if b == bname and j == idx:
                    return True
                if ev[0] == "call" and (ev[1] in self._dead_sites or
                                        any(matches(e) for e in self.events.get(ev[1], ()))):
                    blocked = True
                    break
            if not blocked:
                stack.extend(succ)
        return False

    def returns_result(self, fid: str, site: int) -> bool:
        """Does fid return the value of the call at site (a trylock
        wrapper returns the trylock's result; a function that only tests
        it does not)?"""
        if not hasattr(self, "_copy_srcs"):
            self._copy_srcs: dict[str, list[str]] = defaultdict(list)
            for c in self.w.cons:
                if c[0] == "copy":
                    self._copy_srcs[c[1]].append(c[2])
        want = self.w.calls[site][4]
        if not want:
            return False
        seen, q = {f"{fid}/#ret"}, deque([f"{fid}/#ret"])
        while q:
            n = q.popleft()
            if n == want:
                return True
            for src in self._copy_srcs.get(n, ()):
                if src not in seen and len(seen) < 64:
                    seen.add(src)
                    q.append(src)
        return False

    def bottom_up(self) -> list[str]:
        """Functions, callees before callers (strong_components()).
        Calls of primitives and barriers are left out: their bodies stay
        inside (site_events), and following them put most of the kernel
        into one cycle (a primitive's preempt_enable() reaches the
        scheduler), where a function could be judged before the wrapper
        that releases its lock."""
        return [f for comp in self.bottom_up_comps() for f in comp]

    def bottom_up_comps(self) -> list[list[str]]:
        """The call graph's strongly connected components, callees'
        components first (bottom_up())."""
        def succ(f: str) -> Iterator[str]:
            for _site, t in self.callees.get(f, ()):
                if t in self.w.functions and not self.is_barrier(t):
                    yield t
        return strong_components(self.w.functions, succ)

    def classes_of(self, node: str) -> set[Any]:
        vals = self.s.pts.get(node, set())
        return {v for v in vals if v[:2] in ("F:", "G:", "A:")}

    # ---- call graph ----------------------------------------------------
    def callgraph(self) -> None:
        self.callers: dict[str, list[Any]] = defaultdict(list)
        self.callees: dict[str, list[Any]] = defaultdict(list)
        disp = self.w.disp
        cut = {(o["caller"], o["callee"]): o for o in self.overrides}
        self.cut_used: set[Any] = set()
        self.cut_sites: dict[tuple[str, str], list[int]] = defaultdict(list)
        # Sorted: the call graph's order decides the order functions are
        # judged in within a cycle, so a set's (hash-seeded) order must not.
        for site in sorted(self.s.targets):
            fid = self.w.calls[site][0]
            for t in sorted(self.s.targets[site]):
                key = (disp(fid), disp(t))
                if key in cut:
                    self.cut_used.add((fid, t))
                    self.cut_sites[key].append(site)
                    continue
                self.callers[t].append(site)
                self.callees[fid].append((site, t))

    def check_overrides(self, srcroot: str) -> list[str]:
        """Each override must cut an edge, and its hash must be that of the
        cited code now (the source lines of the call sites it cuts)."""
        errors = []
        for o in self.overrides:
            key = (o["caller"], o["callee"])
            sites = self.cut_sites.get(key, [])
            if not sites:
                errors.append(f"override {key[0]} -> {key[1]} cuts no call edge")
                continue
            h = override_hash(srcroot, sorted({self.w.calls[x][5] for x in sites}))
            if h != o["hash"]:
                errors.append(f"override {key[0]} -> {key[1]} is stale: the cited "
                              f"code now hashes to {h}, the override says {o['hash']}; "
                              "review the code and the reason again")
        return errors

    def sleepers(self) -> set[str]:
        """Functions that sleep on every path from their entry to a
        return: each such path calls a rules.SLEEP_MARKERS function
        (might_sleep(), cond_resched()), allocates with GFP_KERNEL
        (marker_call()) or calls, directly, another sleeper.
        A vector never enters them, and code holding a spinning lock
        never calls them: the kernel reports "sleeping function called
        from invalid context" on any run of one there.  A function that
        may return without sleeping (an early return before
        lock_sock()) is not one."""
        if self._sleepers is not None:
            return self._sleepers
        w = self.w
        # per function: its blocks' direct callees, and its direct callers
        calls_in: dict[str, dict[str, list[str]]] = {}
        callers: dict[str, set[str]] = defaultdict(set)
        for fid, fn in w.functions.items():
            if not fn["entry"]:
                continue
            per = {}
            for b, (evs, _succ) in fn["blocks"].items():
                cs = []
                for ev in evs:
                    if ev[0] != "call" or not w.calls[ev[1]][1]:
                        continue
                    c = w.calls[ev[1]][1]
                    cs.append("!" if self.marker_call(ev[1]) else c)
                    callers[c].add(fid)
                per[b] = cs
            calls_in[fid] = per

        def marker(c: str) -> bool:
            return c == "!"

        sleep: set[str] = set()

        def must_sleep(fid: str) -> bool:
            """No path from the entry reaches a block without successors
            (a return) without passing a block that sleeps."""
            fn = w.functions[fid]
            blocks, per = fn["blocks"], calls_in[fid]
            seen = {fn["entry"]}
            stack = [fn["entry"]]
            while stack:
                b = stack.pop()
                if b not in blocks:
                    return False            # unknown block: be safe
                if any(marker(c) or c in sleep for c in per.get(b, ())):
                    continue
                succ = blocks[b][1]
                if not succ:
                    return False
                for n in succ:
                    if n not in seen:
                        seen.add(n)
                        stack.append(n)
            return True

        work = deque(calls_in)
        queued = set(calls_in)
        while work:
            f = work.popleft()
            queued.discard(f)
            if f in sleep or not must_sleep(f):
                continue
            sleep.add(f)
            for g in callers.get(f, ()):
                if g not in sleep and g not in queued and g in calls_in:
                    queued.add(g)
                    work.append(g)
        self._sleepers = sleep
        return sleep

    def post_sleep(self) -> dict[str, set[tuple[str, int]]]:
        """Per function, the events (block, index) that every path from
        its entry reaches only after a sleeping call (a sleep marker or
        a sleeper): no vector runs them (blocking_notifier_call_chain()
        calls the notifiers after down_read(), tun_attach() works after
        lock_sock()).  Functions with none are left out."""
        if self._post_sleep is not None:
            return self._post_sleep
        w = self.w
        sleep = self.sleepers()
        out: dict[str, set[tuple[str, int]]] = {}
        for fid, fn in w.functions.items():
            blocks = fn["blocks"]
            if not fn["entry"] or fn["entry"] not in blocks:
                continue
            cut: dict[str, int] = {}
            for b, (evs, _succ) in blocks.items():
                for i, ev in enumerate(evs):
                    if ev[0] == "call" and (self.marker_call(ev[1]) or
                                            w.calls[ev[1]][1] in sleep):
                        cut[b] = i
                        break
            if not cut:
                continue
            seen = {fn["entry"]}
            stack = [fn["entry"]]
            while stack:
                b = stack.pop()
                if b in cut:
                    continue
                for n in blocks[b][1]:
                    if n not in seen and n in blocks:
                        seen.add(n)
                        stack.append(n)
            post: set[tuple[str, int]] = set()
            for b, (evs, _succ) in blocks.items():
                first = cut.get(b, len(evs)) if b in seen else -1
                post.update((b, i) for i in range(first + 1, len(evs)))
            if post:
                out[fid] = post
        self._post_sleep = out
        return out

    def post_sleep_sites(self) -> dict[str, set[int]]:
        """Per function, the call sites of post_sleep()."""
        out: dict[str, set[int]] = {}
        for fid, pos in self.post_sleep().items():
            blocks = self.w.functions[fid]["blocks"]
            out[fid] = {blocks[b][0][i][1] for b, i in pos if blocks[b][0][i][0] == "call"}
        return out

    def marker_call(self, site: int) -> bool:
        """Does this call sleep (rules.SLEEP_MARKERS), or allocate with
        a constant gfp mask that allows direct reclaim (GFP_KERNEL: the
        allocator checks might_sleep_if(), rules.GFP_ARG)?"""
        w = self.w
        c = w.calls[site][1]
        name = w.fname(c)
        if c in rules.SLEEP_MARKERS or name in rules.SLEEP_MARKERS:
            return True
        if name not in rules.GFP_ARG:
            return False
        idx, size_idx = rules.GFP_ARG[name]
        consts = w.calls[site][7]
        gfp = consts[idx] if idx < len(consts) else None
        size = consts[size_idx] if size_idx is not None and size_idx < len(consts) else None
        return gfp is not None and bool(gfp & rules.GFP_DIRECT_RECLAIM) and \
            (size is None or 0 <= size < rules.GFP_MAX_CONST_SIZE)

    def is_barrier(self, fid: str) -> bool:
        return self.w.fname(fid) in rules.BARRIERS or bool(self.w.prim(fid))

    def roots(self) -> dict[str, set[Any]]:
        r: dict[str, set[Any]] = defaultdict(set)
        for call in self.w.calls:
            name = self.w.fname(call[1])
            if name == rules.OPEN_SOFTIRQ and call[7] and call[7][0] is not None:
                nr = call[7][0]
                if 0 <= nr < len(VECTORS) and len(call[3]) > 1 and call[3][1]:
                    r[VECTORS[nr]] |= self.fnodes(call[3][1])
        return r

    def obj_keys(self, node: str) -> frozenset[str] | None:
        """The objects a pointer argument names (a global, or a field
        location: every object of that type), None if not known."""
        r = self.s.find(node)
        cells, unknown = self.s.cells(r)
        if unknown or not cells:
            return None
        return frozenset(cells)

    def callback_params(self) -> None:
        """Parameters that decide what a function's indirect calls run:
        a callback it calls (netlink_rcv_skb(skb, cb), bus_for_each_dev(
        ..., fn)) and the head of a notifier chain
        (notifier_call_chain(nl, ...), rules.NOTIFIER_CALL), directly or
        through a helper it passes them to.  self.pcs[f][site] = i: the
        indirect call at site is decided by f's parameter i;
        self.cbp[f][i] = "fn" or "head".  rules.DISPATCH functions have
        their own rule."""
        w, s = self.w, self.s
        self.prm = {f: d for f, d in self.prm_all.items()
                    if w.functions[f]["name"] not in rules.DISPATCH}
        self.pcs: dict[str, dict[int, int]] = defaultdict(dict)
        cbp: dict[str, dict[int, str]] = defaultdict(dict)
        # (f, i): the level ("nl": the list, &H->head; "H": the head
        # object) and type of the notifier head f's parameter i names
        self.head_level: dict[tuple[str, int], tuple[str, str | None]] = {}
        ncall, nhead = rules.NOTIFIER_CALL
        for site, call in enumerate(w.calls):
            fid, fp = call[0], call[2]
            if not fp or fid not in self.prm:
                continue
            i = self.prm[fid].get(s.find(fp))
            if i is not None:
                self.pcs[fid][site] = i
                cbp[fid][i] = "fn"
            elif w.functions[fid]["name"] == ncall:
                self.pcs[fid][site] = nhead
                cbp[fid][nhead] = "head"
                self.head_level[(fid, nhead)] = ("nl", None)
        changed = True
        while changed:
            changed = False
            for site, call in enumerate(w.calls):
                f = call[0]
                if f not in self.prm:
                    continue
                for t in s.targets.get(site, ()):
                    for j, kind in cbp.get(t, {}).items():
                        if j >= len(call[3]) or not call[3][j] or (kind == "head" and
                                                                  (t, j) not in self.head_level):
                            continue
                        if kind == "head":
                            lv, tk = self.head_level[(t, j)]
                            i, lv2, tk2, _k = self.head_step(f, call[3][j], lv, tk)
                            if i is not None and i not in cbp[f]:
                                self.head_level[(f, i)] = (lv2, tk2)
                        else:
                            i = self.own_param(f, call[3][j])
                        if i is not None and i not in cbp[f]:
                            cbp[f][i] = kind
                            changed = True
        self.cbp = dict(cbp)
        self.notifier_heads()

    def field_key(self, node: str) -> str | None:
        """The field location a pointer names when it is one field
        address (&nh->head): the type of head it is, "T:F:S.k"."""
        cells, unknown = self.s.cells(self.s.find(node))
        if len(cells) == 1 and not unknown:
            c = next(iter(cells))
            if c.startswith("F:"):
                return "T:" + c
        return None

    def own_param(self, f: str, node: str) -> int | None:
        """The parameter of f that node is (no field step)."""
        return self.prm.get(f, {}).get(self.s.find(node)) if node else None

    def head_step(self, f: str, a: str, level: str,
                  tk: str | None) -> tuple[int | None, str, str | None, Any]:
        """One step up from an argument a of f that names a notifier head
        at level "nl" (the list pointer, &H->head) or "H" (the head object):
        (f's parameter to follow, its level, the head type) or, when a
        names it itself, (None, level, type, keys)."""
        j = self.own_param(f, a)
        if j is not None:
            return j, level, tk, None
        if level == "nl":
            base = self.gep_base.get(self.s.find(a))
            if base is not None:
                tk2 = self.field_key(a) or tk
                jb = self.own_param(f, base)
                if jb is not None:
                    return jb, "H", tk2, None
                keys = self.obj_keys(base)
                return None, "H", tk2, keys if keys else ({tk2} if tk2 else None)
        keys = self.obj_keys(a)
        if keys is None and level == "H":
            # a head loaded from memory: the global heads stored there
            pts = self.s.pts.get(self.s.find(a), set())
            heads = {v[2:] for v in pts if v[:2] == "N:"}
            if heads and not pts & {UNKNOWN, DUNKNOWN}:
                return None, level, tk, frozenset(heads | self.escaped_heads)
        if keys is None and level == "H" and tk:
            return None, level, tk, frozenset({tk})
        return None, level, tk, keys

    def notifier_heads(self) -> None:
        """self.head_fns[key]: the notifier functions registered on the
        chain head key: the head object (a global "G:x", or a field
        location "F:S.k", every object of S), or a type of head ("T:F:S.k",
        a head the registration names through a pointer the solve cannot
        follow: every head of that type); None: a head of no known type,
        so every head.  A block that is not a global with an initializer
        brings every function stored into notifier_call."""
        w, s = self.w, self.s
        rname, rh, rn = rules.NOTIFIER_REGISTER
        field = rules.NOTIFIER_FIELD
        ginit: dict[str, set[str]] = defaultdict(set)
        for c in w.cons:
            if c[0] == "ginit" and c[2] == field:
                ginit[c[1]] |= self.fnodes(c[3])
        # functions stored into the field at run time: of a global block
        # (the store's address is a field of that global), of a block
        # inside an object (a field of a field: no global block), or
        # through a pointer that may name any block
        runtime: dict[str, set[str]] = defaultdict(set)
        runtime_any: set[str] = set()
        every_set = set(self.fnodes("C|" + field))
        for ptr, vals in s.stores.items():
            if field not in s.cells(ptr)[0]:
                continue
            stored: set[str] = set().union(*(self.fnodes(v) for v in vals)) if vals else set()
            every_set |= stored
            base = self.gep_base.get(s.find(ptr))
            keys = self.obj_keys(base) if base else None
            if keys and all(k[:2] in ("G:", "F:") for k in keys):
                for k in keys:
                    runtime[k] |= stored
            else:
                runtime_any |= stored
        every = frozenset(every_set)
        copied = {d for c in w.cons if c[0] == "memcpy" for d in s.cells(c[1])[0]}
        self.notifier_unknown: set[str] = set()
        Key = tuple[Any, Any]
        memo: dict[tuple[Any, ...], set[Key]] = {}

        def up(fn: str, ih: int | None, lh: str, tk: str | None, inb: int | None,
               depth: int) -> set[Key]:
            """(head keys, block keys) that reach fn's parameters ih (a
            head at level lh, of type tk) and inb together; None for an
            index not asked (the caller fills it) or not known."""
            key = (fn, ih, lh, tk, inb)
            if key in memo:
                return memo[key]
            if depth > 8:
                return {(None, None)}
            memo[key] = {(None, None)}      # a cycle: not known
            out: set[Key] = set()
            for site in self.callers.get(fn, ()):
                f = w.calls[site][0]
                args = w.calls[site][3]
                jh, lh2, tk2, vh = None, lh, tk, None
                if ih is not None:
                    a = args[ih] if ih < len(args) else ""
                    if a:
                        jh, lh2, tk2, vh = self.head_step(f, a, lh, tk)
                    if jh is None and vh is None:
                        self.notifier_unknown.add(f"head at {w.calls[site][5]}")
                jn, vn = None, None
                if inb is not None:
                    a = args[inb] if inb < len(args) else ""
                    jn = self.own_param(f, a)
                    if jn is None:
                        vn = self.obj_keys(a) if a else None
                        if vn is None:
                            self.notifier_unknown.add(f"block at {w.calls[site][5]}")
                if jh is None and jn is None:
                    out.add((vh, vn))
                    continue
                for h, n in up(f, jh, lh2, tk2, jn, depth + 1):
                    out.add((vh if jh is None else h, vn if jn is None else n))
            memo[key] = out
            return out

        regs: dict[Any, set[Any]] = defaultdict(set)
        for fid, fn in w.functions.items():
            if fn["name"] == rname:
                for hk, nk in up(fid, rh, "nl", None, rn, 0):
                    for h in (hk or [None]):
                        regs[h] |= set(nk) if nk else {None}
        # a block inside an object (F:S.k) may also come from a global S
        # whose initializer names the function: the globals that are not
        # registered themselves and are not a bare block (a global of the
        # block's own type is never inside another object; a copy of it
        # into one is in "copied")
        gblocks = {nb for nbs in regs.values() for nb in nbs if nb and nb.startswith("G:")}
        block_type = field[2:].rpartition(".")[0]
        nested: set[str] = set()
        for g, fs in ginit.items():
            if g not in gblocks and w.globals.get(g[2:], {}).get("type") != block_type:
                nested |= fs
        self.head_fns: dict[Any, frozenset[str]] = {}
        for h, nbs in regs.items():
            fns: set[str] = set()
            for nb in nbs:
                # a block holds its initializer's function or one a store
                # through its own address sets, or one a store through a
                # pointer to any block sets; a block copied whole, or not
                # known, any function the field may hold
                if nb is None or nb in copied or nb[:2] not in ("G:", "F:"):
                    fns |= every
                elif nb.startswith("G:"):
                    fns |= ginit.get(nb, set()) | runtime.get(nb, set()) | runtime_any
                else:
                    fns |= runtime.get(nb, set()) | runtime_any | nested
            self.head_fns[h] = frozenset(fns)
        self.notifier_regs = sum(len(v) for v in regs.values())

    def head_binding(self, keys: Any, tkey: str | None) -> frozenset[str] | None:
        """The notifier functions a chain runs whose head is one of keys,
        of the head type tkey; None if the head is not known."""
        if keys is None:
            return None
        out = set(self.head_fns.get(None, ()))
        for k in list(keys) + ([tkey] if tkey else []):
            out |= self.head_fns.get(k, frozenset())
        return frozenset(out)

    def binding(self, f: str, bd: dict[int, Any], site: int, t: str) -> tuple[Any, ...]:
        """The functions each callback parameter of t holds when f calls
        t at site (f's own binding bd passed on; None: not known, every
        target of the call counts)."""
        params = self.cbp.get(t)
        if not params:
            return ()
        args = self.w.calls[site][3]
        out = []
        for i in sorted(params):
            a = args[i] if i < len(args) else ""
            val = None
            if a:
                if params[i] == "head":
                    lv, tk = self.head_level[(t, i)]
                    j, _lv, tk2, keys = self.head_step(f, a, lv, tk)
                    val = bd.get(j) if j is not None else self.head_binding(keys, tk2)
                else:
                    j = self.own_param(f, a)
                    if j is not None:
                        val = bd.get(j)
                    else:
                        pts = self.s.pts.get(self.s.find(a), ())
                        fns = frozenset(x[3:] for x in pts if x[:3] == "FN:")
                        if fns and UNKNOWN not in pts:
                            val = fns
            out.append((i, val))
        return tuple(out)

    def reach(self) -> None:
        """Per vector, the functions its roots reach, breadth first.  A
        function that calls a callback parameter is visited once per
        binding of its callback parameters: netlink_rcv_skb() entered
        from a handler runs that handler's cb, not every function any
        caller passes (one level of call-site sensitivity, carried
        through the helpers that pass a callback on)."""
        self.root_fns = self.roots()
        sleepers = self.sleepers()
        post_sites = self.post_sleep_sites()
        self.callback_params()
        State = tuple[str, tuple[Any, ...]]
        self.parent: dict[str, dict[Any, Any]] = {}
        self.first: dict[str, dict[str, Any]] = {}
        self.reached: dict[str, set[Any]] = {}
        self.states = 0
        for v in VECTORS:
            par: dict[State, Any] = {}
            first: dict[str, State] = {}
            q: deque[State] = deque()
            for f in sorted(self.root_fns.get(v, ())):
                st: State = (f, tuple((i, None) for i in sorted(self.cbp.get(f, ()))))
                par[st] = None
                first.setdefault(f, st)
                q.append(st)
            while q:
                st = q.popleft()
                f, b = st
                bd = dict(b)
                late = post_sites.get(f, set())
                skip = self.list_skip.get((self.w.fname(f), v), False)
                for site, t in self.callees.get(f, ()):
                    if self.is_barrier(t) or t in sleepers or site in late:
                        continue
                    if not self.runs(f, bd, site, t):
                        continue
                    if skip is True or (skip and self.w.calls[site][2] and t in skip):
                        # a dispatcher serving v's list only (rules.LIST_DISPATCH):
                        # with nothing ever queued on it, its walk calls nothing
                        continue
                    nst = (t, self.binding(f, bd, site, t))
                    if nst in par:
                        continue
                    par[nst] = (st, site)
                    first.setdefault(t, nst)
                    q.append(nst)
            self.parent[v] = par
            self.first[v] = first
            self.reached[v] = set(first)
            self.states += len(par)

    def by_prototype(self, site: int, callee: str) -> str:
        """How a chain step's call edge was bound: ', indirect' for a
        call through a pointer whose values hold the callee, ', bound by
        prototype' for one only the prototype fallback gave."""
        fp = self.w.calls[site][2]
        if not fp:
            return ""
        if (site, callee) not in self.proto_bound or f"FN:{callee}" in self.s.pts.get(fp, set()):
            return ", indirect"
        return ", bound by prototype"

    def chain(self, v: str, fid: str) -> list[str]:
        steps = []
        par = self.parent[v]
        st = self.first[v].get(fid)
        cur = fid
        while st is not None and par.get(st) is not None:
            pst, site = par[st]
            steps.append(f"{self.w.disp(pst[0])} -> {self.w.disp(st[0])} "
                         f"({self.w.calls[site][5]}{self.by_prototype(site, st[0])})")
            st = pst
        if st is not None:
            cur = st[0]
        steps.append(f"{v} root {self.w.disp(cur)} ({self.w.functions.get(cur, {}).get('loc', '?')})")
        return list(reversed(steps))

    # ---- per-function event lists ------------------------------------
    def fn_acqs(self, fid: str, skip: set[tuple[str, int]] | None = None) -> list[tuple[Any, ...]]:
        """(class, site, kind) acquisitions done at sites in fid, with
        raw per-CPU accesses as ("P:x", loc, "pcpu-r|pcpu-w"); skip: events
        (block, index) left out."""
        out: list[tuple[Any, ...]] = []
        fn = self.w.functions[fid]
        for bname, (evs, _succ) in fn["blocks"].items():
            for idx, ev in enumerate(evs):
                if skip and (bname, idx) in skip:
                    continue
                if ev[0] == "call":
                    for p in self.percpu_at(ev[1], True):
                        out.append((p, self.w.calls[ev[1]][5], "pcpu-w"))
                    for p in self.percpu_at(ev[1], False):
                        out.append((p, self.w.calls[ev[1]][5], "pcpu-r"))
                    for e in self.events.get(ev[1], ()):
                        if e.kind in rules.ACQUIRE_KINDS and not e.attributed:
                            for c in e.classes:
                                out.append((c, self.w.calls[ev[1]][5], e.kind))
                            if not e.classes or e.unknown:
                                out.append(("?", self.w.calls[ev[1]][5], e.kind))
                elif ev[0] in ("ld", "st"):
                    for p in self.percpu_of(ev):
                        out.append((p, ev[2], "pcpu-w" if ev[0] == "st" else "pcpu-r"))
                elif ev[0] == "pc" and (not ev[3] or ev[2]):
                    # raw accesses, and this_cpu_* writes: one instruction,
                    # but a section's raw read-modify-write of the same
                    # variable would lose a write a vector makes in between
                    kind = ("pcpu-w" if ev[2] else "pcpu-r") if not ev[3] else "pcpu-w-atomic"
                    for p in self.percpu_of(ev):
                        out.append((p, ev[4], kind))
        return out

    def takes(self) -> None:
        self.vec: dict[str, set[Any]] = defaultdict(set)
        self.vec_ev: dict[tuple[Any, ...], tuple[Any, ...]] = {}
        self.unresolved_in: dict[str, list[Any]] = defaultdict(list)
        self.acq_cache = {f: self.fn_acqs(f) for f in self.w.functions}
        # what a vector runs of a function stops at its first sleep
        post = self.post_sleep()
        acq_vec = {f: self.fn_acqs(f, post[f]) for f in post}
        for v in VECTORS:
            for f in sorted(self.reached[v]):
                for c, loc, kind in acq_vec.get(f, self.acq_cache.get(f, ())):
                    if kind in rules.TRY_KINDS:
                        # a trylock never waits: failing because the
                        # interrupted section holds the lock is failing
                        # because another CPU does, which its caller
                        # handles (lockdep's mark_usage() marks no
                        # softirq use on a trylock either)
                        continue
                    if c == "?":
                        self.unresolved_in[v].append((f, loc))
                        continue
                    self.vec[c].add(v)
                    self.vec_ev.setdefault((c, v), (f, loc, kind))

    # ---- held regions (sections and lock order) --------------------------
    def bh_delta(self, ev: Any) -> int:
        """How a call changes the BH-disable count: +1 for
        local_bh_disable() and the _bh lock primitives, -1 for
        local_bh_enable() and the _bh unlocks, 0 otherwise."""
        if ev[0] != "call":
            return 0
        d = 0
        for e in self.events.get(ev[1], ()):
            if e.role != "real":
                continue
            if e.kind in rules.BH_KINDS:
                d = 1
            elif e.kind in rules.BH_RELEASE_KINDS and d == 0:
                d = -1
        return d

    def region(self, fid: str, bname: str, idx: int, ends: Any,
               hits: set[int] | None = None) -> tuple[list[Any], bool, bool]:
        """Events after (bname, idx) until an event for which ends(ev) is
        true: returns (events, reaches_return_unended, hit_end).  For a
        counting test (BH off) the end is where the count drops below
        where it started, so a nested spin_lock_bh()/spin_unlock_bh()
        pair does not end it (depth capped at 8).  hits, if given, gets
        the call sites where the region ends.  A call of a function that
        ends it (a helper that releases the lock) is in the region: what
        the helper does before the release is (inner_of() reads such a
        callee only up to its release)."""
        fn = self.w.functions[fid]
        blocks = fn["blocks"]
        out, seen = [], set()
        unended = False
        counts = getattr(ends, "counts", False)
        stack = [(bname, idx + 1, 0)]
        hit = False
        while stack:
            b, i, depth = stack.pop()
            if (b, i, depth) in seen or b not in blocks:
                continue
            seen.add((b, i, depth))
            evs, succ = blocks[b]
            stopped = False
            for ev in evs[i:]:
                if ev[0] == "call" and ev[1] in self._dead_sites:
                    stopped = True      # a call that does not return
                    break
                if counts:
                    d = self.bh_delta(ev)
                    stop = d < 0 and depth == 0
                    depth = min(8, max(0, depth + d))
                else:
                    stop = ends(ev)
                if stop:
                    stopped = True
                    hit = True
                    if hits is not None:
                        hits.add(ev[1])
                    if not self.w.prim(self.w.calls[ev[1]][1] or ""):
                        out.append(ev)
                    break
                out.append(ev)
            if stopped:
                continue
            if not succ:
                unended = True
            for n in succ:
                stack.append((n, 0, depth))
        return out, unended, hit

    # Class sets over the whole call graph are bit sets (Python ints, one
    # bit per class): a function's transitive acquisitions can be most of
    # the kernel's locks, 86,000 times over.
    def bits(self, classes: Any) -> int:
        key = classes if isinstance(classes, frozenset) else frozenset(classes)
        m = self._bits_memo.get(key)
        if m is None:
            m = 0
            for c in key:
                i = self.cid.get(c)
                if i is None:
                    i = self.cid[c] = len(self.cnames)
                    self.cnames.append(c)
                m |= 1 << i
            self._bits_memo[key] = m
        return m

    def unbits(self, m: int) -> set[str]:
        out = set()
        while m:
            low = m & -m
            out.add(self.cnames[low.bit_length() - 1])
            m ^= low
        return out

    def acq_trans(self) -> None:
        """Classes (and raw per-CPU accesses) f or its callees take: all of
        them (for lock order), and those taken with interrupts on (for
        section masks: no softirq runs while an _irq/_irqsave lock is
        held, so such a nested lock adds no vector)."""
        self.cid: dict[str, int] = {}
        self.cnames: list[str] = []
        self._bits_memo: dict[frozenset[str], int] = {}
        # Nothing that holds a spinning lock or runs with BH off calls a
        # function that sleeps on entry (the kernel reports it): what such
        # a function takes is never inside a section or ordered after a
        # held lock.
        self.barrier_fns = {f for f in self.w.functions if self.is_barrier(f)} | \
            self.sleepers()
        # nor does it get past a sleeping call in a function it calls:
        # what every path reaches only after one is left out, as it is
        # for a vector (console_flush_all() calls cond_resched() only
        # when its caller may schedule)
        post = self.post_sleep()
        post_sites = self.post_sleep_sites()
        # per-CPU data inside a section: only raw writes count (a read, or
        # a this_cpu_* operation, needs nothing masked)
        skip = {"pcpu-r", "pcpu-w-atomic"}
        quiet = skip | rules.QUIET_KINDS
        own = {f: self.fn_acqs(f, post[f]) if f in post else self.acq_cache.get(f, [])
               for f in self.w.functions}
        # for lock order: what waits (a trylock never does: no CPU that
        # holds a lock is ever stuck on the one it tries; lockdep's
        # validate_chain() adds no dependency for a trylock either)
        acq_all = {f: self.bits({c for c, _l, k in own[f]
                                 if c != "?" and k not in skip and k not in rules.TRY_KINDS})
                   for f in self.w.functions}
        # with interrupts on: what a function does outside the regions
        # where it holds an _irq/_irqsave lock, and what the callees it
        # calls there do (a wake-up's rq lock under pi_lock adds no vector)
        acq_open: dict[str, int] = {}
        open_skip: dict[str, set[int]] = dict(post_sites)     # calls not followed
        for f in self.w.functions:
            off = self.irq_off_events(f)
            if not off:
                acq_open[f] = self.bits({c for c, _l, k in own[f]
                                         if c != "?" and k not in quiet})
                continue
            # a callee that may turn interrupts on counts whole even where
            # they are off (what it takes after turning them on)
            en = self.irq_enablers()
            offsites = {self.w.functions[f]["blocks"][b][0][i][1] for b, i in off
                        if self.w.functions[f]["blocks"][b][0][i][0] == "call"}
            offsites = {st for st in offsites
                        if not any(t in en for t in self.s.targets.get(st, ()))}
            acq_open[f] = self.bits({c for c, _l, k in self.fn_acqs(f, off | post.get(f, set()))
                                     if c != "?" and k not in quiet})
            open_skip[f] = offsites | post_sites.get(f, set())
        self.call_states()
        self.trans_all_st = self.state_trans(acq_all, post_sites)
        self.trans_open_st = self.state_trans(acq_open, open_skip)
        # classes a function or its callees release (a callee that drops
        # its caller's lock: __run_hrtimer() unlocks cpu_base->lock around
        # the callback)
        rel: dict[str, int] = {f: 0 for f in self.w.functions}
        for f, fn in self.w.functions.items():
            for evs, _succ in fn["blocks"].values():
                for ev in evs:
                    if ev[0] == "call":
                        for e in self.events.get(ev[1], ()):
                            if e.role == "real" and e.kind in rules.RELEASE_KINDS:
                                rel[f] |= self.bits(e.classes)
        self.rel_trans = self.over_callees(rel)
        self._held_memo: dict[tuple[Any, ...], int] = {}
        self._held_active: dict[tuple[Any, ...], int] = {}   # being read: stack index
        self._held_low = 0

    def default_state(self, f: str) -> tuple[str, tuple[Any, ...]]:
        """f called from a caller that binds none of its callback
        parameters: every target of its dispatching calls counts."""
        return (f, tuple((i, None) for i in sorted(self.cbp.get(f, ()))))

    def call_states(self) -> None:
        """The call graph over (function, binding) states, the ones
        reach() walks: notify_write() calls atomic_notifier_call_chain()
        on vt_notifier_list, and what that call takes is what the
        notifiers registered on that head take, not what every notifier
        in the kernel takes.  Every function's unbound state is a root,
        so each state reachable from any caller is here.
        self.state_succ[st]: (site, callee state) for each call of st's
        function that st's binding lets run."""
        succ: dict[tuple[str, tuple[Any, ...]], list[tuple[int, Any]]] = {}
        todo = [self.default_state(f) for f in sorted(self.w.functions)]
        seen = set(todo)
        while todo:
            st = todo.pop()
            f, b = st
            bd = dict(b)
            out = []
            for site, t in self.callees.get(f, ()):
                if t in self.barrier_fns:
                    continue
                if not self.runs(f, bd, site, t):
                    continue
                nst = (t, self.binding(f, bd, site, t))
                out.append((site, nst))
                if nst not in seen:
                    seen.add(nst)
                    todo.append(nst)
            succ[st] = out
        self.state_succ = succ

    def state_trans(self, own: dict[str, int], skip: dict[str, set[int]]) -> dict[Any, int]:
        """own[f] of a state's function and of every state it calls,
        bottom-up over the state graph's strong components: what a call
        in that binding may do.  skip[f]: the call sites of f not
        followed (those every path reaches only after sleeping, those
        made with interrupts off)."""
        succ = self.state_succ

        def nexts(st: Any) -> Iterator[Any]:
            off = skip.get(st[0], ())
            for site, nst in succ.get(st, ()):
                if site not in off:
                    yield nst
        res: dict[Any, int] = {}
        for comp in strong_components(list(succ), nexts):
            members = set(comp)
            m = 0
            for st in comp:
                m |= own.get(st[0], 0)
                for nst in nexts(st):
                    if nst not in members:
                        m |= res.get(nst, 0)
            for st in comp:
                res[st] = m
        return res

    def callee_states(self, fid: str, bd: dict[int, Any],
                      site: int) -> Iterator[tuple[str, Any]]:
        """The callees a call at site of fid (in binding bd) runs, each
        with its binding."""
        for t in self.s.targets.get(site, ()):
            if self.runs(fid, bd, site, t):
                yield t, (t, self.binding(fid, bd, site, t))

    def runs(self, f: str, bd: dict[int, Any], site: int, t: str) -> bool:
        """May the call at site of f run t when f's callback parameters
        are bound as bd?  A call through a bound parameter runs the
        functions bound to it and the escaped ones."""
        i = self.pcs.get(f, {}).get(site)
        return i is None or bd.get(i) is None or t in bd[i] or t in self.escaped

    def irq_enablers(self) -> set[str]:
        """Functions after a call of which interrupts may be on although
        they were off before it.

        Enablers turn them on whatever they were: local_irq_enable()
        (rules.IRQ_ENABLE_CALLS), an _irq release, or a call of an
        enabler.  Restorers give back a state saved outside them:
        local_irq_restore() (rules.IRQ_RESTORE_CALLS), an _irqrestore
        release or a call of a restorer, at a point no save of the same
        function (local_irq_save(), an _irq/_irqsave acquisition) precedes
        on every path; after such a save the restore gives back what the
        save found (lock_acquire(), try_to_wake_up()).  A sleeper is never
        called with interrupts off (the kernel reports it), and the
        reporting functions keep the state (rules.IRQ_KEEPING_CALLS), so
        none of them makes its callers either.  The primitives and the
        interrupt-flag helpers are judged at their call sites, not by
        their bodies."""
        if self._irq_en is not None:
            return self._irq_en
        w = self.w
        skip = self.sleepers() | {
            f for f, fn in w.functions.items()
            if fn["name"] in rules.IRQ_KEEPING_CALLS or w.prim(f) or
            fn["name"] in rules.IRQ_ON_CALLS or fn["name"] in rules.IRQ_OFF_CALLS}

        def name(site: int) -> str:
            return w.fname(w.calls[site][1])

        def prim_release(site: int, suffix: str) -> bool:
            return bool(w.prim(w.calls[site][1])) and any(
                e.kind in rules.RELEASE_KINDS and e.prim.endswith(suffix)
                for e in self.events.get(site, ()))
        en: set[str] = set()
        rest: set[str] = set()
        callers: dict[str, list[tuple[str, int]]] = defaultdict(list)
        for fid, fn in w.functions.items():
            if fid in skip:
                continue
            for evs, _succ in fn["blocks"].values():
                for ev in evs:
                    if ev[0] != "call":
                        continue
                    site = ev[1]
                    if name(site) in rules.IRQ_ENABLE_CALLS or prim_release(site, "_irq"):
                        en.add(fid)
                    elif (name(site) in rules.IRQ_RESTORE_CALLS or
                          prim_release(site, "_irqrestore")) and \
                            site not in self.saved_sites(fid):
                        rest.add(fid)
            for site, t in self.callees.get(fid, ()):
                if t not in skip:
                    callers[t].append((fid, site))
        work = deque(en)
        while work:
            t = work.popleft()
            for f, _site in callers.get(t, ()):
                if f not in en:
                    en.add(f)
                    work.append(f)
        work = deque(rest)
        while work:
            t = work.popleft()
            for f, site in callers.get(t, ()):
                if f not in rest and site not in self.saved_sites(f):
                    rest.add(f)
                    work.append(f)
        self._irq_en = en | rest
        return self._irq_en

    def irq_saves(self, site: int) -> bool:
        """Does this call save the interrupt state and turn them off
        (local_irq_save(), an _irq/_irqsave acquisition that is not
        conditional)?"""
        return self.w.fname(self.w.calls[site][1]) in rules.IRQ_OFF_CALLS or \
            any(e.kind in rules.IRQ_KINDS and not e.cond for e in self.events.get(site, ()))

    def must_events(self, fid: str, step: Any) -> list[tuple[str, int, Any]]:
        """The events (block, index, event) of fid before which a
        forward must-analysis has a non-empty state: step(ev, state)
        gives the state after ev, the entry starts empty, and where paths
        meet only what all of them have stays (intersection)."""
        fn = self.w.functions[fid]
        blocks = fn["blocks"]
        entry = fn["entry"]
        if not entry or entry not in blocks:
            return []
        state: dict[str, frozenset[str]] = {entry: frozenset()}
        work = [entry]
        while work:
            b = work.pop()
            h = state[b]
            for ev in blocks[b][0]:
                h = step(ev, h)
            for n in blocks[b][1]:
                if n not in blocks:
                    continue
                new = h if n not in state else state[n] & h
                if n not in state or new != state[n]:
                    state[n] = new
                    work.append(n)
        out = []
        for b, h in state.items():
            for i, ev in enumerate(blocks[b][0]):
                if h:
                    out.append((b, i, ev))
                h = step(ev, h)
        return out

    def saved_sites(self, fid: str) -> set[int]:
        """Call sites of fid that a save of the interrupt state in fid
        (irq_saves()) precedes on every path."""
        memo = self._saved_memo
        if fid not in memo:
            saved = frozenset({"saved"})

            def step(ev: Any, h: frozenset[str]) -> frozenset[str]:
                return saved if ev[0] == "call" and self.irq_saves(ev[1]) else h
            memo[fid] = {ev[1] for _b, _i, ev in self.must_events(fid, step)
                         if ev[0] == "call"}
        return memo[fid]

    def irq_on_call(self, site: int) -> bool:
        """Does this call turn interrupts on (or give back a saved
        state)?  A release primitive of the _irq/_irqrestore kind, or
        rules.IRQ_ON_CALLS; what a callee does is irq_enablers()'s."""
        c = self.w.calls[site][1]
        if self.w.fname(c) in rules.IRQ_ON_CALLS:
            return True
        return bool(self.w.prim(c)) and any(
            e.kind in rules.RELEASE_KINDS and "irq" in e.prim
            for e in self.events.get(site, ()))

    def irq_off_events(self, fid: str) -> set[tuple[str, int]]:
        """Events (block, index) of fid that run with interrupts off on
        every path: after an _irq/_irqsave acquisition (not a trylock,
        not a conditional hold) or local_irq_save() (rules.IRQ_OFF_CALLS),
        and before anything that may turn them on again: a release of
        that lock (a plain one too: local_irq_enable() may follow), a
        release with no class, an _irq/_irqrestore release, a call that
        may enable them (irq_enablers()).  Must-analysis: the set of
        reasons is the intersection over the paths."""
        w = self.w
        blocks = w.functions[fid]["blocks"]
        if not any(self.irq_saves(ev[1]) for evs, _s in blocks.values()
                   for ev in evs if ev[0] == "call"):
            return set()
        en = self.irq_enablers()

        def step(ev: Any, held: frozenset[str]) -> frozenset[str]:
            if ev[0] != "call":
                return held
            site = ev[1]
            if self.irq_on_call(site) or any(t in en for t in self.s.targets.get(site, ())):
                return frozenset()
            if w.fname(w.calls[site][1]) in rules.IRQ_OFF_CALLS:
                return held | {"<irq>"}
            for e in self.events.get(site, ()):
                if e.kind in rules.IRQ_KINDS and not e.cond:
                    held = held | (e.classes or {"<irq>"})
                elif e.kind in rules.RELEASE_KINDS:
                    held = held - e.classes if e.classes else frozenset()
            return held
        return {(b, i) for b, i, _ev in self.must_events(fid, step)}

    def over_callees(self, own: dict[str, int],
                     only: dict[str, list[tuple[int, str]]] | None = None) -> dict[str, int]:
        """own[f] grown, in place, by own[t] of every callee t (not through
        the barrier), to a fixpoint: what f or anything it calls does.
        only[f]: the calls of f to follow, if not all of them."""
        if not hasattr(self, "_bottom_up"):
            self._bottom_up = self.bottom_up()
        sel = only or {}
        changed = True
        while changed:
            changed = False
            for f in self._bottom_up:
                cur = own.get(f, 0)
                new = cur
                for _site, t in sel.get(f, self.callees.get(f, ())):
                    if t not in self.barrier_fns:
                        new |= own.get(t, 0)
                if new != cur:
                    own[f] = new
                    changed = True
        return own

    def held_acqs(self, fid: str, held: frozenset[str], order: bool,
                  depth: int = 0, bind: tuple[Any, ...] | None = None) -> int:
        """What fid (and its callees) acquire while the caller's lock (one
        of the classes held) stays held: an acquisition after fid releases
        that lock and before it takes it again does not count.

        A call back into a function still being read (recursion) counts
        what that function and its callees take at all, which is sound;
        a result that depended on one is not kept for later calls (it
        would depend on the order the sections are read in), and the
        depth is part of the key for the same reason.  bind: fid's
        callback binding (call_states()), unbound if not given."""
        if bind is None:
            bind = self.default_state(fid)[1]
        bd = dict(bind)
        key = (fid, bind, held, order, depth)
        if key in self._held_memo:
            return self._held_memo[key]
        trans = self.trans_all_st if order else self.trans_open_st
        active = self._held_active
        if key[:4] in active:
            self._held_low = min(self._held_low, active[key[:4]])
            return trans.get((fid, bind), 0)
        mine = len(active)
        active[key[:4]] = mine
        outer_low, self._held_low = self._held_low, len(self.w.functions) + 1
        hm = self.bits(held)
        fn = self.w.functions[fid]
        blocks = fn["blocks"]
        out = 0
        late = self.post_sleep().get(fid, set())
        seen = set()
        stack = [(fn["entry"] or next(iter(blocks), ""), True)]
        while stack:
            b, on = stack.pop()
            if (b, on) in seen or b not in blocks:
                continue
            seen.add((b, on))
            evs, succ = blocks[b]
            for i, ev in enumerate(evs):
                if (b, i) in late:
                    continue        # entered holding a lock: never sleeps
                if ev[0] != "call":
                    if on:
                        out |= self.bits(self.inner_of_plain(ev))
                    continue
                site = ev[1]
                if on:
                    out |= self.bits(self.percpu_at(site, True))
                for e in self.events.get(site, ()):
                    eb = self.bits(e.classes)
                    if e.role == "real" and e.kind in rules.RELEASE_KINDS and eb & hm:
                        on = False
                    elif e.kind in rules.ACQUIRE_KINDS and eb & hm:
                        on = True
                    elif on and self.counts(e.kind, order):
                        out |= eb
                if on:
                    for t, nst in self.callee_states(fid, bd, site):
                        if (fid, t) in self.cut_used or t in self.barrier_fns:
                            continue
                        if hm & self.rel_trans.get(t, 0) and depth < 6:
                            out |= self.held_acqs(t, held, order, depth + 1, nst[1])
                        else:
                            out |= trans.get(nst, 0)
            for n in succ:
                stack.append((n, on))
        del active[key[:4]]
        low = self._held_low
        if low >= mine:
            self._held_memo[key] = out
        self._held_low = min(outer_low, low if low < mine else outer_low)
        return out

    @staticmethod
    def counts(kind: str, order: bool) -> bool:
        """Does an acquisition of this kind inside a held region count:
        for lock order, one that may wait (not a trylock); for the mask
        of a section, one that holds its lock with interrupts on and is
        not a read (rules.QUIET_KINDS)."""
        if kind not in rules.ACQUIRE_KINDS:
            return False
        return kind not in rules.TRY_KINDS if order else kind not in rules.QUIET_KINDS

    def inner_of(self, fid: str, evs: list[Any], order: bool,
                 held: frozenset[str] = frozenset()) -> set[Any]:
        """Classes acquired (or raw per-CPU written) by events of fid and
        their callees while held stays held: for lock order (order=True)
        what waits for its lock, interrupts on or off; for a section's
        mask what it holds with interrupts on (counts())."""
        out = 0
        hm = self.bits(held)
        trans = self.trans_all_st if order else self.trans_open_st
        bd = dict(self.default_state(fid)[1])
        for ev in evs:
            if ev[0] == "call":
                site = ev[1]
                out |= self.bits(self.percpu_at(site, True))
                for e in self.events.get(site, ()):
                    if self.counts(e.kind, order):
                        out |= self.bits(e.classes)
                for t, nst in self.callee_states(fid, bd, site):
                    if (self.w.calls[site][0], t) in self.cut_used or t in self.barrier_fns:
                        continue
                    if hm and hm & self.rel_trans.get(t, 0):
                        out |= self.held_acqs(t, held, order, 0, nst[1])
                    else:
                        out |= trans.get(nst, 0)
            else:
                out |= self.bits(self.inner_of_plain(ev))
        return self.unbits(out)

    def inner_of_plain(self, ev: Any) -> set[Any]:
        """Raw per-CPU writes of a load/store/asm event."""
        if ev[0] == "st" or (ev[0] == "pc" and not ev[3] and ev[2]):
            return self.percpu_of(ev)
        return set()

    def percpu_of(self, ev: Any) -> set[str]:
        """The per-CPU classes ("P:name") a load, store or asm operand
        touches, less rules.PERCPU_IGNORE: a load or store through a
        pointer derived from the variable, an asm memory operand on it."""
        out = set()
        for p in self.s.pts.get(ev[1], ()):
            if ev[0] == "pc":
                if not p.startswith("G:") or \
                        not self.w.globals.get(p[2:], {}).get("percpu"):
                    continue
            elif not p.startswith("P:"):
                continue
            if not rules.percpu_ignored(p[2:]):
                out.add("P:" + p[2:])
        return out

    def ends_for(self, start: Event, blind: bool = False) -> Any:
        """The test for the event that releases what start acquired.
        blind: a release of the same kind whose lock has no class at all
        (a lock pointer loaded back from a guard() object, which the
        field-based model loses through the aggregate it is returned in)
        counts as the release too.  Used to decide whether the lock is
        still held on return, never for what the section contains."""
        rel = rules.RELEASE_OF.get(start.kind, ())
        if start.kind == "bh_off":
            # BH is a count: the section ends where the count it added
            # comes back off, at local_bh_enable() or spin_unlock_bh()
            # (netif_addr_lock_bh() pairs local_bh_disable() with a
            # spin_unlock_bh()), after any pair nested inside (region())
            def bh_ends(ev: Any) -> bool:
                return self.bh_delta(ev) < 0
            bh_ends.counts = True       # type: ignore[attr-defined]
            return bh_ends

        def ends(ev: Any) -> bool:
            if ev[0] != "call":
                return False
            for e in self.events.get(ev[1], ()):
                if e.role != "real" or e.kind not in rel:
                    continue
                if e.kind == "bh_on":
                    return True
                if e.node == start.node or (start.classes & e.classes) or \
                        (not start.classes and not e.classes):
                    return True
                if blind and not e.classes:
                    self.blind_ends.add(ev[1])
                    return True
            return False
        return ends

    def sections_and_order(self) -> None:
        self.order: dict[str, set[Any]] = defaultdict(set)      # B -> {L}: B held while L taken
        self.order_ev: dict[tuple[Any, ...], str] = {}
        self.sections: list[dict[Any, Any]] = []
        for fid, fn in self.w.functions.items():
            if self.w.prim(fid):
                continue        # the lock implementation itself
            for bname, (evs, _succ) in fn["blocks"].items():
                for i, ev in enumerate(evs):
                    if ev[0] != "call":
                        continue
                    for e in self.events.get(ev[1], ()):
                        if e.kind not in rules.HOLD_KINDS or e.role != "real" or e.lifted:
                            continue
                        kind, classes, prim = e.kind, e.classes, e.prim
                        region, unended, hit = self.region(fid, bname, i, self.ends_for(e))
                        if unended:
                            unended = self.region(fid, bname, i, self.ends_for(e, True))[1]
                        if kind == "bh_off":
                            # what the same call takes after turning BH off
                            # (netif_addr_lock_bh(): local_bh_disable(),
                            # then spin_lock_nested()) is inside
                            region = [ev] + region
                        inner = self.inner_of(fid, region, True, classes)
                        loc = self.w.calls[ev[1]][5]
                        for b in classes:
                            for l in inner:
                                if l != b and not l.startswith("P:"):
                                    self.order[b].add(l)
                                    self.order_ev.setdefault((b, l), f"{self.w.disp(fid)} ({loc})")
                        if kind in rules.BH_KINDS:
                            if kind in rules.TRY_KINDS or e.cond or e.paired:
                                # the path that reaches the return without
                                # the unlock is the failed trylock
                                unended = False
                            self.sections.append({
                                "function": self.w.disp(fid), "loc": loc, "kind": kind,
                                "primitive": prim, "classes": sorted(classes),
                                "inner": sorted(self.inner_of(fid, region, False, classes)
                                                - classes),
                                "unended": unended,
                                "from": e.node[len("lifted:"):]
                                if e.node.startswith("lifted:") else ""})

    def class_masks(self) -> None:
        """cmask(L) = vectors taking L or a lock ordered before L: per
        vector, a breadth-first search along the order edges from the
        classes it takes (the origin is kept for the evidence)."""
        rev: dict[str, set[Any]] = defaultdict(set)
        for b, ls in self.order.items():
            for l in ls:
                rev[l].add(b)
        self.before: dict[str, set[Any]] = {l: set(bs) for l, bs in rev.items()}
        self.cmask: dict[str, set[Any]] = defaultdict(set)
        self.cmask_why: dict[str, dict[Any, Any]] = defaultdict(dict)
        taken_by: dict[str, list[str]] = defaultdict(list)
        for c, vs in self.vec.items():
            for v in vs:
                taken_by[v].append(c)
        # A vector that takes a lock through a pointer with no known value
        # may take any lock whose address is stored in memory.
        for v, lst in self.unresolved_in.items():
            if not lst:
                continue
            for c in sorted(self.stored_locks()):
                if c not in self.vec or v not in self.vec[c]:
                    taken_by[v].append(c)
                    f, loc = lst[0]
                    self.vec_ev.setdefault((c, v), (f, loc, "a lock pointer it cannot "
                                                    "resolve; this lock's address is "
                                                    "stored in memory"))
        for v in VECTORS:
            q: deque[str] = deque()
            for c in sorted(taken_by.get(v, ())):
                self.cmask[c].add(v)
                self.cmask_why[c][v] = ("takes", c)
                q.append(c)
            while q:
                x = q.popleft()
                origin = self.cmask_why[x][v][1]
                for l in self.order.get(x, ()):
                    if v in self.cmask[l]:
                        continue
                    self.cmask[l].add(v)
                    self.cmask_why[l][v] = ("before", origin)
                    q.append(l)

    def order_component(self) -> set[str]:
        """The largest strongly connected component of the lock-order
        graph: classes that are all ordered before each other, so any
        vector that takes one of them is in the class mask of all (rule
        7).  A kernel has no such cycle (lockdep would report it): each
        one contains an order edge that cannot happen."""
        comps = strong_components(sorted(self.order), lambda c: sorted(self.order.get(c, ())))
        best: list[str] = max(comps, key=len, default=[])
        return set(best) if len(best) > 1 else set()

    def section_masks(self) -> None:
        for sec in self.sections:
            if sec["unended"]:
                sec["mask"] = set(VECTORS)
                sec["why"] = "not released in this function on every path"
                continue
            if not sec["classes"] and sec["kind"] not in rules.LOCKLESS_KINDS:
                sec["mask"] = set(VECTORS)
                sec["why"] = "lock not resolved"
                continue
            m = set()
            for c in sec["classes"] + sec["inner"]:
                m |= self.cmask.get(c, set())
            sec["mask"] = m
            sec["why"] = ""

    def bookkeeping(self, fid: str) -> bool:
        """Is fid lockdep's bookkeeping (rules.BOOKKEEPING_UNITS, by the
        file that defines it, and rules.BOOKKEEPING_FUNCTIONS)?"""
        fn = self.w.functions.get(fid)
        if not fn:
            return False
        return fn["name"] in rules.BOOKKEEPING_FUNCTIONS or \
            str(fn.get("loc", "")).rsplit(":", 1)[0] in rules.BOOKKEEPING_UNITS

    def stored_locks(self) -> set[str]:
        """Locations whose address some store writes to memory (the
        classes an unresolved lock pointer may load)."""
        if not hasattr(self, "_stored_locks"):
            # lockdep's own bookkeeping (hlock->instance = lock, the key
            # of a static lock) is never loaded to acquire a lock through
            # (rules.BOOKKEEPING_UNITS)
            # (the constraints themselves: the solve keys its stores by
            # representative, which may be another function's node)
            nodes = [c[2] for c in self.w.cons if c[0] == "store" and
                     not self.bookkeeping(node_fn(c[1]))]
            nodes += [c[2] for c in self.w.cons if c[0] == "store_at"]
            # passed to a function outside the world, which may keep it
            nodes += self.args_leaving_world()
            st = set()
            for v in nodes:
                st |= {x for x in self.s.pts.get(v, ()) if x[:2] in ("F:", "G:", "A:")}
            self._stored_locks = st
        return self._stored_locks

    # ---- precision table ---------------------------------------------
    def precision(self) -> dict[Any, Any]:
        w, s = self.w, self.s
        load_src: dict[str, str] = {}
        for c in w.cons:
            if c[0] == "load":
                load_src[c[1]] = c[2]
        byname: dict[str, set[Any]] = defaultdict(set)
        for key in w.fieldnames:
            fns = self.fnodes("C|F:" + key)
            byname[self.w.field_name(key)] |= fns
        rows: dict[str, list[int]] = {"name-only": [], "prototype-only": [], "typed": []}
        for site, call in enumerate(w.calls):
            if not call[2]:
                continue
            proto = self.by_proto.get(call[6], set()) & self.address_taken
            rows["prototype-only"].append(len(proto))
            rows["typed"].append(len(s.targets.get(site, ())))
            src = load_src.get(call[2])
            fld = [v for v in s.pts.get(src, ()) if v.startswith("F:")] if src else []
            if fld:
                names = {self.w.field_name(v[2:]) for v in fld}
                rows["name-only"].append(len(set().union(*[byname[n] for n in names])))
            else:
                rows["name-only"].append(len(proto))
        return {k: (len(v), sum(v) / len(v) if v else 0.0) for k, v in rows.items()}


def merged_sections(a: Analysis, name: Any) -> list[dict[str, Any]]:
    """One entry per source section: a header's static inline compiled by
    several units is one section, its mask the union of theirs."""
    merged: dict[tuple[str, str, str], dict[str, Any]] = {}
    for sec in a.sections:
        cl = ",".join(sorted({name(c) for c in sec["classes"]})) or "-"
        key = (sec["loc"], sec["function"], cl)
        m = merged.setdefault(key, {"loc": sec["loc"], "function": sec["function"],
                                    "cl": cl, "mask": set(), "why": set(),
                                    "inner": set(), "kind": sec["kind"],
                                    "from": set()})
        if sec.get("from"):
            m["from"].add(sec["from"])
        m["mask"] |= sec["mask"]
        m["inner"] |= {name(c) for c in sec["inner"]}
        if sec["why"]:
            m["why"].add(sec["why"])
    return [merged[k] for k in sorted(merged)]


def at_api(a: Analysis, sec: dict[str, Any]) -> bool:
    """Does the section start at a call of the BH API itself (a primitive,
    or a wrapper of rules.API_HEADERS such as spin_lock_bh() or
    local_bh_disable()), the kind of call the converter rewrites, rather
    than at a call of a function that returns holding a lock?"""
    for f in sec["from"]:
        fn = a.w.functions.get(f)
        loc = fn["loc"] if fn else ""
        if not loc.startswith(rules.API_HEADERS):
            return False
    return True


def subtree_line(a: Analysis, secs: list[dict[str, Any]], prefix: str) -> str:
    """Counts for the sections whose source is under prefix: all of them,
    and those at a call of the BH API (the ones a conversion can touch)."""
    mine = [s for s in secs if s["loc"].startswith(prefix)]
    files = {s["loc"].rsplit(":", 1)[0] for s in mine}

    def useful(lst: list[dict[str, Any]]) -> tuple[int, float]:
        n = sum(1 for s in lst if len(s["mask"]) < len(VECTORS)
                and "BLOCK" not in s["mask"] and "SCHED" not in s["mask"])
        return n, (100.0 * n / len(lst) if lst else 0.0)
    n_all, p_all = useful(mine)
    api = [s for s in mine if at_api(a, s)]
    n_api, p_api = useful(api)
    return (f"{prefix}: {len(mine)} BH sections in {len(files)} files; "
            f"mask < ALL without BLOCK and SCHED: {n_all} ({p_all:.0f}%); "
            f"at a call of the BH API: {len(api)}, of which {n_api} ({p_api:.0f}%)")


def idle_vectors(a: Analysis) -> set[str]:
    """The vectors whose handler runs nothing but itself and a list
    dispatcher walking a list nothing queues on (rules.LIST_DISPATCH):
    HI when no tasklet is given to tasklet_hi_schedule()."""
    idle = set()
    for v in VECTORS:
        roots = a.root_fns.get(v, set())
        if roots and all(f in roots or a.w.fname(f) in rules.LIST_DISPATCH
                         for f in a.reached.get(v, ())) and \
                any(a.list_skip.get((d, v)) is True for d in rules.LIST_DISPATCH):
            idle.add(v)
    return idle


def rootless_vectors(a: Analysis) -> set[str]:
    """The vectors no open_softirq() call in the world registers a
    handler for: nothing in the world runs in them."""
    return {v for v in VECTORS if not a.root_fns.get(v)}


# Sleeping locks: lockdep classes the analysis has no class for (no BH
# section or softirq handler may take one); the oracle checks lockdep saw
# none of them in a vector.
SLEEP_INIT = {"__mutex_init", "__init_rwsem", "__percpu_init_rwsem", "__init_ldsem",
              "__rt_mutex_init"}
# Calls whose first argument is the lock itself (or its dep_map): the
# name is followed no further down (the callee passes it on for every
# lock of the kernel; a helper such as __init_waitqueue_head(), whose
# argument holds the lock, is followed to the call that inits it).
INIT_TERMINAL = SLEEP_INIT | {"__raw_spin_lock_init", "__rwlock_init", "lockdep_init_map_type",
                              "lockdep_init_map_waits", "lockdep_init_map_wait",
                              "lockdep_init_map", "__seqcount_init"}
# Static lockdep maps that are no lock: lockdep's view of a work item
# (DECLARE_WORK()), of a timer, or a map of its own (console_lock,
# cpuhp_state-up): the oracle's "pseudo" classes.
PSEUDO_STRUCTS = {"%struct.lockdep_map", "%struct.work_struct", "%struct.delayed_work",
                  "%struct.timer_list"}
SLEEP_STRUCTS = {"%struct.mutex", "%struct.rw_semaphore", "%struct.percpu_rw_semaphore",
                 "%struct.ld_semaphore", "%struct.rt_mutex", "%struct.rt_mutex_base",
                 "%struct.ww_mutex"}


def lock_names(w: World, a: Analysis) -> tuple[dict[str, set[str]], set[str],
                                               dict[str, set[str]], set[str]]:
    """The lockdep names the world's code gives its locks: per name of a
    lock-init call, the classes its lock may be (none: the site's lock
    pointer is not resolved), followed from a helper's callers down to
    the call that inits the lock (init_waitqueue_head(&q->wait) names
    the wait queue's lock "&q->wait" through __init_waitqueue_head());
    the names of sleeping locks; per name of a lockdep map in a global's
    initializer, the class of the lock holding it; the names of static
    lockdep maps that are no lock (a work item's, console_lock's)."""
    name = w.class_name
    # spin_lock_init(l) passes spinlock_check(l): the lock is that call's
    # argument (spinlock_check()'s return value merges every caller's)
    checked = {c[4]: c[3][0] for c in w.calls
               if c[4] and c[3] and w.fname(c[1]) == "spinlock_check"}
    helper: dict[str, dict[int, list[tuple[int, int]]]] = defaultdict(lambda: defaultdict(list))
    for site, j, k in w.pinits:
        helper[w.calls[site][0]][j].append((site, k))
    hints = {site: hint for site, _n, _k, hint in w.inits}
    memo: dict[tuple[int, int], tuple[frozenset[str], bool]] = {}

    def resolve(site: int, k: int, seen: frozenset[tuple[int, int]]) -> tuple[frozenset[str], bool]:
        """(classes, sleeping) of the lock a call's name argument k names."""
        if (site, k) in memo:
            return memo[(site, k)]
        callee = w.calls[site][1]
        inner = [] if w.fname(callee) in INIT_TERMINAL else helper.get(callee, {}).get(k, [])
        cls: set[str] = set()
        if inner and (site, k) not in seen:
            sleep = False
            for s2, k2 in inner:
                c2, sl2 = resolve(s2, k2, seen | {(site, k)})
                cls |= c2
                sleep |= sl2
        else:
            node = w.calls[site][3][0] if w.calls[site][3] else ""
            node = checked.get(node, node)
            if node:
                cls = {name(c) for c in a.classes_of(node) if c in w.locks}
            sleep = w.fname(callee) in SLEEP_INIT or hints.get(site, "") in SLEEP_STRUCTS
        memo[(site, k)] = (frozenset(cls), sleep)
        return memo[(site, k)]

    inits: dict[str, set[str]] = defaultdict(set)
    sleeping: set[str] = set()
    pseudo: set[str] = set()
    for site, iname, k, _hint in w.inits:
        cls, sleep = resolve(site, k, frozenset())
        inits[iname] |= cls
        if sleep:
            sleeping.add(iname)
    static: dict[str, set[str]] = defaultdict(set)
    for loc, t, iname in w.static_maps:
        if t in SLEEP_STRUCTS:
            sleeping.add(iname)
        elif loc in w.locks:
            static[iname].add(name(loc))
        elif t in PSEUDO_STRUCTS:
            pseudo.add(iname)
    return inits, sleeping, static, pseudo


def write_outputs(a: Analysis, out: str, world: str, t0: float) -> str:
    w = a.w
    name = w.class_name
    os.makedirs(out, exist_ok=True)
    lines = [f"# vector masks for world {world}",
             "# class <class> <MASK>: vectors that take the class or a lock ordered before it",
             "# section <file:line> <function> <classes|-> <MASK>"]
    classes = set()
    for sec in a.sections:
        classes |= set(sec["classes"]) | set(sec["inner"])
    classes |= set(a.vec)
    for acqs in a.acq_cache.values():
        classes |= {c for c, _loc, _k in acqs if c != "?"}
    for c in sorted(classes, key=name):
        lines.append(f"class {name(c)} {mask_str(a.cmask.get(c, set()))}")
    for sec in merged_sections(a, name):
        lines.append(f"section {sec['loc']} {sec['function']} {sec['cl']} {mask_str(sec['mask'])}")
    with open(os.path.join(out, "masks.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    # The converter's table (semantic-patches/bh_lock_mask.py, "site"
    # lines): one mask per source line that starts a section, the union
    # when several sections start there.  A vector with no handler in
    # the world stays masked: "no chain from its root" proves nothing
    # when there is no root, and a configuration that compiles its users
    # (irq_poll drivers, say) runs handlers the analysis never read.
    # A vector whose handler walks only a list nothing queues on (HI:
    # no tasklet_hi_schedule() in the world) stays masked for the same reason: a
    # configuration with users of it (wireless drivers queue HI
    # tasklets) runs what this world never queues, and letting it
    # through gains nothing here.
    rootless = rootless_vectors(a)
    idle = idle_vectors(a)
    per_loc: dict[str, set[str]] = defaultdict(lambda: rootless | idle)
    for sec in merged_sections(a, name):
        per_loc[sec["loc"]] |= sec["mask"]
    with open(os.path.join(out, "sites.txt"), "w", encoding="utf-8") as f:
        f.write(f"# section masks for world {world}: site <file>:<line> <MASK>\n")
        f.write("# vectors with no handler in the world, masked in every site: "
                f"{mask_str(rootless)}\n")
        f.write("# vectors whose handler walks only a list nothing queues on, masked in"
                " every site: "
                f"{mask_str(idle)}\n")
        for loc in sorted(per_loc):
            f.write(f"site {loc} {mask_str(per_loc[loc])}\n")
    # The lockdep name each lock-init site gives, and the classes its lock
    # may be (none: the site's lock pointer is not resolved): what the
    # lockdep oracle maps a dynamic key's name back to.
    inits, sleeping, static, pseudo = lock_names(w, a)
    data: dict[str, Any] = {"classes": {}, "sections": [],
                            "inits": {k: sorted(v) for k, v in sorted(inits.items())},
                            "static_names": {k: sorted(v) for k, v in sorted(static.items())},
                            "sleeping": sorted(sleeping), "pseudo_names": sorted(pseudo)}
    md = [f"# Vector evidence for world {world}", ""]
    for c in sorted(classes, key=name):
        ev = {}
        for v in VECTORS:
            why = a.cmask_why.get(c, {}).get(v)
            if not why:
                continue
            kind, lk = why
            fid, loc, akind = a.vec_ev[(lk, v)]
            steps = a.chain(v, fid) + [f"{w.disp(fid)} takes {name(lk)} ({akind}, {loc})"]
            if kind == "before":
                steps.append(f"{name(lk)} is held while {name(c)} is taken: "
                             f"{a.order_ev.get((lk, c), 'via a longer order chain')}")
            ev[v] = steps
        absent = [v for v in VECTORS if v not in a.cmask.get(c, set())]
        data["classes"][name(c)] = {
            "mask": mask_str(a.cmask.get(c, set())), "evidence": ev,
            # the vectors that take the class itself (the rest of the
            # mask take a lock ordered before it): what lockdep's usage
            # of the class may show (scripts/analysis/lockdep-oracle.py)
            "takes": [v for v in VECTORS
                      if a.cmask_why.get(c, {}).get(v, ("",))[0] == "takes"],
            "before": sorted(name(b) for b in a.before.get(c, ())),
            "absent": {v: "no call chain from the root of " + v +
                       " reaches an acquisition of this class or of a lock ordered before it"
                       for v in absent}}
        md.append(f"## {name(c)}: {mask_str(a.cmask.get(c, set()))}")
        for v, steps in ev.items():
            md.append(f"- {v}:")
            md.extend(f"  - {s}" for s in steps)
        if absent:
            md.append(f"- not reachable: {' '.join(absent)}")
        md.append("")
    for sec in merged_sections(a, name):
        data["sections"].append({
            "function": sec["function"], "loc": sec["loc"], "kind": sec["kind"],
            "classes": sec["cl"].split(",") if sec["cl"] != "-" else [],
            "inner": sorted(sec["inner"]),
            "mask": mask_str(sec["mask"]), "why": "; ".join(sorted(sec["why"]))})
    # why each vector is in each section's mask (imprecision.py)
    comp_names = {name(c) for c in a.order_component()}
    blame = imprecision.section_blame(data, comp_names)
    for sec, mine in zip(data["sections"], blame):
        sec["causes"] = mine
    causes = imprecision.causes_of(blame)
    with open(os.path.join(out, "imprecision.md"), "w", encoding="utf-8") as f:
        f.write(imprecision.report(data, blame, len(comp_names), "vectors.json"))
    with open(os.path.join(out, "vectors.json"), "w", encoding="utf-8") as f:
        json.dump(data, f, sort_keys=True, separators=(",", ":"))
    with open(os.path.join(out, "evidence.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(md) + "\n")
    with open(os.path.join(out, "kept-holds.txt"), "w", encoding="utf-8") as f:
        f.write("# conditional holds a function may keep past its return without\n"
                "# returning the result that says so: <origin> <function>\n"
                "# (its callers do not see the lock held; audit each)\n")
        for node in sorted(a.kept_cond):
            for fid in sorted(a.kept_cond[node]):
                f.write(f"{node} {w.disp(fid)}\n")
    prec = a.precision()
    secs = merged_sections(a, name)
    comp = {name(c) for c in a.order_component()}
    in_comp = [x for x in secs if comp & (set(x["cl"].split(",")) | x["inner"])]
    full = sum(1 for s in secs if len(s["mask"]) == len(VECTORS))
    useful = sum(1 for s in secs if len(s["mask"]) < len(VECTORS)
                 and "BLOCK" not in s["mask"] and "SCHED" not in s["mask"])
    summ = [f"world: {world}",
            f"functions: {len(w.functions)}; call sites: {len(w.calls)}; "
            f"indirect: {prec['typed'][0]}; points-to rounds: {a.rounds}",
            f"roots: " + ", ".join(f"{v}={len(a.root_fns.get(v, ()))}" for v in VECTORS)
            + f"; masked in every site of sites.txt (no handler): {mask_str(rootless)}"
            + f"; (a handler with nothing queued): {mask_str(idle)}",
            f"BH sections: {len(secs)}; mask < ALL without BLOCK and SCHED: {useful}; "
            f"ALL: {full}",
            f"classes in or under BH sections: {len(classes)}",
            subtree_line(a, secs, "net/"),
            "sections at a call of a function that returns with BH off or the "
            "lock held (spin_lock_bh() itself, lock_sock_fast(), or an imprecise "
            "lift): "
            f"{sum(1 for x in secs if x['from'])}; top functions: " + ", ".join(
                f"{f} {n}" for f, n in Counter(
                    w.disp(f) for x in secs for f in x["from"]).most_common(8)),
            "functions that may return holding a lock their caller does not "
            "always release, kept as a failed try (not followed to the callers' "
            f"callers, list in kept-holds.txt): {len({f for fs in a.kept_cond.values() for f in fs})}",
            "call-graph cycles judged in rounds until their lifts settle: "
            f"{a.lift_cycles - len(a.lift_unsettled)} of {a.lift_cycles} ({a.lift_rounds} "
            "rounds); judged once each in call-graph order (too large, or not "
            "settling): "
            + (", ".join(f"{n} functions" for n in a.lift_unsettled) or "none"),
            "releases of a lock with no class taken as the end of a section "
            f"(guard() objects; the section still runs to the function's end): {len(a.blind_ends)}",
            "classes per mask: " + "; ".join(
                f"{m} {n}" for m, n in sorted(
                    Counter(mask_str(a.cmask.get(c, set())) for c in classes).items(),
                    key=lambda x: (-x[1], x[0]))[:12]),
            "sections left ALL, by reason: " + ("; ".join(
                f"{r}: {n}" for r, n in sorted(Counter(
                    r for x in secs for r in (x["why"] or {"vectors reach it"})
                    if len(x["mask"]) == len(VECTORS)).items())) or "none"),
            f"lock order: {sum(len(v) for v in a.order.values())} edges; largest "
            f"cycle component {len(comp)} classes (each gets the vectors of all; "
            "each cycle has an edge that cannot happen), held or taken by "
            f"{len(in_comp)} of the {len(secs)} sections, net/: "
            f"{sum(1 for x in in_comp if x['loc'].startswith('net/'))}",
            "indirect-call targets per site (average): " +
            "; ".join(f"{k} {v[1]:.2f}" for k, v in prec.items()),
            f"unresolved lock acquisitions reached by a vector: "
            f"{sum(len(x) for x in a.unresolved_in.values())}",
            "alloc_percpu() classes (one per struct; joined by an embedded "
            f"struct passed on): {len(a.w.pcpu_named)}, {a.w.pcpu_merged} of "
            "them joined to another or made generic",
            f"overrides: {len(a.overrides)} given, {len(a.cut_used)} call edges cut"]
    summ += imprecision.summary_lines(data, causes, comp_names)
    summ.append(f"time: {time.time() - t0:.1f}s")
    with open(os.path.join(out, "summary.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(summ) + "\n")
    return "\n".join(summ)


def override_hash(srcroot: str, locs: list[str]) -> str:
    """sha256 (16 hex digits) of the source lines at locs ("file:line"),
    stripped: what an override cites, independent of line shifts."""
    text = []
    for loc in locs:
        path, _, line = loc.rpartition(":")
        try:
            with open(os.path.join(srcroot, path), encoding="utf-8", errors="replace") as f:
                lines = f.read().split("\n")
            text.append(lines[int(line) - 1].strip())
        except (OSError, ValueError, IndexError):
            text.append(f"<{loc} unreadable>")
    return hashlib.sha256("\n".join(text).encode()).hexdigest()[:16]


def read_overrides(path: str | None) -> list[dict[str, str]]:
    """Lines: 'cut CALLER CALLEE SHA256-of-cited-code reason...'."""
    out: list[dict[str, str]] = []
    if not path:
        return out
    with open(path, encoding="utf-8") as f:
        for n, ln in enumerate(f, 1):
            ln = ln.strip()
            if not ln or ln.startswith("#"):
                continue
            parts = ln.split(None, 4)
            if len(parts) < 5 or parts[0] != "cut":
                raise SystemExit(f"vectors: {path}:{n}: expected "
                                 "'cut CALLER CALLEE HASH reason'")
            out.append({"caller": parts[1], "callee": parts[2], "hash": parts[3],
                        "reason": parts[4]})
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--facts", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--world", default="?")
    ap.add_argument("--overrides")
    ap.add_argument("--srcroot", default=".", help="source root of the file names "
                    "in the evidence (to check override hashes)")
    args = ap.parse_args()
    paths = sorted(glob.glob(os.path.join(args.facts, "**", "*.json"), recursive=True))
    if not paths:
        print(f"vectors: no facts in {args.facts}", file=sys.stderr)
        return 2
    t0 = time.time()

    def phase(what: str) -> None:
        """A progress line on stderr: the phase, elapsed time, memory."""
        import resource
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
        print(f"[{time.strftime('%H:%M:%S')}] vectors: {what} "
              f"({time.time() - t0:.0f}s, max RSS {rss} MiB)", file=sys.stderr, flush=True)
    w = World()
    phase(f"loading {len(paths)} fact files")
    w.load(paths)
    phase(f"{len(w.functions)} functions, {len(w.calls)} call sites, "
          f"{len(w.cons)} constraints; points-to")
    a = Analysis(w, read_overrides(args.overrides))
    a.solve()
    phase(f"points-to done ({len(a.s.pts)} nodes); call graph")
    a.callgraph()
    stale = a.check_overrides(args.srcroot)
    if stale:
        for e in stale:
            print(f"vectors: {e}", file=sys.stderr)
        return 1
    phase("lock events")
    a.site_events()
    phase("vector reach")
    a.reach()
    a.takes()
    a.acq_trans()
    phase("sections and lock order")
    a.sections_and_order()
    a.class_masks()
    a.section_masks()
    phase("writing")
    print(write_outputs(a, args.out, args.world, t0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
