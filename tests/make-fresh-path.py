#!/usr/bin/env python3
"""Build the PATH a fresh machine would have after `make deps`.

Usage: make-fresh-path.py DEPS_TXT BINDIR [--imports FILE...]

"Fresh machine" = the base system plus the packages of DEPS_TXT
(scripts/deps.txt) and everything they pull in:

  base     installed packages that are Essential or have Priority
           required: what every Debian system has (debootstrap
           --variant=minbase installs exactly these, plus apt);
  closure  the DEPS_TXT packages and, recursively, their Depends and
           Pre-Depends as apt-get install --no-install-recommends
           (scripts/install-deps.sh) would resolve them among the
           installed packages: the first installed alternative of
           "a | b", virtual names through Provides, ":any" and other
           architecture qualifiers dropped.  Recommends and Suggests
           are not followed: install-deps.sh does not install them.

BINDIR is emptied and gets one symlink per command of those packages: a
file of PATH's usual folders (/usr/bin, /bin, /usr/sbin, /sbin) whose
real path is a file the packages own (`dpkg-query -L`), so
update-alternatives links (awk -> mawk) count when their target does.
Commands of other installed packages stay out, also when they sit in
/usr/bin: a suite run with PATH=BINDIR fails where a fresh machine would.

--imports FILE...: also check that every module the Python files (or the
@script:python blocks of .cocci files) import is found, by BINDIR's
python3, in a file of base or closure, or in the checkout; prints each
one that is not.

Writes BINDIR, and BINDIR/../packages.txt (base and closure, one package
a line with its reason).  Prints a summary.  Exit: 0 done, 1 a module is
not provided, 2 a DEPS_TXT package is not installed (run make deps) or
bad usage.
"""
from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

FIELDS = ["Package", "Status", "Priority", "Essential", "Depends", "Pre-Depends", "Provides"]
PATH_DIRS = ["/usr/bin", "/bin", "/usr/sbin", "/sbin"]


@dataclass
class Pkg:
    name: str
    priority: str = ""
    essential: bool = False
    depends: list[list[str]] = field(default_factory=list)  # AND of ORs
    provides: list[str] = field(default_factory=list)


def bare(name: str) -> str:
    """A package name without version constraint or ":arch" qualifier."""
    return re.sub(r"\s*\(.*?\)", "", name).strip().split(":", 1)[0]


def parse_relations(text: str) -> list[list[str]]:
    """'a (>= 1) | b, c:any' -> [['a', 'b'], ['c']]."""
    out = []
    for group in text.split(","):
        alts = [bare(a) for a in group.split("|") if bare(a)]
        if alts:
            out.append(alts)
    return out


def installed_packages() -> dict[str, Pkg]:
    """Every installed package with the fields the closure needs."""
    fmt = "\\t".join("${%s}" % f for f in FIELDS) + "\\n"
    text = subprocess.run(["dpkg-query", "-W", "-f", fmt], check=True,
                          capture_output=True, text=True).stdout
    pkgs: dict[str, Pkg] = {}
    for line in text.splitlines():
        cols = line.split("\t")
        if len(cols) != len(FIELDS) or not cols[1].endswith(" installed"):
            continue
        name, _, prio, ess, dep, pre, prov = cols
        pkgs[name] = Pkg(name, prio, ess == "yes",
                         parse_relations(pre) + parse_relations(dep),
                         [a[0] for a in parse_relations(prov)])
    return pkgs


def closure(roots: list[str], pkgs: dict[str, Pkg]) -> dict[str, str]:
    """Package -> why it is in: the roots and what they depend on."""
    providers: dict[str, list[str]] = {}
    for p in pkgs.values():
        for v in p.provides:
            providers.setdefault(v, []).append(p.name)
    why: dict[str, str] = {r: "deps.txt" for r in roots}
    todo = list(roots)
    while todo:
        cur = todo.pop()
        for alts in pkgs[cur].depends:
            pick = None
            for a in alts:
                if a in pkgs:
                    pick = a
                    break
                if providers.get(a):
                    pick = sorted(providers[a])[0]
                    break
            if pick is not None and pick not in why:
                why[pick] = f"needed by {cur}"
                todo.append(pick)
    return why


def owned_files(names: list[str]) -> set[str]:
    """Real paths of the files the packages own."""
    files: set[str] = set()
    for i in range(0, len(names), 200):
        text = subprocess.run(["dpkg-query", "-L", *names[i:i + 200]],
                              capture_output=True, text=True).stdout
        for line in text.splitlines():
            if line.startswith("/"):
                files.add(os.path.realpath(line))
    return files


def fill_bindir(bindir: Path, files: set[str]) -> int:
    """Symlink every command of PATH_DIRS whose real path is in FILES."""
    bindir.mkdir(parents=True, exist_ok=True)
    for old in bindir.iterdir():
        old.unlink()
    n = 0
    for d in PATH_DIRS:
        if not os.path.isdir(d):
            continue
        for entry in sorted(os.listdir(d)):
            path = os.path.join(d, entry)
            real = os.path.realpath(path)
            link = bindir / entry
            if (real in files and os.path.isfile(real) and os.access(real, os.X_OK)
                    and not link.exists()):
                link.symlink_to(path)
                n += 1
    return n


def imported_modules(path: Path) -> set[str]:
    """Top-level modules a .py file (or a .cocci file's Python) imports."""
    text = path.read_text(errors="replace")
    if path.suffix == ".cocci":
        mods = set(re.findall(r"(?m)^\s*import\s+([A-Za-z_]\w*)", text))
        mods |= set(re.findall(r"(?m)^\s*from\s+([A-Za-z_]\w*)[\w.]*\s+import", text))
        return mods
    mods = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            mods |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            mods.add(node.module.split(".")[0])
    return mods


def module_origins(python: Path, mods: list[str], search: list[str]) -> dict[str, str]:
    """Where the fresh machine's python3 finds each module: a file,
    'built-in', or '' when it does not.  Asked in a child process: the
    python3 running this script may be another one (pyenv, a venv)."""
    code = (
        "import importlib.util, sys\n"
        "sys.path[:0] = sys.argv[1].split(':') if sys.argv[1] else []\n"
        "for m in sys.argv[2:]:\n"
        "    if m in sys.builtin_module_names:\n"
        "        print(m, 'built-in'); continue\n"
        "    try:\n"
        "        s = importlib.util.find_spec(m)\n"
        "    except (ImportError, ValueError):\n"
        "        s = None\n"
        "    o = '' if s is None else (s.origin or list(s.submodule_search_locations or [''])[0])\n"
        "    print(m, o)\n")
    out = subprocess.run([str(python), "-c", code, ":".join(search), *mods],
                         check=True, capture_output=True, text=True).stdout
    origins = {}
    for line in out.splitlines():
        mod, _, origin = line.partition(" ")
        origins[mod] = origin
    return origins


def check_imports(python: Path, paths: list[Path], files: set[str], top: Path) -> list[str]:
    """Modules that are missing or come from a package outside the set."""
    search = sorted({str(p.parent.resolve()) for p in paths})
    mods = sorted(set().union(*(imported_modules(p) for p in paths)))
    origins = module_origins(python, mods, search)
    bad = []
    for mod in mods:
        origin = origins.get(mod, "")
        if origin in ("built-in", "frozen"):
            continue
        if not origin:
            bad.append(f"{mod}: not found by {python}")
            continue
        real = os.path.realpath(origin)
        if real.startswith(str(top) + os.sep) or real in files:
            continue
        bad.append(f"{mod}: {origin} belongs to no package of the fresh machine")
    return bad


def main(argv: list[str]) -> int:
    args = argv[1:]
    imports: list[Path] = []
    if "--imports" in args:
        i = args.index("--imports")
        imports = [Path(a) for a in args[i + 1:]]
        args = args[:i]
    if len(args) != 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    deps_txt, bindir = Path(args[0]), Path(args[1])
    roots = []
    for line in deps_txt.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            roots.append(line)
    pkgs = installed_packages()
    missing = [r for r in roots if r not in pkgs]
    if missing:
        print(f"make-fresh-path: not installed: {' '.join(missing)}; run 'make deps'",
              file=sys.stderr)
        return 2
    base = {p.name: ("Essential" if p.essential else "Priority required")
            for p in pkgs.values() if p.essential or p.priority == "required"}
    why = closure(roots, pkgs)
    allowed = dict(base)
    allowed.update({k: v for k, v in why.items() if k not in base})
    files = owned_files(sorted(allowed))
    ncmd = fill_bindir(bindir, files)
    (bindir.parent / "packages.txt").write_text(
        "".join(f"{k}\t{v}\n" for k, v in sorted(allowed.items())))
    print(f"fresh machine: {len(base)} base packages (Essential or Priority required) + "
          f"{len(roots)} of {deps_txt} -> {len(why)} with their dependencies; "
          f"{len(allowed)} packages, {ncmd} commands in {bindir} "
          f"(of {len(pkgs)} installed packages)")
    if imports:
        top = Path(__file__).resolve().parent.parent
        python = bindir / "python3"
        if not python.exists():
            print("python3 is not a command of the fresh machine")
            return 1
        bad = check_imports(python, imports, files, top)
        for b in bad:
            print(f"python module {b}")
        print(f"python imports of {len(imports)} files: {len(bad)} not provided")
        if bad:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
