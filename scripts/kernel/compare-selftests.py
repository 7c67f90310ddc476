#!/usr/bin/env python3
"""Compare the networking self-tests of two boots, side by side.

Usage: compare-selftests.py --plan PLAN.plan --base DIR --conv DIR --out FILE.md
                            [--base-label NAME] [--conv-label NAME]

PLAN.plan is the guest plan both kernels ran (its "include" lines are
followed); its net-selftest steps are the tests expected.  DIR is a boot
folder of scripts/kernel/boot-kernel.sh (its verdict.json, written by
parse-boot-log.py, holds the SELFTEST lines).  Writes a Markdown table,
test by test, with both verdicts and times, and prints it.

Exit status 0 when every expected test reported exactly once on both
kernels with the same verdict and neither boot had any other problem (a
lockdep report, a warning, a crash, a step that is not a self-test
failing, no end marker); 1 otherwise; 2 on bad input.  A test that fails
on both kernels alike is the same verdict: the table says so, and the
count of passes is printed for the caller to check.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

STEP_FAILED = re.compile(r"^plan step '(?P<name>[^']+)' failed$")


def plan_selftests(plan: Path, seen: set[Path] | None = None) -> list[str]:
    """Names of the net-selftest steps of PLAN, includes followed in order."""
    seen = seen or set()
    if plan in seen:
        raise ValueError(f"{plan}: include cycle")
    seen.add(plan)
    names: list[str] = []
    for line in plan.read_text().splitlines():
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        if words[0] == "include" and len(words) == 2:
            names += plan_selftests(plan.parent / f"{words[1]}.plan", seen)
        elif len(words) >= 3 and words[1] == "net-selftest":
            if words[2] != words[0]:
                raise ValueError(f"{plan}: step '{words[0]}' reports as '{words[2]}'")
            names.append(words[0])
    return names


def load(folder: Path) -> dict[str, Any]:
    path = folder / "verdict.json"
    try:
        data: Any = json.loads(path.read_text())
    except (OSError, ValueError) as err:
        raise ValueError(f"cannot read {path}: {err}") from err
    if not isinstance(data, dict) or "selftests" not in data:
        raise ValueError(f"{path} has no self-test list (parse-boot-log.py too old?)")
    return data


def results(data: dict[str, Any], label: str, expected: list[str]) -> tuple[dict[str, tuple[str, float]], list[str]]:
    """The verdict per test and the problems of one boot."""
    problems: list[str] = []
    got: dict[str, tuple[str, float]] = {}
    for name, verdict, _rc, secs in data["selftests"]:
        if name in got:
            problems.append(f"{label}: {name} reported twice")
        got[name] = (verdict, float(secs))
    for name in expected:
        if name not in got:
            problems.append(f"{label}: {name} never reported (guest stopped early?)")
    for name in got:
        if name not in expected:
            problems.append(f"{label}: {name} is not in the plan")
    for reason in data.get("reasons", []):
        m = STEP_FAILED.match(reason)
        if m and m.group("name") in expected:
            continue  # the self-test's own verdict, compared below
        problems.append(f"{label}: {reason}")
    return got, problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--plan", type=Path, required=True)
    ap.add_argument("--base", type=Path, required=True)
    ap.add_argument("--conv", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--base-label", default="base")
    ap.add_argument("--conv-label", default="converted")
    args = ap.parse_args()
    try:
        expected = plan_selftests(args.plan)
        base = load(args.base)
        conv = load(args.conv)
    except (OSError, ValueError) as err:
        print(f"compare-selftests: {err}", file=sys.stderr)
        return 2
    if not expected:
        print(f"compare-selftests: {args.plan} runs no net-selftest step", file=sys.stderr)
        return 2
    bres, problems = results(base, args.base_label, expected)
    cres, more = results(conv, args.conv_label, expected)
    problems += more

    rows = [f"| test | {args.base_label} | s | {args.conv_label} | s | same |",
            "|---|---|---|---|---|---|"]
    differ = 0
    for name in expected:
        bv, bs = bres.get(name, ("missing", 0.0))
        cv, cs = cres.get(name, ("missing", 0.0))
        same = bv == cv and bv != "missing"
        differ += not same
        rows.append(f"| {name} | {bv} | {bs:.1f} | {cv} | {cs:.1f} | {'yes' if same else '**no**'} |")
        if not same and bv != "missing" and cv != "missing":
            problems.append(f"{name}: {args.base_label} {bv}, {args.conv_label} {cv}")

    def count(res: dict[str, tuple[str, float]], verdict: str) -> int:
        return sum(v == verdict for v, _ in res.values())

    tally = (f"{len(expected)} self-tests; {args.base_label}: {count(bres, 'PASS')} pass,"
             f" {count(bres, 'SKIP')} skip, {count(bres, 'FAIL')} fail;"
             f" {args.conv_label}: {count(cres, 'PASS')} pass, {count(cres, 'SKIP')} skip,"
             f" {count(cres, 'FAIL')} fail; {differ} differ")
    text = [f"# Networking self-tests, {args.base_label} vs {args.conv_label}", "",
            f"Plan `{args.plan.name}`; boots `{args.base}` and `{args.conv}`.", "",
            tally, "", *rows, ""]
    if problems:
        text += ["Problems:", ""] + [f"- {p}" for p in problems] + [""]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(text))
    print("\n".join(text))
    print(f"selftests: {tally}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
