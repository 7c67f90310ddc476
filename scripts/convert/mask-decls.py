#!/usr/bin/env python3
"""Which mask variables a converted C file uses in a function that does
not declare them (the safety net of the conversion: spatch places the
declaration, and a function where it could not leaves the file
unconverted).

Usage:  mask-decls.py [--fix] FILE
Prints: one "FUNCTION-LINE VARIABLE" line per variable assigned from a
        *_lock_bh_mask() or local_bh_disable_mask() call in a function
        body (kernel style: the body opens and closes with a brace in
        column 0) that holds no "unsigned int ... VARIABLE" declaration.
        With --fix, first declares such variables on the line after the
        body's opening brace, in place (spatch places none in a function
        it cannot parse whole: one that opens with
        "static DEFINE_SPINLOCK(lock);", ipv6_generate_stable_address()).
Exit:   0 every variable declared where it is used, 1 some are not,
        2 usage error or unreadable file."""

from __future__ import annotations

import re
import sys

ASSIGN_RE = re.compile(r"^\s*(\w+) = (?:(?:spin|read|write)_lock_bh|local_bh_disable)_mask\(")


def undeclared(text: str) -> list[tuple[int, str]]:
    """(line of the function's opening brace, variable) for each mask
    variable a function body assigns without declaring it."""
    out: list[tuple[int, str]] = []
    start = 0
    body: list[str] = []
    for num, line in enumerate(text.splitlines(), 1):
        if line.startswith("{"):
            start, body = num, [line]
            continue
        if not start:
            continue
        body.append(line)
        if line.startswith("}"):
            block = "\n".join(body)
            for var in sorted({m.group(1) for ln in body if (m := ASSIGN_RE.match(ln))}):
                if not re.search(r"^\s*unsigned int [^;]*\b%s\b" % re.escape(var), block, re.M):
                    out.append((start, var))
            start, body = 0, []
    return out


def declare(text: str) -> str:
    """text with each undeclared() variable declared first in its body."""
    lines = text.split("\n")
    for start, var in sorted(undeclared(text), reverse=True):
        lines.insert(start, f"\tunsigned int {var};")
    return "\n".join(lines)


def main() -> int:
    args = sys.argv[1:]
    fix = args[:1] == ["--fix"]
    if fix:
        args = args[1:]
    if len(args) != 1:
        print("usage: mask-decls.py [--fix] FILE", file=sys.stderr)
        return 2
    try:
        with open(args[0], encoding="utf-8", errors="replace") as f:
            text = f.read()
        if fix and undeclared(text):
            text = declare(text)
            with open(args[0], "w", encoding="utf-8") as f:
                f.write(text)
    except OSError as e:
        print(f"mask-decls: cannot read or write {args[0]}: {e}", file=sys.stderr)
        return 2
    missing = undeclared(text)
    for line, var in missing:
        print(f"{line} {var}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
