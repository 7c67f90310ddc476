"""Vector reach of the vector analysis (vectors.py, rules 2 and 3 of
scripts/analysis/README.md): the roots of each vector, the callback
parameters and notifier chain heads that bind what a call runs, the
(function, binding) states a vector reaches from its roots, the chains
that evidence them, and what each vector takes.  The fourth layer of
the analysis (va_locks.LockEvents)."""

from __future__ import annotations

from typing import Any, Iterator

from collections import defaultdict, deque

import rules
from va_locks import LockEvents
from va_pointsto import DUNKNOWN, UNKNOWN
from va_world import VECTORS


class VectorReach(LockEvents):
    """Callback bindings, vector reach and what each vector takes: the
    fourth layer of the analysis."""

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

    def default_state(self, f: str) -> tuple[str, tuple[Any, ...]]:
        """f called from a caller that binds none of its callback
        parameters: every target of its dispatching calls counts."""
        return (f, tuple((i, None) for i in sorted(self.cbp.get(f, ()))))

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
                                out.append((c, self.w.calls[ev[1]][5], self.acq_kind(e)))
                            if not e.classes or e.unknown:
                                # an unknown lock; of a container type: one
                                # of that type ("?%struct.wait_queue_head")
                                out.append(("?" + e.ctype, self.w.calls[ev[1]][5],
                                            self.acq_kind(e)))
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
                    if c.startswith("?"):
                        self.unresolved_in[v].append((f, loc, c[1:]))
                        continue
                    self.vec[c].add(v)
                    self.vec_ev.setdefault((c, v), (f, loc, kind))
