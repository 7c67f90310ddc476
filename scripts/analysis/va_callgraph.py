"""The call graph of the vector analysis (vectors.py, rules 2 to 4 of
scripts/analysis/README.md): the points-to solve with its prototype
fallback rounds (indirect calls), the per-dispatcher rules
(rules.DISPATCH, rules.LIST_DISPATCH), the call graph less the
overrides, its components bottom-up, the barriers (functions that sleep
on every path, the dispatcher), and the indirect-call precision table."""

from __future__ import annotations

from typing import Any, Iterator

import hashlib
import os
from collections import defaultdict, deque

import rules
from va_pointsto import UNKNOWN, PointsTo
from va_world import World, node_fn, strong_components


class CallGraph(PointsTo):
    """Indirect calls, the call graph and its barriers: the second layer
    of the analysis (va_pointsto.PointsTo)."""

    def __init__(self, w: World, overrides: list[dict[Any, Any]]) -> None:
        super().__init__(w, overrides)
        self._sleepers: set[str] | None = None
        self._post_sleep: dict[str, set[tuple[str, int]]] | None = None

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
        self.ops_objects()

    # ---- per-dispatcher rules (rules.DISPATCH, rules.LIST_DISPATCH) -----
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
            objs = {x for x in vals if x[:2] in ("F:", "G:", "A:", "H:")}
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

    # ---- ops objects (rules.STABLE_OPS_FIELDS) -------------------------
    def ops_objects(self) -> None:
        """Which indirect calls of a function read one ops object, and
        which functions one object holds together.

        self.ops_site[site] = (identity, struct, field) for an indirect
        call whose pointer is loaded from a field of a struct pointer,
        where the identity is the pointer value ("v", node), or, for a
        pointer loaded from a stable holder field (rules.
        STABLE_OPS_FIELDS), ("f", the holder's node, the field).
        self.ops_objs[g][field]: what global g, an object of that struct,
        holds in the field by its initializer; self.ops_free[(struct,
        field)]: what anything else puts there (a store, an initializer
        of another type's global, a memcpy), which any object may hold."""
        s, w = self.s, self.w
        self.ops_site: dict[int, tuple[tuple[str, ...], str, str]] = {}
        self.ops_sites_of: dict[str, list[int]] = defaultdict(list)
        self.ops_objs: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        self.ops_free: dict[tuple[str, str], set[str]] = defaultdict(set)
        self.ops_with: dict[tuple[str, str, str], set[str]] = defaultdict(set)
        self.ops_unstable: list[str] = []
        load_ptr: dict[str, str] = {}
        copy_of: dict[str, list[str]] = defaultdict(list)
        gep_base: dict[str, str] = {}
        gep_loc: dict[str, list[str]] = defaultdict(list)
        ginits: list[list[str]] = []
        store_ats: list[list[str]] = []
        memcpys: list[list[str]] = []
        for c in w.cons:
            if c[0] == "load":
                load_ptr[c[1]] = c[2]
            elif c[0] == "copy":
                copy_of[c[1]].append(c[2])
            elif c[0] == "base" and c[2]:
                gep_base[c[1]] = c[2]
            elif c[0] == "addr" and c[2].startswith("F:"):
                gep_loc[c[1]].append(c[2])
            elif c[0] == "ginit":
                ginits.append(c)
            elif c[0] == "store_at":
                store_ats.append(c)
            elif c[0] == "memcpy":
                memcpys.append(c)

        def through_copies(node: str, table: Any, steps: int = 4) -> str | None:
            """The first node in table that node is a copy of (itself
            included), following single-source copies."""
            for _ in range(steps):
                if node in table:
                    return node
                if len(copy_of.get(node, [])) != 1:
                    return None
                node = copy_of[node][0]
            return None

        def field_of(ptr: str) -> tuple[str, str] | None:
            """(field location, base pointer) of a GEP to one field."""
            gep = through_copies(ptr, gep_base)
            locs = gep_loc.get(gep, []) if gep is not None else []
            return (locs[0], gep_base[gep]) if gep is not None and len(locs) == 1 else None

        def loaded_from(node: str) -> str | None:
            load = through_copies(node, load_ptr)
            return load_ptr[load] if load is not None else None
        # the stable holder fields whose stores are only where the rule says
        stable: set[str] = set()
        for (sname, fname), writers in sorted(rules.STABLE_OPS_FIELDS.items()):
            keys = {"F:" + k for k in w.fieldnames
                    if k.startswith(sname + ".") and w.field_name(k) == fname}
            bad = sorted({w.disp(node_fn(ptr)) for ptr in s.stores
                          if keys & s.cells(ptr)[0] and w.fname(node_fn(ptr)) not in writers})
            bad += sorted({w.disp(node_fn(c[1])) for c in memcpys if keys & s.cells(c[1])[0]})
            if bad:
                self.ops_unstable.append(f"{sname[len('%struct.'):]}.{fname} "
                                         f"(stored by {', '.join(bad[:3])})")
            else:
                stable |= keys
        structs: set[str] = set()
        for site, call in enumerate(w.calls):
            fp = call[2]
            if not fp or (ptr := loaded_from(fp)) is None:
                continue
            # a pointer that may read memory the solve does not know may
            # read an object it does not know either
            if UNKNOWN in s.pts.get(fp, set()) or s.open_ptr(ptr) or not s.cells(ptr)[0]:
                continue
            fld = field_of(ptr)
            if fld is None:
                continue
            loc, obj = fld
            sname, _, k = loc[2:].rpartition(".")
            ident: tuple[str, ...] = ("v", s.find(obj))
            hptr = loaded_from(obj)
            hold = field_of(hptr) if hptr is not None else None
            if hold is not None and hold[0] in stable:
                ident = ("f", s.find(hold[1]), hold[0])
            self.ops_site[site] = (ident, sname, k)
            self.ops_sites_of[call[0]].append(site)
            structs.add(sname)
        # the objects and what else reaches their fields
        obj_type: dict[str, str] = {}
        for c in ginits:
            if not c[2].startswith("F:"):
                continue
            sname, _, k = c[2][2:].rpartition(".")
            if sname not in structs:
                continue
            fns = self.fnodes(c[3])
            if w.globals.get(c[1][2:], {}).get("type") == sname:
                self.ops_objs[c[1]][k] |= fns
                obj_type[c[1]] = sname
            else:
                self.ops_free[(sname, k)] |= fns
        inited = {(c[2], c[3]) for c in ginits}
        for c in store_ats:
            if (c[1], c[2]) not in inited and c[1].startswith("F:"):
                sname, _, k = c[1][2:].rpartition(".")
                if sname in structs:
                    self.ops_free[(sname, k)] |= self.fnodes(c[2])
        # an object a builder (rules.OPS_BUILDERS) fills in fresh memory:
        # its stores through the allocation's result are that object's
        fresh: dict[str, str] = {}
        for call in w.calls:
            if call[4] and w.fname(call[1]) in rules.ALLOCATORS - rules.COPYING_ALLOCATORS \
                    and w.fname(call[0]) in rules.OPS_BUILDERS:
                fresh[call[4]] = "new:" + call[4]
        for ptr, vals in s.stores.items():
            fld = field_of(ptr)
            root = through_copies(fld[1], fresh, len(copy_of) + 1) if fld else None
            for cell in s.cells(ptr)[0]:
                sname, _, k = cell[2:].rpartition(".")
                if cell.startswith("F:") and sname in structs:
                    if root is not None and fld and fld[0] == cell:
                        into = self.ops_objs[fresh[root]][k]
                        obj_type[fresh[root]] = sname
                    else:
                        into = self.ops_free[(sname, k)]
                    for v in vals:
                        into |= self.fnodes(v)
        for c in memcpys:
            for cell in s.cells(c[1])[0]:
                sname, _, k = cell[2:].rpartition(".")
                if cell.startswith("F:") and sname in structs:
                    for src in s.cells(c[2])[0]:
                        self.ops_free[(sname, k)] |= self.fnodes("C|" + src)
        for g, fields in self.ops_objs.items():
            for k, fns in fields.items():
                for f in fns:
                    self.ops_with[(obj_type[g], k, f)].add(g)

    def ops_allowed(self, fid: str, site: int, t: str) -> dict[int, set[str]]:
        """The targets the other calls of fid through the same ops object
        may run once the call at site ran t: per call site, the
        functions the objects holding t hold in that call's field, what
        any object may hold there (ops_free) and what the solve bound by
        prototype.  Empty when t came from anywhere else (a store, the
        prototype fallback, a pointer with no known value)."""
        info = self.ops_site.get(site)
        if info is None or (site, t) in self.proto_bound:
            return {}
        ident, sname, k = info
        objs = self.ops_with.get((sname, k, t))
        if not objs or t in self.ops_free.get((sname, k), ()):
            return {}
        out: dict[int, set[str]] = {}
        for s2 in self.ops_sites_of.get(fid, ()):
            i2 = self.ops_site[s2]
            if s2 == site or i2[0] != ident or i2[1] != sname:
                continue
            k2 = i2[2]
            allow = set(self.ops_free.get((sname, k2), set()))
            for g in objs:
                allow |= self.ops_objs[g].get(k2, set())
            allow |= {x for x in self.s.targets.get(s2, ()) if (s2, x) in self.proto_bound}
            out[s2] = allow
        return out

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
                objs = {v for v in s.pts.get(call[3][idx_obj], ())
                        if v[:2] in ("F:", "G:", "A:", "H:")} \
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
                                      if v[:2] in ("F:", "G:", "A:", "H:")}
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

    def callees_set(self, fid: str) -> set[str]:
        return {t for _s, t in self.callees.get(fid, ())}

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

    # ---- barriers ------------------------------------------------------
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
        """A function no walk enters: the softirq dispatcher
        (rules.BARRIERS), a lock primitive (read at its call sites), lock
        debugging (rules.DEBUG_UNITS, by the file that defines it)."""
        return self.w.fname(fid) in rules.BARRIERS or bool(self.w.prim(fid)) or \
            self.w.unit(fid) in rules.DEBUG_UNITS

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
