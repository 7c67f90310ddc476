"""Unit tests of scripts/analysis/imprecision.py: each rule is read from
its evidence chain, a pair is counted under its least removable cause,
the lock order's largest component is found, lockdep's observation is
joined by section."""
import unittest
from pathlib import Path
from typing import Any

from script_module import load

im = load("imprecision", Path("scripts/analysis/imprecision.py"))

ROOT = "TIMER root kernel/time/timer.c:run_timer_softirq (kernel/time/timer.c:2032)"


def cls(before: list[str], evidence: dict[str, list[str]]) -> dict[str, Any]:
    return {"before": before, "evidence": evidence, "mask": "|".join(sorted(evidence)),
            "takes": []}


CLASSES = {
    # TIMER takes a directly; HI reaches it only through the dispatcher
    # tasklet_hi_action() shares with tasklet_action()
    "a": cls([], {
        "TIMER": [ROOT, "f -> g (x.c:1)", "g takes a (lock, x.c:2)"],
        "HI": ["HI root tasklet_hi_action (s.c:1)",
               "tasklet_hi_action -> tasklet_action_common (s.c:2)",
               "tasklet_action_common -> t (s.c:3)", "t takes a (lock, x.c:4)"]}),
    # NET_RX through an unresolved lock pointer
    "b": cls(["c"], {
        "NET_RX": ["NET_RX root net_rx_action (d.c:1)",
                   "h takes b (a lock pointer it cannot resolve; this lock's address"
                   " is stored in memory, d.c:9)"]}),
    # b and c order each other: a cycle; c gets NET_RX by order
    "c": cls(["b"], {
        "NET_RX": ["NET_RX root net_rx_action (d.c:1)", "h takes b (lock, d.c:2)",
                   "b is held while c is taken: k (d.c:3)"]}),
    # TIMER through a function pointer the points-to resolved
    "f": cls([], {"TIMER": [ROOT, "call_timer_fn -> tcp_keepalive_timer (t.c:1, indirect)",
                            "tcp_keepalive_timer takes f (lock, t.c:2)"]}),
    # per-CPU data, and order outside any cycle
    "percpu:x.c:stats": cls([], {"RCU": ["RCU root rcu_core (r.c:1)",
                                         "r takes percpu:x.c:stats (pcpu-w, r.c:2)"]}),
    "d": cls(["a"], {"TIMER": [ROOT, "g takes a (lock, x.c:2)",
                               "a is held while d is taken: g (x.c:3)"]}),
    # a chain through an indirect call bound by prototype only
    "e": cls([], {"BLOCK": ["BLOCK root blk_done_softirq (b.c:1)",
                            "blk_done_softirq -> cb (b.c:2, bound by prototype)",
                            "cb takes e (lock, b.c:3)"]}),
}
SECTIONS = [
    {"loc": "net/a.c:1", "function": "sa", "classes": ["a"], "inner": [], "mask": "HI|TIMER",
     "why": ""},
    {"loc": "net/b.c:1", "function": "sb", "classes": ["c"], "inner": ["b"], "mask": "NET_RX",
     "why": ""},
    {"loc": "kernel/c.c:1", "function": "sc", "classes": ["d"],
     "inner": ["percpu:x.c:stats", "e"], "mask": "TIMER|BLOCK|RCU", "why": ""},
    {"loc": "kernel/e.c:1", "function": "se", "classes": ["f"], "inner": [], "mask": "TIMER",
     "why": ""},
    {"loc": "net/d.c:1", "function": "sd", "classes": [], "inner": [], "mask": "ALL",
     "why": "lock not resolved"},
]
DATA = {"classes": CLASSES, "sections": SECTIONS}


class Imprecision(unittest.TestCase):
    def test_component(self) -> None:
        self.assertEqual(im.largest_component(CLASSES), {"b", "c"})

    def test_rules(self) -> None:
        causes = im.section_causes(DATA)
        self.assertEqual(causes[0], {"HI": ["shared dispatcher"], "TIMER": ["direct take"]})
        self.assertEqual(im.chain_cause("TIMER", CLASSES["a"]["evidence"]["TIMER"],
                                        "sk_buff_head.lock", set()), "direct take, field class")
        # NET_RX: c by order inside the cycle, b through an unresolved pointer
        self.assertEqual(causes[1], {"NET_RX": ["unresolved acquisition", "lock order (cycle)"]})
        self.assertEqual(causes[2], {"BLOCK": ["prototype fallback"], "RCU": ["per-CPU data"],
                                     "TIMER": ["lock order"]})
        self.assertEqual(causes[3], {"TIMER": ["direct take, indirect call"]})
        # a section whose lock is not resolved: every vector but IRQ_POLL
        self.assertEqual(set(causes[4]), set(im.VECTORS) - {"IRQ_POLL"})
        self.assertTrue(all(v == ["section"] for v in causes[4].values()))

    def test_table(self) -> None:
        causes = im.section_causes(DATA)
        oracle = {"sections": [{"loc": "net/a.c:1", "observed": "TIMER", "exercised": True},
                               {"loc": "net/b.c:1", "observed": "NET_RX", "exercised": False}]}
        rows = {ln.split(" | ")[0].lstrip("| "): ln for ln in im.table(DATA, causes, "net/", oracle)
                if ln.startswith("| ") and not ln.startswith("| cause")}
        # net/: a (2 pairs), b (1), d (9): the unresolved pair has a
        # second cause, so it is not "alone"; only the exercised section's
        # TIMER counts as observed
        self.assertEqual(rows["direct take"], "| direct take | 1 | 1 | 1 |")
        self.assertEqual(rows["unresolved acquisition"], "| unresolved acquisition | 1 | 0 | 0 |")
        self.assertEqual(rows["shared dispatcher"], "| shared dispatcher | 1 | 1 | 0 |")
        self.assertEqual(rows["section"], "| section | 9 | 9 | 0 |")

    def test_encode(self) -> None:
        blame = im.section_blame(DATA)
        for mine in blame:
            back = im.decode(im.encode(mine))
            self.assertEqual({v: [c for c, _ in f] for v, f in back.items()},
                             {v: [c for c, _ in f] for v, f in mine.items()})
            self.assertEqual({v: f[0][1] for v, f in back.items()},
                             {v: f[0][1] for v, f in mine.items()})
        self.assertEqual(im.encode(blame[1]), "NET_RX 6,7 b")

    def test_summary(self) -> None:
        causes = im.section_causes(DATA)
        lines = im.summary_lines(DATA, causes, {"b", "c"})
        self.assertIn("prototype fallback 1 (1)", lines[0])
        self.assertIn("section 9 (9)", lines[1])
        self.assertTrue(lines[2].startswith("imprecision: largest lock-order component 2 classes"))


if __name__ == "__main__":
    unittest.main()
