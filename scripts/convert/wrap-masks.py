#!/usr/bin/env python3
"""Wrap the mask argument of converted lines that pass 100 columns.

Usage:  wrap-masks.py FILE...
Reads:  C files the converter wrote (spatch lays out its own calls: a
        "SOFTIRQ_ALL_MASK & ~(BIT(A_SOFTIRQ) | BIT(B_SOFTIRQ))" argument
        deep in a function goes past checkpatch's 100 columns).
Writes: each FILE in place, only when a line changes: a line longer than
        100 columns (tabs to 8) whose mask starts "SOFTIRQ_ALL_MASK & ~" is
        split after the "&", the rest aligned under the mask's first column;
        when that rest is still too long, it is split after a "|" too,
        aligned inside the "~(".  The indentation of a mask line is
        rewritten with tabs first.
Exit:   0 done, 2 a file cannot be read.
"""

from __future__ import annotations

import sys

LIMIT = 100
HEAD = "SOFTIRQ_ALL_MASK & ~"


def width(text: str) -> int:
    return len(text.expandtabs(8))


def indent_to(col: int) -> str:
    return "\t" * (col // 8) + " " * (col % 8)


def wrap(line: str) -> list[str]:
    at = line.find(HEAD)
    if at < 0:
        return [line]
    # spatch may indent with 8 spaces where a tab goes (checkpatch: "code
    # indent should use tabs where possible")
    body = line.lstrip(" \t")
    lead = indent_to(width(line[:len(line) - len(body)]))
    at += len(lead) - (len(line) - len(body))
    line = lead + body
    if width(line) <= LIMIT:
        return [line]
    col = width(line[:at])
    tail = indent_to(col) + line[at + len(HEAD) - 1:]
    out = [line[:at + len(HEAD) - 2].rstrip() + "\n"]
    if width(tail) <= LIMIT or not tail.lstrip().startswith("~("):
        return out + [tail]
    # still too long (a call deep in a function): one vector per line
    # after the first, aligned under the first one, inside "~("
    parts = tail.strip().split(" | ")
    inner = indent_to(col + 2)
    cur = indent_to(col) + parts[0]
    for part in parts[1:]:
        if width(cur + " | " + part) <= LIMIT:
            cur += " | " + part
        else:
            out.append(cur + " |\n")
            cur = inner + part
    return out + [cur + "\n"]


def main(argv: list[str]) -> int:
    for path in argv:
        try:
            with open(path, encoding="utf-8") as fh:
                lines = fh.readlines()
        except OSError as e:
            print(f"wrap-masks.py: {e}", file=sys.stderr)
            return 2
        out = [part for line in lines for part in wrap(line)]
        if out != lines:
            with open(path, "w", encoding="utf-8") as fh:
                fh.writelines(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
