#!/usr/bin/env python3
"""Compare one world's analysis output with its expected.txt.

Usage:  check-world.py NAME EXPECTED OUTDIR
Reads:  EXPECTED (class/section/evidence/absent/nosection/component/site
        lines, see tests/analysis-worlds/README.md), OUTDIR/masks.txt,
        OUTDIR/sites.txt, OUTDIR/vectors.json and OUTDIR/summary.txt
        written by scripts/analysis/vectors.py.
Writes: one "PASS NAME:check" or "FAIL NAME:check: why" line per
        expected line.
Exit:   0 always when the inputs could be read (the lines carry the
        verdicts), 2 on a malformed expected line or missing output.
"""

from typing import Any

import json
import os
import re
import sys

VECTORS = ("HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL",
           "TASKLET", "SCHED", "HRTIMER", "RCU")


def canon(mask: str) -> str:
    """Reject masks not in kernel order or with unknown vectors."""
    if mask in ("NONE", "ALL"):
        return mask
    parts = mask.split("|")
    if any(p not in VECTORS for p in parts) or \
            parts != sorted(parts, key=VECTORS.index) or len(set(parts)) != len(parts):
        raise ValueError(f"malformed mask {mask!r} (vector names in kernel order, NONE or ALL)")
    return mask if len(parts) < len(VECTORS) else "ALL"


def main() -> int:
    name, expected, out = sys.argv[1:4]
    try:
        with open(os.path.join(out, "masks.txt"), encoding="utf-8") as f:
            table = [ln.split() for ln in f if ln.strip() and not ln.startswith("#")]
        with open(os.path.join(out, "vectors.json"), encoding="utf-8") as f:
            data = json.load(f)
        with open(os.path.join(out, "summary.txt"), encoding="utf-8") as f:
            summary = f.read()
        with open(os.path.join(out, "sites.txt"), encoding="utf-8") as f:
            sites = dict(ln.split()[1:3] for ln in f if ln.startswith("site "))
    except OSError as e:
        print(f"check-world: {e}", file=sys.stderr)
        return 2
    classes = {t[1]: t[2] for t in table if t[0] == "class"}
    sections = [t for t in table if t[0] == "section"]
    with open(expected, encoding="utf-8") as f:
        lines = [(n, ln.split("#", 1)[0].split()) for n, ln in enumerate(f, 1)]
    for n, w in lines:
        if not w:
            continue
        try:
            if w[0] in ("class", "site") and len(w) == 3:
                # the class table of masks.txt, or the converter's sites.txt
                want = canon(w[2])
                got = (classes if w[0] == "class" else sites).get(w[1])
                check = f"{name}:{w[0]} {w[1]}"
                ok = got == want
                why = f"expected {want}, got {got or f'no {w[0]} line'}"
            elif w[0] == "section" and len(w) == 4:
                want = canon(w[3])
                secs = [s for s in sections if s[2] == w[1] and
                        (s[3] == w[2] or (w[2] != "-" and w[2] in s[3].split(",")))]
                check = f"{name}:section {w[1]} {w[2]}"
                masks = sorted({s[4] for s in secs})
                ok = bool(secs) and masks == [want]
                why = f"expected {want}, got {', '.join(masks) or 'no such section'}"
            elif w[0] == "nosection" and len(w) == 2:
                secs = [s for s in sections if s[2] == w[1]]
                check = f"{name}:nosection {w[1]}"
                ok = not secs
                why = "sections: " + ", ".join(f"{s[3]} {s[4]}" for s in secs)
            elif w[0] == "evidence" and len(w) == 4:
                chain = data["classes"].get(w[1], {}).get("evidence", {}).get(w[2], [])
                check = f"{name}:evidence {w[1]} {w[2]} via {w[3]}"
                pat = re.compile(r"(^|[\s:>])" + re.escape(w[3]) + r"($|[\s(])")
                ok = any(pat.search(step) for step in chain)
                why = "no such step in " + (" / ".join(chain) or "no chain")
            elif w[0] == "component" and len(w) == 2:
                m = re.search(r"largest cycle component (\d+) classes", summary)
                got = m.group(1) if m else None
                check = f"{name}:component {w[1]}"
                ok = got == str(int(w[1]))
                why = f"expected {w[1]} classes, got {got or 'no lock order line'}"
            elif w[0] == "absent" and len(w) == 3:
                got = classes.get(w[1])
                check = f"{name}:absent {w[1]} {w[2]}"
                ok = got is not None and w[2] not in (got.split("|") if got != "ALL" else VECTORS)
                why = f"class mask is {got or 'missing'}"
            else:
                raise ValueError("unknown line")
        except ValueError as e:
            print(f"check-world: {expected}:{n}: {e}", file=sys.stderr)
            return 2
        print(f"PASS {check}" if ok else f"FAIL {check}: {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
