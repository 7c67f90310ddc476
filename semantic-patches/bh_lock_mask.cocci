// SPDX-License-Identifier: GPL-2.0-only
/// Convert balanced BH lock sections to the per-vector softirq mask API.
///
/// A spin_lock_bh()/spin_unlock_bh() section (likewise read_/write_lock_bh
/// and local_bh_disable()/local_bh_enable()) only has to keep out the
/// softirq vectors that can take the same lock.  When the mask table names
/// those vectors for the lock's class, the section becomes
///   prev = spin_lock_bh_mask(lock, BIT(NET_RX_SOFTIRQ) | ...);
///   ...
///   spin_unlock_bh_mask(lock, prev);
/// so that the other vectors keep running while the lock is held.
///
//# A section is converted only when the lock is released on every path of
//# the same function and the section touches no per-CPU data (this_cpu_*,
//# __this_cpu_*, raw_cpu_*, per_cpu*, get_cpu_var, get_cpu_ptr, get_cpu,
//# smp_processor_id, *_INC_STATS-style SNMP macros, or a function listed in
//# the -D pcpu file).  Conditional
//# locking, a lock held on return, a release in a callee, trylock, locks
//# behind wrapper macros and locks whose class cannot be named stay on the
//# all-vector API; report mode says why for every site.
//#
//# Lock classes (the mask table's first column):
//#   struct <type>.<field path>   &p->a.b where p is a struct <type> pointer
//#   <name>[.<field path>]        a global variable
//#   <file>:<name>[.<field path>] a file-static variable
//#   bh:<file>:<function>         a local_bh_disable() section
//# <file> is matched as a path suffix, so "tcp.c" matches net/ipv4/tcp.c.
//# A pointer variable is followed when it is assigned exactly once in the
//# function.  Lock parameters and pointer fields cannot be named: ALL.
//#
//# Virtual variables: -D masks=FILE (mask table, "<class> <VEC>[|<VEC>...]"
//# or "<class> ALL" per line, '#' comments), -D pcpu=FILE (function names
//# known to touch per-CPU data, one per line), -D records=PREFIX (append one
//# JSON record per site to PREFIX.<pid>.jsonl).
//
// Confidence: Moderate
// Copyright: (C) 2026 softirq-mask campaign.
// Comments: the mask table comes from scripts/analysis/analyze-vectors.sh or an audit.
// Options: --no-includes --include-headers
// Requires: 1.1.1

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import json as jsonlib
import os
import re

VECTORS = ["HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL",
           "TASKLET", "SCHED", "HRTIMER", "RCU"]
# Per-CPU accessors, and the SNMP-style statistics macros that expand to
# them (spatch does not expand macros, so they are named here).
PCPU_RE = re.compile(r"^(__this_cpu_|this_cpu_|raw_cpu_|per_cpu|"
                     r"get_cpu_var$|put_cpu_var$|get_cpu_ptr$|get_cpu$|"
                     r"smp_processor_id$|raw_smp_processor_id$|"
                     r"_*[A-Z][A-Z0-9_]*_(INC|DEC|ADD|SUB|UPD)_STATS|_*SNMP_)")
PATH_RE = re.compile(r"^[A-Za-z_]\w*(\[\])?(\.[A-Za-z_]\w*(\[\])?)*$")

mask_table = {}      # class -> sorted vector list, None for ALL
pcpu_funcs = set()   # functions known to touch per-CPU data
json_prefix = ""     # where site records go ("" = nowhere)
texts = {}           # file -> source text
sites = {}           # (line, col) -> site dict
first_unlocks = {}   # (line, col) -> first unlock positions
held = set()         # (line, col): held on some path to the end
nested = set()       # (line, col): taken again before the release
free_unlock = set()  # (function, expr): release without acquire
pcpu_hit = {}        # (line, col) -> "name at line"
ptr_bases = {}       # (line, col) -> [(base, type)]
glob_bases = {}      # (line, col) -> set of global names
local_bases = {}     # (line, col) -> set of local names
aliases = {}         # (function, name) -> [(line, col, expr)]
alias_types = {}     # (line, col) of an alias assignment -> bases
names = {}           # function -> {expr: variable}
decls = {}           # function -> set of variables
converted = set()    # (line, col)
cur_file = [""]      # the file being processed (its original name)


def norm(expr):
    return re.sub(r"\s+", "", str(expr))


def key(pos):
    # Positions only: after a transformation pos.file names a temporary
    # copy, so per-file state is reset by start_file() instead.
    return (pos.line, pos.column)


def start_file():
    for table in (sites, first_unlocks, pcpu_hit, ptr_bases, glob_bases,
                  local_bases, aliases, alias_types, names, decls):
        table.clear()
    free_unlock.clear()
    held.clear()
    nested.clear()
    converted.clear()
    texts.clear()


def load_masks(path):
    with open(path, encoding="utf-8") as fh:
        for num, raw in enumerate(fh, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
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
            vecs = parts[1].split("|")
            if vecs == ["ALL"]:
                mask_table[parts[0]] = None
                continue
            bad = [v for v in vecs if v not in VECTORS]
            if bad:
                raise ValueError("%s:%d: unknown vector '%s'" % (path, num, bad[0]))
            mask_table[parts[0]] = sorted(set(vecs), key=VECTORS.index)


def text_of(fname):
    if fname not in texts:
        try:
            with open(fname, encoding="utf-8", errors="replace") as fh:
                texts[fname] = fh.read()
        except OSError:
            texts[fname] = ""
    return texts[fname]


def is_static(fname, name):
    pat = (r"(?m)^static\s+(DEFINE_\w+\(\s*%s\s*\)|[\w\s\*]*?\b%s\s*(;|=|\[))"
           % (re.escape(name), re.escape(name)))
    return re.search(pat, text_of(fname)) is not None


def wrapper_macros(fname):
    found = set()
    pat = (r"(?m)^#\s*define\s+(\w+)\((?:[^\n]*\\\n)*[^\n]*?"
           r"\b((spin|read|write)_(un)?lock_bh|local_bh_(disable|enable))\b")
    for m in re.finditer(pat, text_of(fname)):
        found.add(m.group(1))
    return found


def in_define(fname, line):
    lines = text_of(fname).split("\n")
    num = line - 1
    # chr(): the SmPL lexer mangles a backslash before a quote here.
    while num > 0 and lines[num - 1].rstrip().endswith(chr(92)):
        num -= 1
    return 0 <= num < len(lines) and lines[num].lstrip().startswith(chr(35))


def lookup(cls, fname):
    # Exact class first, then a file-qualified key whose path is a suffix.
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


def classify(fname, func, expr, pk, bases, globs, locs, depth=0):
    """Return (class, None) or (None, reason) for a lock expression."""
    if expr.startswith("&"):
        inner = re.sub(r"\[[^\[\]]*\]", "[]", expr[1:])
        best = None
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


def var_name(func, expr):
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


def add_alias(pos, name, rhs):
    # A declaration with an initializer also matches "a = A": keep one.
    entry = (pos.line, pos.column, norm(rhs))
    known = aliases.setdefault((pos.current_element, name), [])
    if entry not in known:
        known.append(entry)


def site_message(pk):
    site = sites.get(pk)
    if site is None:
        return "BH section not analysed"
    if site["status"] == "candidate":
        return "%s section of %s can mask only %s" % (
            site["kind"], site["class"], "|".join(site["mask"]))
    return "%s section left on the all-vector API: %s" % (
        site["kind"], site["reason"])


def is_candidate(pos):
    site = sites.get(key(pos[0]))
    return site is not None and site["status"] == "candidate"


def is_pcpu(name):
    return name in pcpu_funcs or PCPU_RE.match(name) is not None


def is_lock_ptr(name):
    return any(name in v for v in local_bases.values())


def has_decls(name):
    return name in decls


def mask_expr(vecs):
    return " | ".join("BIT(%s_SOFTIRQ)" % v for v in vecs)


def record(site):
    if not json_prefix:
        return
    with open("%s.%d.jsonl" % (json_prefix, os.getpid()), "a",
              encoding="utf-8") as fh:
        fh.write(jsonlib.dumps(site, sort_keys=True) + "\n")


def decide(pos, kind, expr):
    """Decide one acquisition site; returns the site dict."""
    fname, func = pos.file, pos.current_element
    cur_file[0] = fname
    pk = key(pos)
    site = {"file": fname, "line": int(pos.line), "col": int(pos.column),
            "func": func, "kind": kind, "expr": expr, "class": None,
            "mask": None, "status": "skipped", "reason": ""}
    sites[pk] = site
    if func in wrapper_macros(fname) or in_define(fname, int(pos.line)):
        site["reason"] = "wrapper macro (the lock is hidden behind a #define)"
        return site
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
    if (func, expr) in free_unlock:
        site["reason"] = "conditional locking or release without acquire"
        return site
    if pk in held or pk not in first_unlocks:
        site["reason"] = ("not released on every path (held on return, "
                          "released in a callee, or nested)")
        return site
    if pk in pcpu_hit:
        site["reason"] = "per-CPU access in section (%s)" % pcpu_hit[pk]
        return site
    if pk in nested:
        site["reason"] = "taken again before its release (nested)"
        return site
    mine = first_unlocks[pk]
    for other, theirs in first_unlocks.items():
        if other != pk and other not in nested and mine & theirs:
            site["reason"] = "unlock shared by several acquisitions"
            return site
    found, vecs = lookup(cls, fname)
    if not found:
        site["reason"] = "no mask for lock class"
        return site
    if vecs is None or len(vecs) == len(VECTORS):
        site["reason"] = "mask is ALL"
        return site
    site["mask"] = vecs
    site["status"] = "candidate"
    return site


def decide_and_record(pos, kind, expr):
    site = decide(pos, kind, expr)
    if site["status"] == "candidate":
        site["var"] = var_name(pos.current_element, expr)
    record(site)
    return site


def mark_converted(pos, var):
    converted.add(key(pos))
    decls.setdefault(pos.current_element, set()).add(var)
    record({"file": cur_file[0], "line": int(pos.line),
            "col": int(pos.column), "event": "converted"})

@initialize:python@
tbl << virtual.masks;
@@
load_masks(tbl)

@initialize:python@
pc << virtual.pcpu;
@@
with open(pc, encoding="utf-8") as fh:
    pcpu_funcs.update(ln.strip() for ln in fh if ln.strip()
                      and not ln.startswith("#"))

@initialize:python@
js << virtual.records;
@@
json_prefix = js

// ---------------------------------------------------------------------
// Gate: the cheap rule every other rule depends on (keeps the prefilter).

@gate@
@@

(
spin_lock_bh(...)
|
read_lock_bh(...)
|
write_lock_bh(...)
|
local_bh_disable()
)

@script:python depends on gate@
@@
start_file()

// ---------------------------------------------------------------------
// Find: acquisitions, balanced sections, releases without acquisition,
// per-CPU accesses, and what the lock expression is made of.

@rlock depends on gate@
identifier lock =~ "^(spin|read|write)_lock_bh$";
expression E;
position p;
@@

lock@p(E)

@rbh depends on gate@
position p;
@@

local_bh_disable@p()

@rfirst depends on rlock exists@
identifier rlock.lock;
identifier unlock =~ "^(spin|read|write)_unlock_bh$";
expression rlock.E;
position rlock.p, pu;
@@

lock@p(E);
... when != \(spin_unlock_bh(E)\|read_unlock_bh(E)\|write_unlock_bh(E)\)
unlock@pu(E);

@script:python@
p << rlock.p;
pu << rfirst.pu;
@@
first_unlocks.setdefault(key(p[0]), set()).update(key(x) for x in pu)

// An acquisition from which some path reaches the end of the function
// (a return, or falling off the end) with the lock still held.  An exists
// rule: the forall/"when strict" form of this check explodes on big loops
// with many exits (net/bridge/netfilter/ebtables.c:ebt_do_table).
@rheld depends on rlock exists@
identifier rlock.lock;
identifier fn;
expression rlock.E;
position rlock.p;
@@

fn(...) {
... when any
lock@p(E);
... when != \(spin_unlock_bh(E)\|read_unlock_bh(E)\|write_unlock_bh(E)\)
}

@script:python@
p << rlock.p;
fn << rheld.fn;
@@
held.add(key(p[0]))

// The same lock taken again before its release: nesting or a double
// acquisition; never converted.
@rnest depends on rlock exists@
identifier rlock.lock;
expression rlock.E;
position rlock.p, pn;
@@

lock@p(E);
... when != \(spin_unlock_bh(E)\|read_unlock_bh(E)\|write_unlock_bh(E)\)
lock@pn(E)

@script:python@
p << rlock.p;
pn << rnest.pn;
@@
nested.add(key(p[0]))

@rfirstbh depends on rbh exists@
position rbh.p, pu;
@@

local_bh_disable@p();
... when != local_bh_enable()
local_bh_enable@pu();

@script:python@
p << rbh.p;
pu << rfirstbh.pu;
@@
first_unlocks.setdefault(key(p[0]), set()).update(key(x) for x in pu)

@rheldbh depends on rbh exists@
identifier fn;
position rbh.p;
@@

fn(...) {
... when any
local_bh_disable@p();
... when != local_bh_enable()
}

@script:python@
p << rbh.p;
fn << rheldbh.fn;
@@
held.add(key(p[0]))

@rnestbh depends on rbh exists@
position rbh.p, pn;
@@

local_bh_disable@p();
... when != local_bh_enable()
local_bh_disable@pn();

@script:python@
p << rbh.p;
pn << rnestbh.pn;
@@
nested.add(key(p[0]))

@rfree depends on gate exists@
identifier fn;
identifier unlock =~ "^(spin|read|write)_unlock_bh$";
expression E;
position pu;
@@

fn(...) {
... when != \(spin_lock_bh(E)\|read_lock_bh(E)\|write_lock_bh(E)\)
unlock@pu(E);
... when any
}

@script:python@
pu << rfree.pu;
E << rfree.E;
@@
free_unlock.add((pu[0].current_element, norm(E)))

@rfreebh depends on rbh exists@
identifier fn;
position pu;
@@

fn(...) {
... when != local_bh_disable()
local_bh_enable@pu();
... when any
}

@script:python@
pu << rfreebh.pu;
@@
free_unlock.add((pu[0].current_element, ""))

@rpcpu depends on rlock exists@
identifier rlock.lock;
expression rlock.E;
position rlock.p, pp;
identifier pf : script:python() { is_pcpu(pf) };
@@

lock@p(E);
... when != \(spin_unlock_bh(E)\|read_unlock_bh(E)\|write_unlock_bh(E)\)
pf@pp(...)

@script:python@
p << rlock.p;
pp << rpcpu.pp;
pf << rpcpu.pf;
@@
pcpu_hit.setdefault(key(p[0]), "%s() at line %s" % (pf, pp[0].line))

@rpcpubh depends on rbh exists@
position rbh.p, pp;
identifier pf : script:python() { is_pcpu(pf) };
@@

local_bh_disable@p();
... when != local_bh_enable()
pf@pp(...)

@script:python@
p << rbh.p;
pp << rpcpubh.pp;
pf << rpcpubh.pf;
@@
pcpu_hit.setdefault(key(p[0]), "%s() at line %s" % (pf, pp[0].line))

@rptr depends on rlock@
identifier rlock.lock;
position rlock.p;
type T;
T *b;
@@

lock@p(<+... b ...+>)

@script:python@
p << rlock.p;
b << rptr.b;
T << rptr.T;
@@
ptr_bases.setdefault(key(p[0]), []).append((norm(b), str(T).strip()))

@rglob depends on rlock@
identifier rlock.lock;
position rlock.p;
global idexpression g;
@@

lock@p(<+... g ...+>)

@script:python@
p << rlock.p;
g << rglob.g;
@@
glob_bases.setdefault(key(p[0]), set()).add(norm(g))

@rlocal depends on rlock@
identifier rlock.lock;
position rlock.p;
local idexpression l;
@@

lock@p(l)

@script:python@
p << rlock.p;
l << rlocal.l;
@@
local_bases.setdefault(key(p[0]), set()).add(norm(l))

@ralias depends on rlocal@
identifier a : script:python() { is_lock_ptr(a) };
expression A;
position pa;
@@

a@pa = A

@raliasd depends on rlocal@
identifier a : script:python() { is_lock_ptr(a) };
expression A;
type T0;
position pa;
@@

T0 a@pa = A;

@script:python@
pa << ralias.pa;
a << ralias.a;
A << ralias.A;
@@
add_alias(pa[0], str(a), A)

@script:python@
pa << raliasd.pa;
a << raliasd.a;
A << raliasd.A;
@@
add_alias(pa[0], str(a), A)

@raliasty depends on ralias@
identifier ralias.a;
position ralias.pa;
type T;
T *b;
@@

a@pa = <+... b ...+>

@script:python@
pa << ralias.pa;
b << raliasty.b;
T << raliasty.T;
@@
alias_types.setdefault(key(pa[0]), []).append((norm(b), str(T).strip()))

@raliastyd depends on raliasd@
identifier raliasd.a;
position raliasd.pa;
type T, raliasd.T0;
T *b;
@@

T0 a@pa = <+... b ...+>;

@script:python@
pa << raliasd.pa;
b << raliastyd.b;
T << raliastyd.T;
@@
alias_types.setdefault(key(pa[0]), []).append((norm(b), str(T).strip()))

@raliasg depends on ralias@
identifier ralias.a;
position ralias.pa;
global idexpression g;
@@

a@pa = <+... g ...+>

@script:python@
pa << ralias.pa;
g << raliasg.g;
@@
glob_bases.setdefault(key(pa[0]), set()).add(norm(g))

@raliasgd depends on raliasd@
identifier raliasd.a;
position raliasd.pa;
type raliasd.T0;
global idexpression g;
@@

T0 a@pa = <+... g ...+>;

@script:python@
pa << raliasd.pa;
g << raliasgd.g;
@@
glob_bases.setdefault(key(pa[0]), set()).add(norm(g))

@rtry depends on gate@
expression E;
position p;
@@

spin_trylock_bh@p(E)

@script:python@
p << rtry.p;
E << rtry.E;
@@
record({"file": p[0].file, "line": int(p[0].line), "col": int(p[0].column),
        "func": p[0].current_element, "kind": "trylock", "expr": norm(E),
        "class": None, "mask": None, "status": "skipped",
        "reason": "trylock (no mask variant)"})

// ---------------------------------------------------------------------
// Decide each site, naming its variable and mask.

@script:python@
p << rlock.p;
E << rlock.E;
lock << rlock.lock;
@@
decide_and_record(p[0], str(lock).split("_")[0], norm(E))

@script:python@
p << rbh.p;
@@
decide_and_record(p[0], "bh", "")

// ---------------------------------------------------------------------
// Context, org and report modes: what would be converted, and why the
// other sites are left alone.

@ctx depends on context && !patch && !org && !report@
identifier lock =~ "^(spin|read|write)_lock_bh$";
position q : script:python() { is_candidate(q) };
@@

* lock@q(...)

@ctxbh depends on context && !patch && !org && !report@
position q : script:python() { is_candidate(q) };
@@

* local_bh_disable@q()

@script:python depends on org@
p << rlock.p;
@@
coccilib.org.print_todo(p[0], site_message(key(p[0])))

@script:python depends on org@
p << rbh.p;
@@
coccilib.org.print_todo(p[0], site_message(key(p[0])))

@script:python depends on report@
p << rlock.p;
@@
coccilib.report.print_report(p[0], site_message(key(p[0])))

@script:python depends on report@
p << rbh.p;
@@
coccilib.report.print_report(p[0], site_message(key(p[0])))

@script:python cv@
p << rlock.p;
E << rlock.E;
lock << rlock.lock;
v;
M;
lockm;
unlockm;
@@
site = sites[key(p[0])]
if site["status"] == "candidate":
    coccinelle.v = cocci.make_ident(site["var"])
    coccinelle.M = cocci.make_expr(mask_expr(site["mask"]))
    coccinelle.lockm = cocci.make_ident(str(lock) + "_mask")
    coccinelle.unlockm = cocci.make_ident(
        str(lock).replace("_lock_", "_unlock_") + "_mask")
else:
    cocci.include_match(False)

// ---------------------------------------------------------------------
// Patch: the sections, then one declaration line per function.

@pt depends on patch && !context && !org && !report exists@
identifier rlock.lock;
identifier unlock =~ "^(spin|read|write)_unlock_bh$";
expression rlock.E;
position rlock.p, pp;
identifier cv.v, cv.lockm, cv.unlockm;
expression cv.M;
@@

- lock@p@pp(E);
+ v = lockm(E, M);
  ... when != \(spin_unlock_bh(E)\|read_unlock_bh(E)\|write_unlock_bh(E)\)
- unlock(E);
+ unlockm(E, v);

@script:python@
pp << pt.pp;
v << cv.v;
@@
mark_converted(pp[0], str(v))

@rbhok depends on rbh@
position q : script:python() { is_candidate(q) };
@@

local_bh_disable@q()

@script:python cvbh@
q << rbhok.q;
v;
M;
@@
site = sites[key(q[0])]
coccinelle.v = cocci.make_ident(site["var"])
coccinelle.M = cocci.make_expr(mask_expr(site["mask"]))

@ptbh depends on patch && !context && !org && !report exists@
position rbhok.q, pp;
identifier cvbh.v;
expression cvbh.M;
@@

- local_bh_disable@q@pp();
+ v = local_bh_disable_mask(M);
  ... when != local_bh_enable()
- local_bh_enable();
+ local_bh_enable_mask(v);

@script:python@
pp << ptbh.pp;
v << cvbh.v;
@@
mark_converted(pp[0], str(v))

@pfn depends on patch && !context && !org && !report@
identifier fn : script:python() { has_decls(fn) };
position pf;
@@

fn@pf(...) { ... }

@script:python pvars@
fn << pfn.fn;
pf << pfn.pf;
vars;
@@
want = decls.get(str(fn))
if want:
    coccinelle.vars = cocci.make_ident(", ".join(sorted(want)))
else:
    cocci.include_match(False)

@pdecl depends on patch && !context && !org && !report@
identifier pfn.fn;
position pfn.pf;
identifier pvars.vars;
identifier x;
type T;
expression E0;
statement S;
@@

fn@pf(...) {
(
+ unsigned int vars;
  T x;
|
+ unsigned int vars;
  T x = E0;
|
+ unsigned int vars;
  T x[...];
|
+ unsigned int vars;
+
  S
)
  ... when any
}
