"""Unit tests of scripts/analysis/va_evidence.py: sections a header's
inline gives several units merge into one, the output files of a small
world say its masks with their evidence, vectors with no handler stay
masked in sites.txt, and lock-init names map back to classes."""
import json
import os
import tempfile
import unittest
from types import SimpleNamespace
from typing import Any, cast

from va_kit import LOCK, LOCK_BH, UNLOCK, UNLOCK_BH, call, load, run, straight, unit

import va_evidence  # noqa: E402  (va_kit puts scripts/analysis on the path)
from va_order import Analysis  # noqa: E402
from va_world import VECTORS, mask_str  # noqa: E402

TIMER = 1       # rules.VECTORS.index("TIMER")


def tiny() -> Analysis:
    """TIMER takes lc; other() takes la under lc; sec() holds lb with BH
    off around la; initfn() names la and a mutex for lockdep."""
    funcs = [
        straight("init", [0]),
        straight("th", [1, 2], proto="void(%struct.softirq_action*)", loc="th.c:1"),
        straight("other", [3, 4, 5, 6], loc="other.c:1"),
        straight("sec", [7, 8, 9, 10], loc="sec.c:1"),
        straight("initfn", [11, 12]),
    ]
    calls = [call("init", "open_softirq", ["", "c:th"], consts=[TIMER, None]),
             call("th", LOCK, ["c:lc"], loc="th.c:2"), call("th", UNLOCK, ["c:lc"]),
             call("other", LOCK, ["c:lc"], loc="other.c:2"),
             call("other", LOCK, ["c:la"]), call("other", UNLOCK, ["c:la"]),
             call("other", UNLOCK, ["c:lc"]),
             call("sec", LOCK_BH, ["c:lb"], loc="sec.c:3"), call("sec", LOCK, ["c:la"]),
             call("sec", UNLOCK, ["c:la"]), call("sec", UNLOCK_BH, ["c:lb"]),
             call("initfn", "__raw_spin_lock_init", ["c:la", ""]),
             call("initfn", "__mutex_init", ["c:m", ""])]
    names = ["la", "lb", "lc"]
    cons = [["addr", f"c:{n}", f"G:{n}"] for n in names] + [["addr", "c:th", "FN:th"]]
    static = [["G:lb", "%struct.spinlock", "lb_static", 0],
              ["G:wk", "%struct.work_struct", "(work_completion)(&wk)", 0],
              ["G:mx", "%struct.mutex", "mx_static", 0]]
    u = unit(funcs, calls, cons=cons, locks=[f"G:{n}" for n in names],
             inits=[[11, "&la_key", 1, ""], [12, "&m_key", 1, "%struct.mutex"]],
             static_maps=static)
    return run(load(u))


class Merge(unittest.TestCase):
    def test_one_entry_per_source_section(self) -> None:
        def sec(mask: set[str], why: str, inner: list[str]) -> dict[str, Any]:
            return {"loc": "include/h.h:5", "function": "include/h.h:f", "kind": "lock_bh",
                    "classes": ["G:l"], "inner": inner, "mask": mask, "why": why, "from": ""}
        a = cast(Any, SimpleNamespace(sections=[
            sec({"TIMER"}, "", ["G:x"]), sec({"NET_RX"}, "lock not resolved", ["G:y"])]))
        merged = va_evidence.merged_sections(a, lambda c: c[2:])
        self.assertEqual(len(merged), 1)
        self.assertEqual(merged[0]["cl"], "l")
        self.assertEqual(merged[0]["mask"], {"TIMER", "NET_RX"})
        self.assertEqual(merged[0]["inner"], {"x", "y"})
        self.assertEqual(merged[0]["why"], {"lock not resolved"})


class Outputs(unittest.TestCase):
    a: Analysis
    out: str
    summary: str
    tmp: tempfile.TemporaryDirectory[str]

    @classmethod
    def setUpClass(cls) -> None:
        cls.a = tiny()
        cls.tmp = tempfile.TemporaryDirectory()
        cls.out = cls.tmp.name
        cls.summary = va_evidence.write_outputs(cls.a, cls.out, "tiny", 0.0)

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def read(self, name: str) -> str:
        with open(os.path.join(self.out, name), encoding="utf-8") as f:
            return f.read()

    def test_masks_txt(self) -> None:
        lines = self.read("masks.txt").splitlines()
        self.assertEqual(lines[0], "# vector masks for world tiny")
        self.assertEqual(lines[3:], ["class la TIMER", "class lb NONE", "class lc TIMER",
                                     "section sec.c:3 sec lb TIMER"])

    def test_sites_keep_rootless_vectors(self) -> None:
        rootless = set(VECTORS) - {"TIMER"}
        self.assertEqual(va_evidence.rootless_vectors(self.a), rootless)
        self.assertEqual(va_evidence.idle_vectors(self.a), set())
        text = self.read("sites.txt")
        self.assertIn("# vectors with no handler in the world, masked in every site: "
                      f"{mask_str(rootless)}\n", text)
        self.assertTrue(text.endswith("site sec.c:3 ALL\n"))

    def test_vectors_json(self) -> None:
        data = json.loads(self.read("vectors.json"))
        la = data["classes"]["la"]
        self.assertEqual(la["mask"], "TIMER")
        self.assertEqual(la["takes"], [])
        self.assertEqual(la["before"], ["lb", "lc"])
        self.assertEqual(la["evidence"]["TIMER"],
                         ["TIMER root th (th.c:1)", "th takes lc (lock, th.c:2)",
                          "lc is held while la is taken: other (other.c:2)"])
        self.assertEqual(data["classes"]["lc"]["takes"], ["TIMER"])
        self.assertIn("HI", la["absent"])
        sec = data["sections"][0]
        self.assertEqual((sec["loc"], sec["classes"], sec["inner"], sec["mask"]),
                         ("sec.c:3", ["lb"], ["la"], "TIMER"))
        self.assertIn("## la: TIMER", self.read("evidence.md"))

    def test_lock_names(self) -> None:
        data = json.loads(self.read("vectors.json"))
        self.assertEqual(data["inits"], {"&la_key": ["la"], "&m_key": []})
        self.assertEqual(data["sleeping"], ["&m_key", "mx_static"])
        self.assertEqual(data["static_names"], {"lb_static": ["lb"]})
        self.assertEqual(data["pseudo_names"], ["(work_completion)(&wk)"])

    def test_summary(self) -> None:
        self.assertTrue(self.summary.startswith("world: tiny\n"))
        self.assertIn("BH sections: 1; mask < ALL without BLOCK and SCHED: 1; ALL: 0",
                      self.summary)
        self.assertEqual(self.read("summary.txt"), self.summary + "\n")


if __name__ == "__main__":
    unittest.main()
