"""Unit tests of scripts/kernel/tally-kunit.py: a case that fails in one boot
of several is flagged, a case missing from a boot is flagged, a clean series
of boots passes."""
import json
import sys
import tempfile
import unittest
from pathlib import Path
from typing import Any

from script_module import load

tk = load("tally_kunit", Path("scripts/kernel/tally-kunit.py"))


def verdict(cases: dict[str, str], verdict_: str = "PASS") -> dict[str, Any]:
    """A boot verdict as parse-boot-log.py writes it, for SUITE.CASE: status."""
    return {
        "verdict": verdict_,
        "reasons": [] if verdict_ == "PASS" else ["KUnit: not ok"],
        "kunit_suites": [{"suite": "softirq_mask", "name": "softirq_mask",
                          "status": "ok", "why": ""}],
        "kunit_cases": [{"suite": k.split(".")[0], "name": k.split(".")[1],
                         "status": v, "why": ""} for k, v in cases.items()],
    }


GOOD = {"softirq_mask.a": "ok", "softirq_mask.b": "ok", "each.HI": "ok"}


class TallyTest(unittest.TestCase):
    def test_stable(self) -> None:
        rows, problems = tk.tally([verdict(GOOD)] * 3, "softirq_mask")
        self.assertEqual(problems, [])
        self.assertEqual(rows["softirq_mask.a"].passed, 3)
        self.assertEqual(sum(r.failed for r in rows.values()), 0)

    def test_flaky_case_is_counted(self) -> None:
        flaky = dict(GOOD, **{"softirq_mask.b": "not ok"})
        rows, problems = tk.tally([verdict(GOOD), verdict(flaky, "FAIL"), verdict(GOOD)],
                                  "softirq_mask")
        self.assertEqual((rows["softirq_mask.b"].passed, rows["softirq_mask.b"].failed), (2, 1))
        self.assertTrue(any("boot 2: verdict FAIL" in p for p in problems), problems)

    def test_missing_case_and_suite(self) -> None:
        short = {"softirq_mask.a": "ok"}
        no_suite = verdict(GOOD)
        no_suite["kunit_suites"] = []
        _, problems = tk.tally([verdict(GOOD), verdict(short), no_suite], "softirq_mask")
        self.assertIn("softirq_mask.b: did not run in 1 of 3 boots", problems)
        self.assertIn("boot 3: suite softirq_mask did not run", problems)

    def test_cli_exit_status(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            good, bad = Path(d) / "good.json", Path(d) / "bad.json"
            good.write_text(json.dumps(verdict(GOOD)))
            bad.write_text(json.dumps(verdict(dict(GOOD, **{"each.HI": "not ok"}), "FAIL")))
            junk = Path(d) / "junk.json"
            junk.write_text("{}")
            run = tk.main
            argv = sys.argv
            try:
                sys.argv = ["x", "--suite", "softirq_mask", str(good), str(good)]
                self.assertEqual(run(), 0)
                sys.argv = ["x", str(good), str(bad)]
                self.assertEqual(run(), 1)
                sys.argv = ["x", str(junk)]
                with self.assertRaises(SystemExit) as exc:
                    run()
                self.assertEqual(exc.exception.code, 2)
            finally:
                sys.argv = argv


if __name__ == "__main__":
    unittest.main()
