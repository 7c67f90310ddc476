"""Outputs of the vector analysis (vectors.py): masks.txt, sites.txt,
vectors.json, evidence.md, imprecision.md, kept-holds.txt and
summary.txt, from a finished va_order.Analysis; the lockdep names of
the world's locks for the oracle (lock_names())."""

from __future__ import annotations

from typing import Any

import json
import os
import time
from collections import Counter, defaultdict

import imprecision
import rules
from va_order import Analysis
from va_world import VECTORS, World, mask_str


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

    def lock_classes(node: str) -> set[str]:
        """The names of the lock classes a lock argument may point to."""
        return {name(c) for c in a.classes_of(checked.get(node, node)) if c in w.locks}

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
            # Inside the helper the lock is every caller's (a wait queue
            # head's lock is the class of where the head sits): keep the
            # classes this call's own arguments point to, when any.
            own = {c for node in w.calls[site][3] if node for c in lock_classes(node)}
            if cls & own:
                cls &= own
        else:
            node = w.calls[site][3][0] if w.calls[site][3] else ""
            if node:
                cls = lock_classes(node)
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


def hub_table(hubs: list[tuple[str, int, int, int]], edges: int, comp: int) -> str:
    """The imprecision report's table of the held regions that make the
    largest lock-order component (LockOrder.component_hubs())."""
    if not hubs:
        return ""
    lines = ["", "## The held regions that make the lock-order component", "",
             f"{edges} order edges, largest component {comp} classes. Per round, "
             "a hub (the functions whose held regions give the same edges inside "
             "the component), the one whose edges would go if it were read with "
             "context, then the order without every edge that only the hubs so "
             "far give. An experiment, not a rule: it drops the edges whatever "
             "they are, so it bounds what context at those hubs could gain "
             "(LockOrder.component_hubs()).", "",
             "| round | hub | its edges in the component | edges left | "
             "component after |", "|---|---|---|---|---|"]
    for i, (f, n, e, c) in enumerate(hubs, 1):
        lines.append(f"| {i} | `{f}` | {n} | {e} | {c} |")
    return "\n".join(lines) + "\n"


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
        classes |= {c for c, _loc, _k in acqs if not c.startswith("?")}
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
    # a section a callee releases with the all-vector API (LockOrder.
    # ended_by_callee()) keeps that API whatever its mask: the converter
    # must not open it as a partial section
    ended = {sec["loc"]: sec["ended_by"] for sec in a.sections if sec.get("ended_by")}
    for site_loc in ended:
        per_loc[site_loc] = set(VECTORS)
    with open(os.path.join(out, "sites.txt"), "w", encoding="utf-8") as f:
        f.write(f"# section masks for world {world}: site <file>:<line> <MASK>\n")
        f.write("# vectors with no handler in the world, masked in every site: "
                f"{mask_str(rootless)}\n")
        f.write("# vectors whose handler walks only a list nothing queues on, masked in"
                " every site: "
                f"{mask_str(idle)}\n")
        for site_loc in sorted(per_loc):
            tail = f"  # released in a callee: {', '.join(ended[site_loc][:3])}" \
                if site_loc in ended else ""
            f.write(f"site {site_loc} {mask_str(per_loc[site_loc])}{tail}\n")
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
    hubs = a.component_hubs()
    with open(os.path.join(out, "imprecision.md"), "w", encoding="utf-8") as f:
        f.write(imprecision.report(data, blame, len(comp_names), "vectors.json"))
        f.write(hub_table(hubs, sum(len(v) for v in a.order.values()), len(comp_names)))
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
    comp = comp_names
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
            f"overrides: {len(a.overrides)} given, {len(a.cut_used)} call edges cut",
            "sections a callee may release with the all-vector API (ALL in sites.txt, "
            "whatever their mask): "
            f"{len(ended)}, net/: {sum(1 for x in ended if x.startswith('net/'))}",
            "ops objects (rules.STABLE_OPS_FIELDS): indirect calls read through "
            f"a known object {len(a.ops_site)}, global objects {len(a.ops_objs)}, "
            f"held regions read with one object's functions {a.ops_bound}; "
            "holder fields left out (stored elsewhere): "
            + (", ".join(a.ops_unstable) or "none")]
    summ += imprecision.summary_lines(data, causes, comp_names)
    if hubs:
        summ.append("lock-order component by held region (edges in it -> component "
                    "once the hubs so far give none, an unsound bound): " +
                    "; ".join(f"{f} {n} -> {c}" for f, n, _e, c in hubs))
    summ.append(f"time: {time.time() - t0:.1f}s")
    with open(os.path.join(out, "summary.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(summ) + "\n")
    return "\n".join(summ)
