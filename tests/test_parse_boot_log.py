"""Unit tests of scripts/kernel/parse-boot-log.py on saved console logs
(tests/fixtures/boot-*.log; the pass, panic and fail-step logs are real
console logs of the base kernel, trimmed)."""
import re
import unittest
from pathlib import Path
from typing import Any

from script_module import load

HERE = Path(__file__).resolve().parent
FIX = HERE / "fixtures"
pbl = load("parse_boot_log", Path("scripts/kernel/parse-boot-log.py"))


def parse(name: str, allow: tuple[str, ...] = (), kunit: tuple[str, ...] = (),
          expect: str | None = None, selftests: int | None = None,
          text: str | None = None) -> Any:
    if text is None:
        text = (FIX / name).read_text()
    return pbl.parse(text, [re.compile(a) for a in allow], list(kunit),
                     re.compile(expect) if expect else None, selftests)


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

    def test_skipped_cases_are_visible_not_passed(self) -> None:
        rep = parse("boot-kunit-skip-case.log")
        self.assertEqual(rep.verdict, "PASS", rep.reasons)
        skipped = {c.name: c.why for c in rep.kunit_cases if c.status == "skip"}
        self.assertEqual(skipped, {"stress_all_cpus_no_lost_or_double_runs": "needs 2 CPUs",
                                   "rt_fallback": "not PREEMPT_RT"})
        out = pbl.summary(rep, "x.log")
        self.assertIn("3 cases in 1 suites, 0 failed, 2 skipped", out)
        self.assertIn("skip   softirq_mask.rt_fallback # SKIP not PREEMPT_RT", out)

    def test_required_suite_skipped_fails(self) -> None:
        rep = parse("boot-kunit-skip-all.log", kunit=("softirq_mask",))
        self.assertEqual(rep.verdict, "FAIL")
        self.assertIn("required KUnit suite 'softirq_mask' was skipped", rep.reasons)

    def test_required_suite_with_every_case_skipped_fails(self) -> None:
        text = (FIX / "boot-kunit-skip-all.log").read_text().replace(
            "ok 1 softirq_mask # SKIP", "ok 1 softirq_mask")
        rep = parse("", kunit=("softirq_mask",), text=text)
        self.assertEqual(rep.verdict, "FAIL")
        self.assertIn("required KUnit suite 'softirq_mask': all 3 cases skipped", rep.reasons)

    def test_required_suite_with_some_cases_run_passes(self) -> None:
        rep = parse("boot-kunit-skip-case.log", kunit=("softirq_mask",))
        self.assertEqual(rep.verdict, "PASS", rep.reasons)

    def test_required_case(self) -> None:
        ran = parse("boot-kunit-skip-case.log",
                    kunit=("softirq_mask.masked_vector_runs_once_at_section_end",))
        self.assertEqual(ran.verdict, "PASS", ran.reasons)
        skipped = parse("boot-kunit-skip-case.log",
                        kunit=("softirq_mask.stress_all_cpus_no_lost_or_double_runs",))
        self.assertEqual(skipped.verdict, "FAIL")
        self.assertIn("required KUnit case softirq_mask.stress_all_cpus_no_lost_or_double_runs"
                      " was skipped (needs 2 CPUs)", skipped.reasons)
        missing = parse("boot-kunit-skip-case.log", kunit=("softirq_mask.no_such_case",))
        self.assertEqual(missing.verdict, "FAIL")
        self.assertIn("required KUnit case softirq_mask.no_such_case did not run", missing.reasons)

    def test_selftest_count_pinned(self) -> None:
        self.assertEqual(parse("boot-pass.log", selftests=358).verdict, "PASS")
        other = parse("boot-pass.log", selftests=371)
        self.assertEqual(other.verdict, "FAIL")
        self.assertIn("lockdep self-tests: 358 testcases passed, expected exactly 371",
                      other.reasons)
        text = "\n".join(line for line in (FIX / "boot-pass.log").read_text().splitlines()
                         if "testcases passed" not in line)
        gone = parse("", selftests=358, text=text)
        self.assertEqual(gone.verdict, "FAIL")
        self.assertIn("lockdep self-tests did not run (expected 358 testcases)", gone.reasons)
        # without a pinned count, any "Good" line passes (the old behaviour)
        self.assertEqual(parse("", text=text).verdict, "PASS")

    def test_warning_and_allow(self) -> None:
        text = (FIX / "boot-pass.log").read_text().replace(
            "PLAN-START", "WARNING: CPU: 1 PID: 7 at kernel/softirq.c:42 f+0x1/0x2\nPLAN-START", 1)
        self.assertEqual(pbl.parse(text, [], [], None).verdict, "WARNING")
        allowed = pbl.parse(text, [re.compile(r"kernel/softirq\.c:\d+ f\+")], [], None)
        self.assertEqual(allowed.verdict, "PASS", allowed.reasons)

    def test_warning_allowed_by_its_message(self) -> None:
        leak = ("timer: smt_leak_timer_fn+0x0/0x20 preempt leak: 00000101 -> 00000301\n"
                "WARNING: CPU: 0 PID: 0 at kernel/time/timer.c:1707 call_timer_fn+0x9/0x90\n")
        other = ("timer: real_fn+0x0/0x20 preempt leak: 00000101 -> 00000301\n"
                 "WARNING: CPU: 0 PID: 0 at kernel/time/timer.c:1707 call_timer_fn+0x9/0x90\n")
        after = [re.compile(r"^timer: smt_leak_timer_fn\+\S+ preempt leak")]
        base = (FIX / "boot-pass.log").read_text()
        for text, want in ((leak, "PASS"), (other, "WARNING")):
            full = base.replace("PLAN-START", text + "PLAN-START", 1)
            rep = pbl.parse(full, [], [], None, None, after)
            self.assertEqual(rep.verdict, want, rep.reasons)
        # another CPU's console line between message and WARNING (seen in a
        # bench boot: "Freeing initrd memory" from the init task)
        between = base.replace("PLAN-START", leak.replace(
            "\nWARNING", "\nFreeing initrd memory: 8040K\nWARNING") + "PLAN-START", 1)
        rep = pbl.parse(between, [], [], None, None, after)
        self.assertEqual(rep.verdict, "PASS", rep.reasons)
        # one message excuses one WARNING: a second one is reported
        twice = base.replace("PLAN-START", leak + leak.split("\n")[1] + "\nPLAN-START", 1)
        self.assertEqual(pbl.parse(twice, [], [], None, None, after).verdict, "WARNING")
        # a lockdep report after the message is not a WARN() splat it excuses
        report = base.replace("PLAN-START", leak.split("\n")[0]
                              + "\nWARNING: possible circular locking dependency detected\n"
                              + "PLAN-START", 1)
        self.assertEqual(pbl.parse(report, [], [], None, None, after).verdict, "LOCKDEP")
        # a message far from the WARNING excuses nothing
        far = base.replace("PLAN-START", leak.replace(
            "\nWARNING", "\nfiller" * pbl.ALLOW_AFTER_WINDOW + "\nWARNING") + "PLAN-START", 1)
        self.assertEqual(pbl.parse(far, [], [], None, None, after).verdict, "WARNING")

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
        self.assertEqual(pbl.main(["x", str(FIX / "boot-pass.log"), "--expect-selftests", "358"]), 0)
        self.assertEqual(pbl.main(["x", str(FIX / "boot-pass.log"), "--expect-selftests", "357"]), 1)
        with self.assertRaises(SystemExit) as exc:
            pbl.main(["x", str(FIX / "boot-pass.log"), "--expect-selftests", "many"])
        self.assertEqual(exc.exception.code, 2)


if __name__ == "__main__":
    unittest.main()
