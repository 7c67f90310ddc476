"""Points-to of the vector analysis (vectors.py, rule 1 of
scripts/analysis/README.md): field-based inclusion constraints (Solver),
and the first layer of the analysis (PointsTo): what escapes the solve,
per-CPU parameters and accesses, the values a node holds.  The indirect
calls it binds by prototype, and the per-dispatcher rules, are
va_callgraph.py's."""

from __future__ import annotations

from typing import Any, Callable

import functools
import re
from collections import Counter, defaultdict, deque

import rules
from va_world import World


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
        # cast edges that tag and untag a container's address (add_cast())
        self.tsucc: dict[str, set[Any]] = defaultdict(set)
        self.usucc: dict[str, set[Any]] = defaultdict(set)
        self.stores: dict[str, list[Any]] = defaultdict(list)
        self.pcpu: dict[str, list[Any]] = defaultdict(list)
        # pointer -> what loads through it define: a value loaded through
        # a per-CPU address names memory owned by that CPU through the
        # slot (the per-CPU scratch map *this_cpu_ptr(m->scratch) points
        # to), so it carries the slot's per-CPU class (run())
        self.pload: dict[str, list[str]] = defaultdict(list)
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
        return v[:3] == "FN:" or v[:2] in ("P:", "U:", "D:", "N:", "K:") or v in self.locks

    def tagged(self, vals: Any, tag: bool) -> list[str]:
        """What a cast edge carries (ir_facts.cast_kind()): a container's
        address cast to another struct is data, K:<lock> (tag); a cast to
        a container type makes it the lock's again (untag)."""
        if tag:
            return ["K:" + v if v in self.locks else v for v in vals]
        return [v[2:] if v[:2] == "K:" else v for v in vals]

    def add_cast(self, src: str, dst: str, tag: bool) -> None:
        """An edge that tags or untags what it carries (tagged())."""
        self.link(self.tsucc if tag else self.usucc, src, dst,
                  lambda vals: self.tagged(vals, tag))

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

    def link(self, edges: dict[str, set[Any]], src: str, dst: str,
             carry: Callable[[list[str]], list[str]]) -> None:
        """Add src -> dst to edges (one of the edge sets run() follows)
        and send it what src holds now, through carry (all of it, a
        filter or a cast)."""
        src, dst = self.find(src), self.find(dst)
        if dst in edges[src] or src == dst:
            return
        edges[src].add(dst)
        vals = self.pts.get(src)
        if vals:
            out = carry([v for v in vals if self.travels(v)])
            if out:
                self.add_pts(dst, out)

    def add_edge(self, src: str, dst: str) -> None:
        self.link(self.succ, src, dst, lambda vals: vals)

    def add_filtered(self, src: str, dst: str, percpu: bool) -> None:
        """An edge that carries only per-CPU addresses (percpu) or all
        but them."""
        self.link(self.psucc if percpu else self.nsucc, src, dst,
                  lambda vals: [v for v in vals if (v[:2] == "P:") == percpu])

    def collapse(self) -> None:
        """Merge every node defined by exactly one copy into its source;
        mark the nodes that have a definition other than an address."""
        w = self.w
        ndef: Counter[str] = Counter()
        src_of: dict[str, str] = {}
        for c in w.cons:
            k = c[0]
            if k in ("addr", "copy", "load", "pcpu", "tag", "untag"):
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
            if c[0] in ("load", "tag", "untag") or (c[0] == "copy" and c[1] not in self.rep):
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
            elif k in ("tag", "untag"):
                self.add_cast(c[2], c[1], k == "tag")
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
            self.pload[ptr].append(dst)
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
        if not dst:
            return
        lock = self.w.alloc_results.get(dst)
        if lock is not None:
            # fresh memory, not what the allocator's body returns: a lock
            # of its own, or data (World.allocation_sites())
            self.add_pts(dst, ["H:" + dst if lock else DUNKNOWN])
        else:
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
                for tag, edges in ((True, self.tsucc), (False, self.usucc)):
                    if n in edges:
                        cast = self.tagged(out, tag)
                        for d in list(edges[n]):
                            self.add_pts(d, cast)
            pc = [v for v in delta if v[:2] == "P:"]
            if pc:
                for d in self.pcpu.get(n, ()):
                    self.add_pts(d, pc)
                for d in self.pload.get(n, ()):
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


class PointsTo:
    """The analysis's first layer: the solve (self.s) and what is read
    off it.  Each module adds a layer (va_callgraph.CallGraph,
    va_locks.LockEvents, va_reach.VectorReach, va_order.LockOrder); the
    last one, va_order.Analysis, is the whole analysis."""

    def __init__(self, w: World, overrides: list[dict[Any, Any]]) -> None:
        self.w = w
        self.s = Solver(w)
        self.overrides = overrides
        self.notes: list[str] = []

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

    def unknown_ptr(self, node: str) -> bool:
        """May the pointer node hold a value the solve does not know
        (loaded as data or not)?"""
        pts = self.s.pts.get(node, ())
        return UNKNOWN in pts or DUNKNOWN in pts

    def classes_of(self, node: str) -> set[Any]:
        vals = self.s.pts.get(node, set())
        return {v for v in vals if v[:2] in ("F:", "G:", "A:", "H:")}
