"""Lock events of the vector analysis (vectors.py, rule 5 of
scripts/analysis/README.md): the events at every call site (Event),
holds and releases lifted out of the functions that return holding a
lock or drop their caller's, callees first and call-graph cycles in
rounds; the held regions that end at a release; and which events run
with interrupts off.  The third layer of the analysis
(va_callgraph.CallGraph)."""

from __future__ import annotations

from typing import Any

from collections import Counter, defaultdict, deque

import rules
from va_callgraph import CallGraph
from va_world import World


class Event:
    """A lock event at a call site (see Analysis.site_events)."""
    __slots__ = ("kind", "classes", "prim", "node", "role", "lifted", "attributed",
                 "unknown", "cond", "paired", "ctype", "irqoff")

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
        # the lock was reached by a GEP into a container of this type
        # (World.of_container()): its classes, and the locks an unknown
        # pointer may be, are of that type only
        self.ctype = ""
        # lifted or attributed out of callees that all take the lock with
        # interrupts off they turned off themselves, and (a hold) return
        # with them still off: local_irq_save(); raw_spin_lock(), as in
        # rq_lock_irqsave() (LockEvents.irq_off_lifts()).  Not part of
        # the event's identity: equal events of one site are one.
        self.irqoff = False

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Event) and \
            (self.kind, self.classes, self.prim, self.node, self.role, self.cond,
             self.ctype) == \
            (other.kind, other.classes, other.prim, other.node, other.role, other.cond,
             other.ctype)

    def __hash__(self) -> int:
        return hash((self.kind, self.classes, self.prim, self.node, self.role, self.cond,
                     self.ctype))


class LockEvents(CallGraph):
    """Lock events, their lifting, held regions and interrupt state: the
    third layer of the analysis."""

    def __init__(self, w: World, overrides: list[dict[Any, Any]]) -> None:
        super().__init__(w, overrides)
        self._irq_en: set[str] | None = None
        self._saved_memo: dict[str, set[int]] = {}
        # per (site, lifted or attributed event): where in its callees it
        # comes from, (function, block, index, the callee's event)
        self._origins: dict[tuple[int, Event], list[tuple[str, str, int, Event]]] = \
            defaultdict(list)

    # ---- acquisitions ---------------------------------------------------
    def derive_param(self) -> dict[str, int]:
        """node -> parameter index, for values that are a parameter of
        their function up to casts and lock-internal GEPs."""
        single: dict[str, list[Any]] = defaultdict(list)
        for c in self.w.cons:
            if c[0] == "copy":
                single[c[1]].append(c[2])
        self._single = single
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

    def passed_arg(self, node: str) -> str:
        """The argument a call of a pass-through function was given, when
        node is the value of one ("" otherwise)."""
        site = self.dst_call.get(node)
        if site is None:
            return ""
        call = self.w.calls[site]
        i = self.passthrough.get(call[1], -1)
        return str(call[3][i]) if 0 <= i < len(call[3]) and call[3][i] else ""

    def lock_node(self, node: str, depth: int = 0) -> str:
        """The node a lock argument stands for: through calls of
        pass-through functions to the argument they were given."""
        arg = self.passed_arg(node) if depth <= 8 else ""
        return self.lock_node(arg, depth + 1) if arg else node

    def ctype_of(self, node: str, depth: int = 0) -> str:
        """The container type a lock pointer was taken from (a GEP into a
        struct sk_buff_head, wait_queue_head, ...), through casts, copies
        and pass-through calls; "" when none is known."""
        t = self.w.ctypes.get(node, "")
        if t or depth > 16:
            return t
        if node in self.dst_call:
            arg = self.passed_arg(node)
            return self.ctype_of(arg, depth + 1) if arg else ""
        srcs = self._single.get(node, [])
        return self.ctype_of(srcs[0], depth + 1) if len(srcs) == 1 else ""

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
            ctype = self.ctype_of(call[3][idx]) if node else ""
            evt = Event(kind, w.of_container(self.classes_of(node), ctype) if node
                        else frozenset(), prim, node, "real")
            evt.unknown = bool(node) and self.unknown_ptr(node)
            evt.ctype = ctype
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
                self._settle_large(comp)
                continue
            members = set(comp)
            judged: set[str] = set()
            settled = False
            for rnd in range(rules.LIFT_ROUNDS):
                self.lift_rounds += 1
                changed = 0
                for fid in comp:
                    if rnd == 0:
                        self._dead_sites = self._dead_calls(fid, members, judged)
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
                self._judge_once_again(comp)
        self.irq_off_lifts()

    def _judge_once_again(self, comp: list[str]) -> None:
        """A cycle that did not settle: its functions judged once each
        again, in the call graph's order, from nothing lifted."""
        self.lift_unsettled.append(len(comp))
        for fid in comp:
            self._retract(fid)
        for fid in comp:
            self._reset(fid)
            self._apply(fid, self._judge(fid))

    def _dead_calls(self, fid: str, members: set[str], judged: set[str]) -> set[int]:
        """fid's call sites whose every target is a function of the cycle
        (members) not judged yet: taken for calls that do not return."""
        return {st for st, _t in self.callees.get(fid, ())
                if self.s.targets.get(st) and
                all(t in members and t not in judged for t in self.s.targets[st])}

    def _settle_large(self, comp: list[str]) -> None:
        """Judge a call-graph cycle too large for rounds.  First each
        function once, in the call graph's order: a function sees only
        what the functions judged before it lift, so a hold whose release
        a callee judged later lifts stays a hold (ep_remove() and
        ep_remove_file(), which drops file.f_lock), and an unlock after
        such a callee's hold looks like a release of the caller's lock
        (oom_badness() and find_lock_task_mm()).  Then again from
        nothing lifted: each function judged with what the others lift
        now, re-judged when a callee's lifts change, a call into a
        function not judged yet not returning (as in the first round of
        a small cycle), and lifting only events it lifted when judged
        once.  Left free, the rounds lift releases into thousands of
        functions (an rcu_node or lruvec unlock reached through an
        imprecise indirect call looks like a release of every caller's
        lock) and never settle; bounded so, what they lift is the least
        that the once-judged events support: a stale hold, and a hold
        that only keeps itself up through a recursive call
        (full_proxy_release()), goes, and so does a release that an
        acquisition before it explains.  When the rounds do not settle
        within rules.LIFT_JUDGE_FACTOR judgements per function, the
        once-judged lifts stand (lift_unsettled)."""
        w = self.w
        for fid in comp:
            self._apply(fid, self._judge(fid))
        once = {fid: set(self._contrib.get(fid, ())) for fid in comp}
        members = set(comp)
        order = {f: i for i, f in enumerate(comp)}
        callers_in: dict[str, set[str]] = {}
        for fid in comp:
            callers_in[fid] = {w.calls[st][0] for st in self.callers.get(fid, ())
                               if w.calls[st][0] in members}
        for fid in comp:
            self._retract(fid)
        judged: set[str] = set()
        queue = deque(comp)
        queued = set(comp)
        budget = rules.LIFT_JUDGE_FACTOR * len(comp)
        while queue and budget > 0:
            budget -= 1
            self.lift_rounds += 1
            fid = queue.popleft()
            queued.discard(fid)
            self._dead_sites = self._dead_calls(fid, members, judged)
            self._reset(fid)
            keep = self._judge(fid, once[fid])
            self._dead_sites = set()
            again: set[str] = set()
            if fid not in judged:
                judged.add(fid)
                again = callers_in[fid] & judged
            if set(keep) != set(self._contrib.get(fid, ())):
                self._retract(fid)
                self._apply(fid, keep)
                again = callers_in[fid]
            for f in sorted(again - queued, key=order.__getitem__):
                queued.add(f)
                queue.append(f)
        if queue:
            # not settled: back to the once-judged lifts
            self._judge_once_again(comp)

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

    def _judge(self, fid: str, allowed: set[tuple[int, Event]] | None = None
               ) -> list[tuple[int, Event]]:
        """Decide which events of fid's call sites its callers see (the
        lifting and attribution of site_events()), marking fid's own
        events; returns the events for the callers' sites (_apply()).
        With allowed, an event is lifted only if each of its callers'
        events is in allowed; otherwise it stays unmarked, in fid, as
        an event that is not lifted (its hold runs to fid's return)."""
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
                    mine: list[tuple[int, Event]] = []
                    for s2 in sites:
                        args = w.calls[s2][3]
                        ctype = e.ctype
                        if pi >= 0:
                            node = self.lock_node(args[pi]) if pi < len(args) and \
                                args[pi] else ""
                            if node:
                                ctype = ctype or self.ctype_of(args[pi])
                            classes = w.of_container(self.classes_of(node), ctype) if node \
                                else frozenset()
                        else:
                            node, classes = f"lifted:{fid}", e.classes
                        e2 = Event(e.kind, classes, e.prim, node, role)
                        e2.ctype = ctype
                        e2.cond = cond
                        self._origins[(s2, e2)].append((fid, bname, i, e))
                        e2.unknown = e.unknown if pi < 0 else \
                            bool(node) and self.unknown_ptr(node)
                        mine.append((s2, e2))
                    if allowed is not None and not allowed.issuperset(mine):
                        # not lifted after all: the event stays in fid
                        e.lifted = e.attributed = False
                        continue
                    added.extend(mine)
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

    # ---- interrupt state -----------------------------------------------
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
            any(self.irq_hold(e) for e in self.events.get(site, ()))

    def _must_states(self, fid: str, step: Any) -> dict[str, frozenset[str]]:
        """A forward must-analysis over fid's blocks: the state at each
        block's start; step(ev, state) gives the state after ev, the
        entry starts empty, and where paths meet only what all of them
        have stays (intersection)."""
        blocks = self.w.functions[fid]["blocks"]
        entry = self.w.functions[fid]["entry"]
        if not entry or entry not in blocks:
            return {}
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
        return state

    def _must_walk(self, fid: str, step: Any
                   ) -> tuple[list[tuple[str, int, Any]], list[frozenset[str]]]:
        """The events (block, index, event) of fid before which the
        must-analysis of _must_states() has a non-empty state, and the
        state at the end of every block with no successor (a return, or
        a path that never returns)."""
        blocks = self.w.functions[fid]["blocks"]
        out = []
        exits = []
        for b, h in self._must_states(fid, step).items():
            for i, ev in enumerate(blocks[b][0]):
                if h:
                    out.append((b, i, ev))
                h = step(ev, h)
            if not any(n in blocks for n in blocks[b][1]):
                exits.append(h)
        return out, exits

    def must_events(self, fid: str, step: Any) -> list[tuple[str, int, Any]]:
        """_must_walk()'s events."""
        return self._must_walk(fid, step)[0]

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

    @staticmethod
    def acq_kind(e: Event) -> str:
        """The kind an acquisition counts as: "lock_irqoff" for a plain
        one lifted out of callees that turned interrupts off
        (Event.irqoff), which is quiet like an _irqsave one."""
        return "lock_irqoff" if e.irqoff and e.kind == "lock" else e.kind

    @staticmethod
    def irq_hold(e: Event) -> bool:
        """Does this event take a lock with interrupts off until its
        release: an _irq/_irqsave acquisition, or one lifted out of a
        callee that turned them off (Event.irqoff)?"""
        return (e.kind in rules.IRQ_KINDS or e.irqoff) and not e.cond

    def _irq_step(self, fid: str) -> Any:
        """irq_off_events()'s transfer function: the reasons interrupts
        are off after a call event."""
        w = self.w
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
                if self.irq_hold(e):
                    held = held | (e.classes or {"<irq>"})
                elif e.kind in rules.RELEASE_KINDS:
                    held = held - e.classes if e.classes else frozenset()
            return held
        return step

    def _saves_any(self, fid: str) -> bool:
        return any(self.irq_saves(ev[1]) for evs, _s in self.w.functions[fid]["blocks"].values()
                   for ev in evs if ev[0] == "call")

    def irq_off_reading(self, fid: str) -> tuple[set[tuple[str, int]], bool]:
        """The events (block, index) of fid that run with interrupts off
        on every path, and whether fid returns with them off on every
        path (turned off in fid): after an _irq/_irqsave acquisition (not
        a trylock, not a conditional hold), one lifted out of a callee
        that turned them off (irq_off_lifts()) or local_irq_save()
        (rules.IRQ_OFF_CALLS), and before anything that may turn them on
        again: a release of that lock (a plain one too:
        local_irq_enable() may follow), a release with no class, an
        _irq/_irqrestore release, a call that may enable them
        (irq_enablers()).  Must-analysis: the set of reasons is the
        intersection over the paths."""
        if not self._saves_any(fid):
            return set(), False
        evs, exits = self._must_walk(fid, self._irq_step(fid))
        return {(b, i) for b, i, _ev in evs}, bool(exits) and all(exits)

    def irq_off_events(self, fid: str) -> set[tuple[str, int]]:
        """irq_off_reading()'s events."""
        return self.irq_off_reading(fid)[0]

    def irq_off_lifts(self) -> None:
        """Mark (Event.irqoff) the plain acquisitions lifted or attributed
        to a call site whose every origin takes the lock with interrupts
        off that its function turned off itself, and, for a hold lifted
        out (the callee returns holding it), returns with them still off:
        _raw_spin_rq_lock_irqsave() is local_irq_save() then
        raw_spin_rq_lock(), so rq_lock_irqsave() holds the runqueue lock
        with interrupts off just as raw_spin_lock_irqsave() would, and its
        callers' regions up to the release run with them off.  A callee's
        event marked so makes its callers' calls saves in turn, and
        fewer restores unsaved (irq_enablers()), so the marking repeats
        until a round marks nothing (at most rules.IRQ_OFF_ROUNDS): each
        round reads with the enablers of the round before, a superset
        of the final ones, so every mark holds."""
        todo = []
        for site, lst in self.events.items():
            for e in lst:
                if e.kind == "lock" and (site, e) in self._origins:
                    todo.append((e, self._origins[(site, e)]))
        self.irq_off_marked = 0
        for _rnd in range(rules.IRQ_OFF_ROUNDS):
            self._irq_en = None
            self._saved_memo = {}
            reading: dict[str, tuple[set[tuple[str, int]], bool]] = {}

            def off_in(f: str, b: str, i: int, oe: Event, hold: bool) -> bool:
                if f not in reading:
                    reading[f] = self.irq_off_reading(f)
                off, at_exit = reading[f]
                return (oe.irqoff or (b, i) in off) and (at_exit or not hold)
            changed = 0
            for e, origins in todo:
                if not e.irqoff and all(off_in(f, b, i, oe, e.role == "real")
                                        for f, b, i, oe in origins):
                    e.irqoff = True
                    changed += 1
            self.irq_off_marked += changed
            if not changed:
                break
        self._irq_en = None
        self._saved_memo = {}
