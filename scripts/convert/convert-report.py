#!/usr/bin/env python3
"""Check a conversion run, then write its report, patch plan and audit skeleton.

Usage:  convert-report.py --tree TREE --work WORK --records DIR --masks FILE
                          --files LIST --subsys SUBSYS --spatch-log LOG --out OUT
Reads:  the original files (TREE/<path>) and the converted copies
        (WORK/<path>) listed in LIST, the site records DIR/*.jsonl written by
        semantic-patches/bh_lock_mask.cocci, the mask table and spatch's log.
Writes: OUT/report.md, OUT/sites.json (every site, with status "unparsed"
        the lines no rule matched), OUT/summary.txt (one line),
        OUT/audit-note.md (skeleton), OUT/patches/{dirs,<dir>.files,<dir>.msg}.
        A converted copy that fails a check (spatch error in the log, or a
        generated variable without declaration) is reset to the original.
Exit:   0 done, 2 usage error or missing input.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import re
import shutil
import sys
import textwrap
from collections import Counter
from dataclasses import dataclass, field
from typing import Any
from importlib.util import module_from_spec, spec_from_file_location


def _load_mask_decls() -> object:
    """mask-decls.py beside this script (its name is no module name)."""
    spec = spec_from_file_location(
        "mask_decls", os.path.join(os.path.dirname(os.path.abspath(__file__)), "mask-decls.py"))
    assert spec and spec.loader
    mod = module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


MASK_DECLS: Any = _load_mask_decls()

SITE_RE = re.compile(r"\b((spin|read|write)_lock_bh|spin_trylock_bh)\s*\(|"
                     r"\blocal_bh_disable\s*\(\s*\)")
ERROR_RE = re.compile(r"(already tagged token|inconsistent control-flow|"
                      r"^EXN|Fatal error|Python failure)", re.M)


@dataclass
class Run:
    """Everything the report is made of."""

    sites: list[dict[str, object]] = field(default_factory=list)
    converted: set[tuple[str, int]] = field(default_factory=set)
    reset: dict[str, str] = field(default_factory=dict)   # file -> why
    unparsed: list[tuple[str, int, str]] = field(default_factory=list)
    masks: dict[str, str] = field(default_factory=dict)


def read(path: str) -> str:
    with open(path, encoding="utf-8", errors="replace") as fh:
        return fh.read()


def load(a: argparse.Namespace) -> Run:
    run = Run()
    for path in sorted(glob.glob(os.path.join(a.records, "*.jsonl"))):
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                rec = json.loads(line)
                if rec.get("event") == "converted":
                    run.converted.add((rec["file"], rec["line"]))
                else:
                    run.sites.append(rec)
    run.sites.sort(key=lambda s: (str(s["file"]), int(str(s["line"]))))
    for raw in read(a.masks).splitlines():
        words = raw.split("#", 1)[0].split()
        if words:
            run.masks[" ".join(words[:-1])] = words[-1]
    return run


def check_files(a: argparse.Namespace, run: Run, files: list[str]) -> None:
    """Reset converted copies that spatch or the declaration check reject."""
    log = read(a.spatch_log) if os.path.exists(a.spatch_log) else ""
    for f in files:
        orig, conv = os.path.join(a.tree, f), os.path.join(a.work, f)
        if not os.path.exists(conv):
            continue
        text = read(conv)
        if text == read(orig):
            continue
        why = ""
        # spatch names the file before its error lines.
        for m in ERROR_RE.finditer(log):
            if f in log[max(0, m.start() - 400):m.start()]:
                why = "spatch error: " + m.group(1)
                break
        # in the function that uses it (a declaration spatch placed in
        # another function of the file does not count); one spatch could
        # not place is added at the top of the body
        missing = MASK_DECLS.undeclared(text)
        if not why and missing:
            text = MASK_DECLS.declare(text)
            with open(conv, "w", encoding="utf-8") as fh:
                fh.write(text)
            missing = MASK_DECLS.undeclared(text)
        for _line, var in missing:
            why = why or f"no declaration placed for {var}"
        if why:
            shutil.copyfile(orig, conv)
            run.reset[f] = why


def find_unparsed(a: argparse.Namespace, run: Run, files: list[str]) -> None:
    seen = {(str(s["file"]), int(str(s["line"]))) for s in run.sites}
    for f in files:
        text = read(os.path.join(a.tree, f))
        in_define = False
        for num, line in enumerate(text.splitlines(), 1):
            define = in_define or line.lstrip().startswith("#define")
            in_define = define and line.rstrip().endswith("\\")
            if not SITE_RE.search(line) or (f, num) in seen:
                continue
            stripped = line.strip()
            if stripped.startswith(("*", "/*", "//")):
                continue
            why = "wrapper macro definition" if define else "unparsed"
            run.unparsed.append((f, num, why))


def status(run: Run, s: dict[str, object]) -> tuple[str, str]:
    key = (str(s["file"]), int(str(s["line"])))
    if str(s["file"]) in run.reset and s.get("status") == "candidate":
        return "skipped", run.reset[str(s["file"])]
    if key in run.converted:
        return "converted", ""
    if s.get("status") == "candidate":
        return "skipped", "candidate, but spatch did not transform it"
    return "skipped", str(s.get("reason") or "unknown")


def mask_text(site: dict[str, object]) -> str:
    vecs = site.get("mask")
    return "|".join(str(v) for v in vecs) if isinstance(vecs, list) else "ALL"


def reason_group(why: str) -> str:
    return re.sub(r" \(.*|'[^']*'|\d+ times", "", why).strip()


def write_report(a: argparse.Namespace, run: Run) -> str:
    final = []
    for s in run.sites:
        st, why = status(run, s)
        final.append(dict(s, final=st, why=why))
    conv = [s for s in final if s["final"] == "converted"]
    left = [s for s in final if s["final"] != "converted"]
    reasons = Counter(reason_group(str(s["why"])) for s in left)
    for _, _, why in run.unparsed:
        reasons[why] += 1
    classes: dict[str, str] = {}
    for s in final:
        if s.get("class"):
            classes[str(s["class"])] = run.masks.get(str(s["class"]),
                                                     "(no entry: ALL)")
    per_set = Counter(classes.values())
    total_left = len(left) + len(run.unparsed)
    summary = (f"{len(conv)} sections converted, {total_left} left alone "
               f"({len(run.unparsed)} unparsed), {len(classes)} lock classes")
    lines = [f"# BH mask conversion report: {a.subsys}", "",
             f"- {summary}",
             f"- files with BH sections: {len(a.file_list)}; files changed: "
             f"{len({s['file'] for s in conv})}; files reset by checks: "
             f"{len(run.reset)}", "",
             "## Left alone, by reason", "", "| reason | sections |",
             "|---|---|"]
    lines += [f"| {r} | {n} |" for r, n in sorted(reasons.items(),
                                                  key=lambda x: (-x[1], x[0]))]
    lines += ["", "## Lock classes per vector set", "", "| mask | classes |",
              "|---|---|"]
    lines += [f"| {m} | {n} |" for m, n in sorted(per_set.items())]
    lines += ["", "## Converted sections", ""]
    lines += [f"- {s['file']}:{s['line']} {s['func']}: `{s['class']}` -> "
              f"{mask_text(s)}" for s in conv] or ["- none"]
    if run.reset:
        lines += ["", "## Files reset by the checks", ""]
        lines += [f"- {f}: {w}" for f, w in sorted(run.reset.items())]
    lines += ["", "## Every site left alone", ""]
    lines += [f"- {s['file']}:{s['line']} {s['func']} `{s['expr']}`: "
              f"{s['why']}" for s in left]
    lines += [f"- {f}:{n}: {w}" for f, n, w in run.unparsed]
    with open(os.path.join(a.out, "report.md"), "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")
    # the lines no rule matched are sites too: the audit note counts them
    unmatched = [{"file": f, "line": n, "col": 0, "func": "", "expr": "",
                  "kind": None, "class": None, "mask": None, "status": "unparsed",
                  "reason": w, "final": "skipped", "why": w}
                 for f, n, w in run.unparsed]
    with open(os.path.join(a.out, "sites.json"), "w", encoding="utf-8") as fh:
        json.dump(final + unmatched, fh, indent=1, sort_keys=True)
    with open(os.path.join(a.out, "summary.txt"), "w", encoding="utf-8") as fh:
        fh.write(summary + "\n")
    write_plan(a, conv)
    write_audit(a, run, final)
    return summary


def write_plan(a: argparse.Namespace, conv: list[dict[str, object]]) -> None:
    """One patch per folder: its file list and commit message."""
    pdir = os.path.join(a.out, "patches")
    by_dir: dict[str, list[dict[str, object]]] = {}
    for s in conv:
        by_dir.setdefault(os.path.dirname(str(s["file"])), []).append(s)
    with open(os.path.join(pdir, "dirs"), "w", encoding="utf-8") as fh:
        fh.write("".join(d + "\n" for d in sorted(by_dir)))
    for d, secs in sorted(by_dir.items()):
        slug = d.replace("/", "-")
        files = sorted({str(s["file"]) for s in secs})
        with open(os.path.join(pdir, slug + ".files"), "w",
                  encoding="utf-8") as fh:
            fh.write("".join(f + "\n" for f in files))
        subject = d.replace("/", ": ") + ": use per-vector softirq masking in BH sections"
        rows = sorted((str(s["file"]), int(str(s["line"])), str(s["func"]),
                       mask_text(s)) for s in secs)
        msg = ["From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001",
               "From: softirq-mask conversion <softirq-mask@invalid>",
               f"Subject: [PATCH] {subject}", "",
               *textwrap.wrap(
                   f"spin_lock_bh() and local_bh_disable() hold back every "
                   f"softirq vector for as long as the section lasts, "
                   f"although a vector can only deadlock with it or corrupt "
                   f"its data if it takes a lock the section holds (or one "
                   f"ordered before it) or writes the same per-CPU data. "
                   f"Convert {len(secs)} BH section"
                   f"{'s' if len(secs) != 1 else ''} in {d} to the "
                   f"per-vector API, holding back only those vectors:", 72), ""]
        msg += [f"  {f}:{n} {fn}(): {m}" for f, n, fn, m in rows]
        msg += ["", *textwrap.wrap(
            "Why this is safe: for every vector left running, the vector "
            "analysis (scripts/analysis/README.md) found no call chain from "
            "its softirq handler to a lock the section holds or takes, to a "
            "lock ordered before one of those, or to a raw write of per-CPU "
            "data the section writes. The proof holds for the campaign "
            "configuration (x86_64, scripts/kconfig/guest.config plus "
            "campaign.config, no modules, no BPF syscall, no kprobes) as it "
            "runs without lock debugging (lockdep's code is not followed); "
            "vectors with no handler in that configuration stay held back. "
            f"audit-notes/{a.subsys.replace('/', '-')}.md gives each "
            "vector's evidence chain.", 72), "",
            "Regenerate with: make convert SUBSYS=" + a.subsys,
            "or, from the committed table:",
            f"  scripts/convert/convert-subsys.sh {a.subsys} "
            f"conversions/{a.subsys.replace('/', '-')}/masks"]
        with open(os.path.join(pdir, slug + ".msg"), "w",
                  encoding="utf-8") as fh:
            fh.write("\n".join(msg) + "\n")


def write_audit(a: argparse.Namespace, run: Run,
                final: list[dict[str, object]]) -> None:
    """Audit-note skeleton in the format of audit-notes/README.md."""
    by_class: dict[str, list[dict[str, object]]] = {}
    for s in final:
        if s["final"] == "converted":
            by_class.setdefault(str(s["class"]), []).append(s)
    out = [f"# Audit: {a.subsys}", "",
           "Skeleton written by scripts/convert/convert-subsys.sh; fill in every "
           "TODO. Format: audit-notes/README.md.", ""]
    for cls, secs in sorted(by_class.items()):
        out += [f"## `{cls}`", "",
                f"- Mask: {run.masks.get(cls, 'ALL')}",
                "- Sites: " + "; ".join(f"{s['file']}:{s['func']}"
                                        for s in secs),
                "- Vectors that take it: TODO (one evidence chain per "
                "vector)",
                "- Why the other vectors cannot take it: TODO",
                "- Verdict: TODO (keep / override in the auditors' table)", ""]
    left = [s for s in final if s["final"] != "converted"]
    out += ["## Left unconverted", ""]
    out += [f"- {s['file']}:{s['func']} `{s['expr']}`: {s['why']}"
            for s in left] or ["- none"]
    out += [f"- {f}:{n}: {w}" for f, n, w in run.unparsed]
    with open(os.path.join(a.out, "audit-note.md"), "w",
              encoding="utf-8") as fh:
        fh.write("\n".join(out) + "\n")


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for opt in ("--tree", "--work", "--records", "--masks", "--files",
                "--subsys", "--spatch-log", "--out"):
        ap.add_argument(opt, required=True)
    a = ap.parse_args(argv)
    for path in (a.tree, a.work, a.records, a.out):
        if not os.path.isdir(path):
            print(f"convert-report.py: no such folder: {path}", file=sys.stderr)
            return 2
    a.file_list = [f for f in read(a.files).splitlines() if f]
    run = load(a)
    check_files(a, run, a.file_list)
    find_unparsed(a, run, a.file_list)
    print(write_report(a, run))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
