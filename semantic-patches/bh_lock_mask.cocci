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
//# or "<class> ALL" per line, or make analyze's "site <file>:<line> <MASK>"
//# lines, which then decide alone; '#' comments), -D pcpu=FILE (function names
//# known to touch per-CPU data, one per line), -D records=PREFIX (append one
//# JSON record per site to PREFIX.<pid>.jsonl).
//
// Confidence: Moderate
// Copyright: (C) 2026 softirq-mask campaign.
// Comments: the mask table comes from make analyze (sites.txt) or is written by hand.
// Options: --no-includes --include-headers
// Requires: 1.1.1

virtual patch
virtual context
virtual org
virtual report

// The decisions are Python functions in bh_lock_mask.py, next to this
// file; spatch finds the module through PYTHONPATH (scripts/lib.sh sets it):
//   PYTHONPATH=semantic-patches spatch --sp-file semantic-patches/bh_lock_mask.cocci ...

@initialize:python@
@@
try:
    from bh_lock_mask import (
        add_alias, alias_types, decide_and_record, decls, first_unlocks,
        free_unlock, glob_bases, has_decls, held, is_candidate, is_lock_ptr,
        is_pcpu, key, load_masks, mark_declared, needs_decl, load_pcpu, local_bases, mark_converted,
        mask_expr, nested, norm, unordered, pcpu_hit, ptr_bases, record_trylock,
        set_records, site_message, sites, start_file)
except ImportError as err:
    raise ImportError("bh_lock_mask.cocci needs semantic-patches/ on "
                      "PYTHONPATH (for bh_lock_mask.py): %s" % err)

@initialize:python@
tbl << virtual.masks;
@@
load_masks(tbl)

@initialize:python@
pc << virtual.pcpu;
@@
load_pcpu(pc)

@initialize:python@
js << virtual.records;
@@
set_records(js)

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
|
spin_trylock_bh(...)
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

// Two sections released out of order: E taken, then E2 taken, then E
// released while E2 is still held.  The core ends such sections safely
// (the first one's vectors stay held back until the last partial section
// ends) but DEBUG_SOFTIRQ_MASK reports the out-of-order restore, so
// neither section is converted.
@runord depends on rlock exists@
identifier rlock.lock;
identifier lock2 =~ "^(spin|read|write)_lock_bh$";
expression rlock.E, E2;
position rlock.p, p2;
@@

lock@p(E);
... when != \(spin_unlock_bh(E)\|read_unlock_bh(E)\|write_unlock_bh(E)\)
lock2@p2(E2);
... when != \(spin_unlock_bh(E2)\|read_unlock_bh(E2)\|write_unlock_bh(E2)\)
\(spin_unlock_bh(E)\|read_unlock_bh(E)\|write_unlock_bh(E)\);

@script:python@
p << rlock.p;
p2 << runord.p2;
@@
if key(p[0]) != key(p2[0]):
    unordered.add(key(p[0]))
    unordered.add(key(p2[0]))

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
record_trylock(p[0], E)

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
position pd;
@@

fn@pf@pd(...) {
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

@script:python@
fn << pfn.fn;
pd << pdecl.pd;
@@
mark_declared(str(fn))

// The same for a function the rule above found no path through: a case
// label under #ifdef (packet_ioctl()) leaves none that all of "..." can
// follow, and its sections were converted without a declaration.  With
// "when exists" one path is enough; tried only where the first rule did
// not match (with it everywhere, most functions got no declaration).
@pfn2 depends on patch && !context && !org && !report@
identifier fn : script:python() { needs_decl(fn) };
position pf;
@@

fn@pf(...) { ... }

@script:python pvars2@
fn << pfn2.fn;
vars;
@@
coccinelle.vars = cocci.make_ident(", ".join(sorted(decls[str(fn)])))

@pdecl2 depends on patch && !context && !org && !report@
identifier pfn2.fn;
position pfn2.pf;
identifier pvars2.vars;
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
  ... when exists
}
