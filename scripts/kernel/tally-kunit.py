#!/usr/bin/env python3
"""tally-kunit.py: count KUnit results per case over several boots.

Reads the verdict.json files that scripts/kernel/parse-boot-log.py writes
(one per boot) and prints one row per KUnit case or parameter: how many
boots it passed, failed and skipped in, and in how many boots it did not
run at all.  A flaky case shows as a row with both passes and failures.

Usage: tally-kunit.py [--suite NAME] [--out FILE] VERDICT.json...
Exit:  0 every boot ran the suite and no case failed, 1 a case failed or
       was missing in some boot (or a boot's verdict is not PASS),
       2 bad usage or an unreadable file.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

Verdict = dict[str, Any]


@dataclass
class Row:
    passed: int = 0
    failed: int = 0
    skipped: int = 0


def load(path: Path) -> Verdict:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as err:
        print(f"tally-kunit: cannot read {path}: {err}", file=sys.stderr)
        sys.exit(2)
    if not isinstance(data, dict) or "kunit_cases" not in data:
        print(f"tally-kunit: {path} is not a boot verdict (no kunit_cases)", file=sys.stderr)
        sys.exit(2)
    return dict(data)


def case_key(case: Verdict) -> str:
    """SUITE.CASE for a case, CASE.PARAM for a parameter of a case."""
    return f"{case['suite']}.{case['name']}"


def tally(verdicts: list[Verdict], suite: str | None) -> tuple[dict[str, Row], list[str]]:
    rows: dict[str, Row] = {}
    problems: list[str] = []
    per_boot: list[set[str]] = []
    for i, v in enumerate(verdicts, 1):
        seen: set[str] = set()
        for case in v["kunit_cases"]:
            key = case_key(case)
            row = rows.setdefault(key, Row())
            seen.add(key)
            if case["status"] == "ok":
                row.passed += 1
            elif case["status"] == "skip":
                row.skipped += 1
            else:
                row.failed += 1
        per_boot.append(seen)
        if suite and not any(s["name"] == suite for s in v["kunit_suites"]):
            problems.append(f"boot {i}: suite {suite} did not run")
        if v.get("verdict") != "PASS":
            problems.append(f"boot {i}: verdict {v.get('verdict')}: "
                            + "; ".join(v.get("reasons", [])[:3]))
    for key in rows:
        missing = sum(key not in seen for seen in per_boot)
        if missing:
            problems.append(f"{key}: did not run in {missing} of {len(per_boot)} boots")
    return rows, problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--suite", help="a suite every boot must run")
    ap.add_argument("--out", type=Path, help="also write the table here")
    ap.add_argument("verdicts", nargs="+", type=Path)
    args = ap.parse_args()
    verdicts = [load(p) for p in args.verdicts]
    rows, problems = tally(verdicts, args.suite)
    n = len(verdicts)
    lines = [f"KUnit results over {n} boots", "",
             "| case | passed | failed | skipped |", "|---|---|---|---|"]
    for key in sorted(rows):
        r = rows[key]
        lines.append(f"| {key} | {r.passed} | {r.failed} | {r.skipped} |")
    bad = [k for k, r in rows.items() if r.failed]
    lines.append("")
    lines.append(f"cases: {len(rows)}; failed in some boot: {len(bad)}"
                 + (f" ({', '.join(sorted(bad))})" if bad else ""))
    lines.extend(f"problem: {p}" for p in problems)
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if args.out:
        args.out.write_text(text)
    if not rows:
        print("tally-kunit: no KUnit case in any boot", file=sys.stderr)
        return 1
    return 1 if bad or problems else 0


if __name__ == "__main__":
    sys.exit(main())
