#!/usr/bin/env python3
"""Check that a final kernel .config has every value its fragments ask for.

Usage: check-config.py DOTCONFIG FRAGMENT...
Reads the fragments' `CONFIG_X=v` and `# CONFIG_X is not set` lines and the
.config; prints each option that differs and exits 1 if any does, 2 on
unreadable input, 0 when all match.
"""
import re
import sys
from pathlib import Path

SET = re.compile(r"^(CONFIG_[A-Za-z0-9_]+)=(.*)$")
UNSET = re.compile(r"^# (CONFIG_[A-Za-z0-9_]+) is not set$")


def parse(path: Path) -> dict[str, str]:
    """Map option name to value ('n' for unset) for one config file."""
    values: dict[str, str] = {}
    for line in path.read_text().splitlines():
        m = SET.match(line)
        if m:
            values[m.group(1)] = m.group(2)
            continue
        m = UNSET.match(line)
        if m:
            values[m.group(1)] = "n"
    return values


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    try:
        final = parse(Path(argv[1]))
        wanted: dict[str, tuple[str, str]] = {}
        for frag in argv[2:]:
            for opt, val in parse(Path(frag)).items():
                wanted[opt] = (val, frag)
    except OSError as err:
        print(f"check-config: {err}", file=sys.stderr)
        return 2
    bad = 0
    for opt, (val, frag) in sorted(wanted.items()):
        got = final.get(opt, "n")
        if got != val:
            print(f"check-config: {opt}={val} asked by {frag}, but .config has "
                  f"{opt}={got} (a dependency is missing or the option does not exist)",
                  file=sys.stderr)
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
