#!/usr/bin/env python3
"""Record what lockdep saw of the converted sections' lock classes in a
boot of the converted kernel under load, for the audit notes.

Usage: lockdep-observed.py --boot DIR --classes FILE --out FILE [--rev REV]

DIR is a boot folder of scripts/kernel/boot-kernel.sh under a plan that
runs "lockdep-usage -r -f /etc/lockdep-classes" (plans campaign and
campaign-check); its verdict.json holds the LOCKDEP-USAGE lines.  FILE
(conversions/<subsys>/lockdep-classes, written by audit-note.py) names the
classes.  Writes "<class> <usage>|not-taken" lines after "# " lines that
say which boot, the input of audit-note.py --observed.

Exit status 0 written; 1 the boot did not pass or a class of FILE was not
looked up in it (an initramfs older than the conversion); 2 bad input.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--boot", type=Path, required=True)
    ap.add_argument("--classes", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--rev", default="?", help="the booted kernel's commit")
    a = ap.parse_args()
    try:
        data: Any = json.loads((a.boot / "verdict.json").read_text())
        names = [w for line in a.classes.read_text().splitlines()
                 if (w := line.split("#", 1)[0].strip())]
    except (OSError, ValueError) as err:
        print(f"lockdep-observed: {err}", file=sys.stderr)
        return 2
    if data.get("verdict") != "PASS":
        print(f"lockdep-observed: boot {a.boot} did not pass ({data.get('verdict')}):"
              " its observations are not evidence", file=sys.stderr)
        return 1
    usage: dict[str, str] = data.get("lockdep_usage", {})
    missing = [n for n in names if n not in usage]
    if missing:
        print(f"lockdep-observed: not looked up in {a.boot}: {', '.join(missing)}"
              " (rebuild the initramfs after the conversion and boot again)", file=sys.stderr)
        return 1
    plan = data.get("plan") or "?"
    lines = [f"# boot of the converted series at {a.rev[:12]} under plan {plan},"
             " lockdep on, no report",
             *(f"{n} {usage[n]}" for n in names)]
    a.out.write_text("\n".join(lines) + "\n")
    print(f"lockdep-observed: {len(names)} classes from {a.boot} -> {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
