"""The world of the vector analysis (vectors.py): the facts of its
translation units, written by ir_facts.py one JSON per unit, loaded into
one World, with the names people read; and the helpers every part of the
solve uses (node_fn(), strong_components(), mask_str())."""

from __future__ import annotations

from typing import Any, Callable, Hashable, Iterable, TypeVar

import json
import re
from collections import defaultdict

import rules

VECTORS = rules.VECTORS


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
        # the type of each lock location ("%struct.sk_buff_head", an
        # array's element type), and of the container a lock pointer was
        # taken from by a GEP (ir_facts.py)
        self.lock_types: dict[str, str] = {}
        self.ctypes: dict[str, str] = {}
        # (call site, lockdep name, its argument index, the struct the
        # lock argument points into) of each lock-init call; (site,
        # caller's parameter, argument index) of a helper passing its
        # parameter on as the name; (location, type, name) of the lockdep
        # maps in global initializers (ir_facts.py)
        self.inits: list[tuple[int, str, int, str]] = []
        self.pinits: list[tuple[int, int, int]] = []
        self.static_maps: list[tuple[str, str, str]] = []
        # call results cast to a lock pointer right away -> the lock type
        # (ir_facts.py); the results of allocator calls -> whether they
        # are lock memory (allocation_sites()); allocation sites of lock
        # memory, "H:<node>" -> (allocator, call's location)
        self.lock_casts: dict[str, str] = {}
        self.alloc_results: dict[str, bool] = {}
        self.allocs: dict[str, tuple[str, str]] = {}

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
            self.lock_types.update(d.get("lock_types", {}))
            self.ctypes.update(d.get("ctypes", {}))
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
            self.lock_casts.update(d.get("lock_casts", {}))
        self.declared -= set(self.functions)
        self.widen_generic_percpu()
        self.allocation_sites()

    def allocation_sites(self) -> None:
        """The result of an allocator call (rules.ALLOCATORS) is fresh
        memory, not what the allocator's body returns (Solver.bind()).
        Cast to a lock pointer right away (lock_casts), it is a lock
        location of its own, "H:<result node>", of that lock type;
        otherwise it is data: a lock taken through it later, after the
        pointer went through a void * elsewhere, has no class (the
        unresolved rule), as any lock reached through a data pointer."""
        for call in self.calls:
            dst = call[4]
            if not dst or self.fname(call[1]) not in rules.ALLOCATORS:
                continue
            t = self.lock_casts.get(dst)
            self.alloc_results[dst] = t is not None
            if t is not None:
                loc = "H:" + dst
                self.locks.add(loc)
                self.lock_types[loc] = t
                self.allocs[loc] = (self.fname(call[1]), str(call[5]))

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
        if loc in self.allocs:
            fn, where = self.allocs[loc]
            return f"{fn}()@{where}"
        return loc

    def lock_type(self, loc: str) -> str:
        """The type of a lock location ("%struct.sk_buff_head"), or "" when
        it is no lock location or its type is not known."""
        return self.lock_types.get(loc, "")

    def fits(self, loc: str, ctype: str) -> bool:
        """May a lock reached through a GEP into a container of type ctype
        be loc?  Not when loc is a lock location of another known type
        (the object is that container, whatever else the pointer's value
        may be); always when ctype is empty."""
        return not ctype or self.lock_type(loc) in ("", ctype)

    def of_container(self, classes: Iterable[str], ctype: str) -> frozenset[str]:
        """The classes that fit ctype (fits())."""
        return frozenset(c for c in classes if self.fits(c, ctype))

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

    def unit(self, fid: str) -> str:
        """The file that defines fid ("" when the world does not)."""
        fn = self.functions.get(fid)
        return str(fn.get("loc", "")).rsplit(":", 1)[0] if fn else ""

    def disp(self, fid: str) -> str:
        """A function's name for people: external functions by name, static
        ones qualified by the file that defines them (a header's static
        inline is one function whatever unit compiled it)."""
        fn = self.functions.get(fid)
        if not fn or not fn["internal"]:
            return fid
        where = fn["loc"].rsplit(":", 1)[0] if fn["loc"] else fid.rsplit(":", 1)[0]
        return f"{where}:{fn['name']}"
