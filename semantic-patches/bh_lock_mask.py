"""Decisions of semantic-patches/bh_lock_mask.cocci, in plain Python.

The semantic patch matches (rules r*) and rewrites (rules p*); this module
holds what its script rules do with the matches: the mask table, the lock
class of a lock expression, the per-file state the find rules fill in, and
the decision per acquisition site (convert with a mask, or leave it on the
all-vector API and say why).  spatch imports it through PYTHONPATH
(scripts/lib.sh puts semantic-patches/ there); tests/test_bh_lock_mask.py
tests it without spatch.

Reads:  the mask table (-D masks), the per-CPU function list (-D pcpu) and
        the C file being converted (for statics, wrapper macros, names).
Writes: one JSON record per site to <records>.<pid>.jsonl when -D records
        is given; nothing otherwise.

State is per file: positions after a rewrite name a temporary copy of the
file, so it is keyed by (line, column) and reset by start_file().
"""
from __future__ import annotations

import json
import os
import re
from typing import Any, Iterable, Optional, Protocol, Sequence

VECTORS = ["HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL",
           "TASKLET", "SCHED", "HRTIMER", "RCU"]
# Per-CPU accessors, and the SNMP-style statistics macros that expand to
# them (spatch does not expand macros, so they are named here).
PCPU_RE = re.compile(r"^(__this_cpu_|this_cpu_|raw_cpu_|per_cpu|"
                     r"get_cpu_var$|put_cpu_var$|get_cpu_ptr$|get_cpu$|"
                     r"smp_processor_id$|raw_smp_processor_id$|"
                     r"_*[A-Z][A-Z0-9_]*_(INC|DEC|ADD|SUB|UPD)_STATS|_*SNMP_)")
UNORDERED = ("released out of order with another BH section (not LIFO; "
             "DEBUG_SOFTIRQ_MASK warns on such a restore)")
PATH_RE = re.compile(r"^[A-Za-z_]\w*(\[\])?(\.[A-Za-z_]\w*(\[\])?)*$")


class Position(Protocol):
    """What the module uses of a spatch position (coccilib's Location)."""

    file: str
    current_element: str
    line: str
    column: str


Key = tuple[str, str]   # (line, column) of a position, as spatch gives them
Site = dict[str, Any]   # one acquisition site; also its JSON record
Base = tuple[str, str]  # (pointer expression, its type)

mask_table: dict[str, Optional[list[str]]] = {}  # class -> vectors, None = ALL
# "site <file>:<line> <MASK>" lines: the mask of the section that starts
# at that line (scripts/analysis/vectors.py proves one per section, with
# per-CPU data and lock order included); when the table has sites, they
# decide, and a section without one stays on the all-vector API.
site_table: dict[tuple[str, int], Optional[list[str]]] = {}
pcpu_funcs: set[str] = set()       # functions known to touch per-CPU data
records_prefix = [""]              # where site records go ("" = nowhere)
texts: dict[str, str] = {}         # file -> source text
sites: dict[Key, Site] = {}        # (line, col) -> site
first_unlocks: dict[Key, set[Key]] = {}  # (line, col) -> first unlocks
held: set[Key] = set()             # held on some path to the end
nested: set[Key] = set()           # taken again before the release
unordered: set[Key] = set()        # released while a later section is held
free_unlock: set[tuple[str, str]] = set()  # (function, expr): release without acquire
pcpu_hit: dict[Key, str] = {}      # (line, col) -> "name() at line N"
ptr_bases: dict[Key, list[Base]] = {}
glob_bases: dict[Key, set[str]] = {}   # (line, col) -> global names
local_bases: dict[Key, set[str]] = {}  # (line, col) -> local names
aliases: dict[tuple[str, str], list[tuple[str, str, str]]] = {}
alias_types: dict[Key, list[Base]] = {}  # alias assignment -> bases
names: dict[str, dict[str, str]] = {}    # function -> {expr: variable}
decls: dict[str, set[str]] = {}          # function -> variables to declare
declared: set[str] = set()               # functions whose declaration is placed
converted: set[Key] = set()
cur_file = [""]                    # the file being processed (original name)


def norm(expr: object) -> str:
    """An expression as text without white space."""
    return re.sub(r"\s+", "", str(expr))


def key(pos: Position) -> Key:
    """Positions only: after a transformation pos.file names a temporary
    copy, so per-file state is reset by start_file() instead."""
    return (pos.line, pos.column)


def start_file() -> None:
    """Forget the previous file's matches."""
    tables: tuple[dict[Any, Any], ...] = (
        sites, first_unlocks, pcpu_hit, ptr_bases, glob_bases, local_bases,
        aliases, alias_types, names, decls)
    for table in tables:
        table.clear()
    free_unlock.clear()
    declared.clear()
    held.clear()
    nested.clear()
    unordered.clear()
    converted.clear()
    texts.clear()


def load_masks(path: str) -> None:
    """Read a mask table ("<class> <VEC>[|<VEC>...]" or "<class> ALL")."""
    with open(path, encoding="utf-8") as fh:
        for num, raw in enumerate(fh, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            if line.startswith("site "):
                parts = line.split()
                fl = parts[1].rpartition(":") if len(parts) == 3 else ("", "", "")
                if not fl[0] or not fl[2].isdigit():
                    raise ValueError("%s:%d: expected 'site <file>:<line> <MASK>'"
                                     % (path, num))
                site_table[(fl[0], int(fl[2]))] = parse_mask(path, num, parts[2])
                continue
            if line.startswith("struct "):
                line = "struct " + line[7:].lstrip()
                parts = line.split()
                parts = [parts[0] + " " + parts[1]] + parts[2:]
            else:
                parts = line.split()
            if len(parts) != 2:
                raise ValueError("%s:%d: expected '<lock-class> <VEC>[|<VEC>...]'"
                                 % (path, num))
            mask_table[parts[0]] = parse_mask(path, num, parts[1])


def parse_mask(path: str, num: int, text: str) -> Optional[list[str]]:
    """"VEC|VEC..." as a sorted list of vectors, "ALL" as None."""
    vecs = text.split("|")
    if vecs == ["ALL"]:
        return None
    if vecs == ["NONE"]:
        return []
    bad = [v for v in vecs if v not in VECTORS]
    if bad:
        raise ValueError("%s:%d: unknown vector '%s'" % (path, num, bad[0]))
    return sorted(set(vecs), key=VECTORS.index)


def site_lookup(fname: str, line: int) -> tuple[bool, Optional[list[str]]]:
    """The site table's mask for the section at FNAME:LINE (FNAME may be
    a longer path than the table's)."""
    if (fname, line) in site_table:
        return True, site_table[(fname, line)]
    for (f, ln), v in site_table.items():
        if ln == line and (fname.endswith("/" + f) or f.endswith("/" + fname)):
            return True, v
    return False, None


def load_pcpu(path: str) -> None:
    """Read the functions known to touch per-CPU data, one per line."""
    with open(path, encoding="utf-8") as fh:
        pcpu_funcs.update(ln.strip() for ln in fh if ln.strip()
                          and not ln.startswith("#"))


def set_records(prefix: str) -> None:
    """Send one JSON record per site to PREFIX.<pid>.jsonl."""
    records_prefix[0] = prefix


def text_of(fname: str) -> str:
    """The source of FNAME, read once per file ("" when unreadable)."""
    if fname not in texts:
        try:
            with open(fname, encoding="utf-8", errors="replace") as fh:
                texts[fname] = fh.read()
        except OSError:
            texts[fname] = ""
    return texts[fname]


def is_static(fname: str, name: str) -> bool:
    """Is NAME defined static in FNAME (a file-local lock class)?"""
    pat = (r"(?m)^static\s+(DEFINE_\w+\(\s*%s\s*\)|[\w\s\*]*?\b%s\s*(;|=|\[))"
           % (re.escape(name), re.escape(name)))
    return re.search(pat, text_of(fname)) is not None


def wrapper_macros(fname: str) -> set[str]:
    """Macros of FNAME whose body takes or releases a BH lock."""
    found = set()
    pat = (r"(?m)^#\s*define\s+(\w+)\((?:[^\n]*\\\n)*[^\n]*?"
           r"\b((spin|read|write)_(un)?lock_bh|local_bh_(disable|enable))\b")
    for m in re.finditer(pat, text_of(fname)):
        found.add(m.group(1))
    return found


def in_define(fname: str, line: int) -> bool:
    """Is LINE of FNAME part of a #define (continuation lines included)?"""
    lines = text_of(fname).split("\n")
    num = line - 1
    while 0 < num <= len(lines) and lines[num - 1].rstrip().endswith("\\"):
        num -= 1
    return 0 <= num < len(lines) and lines[num].lstrip().startswith("#")


def lookup(cls: str, fname: str) -> tuple[bool, Optional[list[str]]]:
    """The table's mask for CLS: exact class first, then a file-qualified
    key whose path is a suffix of CLS's.  Returns (found, vectors)."""
    if cls in mask_table:
        return True, mask_table[cls]
    for k, v in mask_table.items():
        head, sep, tail = k.rpartition(":")
        if not sep or not cls.endswith(":" + tail):
            continue
        kfile = head[3:] if head.startswith("bh:") else head
        cfile = cls[: -len(tail) - 1]
        cfile = cfile[3:] if cfile.startswith("bh:") else cfile
        if head.startswith("bh:") != cls.startswith("bh:"):
            continue
        if cfile == kfile or cfile.endswith("/" + kfile):
            return True, v
    return False, None


def classify(fname: str, func: str, expr: str, pk: Key, bases: list[Base],
             globs: set[str], locs: set[str],
             depth: int = 0) -> tuple[Optional[str], Optional[str]]:
    """Return (class, None) or (None, reason) for a lock expression."""
    if expr.startswith("&"):
        inner = re.sub(r"\[[^\[\]]*\]", "[]", expr[1:])
        best: Optional[tuple[str, str, str]] = None
        for base, typ in bases:
            b = re.sub(r"\[[^\[\]]*\]", "[]", base)
            # p->path, or p[i].path for an array of structs
            for sep in ("->", "[]."):
                rest = inner[len(b) + len(sep):]
                if inner.startswith(b + sep) and PATH_RE.match(rest):
                    if best is None or len(b) > len(best[0]):
                        best = (b, typ, rest)
        if best is not None and "{" not in best[1]:
            return "%s.%s" % (best[1], best[2]), None
        head = re.match(r"^([A-Za-z_]\w*)", inner)
        if head and head.group(1) in globs and PATH_RE.match(inner):
            name = head.group(1)
            if is_static(fname, name):
                return "%s:%s" % (fname, inner), None
            return inner, None
        return None, "lock class unknown (type of '%s' not resolved)" % expr
    if re.match(r"^[A-Za-z_]\w*$", expr) and expr in locs and depth == 0:
        assigns = aliases.get((func, expr), [])
        if len(assigns) != 1:
            return None, ("lock passed as a parameter or pointer '%s' "
                          "assigned %d times" % (expr, len(assigns)))
        line, col, rhs = assigns[0]
        akey = (line, col)
        return classify(fname, func, rhs, akey, alias_types.get(akey, []),
                        globs | glob_bases.get(akey, set()), locs, depth + 1)
    return None, "lock reached through a pointer ('%s')" % expr


def var_name(func: str, expr: str) -> str:
    """The variable that keeps the previous mask of EXPR's sections in
    FUNC: "<expr words>_bh" (or "bh_prev"), numbered when the file already
    uses the name."""
    fname = cur_file[0]
    table = names.setdefault(func, {})
    if expr in table:
        return table[expr]
    if expr == "":
        stem = "bh_prev"
    else:
        stem = "_".join(re.findall(r"[A-Za-z_]\w*", expr)) + "_bh"
    text = text_of(fname)
    cand, n = stem, 1
    while (re.search(r"\b%s\b" % re.escape(cand), text)
           or cand in table.values()):
        n += 1
        cand = "%s%d" % (stem, n)
    table[expr] = cand
    return cand


def add_alias(pos: Position, name: str, rhs: object) -> None:
    """Record "NAME = RHS" for a local lock pointer.  A declaration with an
    initializer also matches "a = A": keep one."""
    entry = (pos.line, pos.column, norm(rhs))
    known = aliases.setdefault((pos.current_element, name), [])
    if entry not in known:
        known.append(entry)


def site_message(pk: Key) -> str:
    """The report line for one site: its mask, or why it is left alone."""
    site = sites.get(pk)
    if site is None:
        return "BH section not analysed"
    if site["status"] == "candidate":
        return "%s section of %s can mask only %s" % (
            site["kind"], site["class"], "|".join(site["mask"]))
    return "%s section left on the all-vector API: %s" % (
        site["kind"], site["reason"])


def is_candidate(pos: Sequence[Position]) -> bool:
    """Position constraint: the site at POS[0] is to be converted."""
    site = sites.get(key(pos[0]))
    return site is not None and site["status"] == "candidate"


def is_pcpu(name: object) -> bool:
    """Identifier constraint: NAME touches per-CPU data."""
    text = str(name)
    return text in pcpu_funcs or PCPU_RE.match(text) is not None


def is_lock_ptr(name: object) -> bool:
    """Identifier constraint: NAME is a local passed to a lock call."""
    text = str(name)
    return any(text in v for v in local_bases.values())


def has_decls(name: object) -> bool:
    """Identifier constraint: function NAME needs mask variables."""
    return str(name) in decls


def mark_declared(name: str) -> None:
    """The declaration rule placed function NAME's mask variables."""
    declared.add(name)


def needs_decl(name: object) -> bool:
    """Identifier constraint: function NAME needs mask variables that the
    first declaration rule did not place."""
    return str(name) in decls and str(name) not in declared


def mask_expr(vecs: Iterable[str]) -> str:
    """C text of a mask: BIT(A_SOFTIRQ) | BIT(B_SOFTIRQ); 0 when no vector
    can take the lock; SOFTIRQ_ALL_MASK & ~(...) naming the vectors left
    out when they are fewer (a line of eight BIT()s does not fit in 100
    columns, and the vectors that may run are what a reviewer checks)."""
    vecs = list(vecs)
    if len(vecs) > len(VECTORS) // 2:
        out = [v for v in VECTORS if v not in vecs]
        if len(out) == 1:
            return "SOFTIRQ_ALL_MASK & ~BIT(%s_SOFTIRQ)" % out[0]
        return "SOFTIRQ_ALL_MASK & ~(%s)" % " | ".join("BIT(%s_SOFTIRQ)" % v for v in out)
    return " | ".join("BIT(%s_SOFTIRQ)" % v for v in vecs) or "0"


def record(site: Site) -> None:
    """Append SITE as one JSON line to the records file, if any."""
    if not records_prefix[0]:
        return
    with open("%s.%d.jsonl" % (records_prefix[0], os.getpid()), "a",
              encoding="utf-8") as fh:
        fh.write(json.dumps(site, sort_keys=True) + "\n")


def record_trylock(pos: Position, expr: object) -> None:
    """A spin_trylock_bh() site: never converted (no mask variant)."""
    record({"file": pos.file, "line": int(pos.line), "col": int(pos.column),
            "func": pos.current_element, "kind": "trylock", "expr": norm(expr),
            "class": None, "mask": None, "status": "skipped",
            "reason": "trylock (no mask variant)"})


def decide(pos: Position, kind: str, expr: str) -> Site:
    """Decide one acquisition site; returns the site dict."""
    fname, func = pos.file, pos.current_element
    cur_file[0] = fname
    pk = key(pos)
    site: Site = {"file": fname, "line": int(pos.line), "col": int(pos.column),
                  "func": func, "kind": kind, "expr": expr, "class": None,
                  "mask": None, "status": "skipped", "reason": ""}
    sites[pk] = site
    if func in wrapper_macros(fname) or in_define(fname, int(pos.line)):
        site["reason"] = "wrapper macro (the lock is hidden behind a #define)"
        return site
    cls: Optional[str]
    why: Optional[str]
    if site_table:
        return decide_site(site, pk, expr)
    if kind == "bh":
        cls, why = "bh:%s:%s" % (fname, func), None
    else:
        cls, why = classify(fname, func, expr, pk, ptr_bases.get(pk, []),
                            glob_bases.get(pk, set()),
                            local_bases.get(pk, set()))
    site["class"] = cls
    if cls is None:
        site["reason"] = why
        return site
    why = structural_reason(pk, func, expr, check_pcpu=True)
    if why:
        site["reason"] = why
        return site
    found, vecs = lookup(cls, fname)
    return take_mask(site, found, vecs, "no mask for lock class")


def structural_reason(pk: Key, func: str, expr: str, check_pcpu: bool) -> str:
    """Why the section at PK cannot be rewritten as one balanced, LIFO
    section of its function ("" when it can).  A site table's masks
    include per-CPU data already (check_pcpu=False)."""
    if (func, expr) in free_unlock:
        return "conditional locking or release without acquire"
    if pk in held or pk not in first_unlocks:
        return ("not released on every path (held on return, "
                "released in a callee, or nested)")
    if check_pcpu and pk in pcpu_hit:
        return "per-CPU access in section (%s)" % pcpu_hit[pk]
    if pk in nested:
        return "taken again before its release (nested)"
    if pk in unordered:
        return UNORDERED
    mine = first_unlocks[pk]
    for other, theirs in first_unlocks.items():
        if other != pk and other not in nested and mine & theirs:
            return "unlock shared by several acquisitions"
    return ""


def take_mask(site: Site, found: bool, vecs: Optional[list[str]],
              missing: str) -> Site:
    """Make SITE a candidate with VECS, unless there is no mask (MISSING
    is the reason) or the mask holds back every vector."""
    if not found:
        site["reason"] = missing
        return site
    if vecs is None or len(vecs) == len(VECTORS):
        site["reason"] = "mask is ALL"
        return site
    site["mask"] = vecs
    site["status"] = "candidate"
    return site


def decide_site(site: Site, pk: Key, expr: str) -> Site:
    """decide() with a site table: the analysis proved the mask of this
    section (lock order and per-CPU data included); the rewrite still
    needs one balanced, LIFO section in this function."""
    site["class"] = "site:%s:%d" % (site["file"], site["line"])
    why = structural_reason(pk, site["func"], expr, check_pcpu=False)
    if why:
        site["reason"] = why
        return site
    found, vecs = site_lookup(site["file"], site["line"])
    return take_mask(site, found, vecs,
                     "no proven mask for this section (not compiled in the world)")


def decide_and_record(pos: Position, kind: str, expr: str) -> Site:
    """decide(), name the variable of a candidate, write the record."""
    site = decide(pos, kind, expr)
    if site["status"] == "candidate":
        site["var"] = var_name(pos.current_element, expr)
    record(site)
    return site


def mark_converted(pos: Position, var: str) -> None:
    """The rewrite rule converted the site at POS using variable VAR."""
    converted.add(key(pos))
    decls.setdefault(pos.current_element, set()).add(var)
    record({"file": cur_file[0], "line": int(pos.line),
            "col": int(pos.column), "event": "converted"})
