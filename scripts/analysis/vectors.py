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

The solve is split by concern into the modules beside this file, each a
layer of the class Analysis: va_world.py (the facts), va_pointsto.py
(points-to), va_callgraph.py (indirect calls, call graph, barriers),
va_locks.py (lock events, lifting, held regions, interrupt state),
va_reach.py (callback bindings, vector reach), va_order.py (lock order
and masks), va_evidence.py (the outputs).
"""

from __future__ import annotations

import argparse
import glob
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from va_callgraph import read_overrides  # noqa: E402
from va_evidence import write_outputs  # noqa: E402
from va_order import Analysis  # noqa: E402
from va_world import World  # noqa: E402


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
