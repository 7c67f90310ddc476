"""Unit tests of scripts/analysis/va_reach.py: a vector's roots are the
handlers open_softirq() registers, its reach stops at barriers and
sleepers, a helper that calls its callback parameter runs only what the
caller passes, the evidence chain names each call, and what a vector
takes leaves trylocks out."""
import unittest

from va_kit import LOCK, TRYLOCK, UNLOCK, call, fn, load, run, straight, unit

import va_reach  # noqa: E402  (va_kit puts scripts/analysis on the path)

TIMER = 1       # rules.VECTORS.index("TIMER")


class Reach(unittest.TestCase):
    a: va_reach.VectorReach

    @classmethod
    def setUpClass(cls) -> None:
        funcs = [
            straight("init", [0, 1]),           # open_softirq(TIMER, th); for_each(h2)
            # work(); do_softirq(); for_each(h1); if (..) sl();
            fn("th", {"entry": ([["call", 2], ["call", 3], ["call", 5]], ["b1", "b2"]),
                      "b1": ([["call", 4]], []), "b2": ([], [])},
               proto="void(%struct.softirq_action*)"),
            straight("work", [6, 7]),           # trylock(&lc); unlock(&lc)
            straight("do_softirq", [8]),        # bad()
            straight("bad", []),
            straight("sl", [9, 10]),            # might_sleep(); lk()
            straight("lk", []),
            fn("for_each", {"entry": ([["call", 11]], [])}, params=["for_each/%cb"]),
            straight("h1", [12, 13]),           # lock(&la); unlock(&la)
            straight("h2", [14, 15]),           # lock(&lb); unlock(&lb)
        ]
        calls = [call("init", "open_softirq", ["", "c:th"], consts=[TIMER, None]),
                 call("init", "for_each", ["c:h2"], loc="init.c:9"),
                 call("th", "work", loc="th.c:2"), call("th", "do_softirq"),
                 call("th", "sl"), call("th", "for_each", ["c:h1"], loc="th.c:5"),
                 call("work", TRYLOCK, ["c:lc"], loc="work.c:1"),
                 call("work", UNLOCK, ["c:lc"]),
                 call("do_softirq", "bad"),
                 call("sl", "__might_sleep"), call("sl", "lk"),
                 call("for_each", "", fp="for_each/%cb", loc="fe.c:3"),
                 call("h1", LOCK, ["c:la"], loc="h1.c:1"), call("h1", UNLOCK, ["c:la"]),
                 call("h2", LOCK, ["c:lb"], loc="h2.c:1"), call("h2", UNLOCK, ["c:lb"])]
        locks = ["G:la", "G:lb", "G:lc"]
        cons = [["addr", f"c:{g[2:]}", g] for g in locks] + \
            [["addr", f"c:{f}", f"FN:{f}"] for f in ("th", "h1", "h2")]
        cls.a = run(load(unit(funcs, calls, cons=cons, locks=locks)), until="takes")

    def test_roots(self) -> None:
        self.assertEqual(dict(self.a.root_fns), {"TIMER": {"th"}})
        self.assertEqual(self.a.reached["HI"], set())

    def test_reach_stops_at_barriers_sleepers_and_unbound_callbacks(self) -> None:
        self.assertEqual(self.a.reached["TIMER"], {"th", "work", "for_each", "h1"})
        # for_each's indirect call may run h1 or h2; from th it runs h1 only
        self.assertEqual(self.a.s.targets[11], {"h1", "h2"})
        self.assertEqual(self.a.cbp, {"for_each": {0: "fn"}})

    def test_binding(self) -> None:
        self.assertEqual(self.a.default_state("for_each"), ("for_each", ((0, None),)))
        self.assertEqual(self.a.binding("th", {}, 5, "for_each"), ((0, frozenset({"h1"})),))
        self.assertTrue(self.a.runs("for_each", {0: frozenset({"h1"})}, 11, "h1"))
        self.assertFalse(self.a.runs("for_each", {0: frozenset({"h1"})}, 11, "h2"))
        self.assertTrue(self.a.runs("for_each", {0: None}, 11, "h2"))

    def test_chain(self) -> None:
        self.assertEqual(self.a.chain("TIMER", "h1"),
                         ["TIMER root th (th.c:1)", "th -> for_each (th.c:5)",
                          "for_each -> h1 (fe.c:3, indirect)"])

    def test_takes(self) -> None:
        self.assertEqual(dict(self.a.vec), {"G:la": {"TIMER"}})
        self.assertEqual(self.a.vec_ev[("G:la", "TIMER")], ("h1", "h1.c:1", "lock"))
        # the trylock is an acquisition of work's, not a take
        self.assertIn(("G:lc", "work.c:1", "try"), self.a.acq_cache["work"])


if __name__ == "__main__":
    unittest.main()
