#!/usr/bin/env python3
"""Write the audit note of one conversion from the analysis's evidence.

Usage:  audit-note.py --subsys SUBSYS --sites SITES.json --evidence EVIDENCE.json
                      [--vectors VECTORS.json --summary SUMMARY.txt]
                      [--remarks FILE] [--observed FILE] [--lockdep-classes OUT]
                      --out NOTE.md
Reads:  the conversion's final site list (convert-report.py's sites.json);
        with --vectors and --summary (make analyze's vectors.json and
        summary.txt), the analysis, of which it first writes EVIDENCE.json:
        what the note needs (SUBSYS's sections, the classes of the
        converted ones with their chains, the configuration and roots
        lines), small enough to commit next to the patches; without them,
        EVIDENCE.json as written before (regenerating from the committed
        files). Optional auditors' remarks: lines "<file>:<line> <text>"
        printed under that section (per-CPU or architecture concerns the
        analysis cannot see); a remark starting "veto:" leaves the section
        on the all-vector API (convert-subsys.sh gives the site ALL).
        Optional lockdep observations (--observed, written by
        lockdep-observed.py from a boot of the converted kernel under
        load): "<lockdep class> <usage characters>|not-taken" lines, and
        "# " header lines that say which boot.
Writes: NOTE.md: the summary table (sections in compiled SUBSYS files,
        converted, left alone by reason, masks), then per converted
        section every vector held back with one evidence chain, every
        vector left running with why no chain exists, and the verdict;
        then the sections the auditors vetoed, with their reasons; then
        the lines the converter could not read (status "unparsed").
        --lockdep-classes OUT: the lockdep names of the converted sections'
        classes that lockdep names after a variable (a static or global
        lock: the variable's name), one per line, for the guest to look up
        in /proc/lockdep; a struct-field class has one lockdep class per
        initialisation site and no one name.
Exit:   0 written, 1 a converted site the analysis has no section for,
        2 usage error or missing input.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections import Counter
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "analysis"))
import imprecision  # noqa: E402

VECTORS = ("HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL",
           "TASKLET", "SCHED", "HRTIMER", "RCU")


# /proc/lockdep's usage characters: a write and a read character for each
# state, in kernel/locking/lockdep_states.h's order (core series).
LOCKDEP_STATES = ("HARDIRQ",) + VECTORS


def lockdep_name(cls: str) -> str | None:
    """The lockdep class name of an analysis class, when it has one name:
    a lock variable ("net/802/psnap.c:snap_lock" or "rtnl_mutex")."""
    name = cls.rsplit(":", 1)[-1] if not cls.startswith("percpu:") else ""
    return name if re.fullmatch(r"[A-Za-z_]\w*", name) else None


def usage_states(usage: str) -> tuple[list[str], list[str]] | None:
    """The states a /proc/lockdep usage string says the lock was taken in,
    and those enabled while it was taken; None if it is not one of the
    core's usage strings ("not-taken", another kernel's states)."""
    if len(usage) != 2 * len(LOCKDEP_STATES):
        return None
    pairs = [set(usage[2 * i:2 * i + 2]) for i in range(len(LOCKDEP_STATES))]
    return ([st for st, pair in zip(LOCKDEP_STATES, pairs) if pair & {"-", "?"}],
            [st for st, pair in zip(LOCKDEP_STATES, pairs) if pair & {"+", "?"}])


def usage_words(usage: str) -> str:
    """Say what a /proc/lockdep usage string records, per state."""
    if usage == "not-taken":
        return "not taken during the boot"
    states = usage_states(usage)
    if states is None:
        return f"`{usage}` (not the {2 * len(LOCKDEP_STATES)} characters of the core's states)"
    inside, enabled = states
    return (f"`{usage}`: taken in {', '.join(inside) or 'no interrupt or softirq context'}; "
            f"taken with {', '.join(enabled) or 'nothing'} enabled")


def ran_words(usage: str, running: list[str]) -> str:
    """Whether the usage shows an acquisition with the vectors this
    section leaves running enabled, as the converted section makes."""
    states = usage_states(usage)
    if states is None or not running:
        return ""
    seen = [v for v in running if v in states[1]]
    if not seen:
        return (f"; never with {', '.join(running)} enabled, which this section leaves"
                " enabled: the converted section did not run in that boot")
    return f"; with {', '.join(seen)} enabled, as this section leaves them"


def observed_of(path: str | None) -> tuple[list[str], dict[str, str]]:
    """Header lines and class -> usage of a lockdep-observed file."""
    head: list[str] = []
    usage: dict[str, str] = {}
    if path is None:
        return head, usage
    with open(path, encoding="utf-8") as fh:
        for raw in fh:
            line = raw.strip()
            if line.startswith("#"):
                head.append(line.lstrip("# "))
            elif line:
                name, _, what = line.partition(" ")
                usage[name] = what.strip()
    return head, usage


def vecs(mask: str) -> list[str]:
    if mask == "ALL":
        return list(VECTORS)
    if mask == "NONE":
        return []
    return mask.split("|")


def load_json(path: str) -> Any:
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def remarks_of(path: str | None) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    if not path or not os.path.exists(path):
        return out
    with open(path, encoding="utf-8") as fh:
        for raw in fh:
            line = raw.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            loc, _, text = line.partition(" ")
            out.setdefault(loc, []).append(text.strip())
    return out


def rootless(summary: str) -> list[str]:
    m = re.search(r"roots: ([^;]*)", summary)
    if not m:
        return []
    return [v for v, n in re.findall(r"(\w+)=(\d+)", m.group(1)) if n == "0"]


def idle(summary: str) -> list[str]:
    """The vectors whose handler walks only a list nothing queues on (the roots
    line: "(a handler with nothing queued): HI")."""
    m = re.search(r"\(a handler with nothing queued\): ([A-Z_|]+)", summary)
    return [] if not m or m.group(1) == "NONE" else m.group(1).split("|")


def section_block(sec: dict[str, Any], site: dict[str, Any],
                  classes: dict[str, Any], norooot: list[str],
                  remarks: list[str],
                  observed: tuple[list[str], dict[str, str]],
                  idles: list[str] | None = None) -> list[str]:
    """The note's paragraph for one converted section."""
    idles = idles or []
    held = [str(v) for v in site["mask"]] if isinstance(site["mask"], list) else list(VECTORS)
    open_ = [v for v in VECTORS if v not in held]
    own = list(sec["classes"])
    inner = [c for c in sec["inner"] if c not in own]
    what = ", ".join(f"`{c}`" for c in own + inner)
    expr = f"`{site['expr']}`" if site.get("expr") else "`local_bh_disable()`"
    out = [f"### {site['file']}:{site['line']} `{site['func']}()`", "",
           f"- Section: {expr} ({sec['kind']}); "
           + (f"holds or takes {what}." if what else
              "holds and takes no lock, and writes no per-CPU data raw."),
           f"- Mask: {'|'.join(held) or 'NONE'} (analysis: {sec['mask']}"
           + (f"; held back for want of a handler: {'|'.join(v for v in norooot if v in held)}"
              if any(v in held for v in norooot) else "")
           + (f"; held back, nothing queued on it here:"
              f" {'|'.join(v for v in idles if v in held)}"
              if any(v in held for v in idles) else "") + ")"]
    out.append("- Vectors held back, one chain each:")
    for v in held:
        if v in norooot:
            out.append(f"  - {v}: no handler in this configuration; nothing was "
                       "proven about it, so it stays held back.")
            continue
        if v in idles:
            out.append(f"  - {v}: nothing in this configuration queues work on it (its"
                       " handler walks an empty list); a configuration that does runs code"
                       " this one never reads, so it stays held back.")
            continue
        chain = None
        for c in own + inner:
            ev = classes.get(c, {}).get("evidence", {}).get(v)
            if ev:
                chain = (c, ev)
                break
        if chain is None:
            out.append(f"  - {v}: (no chain recorded: held back by the analysis's "
                       "section rule)")
            continue
        out.append(f"  - {v}, through `{chain[0]}`:")
        out.extend(f"    - {step}" for step in chain[1])
    out.append("- Vectors left running, and why none can interfere:")
    if open_ and not what:
        out.append(f"  - {', '.join(open_)}: there is nothing to interfere with: "
                   "a vector can only deadlock with a section through a lock it "
                   "holds or takes, or lose an update through per-CPU data it "
                   "writes raw, and neither the section nor its callees do "
                   "either.")
    for v in open_ if what else []:
        out.append(f"  - {v}: no call chain from the {v} handler reaches an "
                   f"acquisition of {what}, a lock ordered before one of "
                   "them, or a raw write of per-CPU data the section writes "
                   "(breadth-first search over the configuration's call graph).")
    if not open_:
        out.append("  - none")
    pcpu = [c for c in own + inner if c.startswith("percpu:")]
    out.append("- Per-CPU data: " + (", ".join(f"`{c}`" for c in pcpu) if pcpu else
                                     "none written raw in the section."))
    out.append("- Overrides: none (no call edge cut).")
    head, usage = observed
    if not head:
        out.append("- Lockdep under load: no observation recorded (conversions/"
                   "<subsys>/lockdep-observed is written by `make`'s observe stage).")
    elif not own + inner:
        out.append("- Lockdep under load: no lock class to look up.")
    else:
        out.append(f"- Lockdep under load ({'; '.join(head)}):")
        for c in own + inner:
            name = lockdep_name(c)
            if name is None:
                out.append(f"  - `{c}`: no single lockdep class (lockdep keys it by "
                           "initialisation site), not looked up.")
            elif name in usage:
                out.append(f"  - `{c}` (lockdep `{name}`): {usage_words(usage[name])}"
                           + ran_words(usage[name], open_) + ".")
            else:
                out.append(f"  - `{c}` (lockdep `{name}`): not looked up in that boot.")
    for r in remarks:
        out.append(f"- Auditor: {r}")
    veto = any(r.startswith("veto:") for r in remarks)
    out.append("- Verdict: " + ("revert to ALL (auditor's veto above)." if veto else
                                "keep: proven for the campaign configuration."))
    out.append("")
    return out


def make_evidence(vectors: str, summary_path: str, subsys: str,
                  sites: list[dict[str, Any]]) -> dict[str, Any]:
    """The part of the analysis the note reads."""
    data = load_json(vectors)
    with open(summary_path, encoding="utf-8") as fh:
        summary = fh.read()
    prefix = subsys.rstrip("/") + "/"
    conv = {f"{s['file']}:{s['line']}" for s in sites if s["final"] == "converted"}
    secs = []
    needed: set[str] = set()
    for sec in data["sections"]:
        if not sec["loc"].startswith(prefix):
            continue
        keep = {k: sec[k] for k in ("loc", "function", "kind", "mask", "classes")}
        if "causes" in sec:
            keep["causes"] = imprecision.encode(sec["causes"])
        if sec["loc"] in conv:
            keep["inner"] = sec["inner"]
            needed |= set(sec["classes"]) | set(sec["inner"])
        secs.append(keep)
    lines = [ln for ln in summary.splitlines()
             if ln.startswith(("world:", "roots:", "imprecision: largest"))]
    return {"summary": lines, "sections": secs,
            "classes": {c: {"mask": data["classes"][c]["mask"],
                            "evidence": data["classes"][c]["evidence"]}
                        for c in sorted(needed) if c in data["classes"]}}


def oracle_block(orc: dict[str, Any], prefix: str, converted: set[str]) -> list[str]:
    """What lockdep observed against what the analysis predicts
    (results/oracle/oracle.json): the counts, and for the sections of
    this subsystem the observed mask beside the static one."""
    sm = orc["summary"]
    mp = sm["mapped"]
    rows = [r for r in orc["sections"] if r["loc"].startswith(prefix)]
    seen = [r for r in rows if r["exercised"]]
    out = ["", "## Lockdep as the analysis's oracle", "",
           "From `results/oracle/oracle.md` (`scripts/analysis/lockdep-oracle.py`): "
           "every per-vector usage and every dependency lockdep observed in the boot(s) "
           "under load must be predicted by the analysis; a miss is a soundness bug.", "",
           "| | count |", "|---|---|",
           f"| lock classes lockdep observed | {sm['observed_classes']} |",
           f"| mapped to analysis classes (key rule, symbol, static initializer, init site,"
           f" field) | {sm.get('mapped_to_analysis', 0)} ({mp['key']}, {mp['symbol']},"
           f" {mp.get('static', 0)}, {mp.get('site', 0)}, {mp['field']}; ambiguous: "
           f"{sm.get('site_ambiguous', 0)} by site, {sm['field_ambiguous']} by field name) |",
           f"| sleeping locks (none may be taken in a vector: checked); lockdep maps that"
           f" are not locks | {mp.get('sleeping', 0)}; {mp['pseudo']} |",
           f"| named in all (of the observed classes) | {sm.get('mapped_total', 0)}"
           f" ({sm.get('mapped_pct', 0)}%) |",
           f"| init sites unresolved; unmapped | {mp.get('unresolved', 0)}; {mp['unmapped']} |",
           f"| classes taken in a vector: checked / not checkable | "
           f"{sm['in_vector_checked']} / {sm['in_vector'] - sm['in_vector_checked']} |",
           f"| usages missed by the analysis | {sm['usage_missed']} |",
           f"| dependencies observed: checked, missed | {sm['observed_edges']}: "
           f"{sm['edges_checked']}, {sm['edges_missed']} |",
           f"| static order edges observed | {sm['static_edges_observed']} of {sm['static_edges']} |",
           f"| `{prefix}` sections exercised (lockdep saw a class of theirs) | "
           f"{len(seen)} of {len(rows)} |", ""]
    conv = [r for r in rows if r["loc"] in converted]
    if conv:
        out += ["Converted sections, the static mask beside the vectors lockdep saw for "
                "their classes and the classes observed before them (a lower bound):", "",
                "| section | static | observed |", "|---|---|---|"]
        out += [f"| {r['loc']} | {r['static'].replace('|', chr(92) + '|')} | "
                f"{r['observed'].replace('|', chr(92) + '|') if r['exercised'] else 'not exercised'} |"
                for r in conv]
    return out


def imprecision_block(data: dict[str, Any], summary: str, prefix: str,
                      orc: dict[str, Any] | None) -> list[str]:
    """Why each vector is in the masks of this subsystem's sections
    (scripts/analysis/imprecision.py, from the causes the analysis
    stored per section), with lockdep's view when the oracle ran, and
    the rows of the sections of the hot functions the oracle names."""
    secs = data["sections"]
    if not secs or not all("causes" in s for s in secs):
        return []
    blame = [imprecision.decode(s["causes"]) for s in secs]
    causes = imprecision.causes_of(blame)
    m = re.search(r"^imprecision: largest lock-order component (\d+)", summary, re.M)
    out = ["", "## Why the masks are wide", "",
           "From `scripts/analysis/imprecision.py`: per (section, vector) pair of the"
           " masks above, the rule of the analysis that put the vector there, counted"
           " under the least removable of its causes (a direct take stays whatever"
           " precision is gained; a shared dispatcher goes when tasklets are split by"
           " list)" + (f"; the largest lock-order component has {m.group(1)} classes"
                       if m else "") + ".", ""]
    out += imprecision.table(data, causes, prefix, orc)[2:]
    hot = [h["function"] for h in (orc or {}).get("hot", []) if h.get("sections")]
    if hot:
        out += ["", "The sections of the hot functions (`results/e2e.md`): per vector its"
                " least removable cause and the class behind it (`*`: lockdep saw the"
                " vector for the section):", ""]
        out += imprecision.hot_rows(data, blame, hot, orc)
    return out


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for opt in ("--subsys", "--sites", "--evidence", "--out"):
        ap.add_argument(opt, required=True)
    ap.add_argument("--vectors")
    ap.add_argument("--summary")
    ap.add_argument("--remarks")
    ap.add_argument("--observed")
    ap.add_argument("--lockdep-classes")
    ap.add_argument("--oracle", help="results/oracle/oracle.json (scripts/analysis/lockdep-oracle.py)")
    a = ap.parse_args(argv)
    if bool(a.vectors) != bool(a.summary):
        print("audit-note.py: give both --vectors and --summary, or neither", file=sys.stderr)
        return 2
    inputs: list[str] = [p for p in (a.sites, a.vectors, a.summary, a.observed, a.oracle,
                                     None if a.vectors else a.evidence) if p]
    for path in inputs:
        if not os.path.isfile(path):
            print(f"audit-note.py: no such file: {path}", file=sys.stderr)
            return 2
    sites = load_json(a.sites)
    if a.vectors:
        with open(a.evidence, "w", encoding="utf-8") as fh:
            json.dump(make_evidence(a.vectors, a.summary, a.subsys, sites), fh,
                      indent=1, sort_keys=True)
            fh.write("\n")
    data = load_json(a.evidence)
    summary = "\n".join(data["summary"])
    remarks = remarks_of(a.remarks)
    observed = observed_of(a.observed)
    norooot = rootless(summary)
    prefix = a.subsys.rstrip("/") + "/"
    secs: dict[str, dict[str, Any]] = {s["loc"]: s for s in data["sections"]}
    conv = [s for s in sites if s["final"] == "converted"]
    left = [s for s in sites if s["final"] != "converted"]
    files = {loc.rsplit(":", 1)[0] for loc in secs}
    reasons = Counter(re.sub(r" \(.*|'[^']*'|\d+ times", "", str(s["why"])).strip()
                      for s in left)
    per_mask = Counter(s["mask"] for s in secs.values())
    conf = re.search(r"^world: (.*)$", summary, re.M)
    out = [f"# Audit: {a.subsys}", "",
           "Generated by scripts/convert/audit-note.py from the vector analysis "
           "(`make analyze`) and the conversion (`make convert SUBSYS="
           f"{a.subsys}`); auditors' remarks come from "
           f"`audit-notes/{a.subsys.replace('/', '-')}.remarks`. "
           "Do not edit by hand: `make check` regenerates it and compares.", "",
           f"The proof holds for one configuration: {conf.group(1) if conf else '?'} "
           "(x86_64, `scripts/kconfig/guest.config` + `campaign.config`, no "
           "modules, no BPF syscall, no kprobes), as it runs without lock "
           "debugging: lockdep's and the spinlock checks' code is not followed "
           "(`rules.DEBUG_UNITS`, rule 4 of scripts/analysis/README.md).", "",
           "## Summary", "",
           "| | count |", "|---|---|",
           f"| BH sections the analysis found in compiled `{prefix}` files | "
           f"{len(secs)} in {len(files)} files |",
           f"| BH sections the converter found in `{prefix}` (every file, compiled or not) | "
           f"{len(sites)} |",
           f"| converted | {len(conv)} |",
           f"| left alone | {len(left)} |", "",
           "Left alone, by reason:", "", "| reason | sections |", "|---|---|"]
    out += [f"| {r} | {n} |" for r, n in sorted(reasons.items(), key=lambda x: (-x[1], x[0]))]
    out += ["", "Masks the analysis gives the compiled sections:", "",
            "| mask | sections |", "|---|---|"]
    out += [f"| {m.replace('|', chr(92) + '|')} | {n} |"
            for m, n in sorted(per_mask.items(), key=lambda x: (-x[1], x[0]))]
    orc = load_json(a.oracle) if a.oracle else None
    if orc:
        out += oracle_block(orc, prefix, {f"{s['file']}:{s['line']}" for s in conv})
    out += imprecision_block(data, summary, prefix, orc)
    out += ["", "## Converted sections", "",
            "Every mask below rests on the analysis's rules (`scripts/analysis/README.md`);"
            " five of them are facts about the kernel's code a reviewer checks there, not"
            " language semantics: lockdep's bookkeeping stores of a lock's address"
            " (`hlock->instance`, a static lock's key, `static_obj()`'s canonical address)"
            " are never loaded to acquire a lock through (`rules.BOOKKEEPING_UNITS`,"
            " `BOOKKEEPING_FUNCTIONS`); `tasklet_action_common()` runs, per vector, only the"
            " tasklets queued on that vector's list (`rules.LIST_DISPATCH`); the"
            " dispatchers of `rules.DISPATCH` run only what their APIs were given;"
            " `seq_open()` is the only writer of `seq_file.op`, so the calls through"
            " `m->op` of one read use one `seq_operations` (`rules.STABLE_OPS_FIELDS`);"
            " `single_open()` fills a `seq_operations` of its own"
            " (`rules.OPS_BUILDERS`).", ""]
    missing = []
    names: set[str] = set()
    for site in sorted(conv, key=lambda s: (str(s["file"]), int(s["line"]))):
        loc = f"{site['file']}:{site['line']}"
        sec = secs.get(loc)
        if sec is None:
            missing.append(loc)
            continue
        out += section_block(sec, site, data["classes"], norooot, remarks.get(loc, []),
                             observed, idle(summary))
        names.update(n for c in list(sec["classes"]) + list(sec["inner"])
                     if (n := lockdep_name(c)))
    if not conv:
        out += ["None.", ""]
    vetoed = sorted(loc for loc, rs in remarks.items() if any(r.startswith("veto:") for r in rs))
    out += ["## Left on the all-vector API by the auditors", ""]
    for loc in vetoed:
        vsec: dict[str, Any] = secs.get(loc) or {}
        out += [f"- {loc} `{vsec.get('function', '?')}()` "
                f"(analysis: {vsec.get('mask', 'no section')}):"]
        out += [f"  - {r}" for r in remarks[loc]]
    if not vetoed:
        out += ["None."]
    out.append("")
    unread = sorted((str(s["file"]), int(s["line"]), str(s["why"]))
                    for s in left if s.get("status") == "unparsed")
    if unread:
        out += ["## Left alone because the converter could not read them", "",
                "Lines that call a BH-disabling function where no rule of the "
                "semantic patch matched (spatch could not parse the function, or "
                "the call is in a macro definition). They stay on the all-vector "
                "API.", ""]
        out += [f"- {f}:{n}: {w}" for f, n, w in unread]
        out.append("")
    with open(a.out, "w", encoding="utf-8") as fh:
        fh.write("\n".join(out).rstrip("\n") + "\n")
    if a.lockdep_classes:
        with open(a.lockdep_classes, "w", encoding="utf-8") as fh:
            fh.write(f"# lockdep classes of the converted {a.subsys} sections "
                     "(scripts/convert/audit-note.py)\n")
            fh.writelines(f"{n}\n" for n in sorted(names))
    if missing:
        print("audit-note.py: converted sites the analysis has no section for: "
              + ", ".join(missing), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
