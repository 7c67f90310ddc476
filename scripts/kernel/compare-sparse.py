#!/usr/bin/env python3
"""Print the sparse/compiler diagnostics that a new log adds to an old one.

Usage: compare-sparse.py OLD_LOG NEW_LOG
Diagnostics are keyed by (file, message) with line and column numbers and
the path prefix stripped, and compared as counts: a warning that only moved
is not new, a second copy of an old warning is.  Prints one line per new
diagnostic; exits 1 if there is any, 0 if none, 2 on unreadable input.
"""
import re
import sys
from collections import Counter
from pathlib import Path

DIAG = re.compile(r"^(?P<file>[^\s:]+):\d+(?::\d+)?: (?P<kind>warning|error): (?P<msg>.*)$")


TOP_DIRS = {"arch", "block", "certs", "crypto", "drivers", "fs", "include", "init",
            "io_uring", "ipc", "kernel", "lib", "mm", "net", "rust", "samples",
            "scripts", "security", "sound", "tools", "usr", "virt"}


def normalize(path: str) -> str:
    """Make paths from different trees and O= folders comparable: keep the
    part from the first kernel top-level directory on."""
    parts = path.split("/")
    for i, part in enumerate(parts):
        if part in TOP_DIRS:
            return "/".join(parts[i:])
    return path


def diagnostics(log: Path) -> Counter[tuple[str, str, str]]:
    found: Counter[tuple[str, str, str]] = Counter()
    for line in log.read_text(errors="replace").splitlines():
        m = DIAG.match(line.strip())
        if m:
            found[(normalize(m.group("file")), m.group("kind"), m.group("msg"))] += 1
    return found


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print("usage: compare-sparse.py OLD_LOG NEW_LOG", file=sys.stderr)
        return 2
    try:
        old, new = diagnostics(Path(argv[1])), diagnostics(Path(argv[2]))
    except OSError as err:
        print(f"compare-sparse: {err}", file=sys.stderr)
        return 2
    added = new - old
    for (path, kind, msg), count in sorted(added.items()):
        suffix = f" (x{count})" if count > 1 else ""
        print(f"NEW {path}: {kind}: {msg}{suffix}")
    print(f"compare-sparse: {sum(old.values())} old, {sum(new.values())} new-side, "
          f"{sum(added.values())} added", file=sys.stderr)
    return 1 if added else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
