// SPDX-License-Identifier: GPL-2.0-only
/// Collect the facts from which softirq vector reachability is computed:
/// function definitions, direct calls, registration calls with their
/// arguments (callbacks handed to timer_setup(), tasklet_setup(),
/// netif_napi_add(), call_rcu(), irq_poll_init(), open_softirq() ...), calls
/// through a struct field (E->f(...)), functions stored into a field
/// (E->f = fn), and calls through a local function pointer.
///
//# This rule changes nothing and reports nothing on its own: with
//# BH_RECORDS=PREFIX in the environment every fact becomes one JSON line in
//# PREFIX.<pid>[.ml].jsonl (an environment variable because the OCaml
//# rules cannot read a -D value that may be unset), and
//# scripts/analysis/analyze-vectors.py merges the files of
//# all spatch jobs into the call graph and the mask table.  Designated
//# initializers (.f = fn) and file-scope macros (DEFINE_TIMER,
//# DECLARE_TASKLET) are read from the source text by that script, because
//# spatch does not see initializers of unparsed declarations.
//
// Confidence: High
// Copyright: (C) 2026 softirq-mask campaign.
// Options: --no-includes --include-headers
// Requires: 1.1.1

virtual report

@initialize:python@
@@
import json as jsonlib
import os

out_prefix = [os.environ.get("BH_RECORDS", "")]
out_file = []


def emit(kind, pos, **fields):
    # One line-buffered file per spatch process, opened once: opening it
    # per record made the Python side dominate the run time.
    if not out_prefix[0]:
        return
    if not out_file:
        out_file.append(open("%s.%d.jsonl" % (out_prefix[0], os.getpid()),
                             "a", encoding="utf-8", buffering=1))
    fields.update({"t": kind, "file": pos.file, "line": int(pos.line),
                   "func": pos.current_element})
    out_file[0].write(jsonlib.dumps(fields, sort_keys=True) + "\n")

// The per-call-site rules report through OCaml: a Python script call per
// call site made the Python side most of the run time on net/.
@initialize:ocaml@
@@
let prefix = ref (try Sys.getenv "BH_RECORDS" with Not_found -> "")
let chan = ref None
let emit_ml kind (p : Coccilib.pos) extra =
  if !prefix <> "" then begin
    let c =
      match !chan with
      | Some c -> c
      | None ->
        let c =
          open_out_gen [Open_append; Open_creat] 0o644
            (Printf.sprintf "%s.%d.ml.jsonl" !prefix (Unix.getpid ())) in
        chan := Some c;
        c in
    Printf.fprintf c "{\"t\": %S, \"file\": %S, \"line\": %d, \"func\": %S%s}\n"
      kind p.Coccilib.file p.Coccilib.line p.Coccilib.current_element extra;
    flush c
  end

@rdef@
identifier fn;
position p;
@@

fn@p(...) { ... }

@script:ocaml@
fn << rdef.fn;
p << rdef.p;
@@
emit_ml "def" (List.hd p) (Printf.sprintf ", \"name\": %S" fn)

@rstatic@
identifier fn;
type T;
position p;
@@

static T fn@p(...) { ... }

@script:python@
fn << rstatic.fn;
p << rstatic.p;
@@
emit("static", p[0], name=str(fn))

@rcall@
identifier g;
position p;
@@

g@p(...)

@script:ocaml@
g << rcall.g;
p << rcall.p;
@@
emit_ml "call" (List.hd p) (Printf.sprintf ", \"callee\": %S" g)

// Only the registration calls need their arguments (converting every
// argument list to a string doubled the run time).
@rreg@
identifier g =~ "^(timer_setup|timer_setup_on_stack|__init_timer|tasklet_setup|tasklet_init|netif_napi_add|netif_napi_add_weight|netif_napi_add_tx|netif_napi_add_tx_weight|call_rcu|irq_poll_init|open_softirq|hrtimer_init)$";
expression list es;
position p;
@@

g@p(es)

@script:python@
g << rreg.g;
es << rreg.es;
p << rreg.p;
@@
emit("reg", p[0], callee=str(g), args=str(es))

@rfcall@
expression E;
identifier f;
position p;
@@

(
E->f@p(...)
|
E.f@p(...)
)

@script:ocaml@
f << rfcall.f;
p << rfcall.p;
@@
emit_ml "fcall" (List.hd p) (Printf.sprintf ", \"field\": %S" f)

@rfset@
expression E;
identifier f, g;
position p;
@@

(
E->f@p = g
|
E.f@p = g
|
E->f@p = &g
|
E.f@p = &g
)

@script:python@
f << rfset.f;
g << rfset.g;
p << rfset.p;
@@
emit("fset", p[0], field=str(f), value=str(g))

@rpcall@
local idexpression fp;
position p;
@@

fp@p(...)

@script:python@
fp << rpcall.fp;
p << rpcall.p;
@@
emit("pcall", p[0], name=str(fp))
