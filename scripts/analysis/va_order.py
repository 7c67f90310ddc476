"""Lock order and masks of the vector analysis (vectors.py, rules 6 and 7
of scripts/analysis/README.md): what each function and its callees take
per (function, binding) state, the BH sections with what they hold and
take inside, the lock-order graph, the class masks (the vectors that
take a class or a lock ordered before it) and the section masks.  The
last layer (va_reach.VectorReach); Analysis is the whole analysis."""

from __future__ import annotations

from typing import Any, Iterator

from collections import defaultdict, deque

import rules
from va_reach import VectorReach
from va_world import VECTORS, node_fn, strong_components


class LockOrder(VectorReach):
    """Transitive acquisitions, sections, lock order and masks: the last
    layer of the analysis."""

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
                                 if not c.startswith("?") and k not in skip and k not in rules.TRY_KINDS})
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
                                         if not c.startswith("?") and k not in quiet})
                continue
            # a callee that may turn interrupts on counts whole even where
            # they are off (what it takes after turning them on)
            en = self.irq_enablers()
            offsites = {self.w.functions[f]["blocks"][b][0][i][1] for b, i in off
                        if self.w.functions[f]["blocks"][b][0][i][0] == "call"}
            offsites = {st for st in offsites
                        if not any(t in en for t in self.s.targets.get(st, ()))}
            acq_open[f] = self.bits({c for c, _l, k in self.fn_acqs(f, off | post.get(f, set()))
                                     if not c.startswith("?") and k not in quiet})
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
                    elif on and self.counts(self.acq_kind(e), order):
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
                 held: frozenset[str] = frozenset(),
                 only: dict[int, set[str]] | None = None) -> set[Any]:
        """Classes acquired (or raw per-CPU written) by events of fid and
        their callees while held stays held: for lock order (order=True)
        what waits for its lock, interrupts on or off; for a section's
        mask what it holds with interrupts on (counts()).  only[site]:
        the callees a call of fid may run there, if not all its targets
        (the same ops object's functions, ops_allowed())."""
        out = 0
        hm = self.bits(held)
        trans = self.trans_all_st if order else self.trans_open_st
        bd = dict(self.default_state(fid)[1])
        for ev in evs:
            if ev[0] == "call":
                site = ev[1]
                out |= self.bits(self.percpu_at(site, True))
                for e in self.events.get(site, ()):
                    if self.counts(self.acq_kind(e), order):
                        out |= self.bits(e.classes)
                allowed = only.get(site) if only else None
                for t, nst in self.callee_states(fid, bd, site):
                    if (self.w.calls[site][0], t) in self.cut_used or t in self.barrier_fns:
                        continue
                    if allowed is not None and t not in allowed:
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

    # ---- sections, lock order and masks -------------------------------
    def sections_and_order(self) -> None:
        self.order: dict[str, set[Any]] = defaultdict(set)      # B -> {L}: B held while L taken
        self.order_ev: dict[tuple[Any, ...], str] = {}
        # every function whose held regions give an edge (the hub table)
        self.order_by: dict[tuple[Any, ...], set[str]] = defaultdict(set)
        self.sections: list[dict[Any, Any]] = []
        self.ops_bound = 0      # held regions read with one ops object
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
                        # a hold one ops function returned with: the
                        # region calls that object's other functions
                        only = self.ops_allowed(fid, ev[1], e.node[len("lifted:"):]) \
                            if e.node.startswith("lifted:") else {}
                        if only:
                            self.ops_bound += 1
                        hits: set[int] = set()
                        region, unended, hit = self.region(fid, bname, i, self.ends_for(e),
                                                           hits)
                        if unended:
                            unended = self.region(fid, bname, i, self.ends_for(e, True))[1]
                        if kind == "bh_off":
                            # what the same call takes after turning BH off
                            # (netif_addr_lock_bh(): local_bh_disable(),
                            # then spin_lock_nested()) is inside
                            region = [ev] + region
                        inner = self.inner_of(fid, region, True, classes, only)
                        loc = self.w.calls[ev[1]][5]
                        for b in classes:
                            for l in inner:
                                if l != b and not l.startswith("P:"):
                                    self.order[b].add(l)
                                    self.order_ev.setdefault((b, l), f"{self.w.disp(fid)} ({loc})")
                                    self.order_by[(b, l)].add(fid)
                        if kind in rules.BH_KINDS:
                            if kind in rules.TRY_KINDS or e.cond or e.paired:
                                # the path that reaches the return without
                                # the unlock is the failed trylock
                                unended = False
                            self.sections.append({
                                "ended_by": self.ended_by_callee(fid, region, classes, hits),
                                "function": self.w.disp(fid), "loc": loc, "kind": kind,
                                "primitive": prim, "classes": sorted(classes),
                                "inner": sorted(self.inner_of(fid, region, False, classes,
                                                              only) - classes),
                                "unended": unended,
                                "from": e.node[len("lifted:"):]
                                if e.node.startswith("lifted:") else ""})

    def ended_by_callee(self, fid: str, region: list[Any], classes: frozenset[str],
                        hits: set[int]) -> list[str]:
        """The functions, other than the lock API itself (a primitive, a
        function of rules.API_HEADERS or one of rules.API_WRAPPERS), that
        a section calls and that may release its lock, or whose call ends
        the section on some path (a BH count it drops): they do it with
        the all-vector API.
        lock_sock_nested()'s __lock_sock() drops the socket spinlock with
        spin_unlock_bh(), sleeps and takes it again with spin_lock_bh();
        the analysis reads it as lock-neutral, but converted to the mask
        API the section would be ended by a full release and reopened as
        a full section.  Such a section keeps the all-vector API."""
        cm = self.bits(classes)
        out = set()
        for ev in region:
            if ev[0] != "call":
                continue
            site = ev[1]
            for t in self.s.targets.get(site, ()):
                # a sleeping callee too: __lock_sock() sleeps, after it
                # dropped the lock
                if (fid, t) in self.cut_used:
                    continue
                # nor a barrier: lock debugging, which the kernels the
                # masks are for do not run, the softirq dispatcher (it
                # returns at once with BH off), __schedule()
                loc = str(self.w.functions.get(t, {}).get("loc", ""))
                if self.is_barrier(t) or loc.startswith(rules.API_HEADERS) or \
                        self.w.fname(t) in rules.API_WRAPPERS:
                    continue
                if site in hits or (cm and self.rel_trans.get(t, 0) & cm):
                    out.add(self.w.disp(t))
        return sorted(out)

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
        # may take any lock whose address is stored in memory; one taken
        # from a container type, any such lock of that type.
        for v, lst in self.unresolved_in.items():
            if not lst:
                continue
            for c in sorted(self.stored_locks()):
                if c in self.vec and v in self.vec[c]:
                    continue
                first = next(((f, loc) for f, loc, ctype in lst if self.w.fits(c, ctype)),
                             None)
                if first is None:
                    continue
                taken_by[v].append(c)
                self.vec_ev.setdefault((c, v), (first[0], first[1], "a lock pointer it cannot "
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

    def component_hubs(self, rounds: int = 10) -> list[tuple[str, int, int, int]]:
        """Which held regions make the largest lock-order component.  Per
        round, a hub: the functions whose held regions give the same
        edges inside the component (the page table lock's holders in mm/
        are one hub), chosen by the edges that dropping them removes (an
        edge counts for every function that gives it, so it goes when all
        of them are chosen), then by the edges they give; then the
        component once every edge that only the hubs chosen so far give
        is dropped.  An experiment, not a rule: the edges are dropped
        whatever they are, so the sizes bound what context at those hubs
        could gain.  Returns (hub, its edges in the component, edges
        left, component size after) per round."""
        cut: set[str] = set()
        order = self.order
        out: list[tuple[str, int, int, int]] = []
        comp = self.order_component()
        for _ in range(rounds):
            if not comp:
                break
            given: dict[str, set[tuple[str, str]]] = defaultdict(set)
            for b in comp:
                for l in order.get(b, ()):
                    if l in comp:
                        for f in self.order_by.get((b, l), set()) - cut:
                            given[f].add((b, l))
            if not given:
                break
            groups: dict[frozenset[tuple[str, str]], list[str]] = defaultdict(list)
            for f, es in given.items():
                groups[frozenset(es)].append(f)
            best_key: tuple[int, int, str] | None = None
            best: list[str] = []
            for edges, fs in groups.items():
                members = set(fs)
                removed = sum(1 for e in edges if not (self.order_by[e] - cut - members))
                name = min(self.w.disp(f) for f in fs)
                key = (-removed, -len(edges), name)
                if best_key is None or key < best_key:
                    best_key, best = key, sorted(fs, key=self.w.disp)
            cut.update(best)
            kept = {b: {l for l in ls if not self.order_by.get((b, l)) or
                        self.order_by[(b, l)] - cut} for b, ls in order.items()}
            comps = strong_components(sorted(kept), lambda c: sorted(kept.get(c, ())))
            big: list[str] = max(comps, key=len, default=[])
            comp = set(big) if len(big) > 1 else set()
            label = self.w.disp(best[0]) + (f" (+{len(best) - 1} with the same edges)"
                                            if len(best) > 1 else "")
            out.append((label, len(given[best[0]]), sum(len(v) for v in kept.values()),
                        len(comp)))
        return out

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
        return fn is not None and (fn["name"] in rules.BOOKKEEPING_FUNCTIONS or
                                   self.w.unit(fid) in rules.BOOKKEEPING_UNITS)

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
                # a container's address stored as data (K:) is stored too
                st |= {x[2:] if x[:2] == "K:" else x for x in self.s.pts.get(v, ())
                       if x[:2] in ("F:", "G:", "A:", "H:", "K:")}
            self._stored_locks = st
        return self._stored_locks


class Analysis(LockOrder):
    """The whole analysis, one layer per module: PointsTo
    (va_pointsto.py), CallGraph (va_callgraph.py), LockEvents
    (va_locks.py), VectorReach (va_reach.py), LockOrder (here).
    vectors.py runs its steps in order; va_evidence.py writes what it
    found."""
