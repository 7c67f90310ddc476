"""Unit tests of scripts/kernel/compare-selftests.py and of the SELFTEST and
LOCKDEP-USAGE lines of scripts/kernel/parse-boot-log.py: two boots whose
networking self-tests agree pass; a verdict that differs, a test that never
reported and a boot problem outside the self-tests each fail."""
import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
TOP = HERE.parent
PARSE = TOP / "scripts" / "kernel" / "parse-boot-log.py"
COMPARE = TOP / "scripts" / "kernel" / "compare-selftests.py"

PLAN_QUICK = "# quick\nsocket net-selftest socket -- socket\nudp net-selftest udp -- udpgso -4 -C\n"
PLAN_FULL = "include quick\ntun net-selftest tun -- tun\n"


def console(results: dict[str, str], extra: str = "") -> str:
    lines = ["PLAN-START plan=full"]
    for name, verdict in results.items():
        lines.append(f"PLAN-STEP-BEGIN {name}: net-selftest {name}")
        lines.append(f"SELFTEST {name} {verdict} rc={0 if verdict == 'PASS' else 1} secs=0.4")
        lines.append(f"PLAN-STEP {name} {'PASS' if verdict == 'PASS' else 'FAIL'} rc=0 secs=1")
    lines.append("LOCKDEP-USAGE snap_lock not-taken")
    lines.append("LOCKDEP-USAGE inetsw_lock +.....................")
    lines.append(extra)
    failed = sum(v == "FAIL" for v in results.values())
    lines.append(f"PLAN-END plan=full passed={len(results) - failed} failed={failed}")
    return "\n".join(lines) + "\n"


class CompareTest(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)
        (self.dir / "quick.plan").write_text(PLAN_QUICK)
        (self.dir / "full.plan").write_text(PLAN_FULL)

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def boot(self, name: str, text: str) -> Path:
        folder = self.dir / name
        folder.mkdir()
        (folder / "console.log").write_text(text)
        subprocess.run([sys.executable, str(PARSE), str(folder / "console.log"),
                        "--json", str(folder / "verdict.json")],
                       capture_output=True, text=True, check=False)
        return folder

    def compare(self, base: Path, conv: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, str(COMPARE), "--plan", str(self.dir / "full.plan"),
                               "--base", str(base), "--conv", str(conv),
                               "--out", str(self.dir / "table.md")],
                              capture_output=True, text=True, check=False)

    def test_parser_reads_selftests_and_usage(self) -> None:
        b = self.boot("b", console({"socket": "PASS", "udp": "SKIP", "tun": "FAIL"}))
        data = json.loads((b / "verdict.json").read_text())
        self.assertEqual([s[:3] for s in data["selftests"]],
                         [["socket", "PASS", 0], ["udp", "SKIP", 1], ["tun", "FAIL", 1]])
        self.assertEqual(data["lockdep_usage"],
                         {"snap_lock": "not-taken", "inetsw_lock": "+....................."})

    def test_same_verdicts_pass(self) -> None:
        same = {"socket": "PASS", "udp": "PASS", "tun": "FAIL"}
        r = self.compare(self.boot("b", console(same)), self.boot("c", console(same)))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("3 self-tests; base: 2 pass, 0 skip, 1 fail; converted: 2 pass, 0 skip,"
                      " 1 fail; 0 differ", r.stdout)

    def test_different_verdict_fails(self) -> None:
        r = self.compare(self.boot("b", console({"socket": "PASS", "udp": "PASS", "tun": "PASS"})),
                         self.boot("c", console({"socket": "PASS", "udp": "FAIL", "tun": "PASS"})))
        self.assertEqual(r.returncode, 1)
        self.assertIn("udp: base PASS, converted FAIL", r.stdout)

    def test_missing_test_fails(self) -> None:
        r = self.compare(self.boot("b", console({"socket": "PASS", "udp": "PASS", "tun": "PASS"})),
                         self.boot("c", console({"socket": "PASS", "udp": "PASS"})))
        self.assertEqual(r.returncode, 1)
        self.assertIn("converted: tun never reported", r.stdout)

    def test_other_boot_problem_fails(self) -> None:
        ok = {"socket": "PASS", "udp": "PASS", "tun": "PASS"}
        r = self.compare(self.boot("b", console(ok)),
                         self.boot("c", console(ok, "WARNING: CPU: 0 PID: 1 at net/core/dev.c:1 x")))
        self.assertEqual(r.returncode, 1)
        self.assertIn("converted: warning: WARNING: CPU: 0", r.stdout)

    def test_missing_verdict_file_is_bad_input(self) -> None:
        (self.dir / "empty").mkdir()
        b = self.boot("b", console({"socket": "PASS", "udp": "PASS", "tun": "PASS"}))
        r = self.compare(b, self.dir / "empty")
        self.assertEqual(r.returncode, 2)


if __name__ == "__main__":
    unittest.main()
