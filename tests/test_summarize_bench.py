"""Unit tests of scripts/bench/summarize-bench.py: the deferral table judges
the raises that interrupted the competing task against the floor (2x), the
pristine table compares the series' pairs with pristine 6.1's, and a run
that lacks the lines a benchmark must print is flagged."""
import unittest
from pathlib import Path

from script_module import load

sb = load("summarize_bench", Path("scripts/bench/summarize-bench.py"))


def deferral_log(task_p50: int, task_p99: int, with_task: bool = True) -> str:
    lines = ["BENCH-START run=deferral rounds=1 iters=1 samples=1 nr_d=1 cpus=2 hz=250"]
    for vec in ("BLOCK", "HRTIMER"):
        lines.append(f"BENCH deferral mode=floor round=0 vec={vec} class=other n=100 "
                     "p50_ns=20000 p90_ns=30000 p99_ns=50000 max_ns=60000")
        if with_task:
            lines.append(f"BENCH deferral mode=load round=0 vec={vec} class=task n=40 "
                         f"p50_ns={task_p50} p90_ns={task_p99} p99_ns={task_p99} "
                         f"max_ns={task_p99}")
        lines.append(f"BENCH deferral mode=load round=0 vec={vec} class=handler n=50 "
                     "p50_ns=1500000 p90_ns=3000000 p99_ns=9000000 max_ns=9000000")
    lines += ["BENCH deferral-load round=0 wall_ns=1000 hog_ns=490 hog_share_pct=49 polls=10",
              "BENCH-END errors=0"]
    return "\n".join(f"[    1.000000] {line}" for line in lines) + "\n"


def row(md: list[str], vec: str, kernel: str) -> list[str]:
    for line in md:
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[:2] == [vec, kernel]:
            return cells
    raise AssertionError(f"no row {vec} {kernel} in {md}")


class Deferral(unittest.TestCase):
    def test_within_and_beyond_twice_the_floor(self) -> None:
        base = sb.parse_micro(deferral_log(8_000_000, 15_000_000))
        ours = sb.parse_micro(deferral_log(30_000, 90_000))
        md = sb.deferral_markdown([("pristine 6.1", base), ("series", ours)])
        b, s = row(md, "BLOCK", "pristine 6.1"), row(md, "BLOCK", "series")
        self.assertEqual(b[7:10], ["400.0", "300.0", "no"])
        self.assertEqual(s[7:10], ["1.5", "1.8", "yes"])
        self.assertEqual(s[12], "50")  # handler raises counted apart
        self.assertTrue(any("series 49%" in line for line in md))

    def test_missing_task_class_is_flagged(self) -> None:
        res = sb.parse_micro(deferral_log(0, 0, with_task=False))
        bad = sb.check_micro(res, [], 1)
        self.assertIn("deferral load BLOCK: no raise landed while the competing task ran", bad)
        self.assertEqual(sb.check_micro(sb.parse_micro(deferral_log(1, 2)), [], 1), [])


def overhead_log(ns: dict[tuple[str, str], float], mask_api: bool) -> str:
    lines = ["BENCH-START run=overhead rounds=2 iters=1000 samples=1 nr_d=1 cpus=2 hz=250"]
    for (api, path), v in ns.items():
        if api.endswith("_mask") and not mask_api:
            continue
        for r in (0, 1):
            lines.append(f"BENCH overhead api={api} path={path} round={r} iters=1000 "
                         f"total_ns={int(v * 1000)} ns_per_pair={v:.2f}")
    lines.append("BENCH-END errors=0")
    return "\n".join(lines) + "\n"


class Pristine(unittest.TestCase):
    def test_targets(self) -> None:
        apis = ("spin_lock_bh", "spin_lock_bh_mask", "local_bh_disable", "local_bh_disable_mask")
        base = {(a, p): 40.0 for a in apis for p in ("idle", "pending")}
        ours = dict(base)
        ours[("spin_lock_bh", "idle")] = 40.4      # 1.01: within 2%
        ours[("spin_lock_bh_mask", "idle")] = 43.2  # 1.08: beyond 5%
        b = sb.parse_micro(overhead_log(base, mask_api=False))
        s = sb.parse_micro(overhead_log(ours, mask_api=True))
        self.assertEqual(sb.check_micro(b, [], 2, mask=False), [])
        self.assertEqual(sb.check_micro(s, [], 2), [])
        md = sb.pristine_markdown(s, b, None, None)
        spin = [line for line in md if line.startswith("| spin_lock_bh | idle |")][0]
        self.assertIn("| 1.010 yes | 1.080 no |", spin)
        self.assertEqual(len([line for line in md if line.startswith("| local_bh_disable |")]), 2)

    def test_pristine_without_lines_is_flagged(self) -> None:
        b = sb.parse_micro(overhead_log({("spin_lock_bh", "idle"): 40.0}, mask_api=False))
        bad = sb.check_micro(b, [], 2, mask=False)
        self.assertIn("overhead local_bh_disable (idle): 0 rounds, expected 2", bad)


if __name__ == "__main__":
    unittest.main()
