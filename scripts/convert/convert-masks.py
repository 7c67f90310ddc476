#!/usr/bin/env python3
"""Check mask tables (the analysis output and the auditors' overrides).

Usage:  scripts/convert/convert-masks.py TABLE...
Reads:  each TABLE, one lock class per line: "<lock-class> <VEC>[|<VEC>...]"
        or "<lock-class> ALL", or one section per line (the v2 analysis's
        sites.txt): "site <file>:<line> <VEC>[|<VEC>...]|ALL|NONE";
        '#' starts a comment; blank lines are fine.
Writes: one "file:line: reason" line per malformed line on stderr.
Exit:   0 all tables are well formed, 2 a table is malformed or missing.
"""

import re
import sys
from dataclasses import dataclass

VECTORS = ("HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL",
           "TASKLET", "SCHED", "HRTIMER", "RCU")
PATH = r"[\w.\[\]]*"     # field path: .a.b, [] for array elements
CLASS_RE = re.compile(
    r"^(struct [A-Za-z_]\w*\.[A-Za-z_]" + PATH +     # struct type.field path
    r"|[A-Za-z_]\w*" + PATH +                       # global (typedef.field)
    r"|[\w./+-]+\.[ch]:[A-Za-z_]\w*" + PATH +       # file.c:static
    r"|bh:[\w./+-]+\.[ch]:[A-Za-z_]\w*"             # local_bh_disable section
    r"|site [\w./+-]+\.[ch]:[1-9]\d*)$")            # a section, by its line


@dataclass
class Entry:
    """One mask table line."""

    lock_class: str
    vectors: tuple[str, ...] | None   # None means ALL
    where: str


class TableError(Exception):
    """A malformed line; the message starts with file:line."""


def parse_line(path: str, num: int, raw: str) -> Entry | None:
    """Parse one line; None for blank or comment lines."""
    line = raw.split("#", 1)[0].strip()
    if not line:
        return None
    where = f"{path}:{num}"
    words = line.split()
    if words[0] in ("struct", "site") and len(words) >= 2:
        words = [f"{words[0]} {words[1]}"] + words[2:]
    if len(words) != 2:
        raise TableError(f"{where}: expected '<lock-class> <VEC>[|<VEC>...]', "
                         f"got '{line}'")
    cls, vecs = words
    if not CLASS_RE.match(cls):
        raise TableError(f"{where}: malformed lock class '{cls}'")
    if vecs == "ALL":
        return Entry(cls, None, where)
    if vecs == "NONE" and cls.startswith("site "):
        return Entry(cls, (), where)
    names = vecs.split("|")
    for name in names:
        if name not in VECTORS:
            raise TableError(f"{where}: unknown vector '{name}' "
                             f"(known: {' '.join(VECTORS)} or ALL)")
    ordered = tuple(v for v in VECTORS if v in names)
    return Entry(cls, ordered, where)


def parse_table(path: str) -> list[Entry]:
    """Parse a whole table; duplicate classes are an error."""
    entries: list[Entry] = []
    seen: dict[str, str] = {}
    with open(path, encoding="utf-8") as fh:
        for num, raw in enumerate(fh, 1):
            entry = parse_line(path, num, raw)
            if entry is None:
                continue
            if entry.lock_class in seen:
                raise TableError(f"{entry.where}: duplicate class "
                                 f"'{entry.lock_class}' (first at "
                                 f"{seen[entry.lock_class]})")
            seen[entry.lock_class] = entry.where
            entries.append(entry)
    return entries


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: convert-masks.py TABLE...", file=sys.stderr)
        return 2
    status = 0
    for path in argv:
        try:
            parse_table(path)
        except OSError as err:
            print(f"{path}: {err.strerror}", file=sys.stderr)
            status = 2
        except TableError as err:
            print(f"error: {err}", file=sys.stderr)
            status = 2
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
