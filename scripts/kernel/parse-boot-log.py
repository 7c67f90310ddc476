#!/usr/bin/env python3
"""Turn a guest console log into a boot verdict.

Usage: parse-boot-log.py LOG [--qemu-status N] [--timed-out]
                             [--allow REGEX]... [--allow-after REGEX]...
                             [--expect-kunit SUITE[.CASE]]...
                             [--expect-selftests N]
                             [--expect-report REGEX] [--json FILE]
                             [--dump-dir DIR]

Reads a serial console log written by scripts/kernel/boot-kernel.sh (or any saved
log: no kernel tree or QEMU needed) and prints a summary: the verdict, the
plan's steps, the lockdep self-test line, KUnit results (KTAP), traffic
figures and the networking self-tests' verdicts (SELFTEST lines).  Verdicts, from worst to best:

  TIMEOUT    QEMU was killed by the timeout
  CRASH      panic, oops, BUG:, general protection fault, stall
  LOCKDEP    a lockdep or RCU-lockdep report
  WARNING    a WARNING: splat that --allow or --allow-after does not excuse
  FAIL       a plan step, a KUnit case, the traffic check or the lockdep
             self-tests failed, an expected KUnit suite or case did not
             run or was skipped, or the self-test count is not the one
             --expect-selftests asks for
  NO_RESULT  the plan's end marker never appeared
  PASS       none of the above

Skipped KUnit cases are listed and counted, never taken for passed ones.
--expect-kunit SUITE requires the suite to run at least one case that is
not skipped (a suite whose cases all skip fails); --expect-kunit
SUITE.CASE requires that case to pass ("ok", not skipped).
--expect-selftests N requires lockdep's "Good, all N testcases passed!".
--allow REGEX excuses a line that matches; --allow-after REGEX excuses the
first WARNING line after a line that matches, if it comes within
ALLOW_AFTER_WINDOW lines: WARN(cond, fmt, ...) prints its message before
"WARNING: ... at FILE:LINE" (x86), so a warning can be excused by what it
says, not only by where it comes from.  Another CPU's console lines can
fall between the two; each matching line excuses one WARNING only.

--expect-report REGEX inverts the lockdep rule for negative tests: the
verdict is PASS only if a lockdep report matching REGEX appears (and
nothing else is wrong).

Copies of lockdep's own files (scripts/guest/lockdep-dump: LDD lines
between LOCKDEP-DUMP-BEGIN and -END) are decoded and checked against the
size and md5 the guest printed; --dump-dir DIR writes each as
DIR/NAME.FILE.  A copy that is incomplete or garbled fails the boot: the
oracle would otherwise check a partial observation.

Exit status: 0 for PASS, 1 otherwise, 2 for usage errors or an
unreadable log.
"""
from __future__ import annotations

import argparse
import base64
import gzip
import hashlib
import json
import re
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path

PRINTK_PREFIX = re.compile(r"^\[\s*\d+\.\d+\]\s?")

CRASH_PATTERNS = [
    r"Kernel panic - not syncing",
    r"\bOops\b",
    r"\bBUG: ",
    r"kernel BUG at",
    r"general protection fault",
    r"Unable to handle kernel",
    r"detected stalls? on CPUs",
    r"hung_task: blocked tasks|blocked for more than \d+ seconds",
]
LOCKDEP_PATTERNS = [
    r"possible recursive locking detected",
    r"inconsistent lock state",
    r"possible circular locking dependency detected",
    r"irq lock inversion dependency detected",
    r"-safe -> .*-unsafe lock order detected",
    r"suspicious RCU usage",
    r"bad unlock balance detected",
    r"held lock freed",
    r"lock held when returning to user space",
    r"DEBUG_LOCKS_WARN_ON",
    r"BUG: MAX_LOCKDEP",
]
WARNING_PATTERN = re.compile(r"\bWARNING: ")
# The first line of a WARN() splat (not a lockdep report's "WARNING: ...")
WARN_SPLAT = re.compile(r"\bWARNING: CPU: \d+ PID: \d+ at ")
# How many lines after its message --allow-after still excuses a WARNING
ALLOW_AFTER_WINDOW = 8
LOCKDEP_SELFTEST = re.compile(
    r"(Good, all +\d+ testcases passed!"
    r"|\d+ unexpected failures \(out of +\d+\)"
    r"|\d+ out of +\d+ testcases failed"
    r"|All +\d+ testcases failed)")
KTAP_RESULT = re.compile(
    r"^(?P<indent>\s*)(?P<status>not ok|ok) (?P<num>\d+) (?P<name>[^#]*?)"
    r"\s*(?:#\s*(?P<directive>SKIP|TODO)\b\s*(?P<why>.*))?$")
SELFTEST_COUNT = re.compile(r"Good, all +(?P<n>\d+) testcases passed!")
SUBTEST = re.compile(r"^(?P<indent>\s*)# Subtest: (?P<name>\S+)")
STEP = re.compile(r"^PLAN-STEP (?P<name>\S+) (?P<status>PASS|FAIL) rc=(?P<rc>\d+)")
PLAN_END = re.compile(r"^PLAN-END plan=(?P<plan>\S+) passed=(?P<p>\d+) failed=(?P<f>\d+)")
TRAFFIC = re.compile(r"^TRAFFIC path=(?P<path>\S+) proto=(?P<proto>\S+) (?P<rest>.*)$")
TRAFFIC_RESULT = re.compile(r"^TRAFFIC-RESULT (?P<status>PASS|FAIL)")
LOCKDEP_USAGE = re.compile(r"^LOCKDEP-USAGE (?P<name>\S+) (?P<usage>[-+?.]+|not-taken)$")
DUMP_BEGIN = re.compile(r"^LOCKDEP-DUMP-BEGIN name=(?P<name>[\w-]+) file=(?P<file>\w+)$")
DUMP_LINE = re.compile(r"^LDD (?P<name>[\w-]+) (?P<file>\w+) (?P<n>\d+) (?P<data>[A-Za-z0-9+/=]+)$")
DUMP_END = re.compile(r"^LOCKDEP-DUMP-END name=(?P<name>[\w-]+) file=(?P<file>\w+)"
                      r" lines=(?P<lines>\d+) bytes=(?P<bytes>\d+) md5=(?P<md5>[0-9a-f]{32})$")
NET_SELFTEST = re.compile(
    r"^SELFTEST (?P<name>\S+) (?P<verdict>PASS|FAIL|SKIP) rc=(?P<rc>\d+) secs=(?P<secs>[0-9.]+)")

SEVERITY = ["PASS", "NO_RESULT", "FAIL", "WARNING", "LOCKDEP", "CRASH", "TIMEOUT"]


@dataclass
class KunitCase:
    suite: str
    name: str
    status: str  # ok, not ok, skip
    why: str = ""  # the SKIP directive's text


@dataclass
class BootReport:
    verdict: str = "PASS"
    reasons: list[str] = field(default_factory=list)
    plan: str | None = None
    steps: list[tuple[str, str]] = field(default_factory=list)
    plan_end: bool = False
    lockdep_selftest: str | None = None
    kunit_cases: list[KunitCase] = field(default_factory=list)
    kunit_suites: list[KunitCase] = field(default_factory=list)
    traffic: list[dict[str, str]] = field(default_factory=list)
    traffic_result: str | None = None
    # the kernel's networking self-tests (scripts/guest/net-selftest):
    # name, PASS|FAIL|SKIP, exit code, seconds
    selftests: list[tuple[str, str, int, float]] = field(default_factory=list)
    # lock class -> its usage characters in /proc/lockdep, or "not-taken"
    # (scripts/guest/lockdep-usage)
    lockdep_usage: dict[str, str] = field(default_factory=dict)
    # "NAME.FILE" -> {"lines", "bytes", "md5", "ok", "why"} of each copy of
    # a lockdep file (scripts/guest/lockdep-dump); the text is in dumps
    lockdep_dumps: dict[str, dict[str, object]] = field(default_factory=dict)
    first_problem: list[str] = field(default_factory=list)
    lockdep_report: list[str] = field(default_factory=list)

    def fail(self, verdict: str, reason: str) -> None:
        """Record a reason; keep the worst verdict seen."""
        self.reasons.append(reason)
        if SEVERITY.index(verdict) > SEVERITY.index(self.verdict):
            self.verdict = verdict


def strip_prefix(line: str) -> str:
    """Drop the printk timestamp so markers match at the start of a line."""
    return PRINTK_PREFIX.sub("", line.rstrip("\r\n"))


def parse_kunit(lines: list[str], rep: BootReport) -> None:
    """Collect KTAP results: indented lines are cases, top-level are suites."""
    suites_by_indent: dict[int, str] = {}
    for line in lines:
        m = SUBTEST.match(line)
        if m:
            suites_by_indent[len(m.group("indent"))] = m.group("name")
            continue
        m = KTAP_RESULT.match(line)
        if not m:
            continue
        status = "skip" if m.group("directive") == "SKIP" else m.group("status")
        why = (m.group("why") or "").strip() if status == "skip" else ""
        indent = len(m.group("indent"))
        name = m.group("name").strip()
        if indent == 0:
            rep.kunit_suites.append(KunitCase(name, name, status, why))
        else:
            suite = suites_by_indent.get(indent, "?")
            rep.kunit_cases.append(KunitCase(suite, name, status, why))


def check_expected_kunit(rep: BootReport, expect: list[str]) -> None:
    """Fail on an expected suite that did not run, was skipped or skipped
    every case, and on an expected SUITE.CASE that did not pass."""
    for want in expect:
        suite, _, case = want.partition(".")
        if not any(s.name == suite for s in rep.kunit_suites):
            rep.fail("FAIL", f"KUnit suite '{suite}' did not run (0 tests run)")
            continue
        cases = [c for c in rep.kunit_cases if c.suite == suite]
        if case:
            got = [c for c in cases if c.name == case]
            if not got:
                rep.fail("FAIL", f"required KUnit case {want} did not run")
            elif got[0].status == "skip":
                rep.fail("FAIL", f"required KUnit case {want} was skipped"
                         f" ({got[0].why or 'no reason given'})")
            continue
        if any(s.name == suite and s.status == "skip" for s in rep.kunit_suites):
            rep.fail("FAIL", f"required KUnit suite '{suite}' was skipped")
        elif not cases:
            rep.fail("FAIL", f"required KUnit suite '{suite}' ran no cases")
        elif all(c.status == "skip" for c in cases):
            rep.fail("FAIL", f"required KUnit suite '{suite}': all {len(cases)} cases skipped")


def decode_dumps(lines: list[str], rep: BootReport) -> dict[str, bytes]:
    """Reassemble the copies of lockdep's files; record each in
    rep.lockdep_dumps and fail the boot on one that is not whole."""
    chunks: dict[str, dict[int, str]] = {}
    out: dict[str, bytes] = {}
    for line in lines:
        if (m := DUMP_BEGIN.match(line)):
            key = f"{m.group('name')}.{m.group('file')}"
            chunks[key] = {}
            rep.lockdep_dumps[key] = {"ok": False, "why": "no LOCKDEP-DUMP-END line"}
        elif (m := DUMP_LINE.match(line)):
            key = f"{m.group('name')}.{m.group('file')}"
            if key in chunks:
                chunks[key][int(m.group("n"))] = m.group("data")
        elif (m := DUMP_END.match(line)):
            key = f"{m.group('name')}.{m.group('file')}"
            info: dict[str, object] = {"lines": int(m.group("lines")),
                                       "bytes": int(m.group("bytes")), "md5": m.group("md5"),
                                       "ok": False, "why": ""}
            rep.lockdep_dumps[key] = info
            got = chunks.get(key)
            if got is None:
                info["why"] = "no LOCKDEP-DUMP-BEGIN line"
                continue
            missing = [n for n in range(1, int(m.group("lines")) + 1) if n not in got]
            if missing:
                info["why"] = f"{len(missing)} of {m.group('lines')} lines missing (first {missing[0]})"
                continue
            try:
                raw = base64.b64decode("".join(got[n] for n in sorted(got)), validate=True)
            except ValueError as err:
                info["why"] = f"not base64: {err}"
                continue
            if len(raw) != int(m.group("bytes")) or hashlib.md5(raw).hexdigest() != m.group("md5"):
                info["why"] = f"size or md5 differs from the guest's ({len(raw)} bytes)"
                continue
            try:
                out[key] = gzip.decompress(raw)
            except (OSError, EOFError) as err:
                info["why"] = f"not gzip: {err}"
                continue
            info["ok"] = True
    for key, info in rep.lockdep_dumps.items():
        if not info["ok"]:
            rep.fail("FAIL", f"lockdep copy {key} is not whole: {info['why']}")
    return out


def context(lines: list[str], i: int, after: int = 12) -> list[str]:
    """A few lines around line i: the decisive part of a report."""
    return lines[max(0, i - 2):i + after]


def parse(text: str, allow: list[re.Pattern[str]], expect_kunit: list[str],
          expect_report: re.Pattern[str] | None,
          expect_selftests: int | None = None,
          allow_after: list[re.Pattern[str]] | None = None) -> BootReport:
    rep = BootReport()
    lines = [strip_prefix(line) for line in text.splitlines()]
    crash = [re.compile(p) for p in CRASH_PATTERNS]
    lockdep = [re.compile(p) for p in LOCKDEP_PATTERNS]

    excuse: list[int] = []  # lines whose message excuses the next WARNING
    for i, line in enumerate(lines):
        if line.startswith("LDD "):
            continue  # base64 of a lockdep copy: no report can hide in it
        if line.startswith("PLAN-START plan="):
            rep.plan = line.split("=", 1)[1].strip()
        if (m := STEP.match(line)):
            rep.steps.append((m.group("name"), m.group("status")))
        if (m := PLAN_END.match(line)):
            rep.plan_end = True
            rep.plan = m.group("plan")
        if (m := TRAFFIC.match(line)):
            fields = dict(kv.split("=", 1) for kv in m.group("rest").split() if "=" in kv)
            rep.traffic.append({"path": m.group("path"), "proto": m.group("proto"), **fields})
        if (m := TRAFFIC_RESULT.match(line)):
            rep.traffic_result = m.group("status")
        if (m := LOCKDEP_USAGE.match(line)):
            rep.lockdep_usage[m.group("name")] = m.group("usage")
        if (m := NET_SELFTEST.match(line)):
            rep.selftests.append((m.group("name"), m.group("verdict"), int(m.group("rc")),
                                  float(m.group("secs"))))
        if (m := LOCKDEP_SELFTEST.search(line)):
            rep.lockdep_selftest = m.group(1)
        if any(a.search(line) for a in allow):
            continue
        if allow_after and any(a.search(line) for a in allow_after):
            excuse.append(i)
            continue
        if WARN_SPLAT.search(line):
            excuse = [j for j in excuse if i - j <= ALLOW_AFTER_WINDOW]
            if excuse:
                excuse.pop(0)
                continue
        if any(p.search(line) for p in lockdep):
            if not rep.lockdep_report:
                rep.lockdep_report = context(lines, i, 40)
                if expect_report is None or not expect_report.search("\n".join(rep.lockdep_report)):
                    rep.fail("LOCKDEP", f"lockdep report: {line.strip()}")
                    rep.first_problem = rep.first_problem or context(lines, i)
            continue
        if any(p.search(line) for p in crash):
            rep.fail("CRASH", f"crash: {line.strip()}")
            rep.first_problem = rep.first_problem or context(lines, i)
        elif WARNING_PATTERN.search(line):
            rep.fail("WARNING", f"warning: {line.strip()}")
            rep.first_problem = rep.first_problem or context(lines, i)

    parse_kunit(lines, rep)
    for name, status in rep.steps:
        if status != "PASS":
            rep.fail("FAIL", f"plan step '{name}' failed")
    for case in rep.kunit_cases + rep.kunit_suites:
        if case.status == "not ok":
            rep.fail("FAIL", f"KUnit: not ok {case.suite}.{case.name}")
    check_expected_kunit(rep, expect_kunit)
    if rep.traffic_result == "FAIL":
        rep.fail("FAIL", "traffic check failed")
    if rep.lockdep_selftest and not rep.lockdep_selftest.startswith("Good"):
        rep.fail("FAIL", f"lockdep self-tests: {rep.lockdep_selftest}")
    if expect_selftests is not None:
        m = SELFTEST_COUNT.search(rep.lockdep_selftest or "")
        if rep.lockdep_selftest is None:
            rep.fail("FAIL", f"lockdep self-tests did not run (expected {expect_selftests} testcases)")
        elif m and int(m.group("n")) != expect_selftests:
            rep.fail("FAIL", f"lockdep self-tests: {m.group('n')} testcases passed,"
                     f" expected exactly {expect_selftests}")
    if expect_report is not None and not (
            rep.lockdep_report and expect_report.search("\n".join(rep.lockdep_report))):
        rep.fail("FAIL", f"expected a lockdep report matching /{expect_report.pattern}/, saw none")
    if not rep.plan_end:
        rep.fail("NO_RESULT", "the plan's end marker (PLAN-END) never appeared")
    return rep


def summary(rep: BootReport, log: str) -> str:
    out = [f"boot verdict: {rep.verdict}"]
    out += [f"  reason: {r}" for r in rep.reasons[:10]]
    steps = ", ".join(f"{n} {s}" for n, s in rep.steps) or "none"
    out.append(f"  plan {rep.plan or '?'}: {steps}")
    out.append(f"  lockdep self-tests: {rep.lockdep_selftest or 'not run'}")
    if rep.kunit_cases:
        bad = sum(c.status == "not ok" for c in rep.kunit_cases)
        skipped = sum(c.status == "skip" for c in rep.kunit_cases)
        out.append(f"  kunit: {len(rep.kunit_cases)} cases in {len(rep.kunit_suites)} suites,"
                   f" {bad} failed, {skipped} skipped")
        out += [f"    {c.status:6} {c.suite}.{c.name}" + (f" # SKIP {c.why}" if c.why else "")
                for c in rep.kunit_cases]
    else:
        out.append("  kunit: no cases")
    for name, usage in rep.lockdep_usage.items():
        out.append(f"  lockdep usage {name}: {usage}")
    for key, info in rep.lockdep_dumps.items():
        out.append(f"  lockdep copy {key}: " + ("whole" if info["ok"] else f"NOT WHOLE ({info['why']})"))
    for name, verdict, rc, secs in rep.selftests:
        out.append(f"  selftest {name}: {verdict} rc={rc} secs={secs}")
    for t in rep.traffic:
        figures = " ".join(f"{k}={v}" for k, v in t.items() if k not in ("path", "proto"))
        out.append(f"  traffic {t['path']}/{t['proto']}: {figures}")
    if rep.lockdep_report:
        out.append("  lockdep report (first lines):")
        out += [f"    | {line}" for line in rep.lockdep_report[:14]]
    if rep.first_problem:
        out.append("  decisive console lines:")
        out += [f"    | {line}" for line in rep.first_problem]
    out.append(f"  console log: {log}")
    return "\n".join(out)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description="Boot verdict from a console log.")
    ap.add_argument("log")
    ap.add_argument("--qemu-status", type=int, default=None)
    ap.add_argument("--timed-out", action="store_true")
    ap.add_argument("--allow", action="append", default=[], metavar="REGEX")
    ap.add_argument("--allow-after", action="append", default=[], metavar="REGEX")
    ap.add_argument("--expect-kunit", action="append", default=[], metavar="SUITE[.CASE]")
    ap.add_argument("--expect-selftests", type=int, default=None, metavar="N")
    ap.add_argument("--expect-report", default=None, metavar="REGEX")
    ap.add_argument("--json", default=None, metavar="FILE")
    ap.add_argument("--dump-dir", default=None, metavar="DIR",
                    help="write the lockdep copies there, as NAME.FILE")
    try:
        args = ap.parse_args(argv[1:])
        allow = [re.compile(a) for a in args.allow]
        allow_after = [re.compile(a) for a in args.allow_after]
        expect = re.compile(args.expect_report) if args.expect_report else None
    except re.error as err:
        print(f"parse-boot-log: bad regular expression: {err}", file=sys.stderr)
        return 2
    try:
        text = Path(args.log).read_text(errors="replace")
    except OSError as err:
        print(f"parse-boot-log: cannot read log: {err}", file=sys.stderr)
        return 2

    rep = parse(text, allow, args.expect_kunit, expect, args.expect_selftests,
                allow_after)
    dumps = decode_dumps([strip_prefix(line) for line in text.splitlines()], rep)
    if args.timed_out:
        rep.fail("TIMEOUT", "QEMU did not finish before the timeout")
    # isa-debug-exit: status (code << 1) | 1; code 1 is the plan's failure.
    if args.qemu_status is not None and args.qemu_status not in (0, 1, 3) and not args.timed_out:
        rep.fail("FAIL", f"QEMU exited with unexpected status {args.qemu_status}")
    if args.qemu_status == 3 and not any(s != "PASS" for _, s in rep.steps):
        rep.fail("FAIL", "the guest reported failure (exit code 1) without a failed step")

    text_out = summary(rep, args.log)
    if args.qemu_status is not None and args.qemu_status % 2 == 1:
        text_out += f"\n  guest exit code: {args.qemu_status >> 1} (QEMU status {args.qemu_status})"
    print(text_out)
    if args.json:
        Path(args.json).write_text(json.dumps(asdict(rep), indent=1) + "\n")
    if args.dump_dir and dumps:
        ddir = Path(args.dump_dir)
        ddir.mkdir(parents=True, exist_ok=True)
        for key, data in dumps.items():
            (ddir / key).write_bytes(data)
    return 0 if rep.verdict == "PASS" else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
