"""Unit tests of scripts/kernel/parse-boot-log.py on saved console logs
(tests/fixtures/boot-*.log; the pass, panic and fail-step logs are real
console logs of the base kernel, trimmed)."""
import importlib.util
import re
import sys
import unittest
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
FIX = HERE / "fixtures"
_spec = importlib.util.spec_from_file_location(
    "parse_boot_log", HERE.parent / "scripts" / "kernel" / "parse-boot-log.py")
assert _spec and _spec.loader
pbl = importlib.util.module_from_spec(_spec)
sys.modules["parse_boot_log"] = pbl  # dataclasses look their module up
_spec.loader.exec_module(pbl)


def parse(name: str, allow: tuple[str, ...] = (), kunit: tuple[str, ...] = (),
          expect: str | None = None) -> Any:
    text = (FIX / name).read_text()
    return pbl.parse(text, [re.compile(a) for a in allow], list(kunit),
                     re.compile(expect) if expect else None)


class VerdictTest(unittest.TestCase):
    def test_pass_log(self) -> None:
        rep = parse("boot-pass.log")
        self.assertEqual(rep.verdict, "PASS", rep.reasons)
        self.assertTrue(rep.plan_end)
        self.assertEqual(rep.lockdep_selftest, "Good, all 358 testcases passed!")
        tcp = [t for t in rep.traffic if t["proto"] == "tcp"]
        self.assertEqual({t["path"] for t in tcp}, {"loopback", "veth"})
        self.assertTrue(all(t["lost"] == "0" for t in tcp))

    def test_panic_is_crash(self) -> None:
        rep = parse("boot-panic.log")
        self.assertEqual(rep.verdict, "CRASH")
        self.assertTrue(any("Kernel panic" in r for r in rep.reasons))
        self.assertTrue(rep.first_problem)

    def test_failed_step_is_fail(self) -> None:
        rep = parse("boot-fail-step.log")
        self.assertEqual(rep.verdict, "FAIL")
        self.assertIn("plan step 'deliberate-failure' failed", rep.reasons)

    def test_lockdep_report(self) -> None:
        rep = parse("boot-lockdep.log")
        self.assertEqual(rep.verdict, "LOCKDEP")
        self.assertIn("inconsistent {IN-SOFTIRQ-W} -> {SOFTIRQ-ON-W} usage.",
                      rep.lockdep_report)

    def test_expected_report_passes(self) -> None:
        rep = parse("boot-lockdep.log", expect=r"IN-SOFTIRQ-W")
        self.assertEqual(rep.verdict, "PASS", rep.reasons)

    def test_expected_report_missing_fails(self) -> None:
        rep = parse("boot-pass.log", expect=r"IN-NET_RX-SOFTIRQ-W")
        self.assertEqual(rep.verdict, "FAIL")

    def test_expected_report_other_text_fails(self) -> None:
        rep = parse("boot-lockdep.log", expect=r"IN-NET_RX-SOFTIRQ-W")
        self.assertEqual(rep.verdict, "LOCKDEP")

    def test_kunit_failure_and_skip(self) -> None:
        rep = parse("boot-kunit-fail.log", kunit=("softirq_mask",))
        self.assertEqual(rep.verdict, "FAIL")
        status = {c.name: c.status for c in rep.kunit_cases}
        self.assertEqual(status, {"masked_vector_deferred": "ok",
                                  "unmasked_runs_in_section": "not ok",
                                  "rt_fallback": "skip"})
        self.assertTrue(all(c.suite == "softirq_mask" for c in rep.kunit_cases))

    def test_missing_suite_fails(self) -> None:
        rep = parse("boot-pass.log", kunit=("softirq_mask",))
        self.assertEqual(rep.verdict, "FAIL")
        self.assertTrue(any("did not run" in r for r in rep.reasons))

    def test_warning_and_allow(self) -> None:
        text = (FIX / "boot-pass.log").read_text().replace(
            "PLAN-START", "WARNING: CPU: 1 PID: 7 at kernel/softirq.c:42 f+0x1/0x2\nPLAN-START", 1)
        self.assertEqual(pbl.parse(text, [], [], None).verdict, "WARNING")
        allowed = pbl.parse(text, [re.compile(r"kernel/softirq\.c:\d+ f\+")], [], None)
        self.assertEqual(allowed.verdict, "PASS", allowed.reasons)

    def test_no_end_marker(self) -> None:
        text = "\n".join(line for line in (FIX / "boot-pass.log").read_text().splitlines()
                         if "PLAN-END" not in line)
        self.assertEqual(pbl.parse(text, [], [], None).verdict, "NO_RESULT")

    def test_cli_exit_status(self) -> None:
        self.assertEqual(pbl.main(["x", str(FIX / "boot-pass.log"), "--qemu-status", "1"]), 0)
        self.assertEqual(pbl.main(["x", str(FIX / "boot-pass.log"), "--timed-out"]), 1)
        self.assertEqual(pbl.main(["x", str(FIX / "boot-panic.log")]), 1)
        self.assertEqual(pbl.main(["x", str(FIX / "no-such.log")]), 2)
        self.assertEqual(pbl.main(["x", str(FIX / "boot-pass.log"), "--allow", "("]), 2)


if __name__ == "__main__":
    unittest.main()
