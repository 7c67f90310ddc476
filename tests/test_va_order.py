"""Unit tests of scripts/analysis/va_order.py: lock order from what a held
region takes (callees included, less what a callee takes after dropping
the held lock), BH sections with what they hold inside, class masks
through the order, section masks, the largest order cycle and the held
regions that make it, and the fallback for a lock taken through a
pointer the solve cannot name."""
import unittest

from va_kit import (LOCK, LOCK_BH, UNLOCK, UNLOCK_BH, call, fn, load, run, straight,
                    unit)

import va_order  # noqa: E402  (va_kit puts scripts/analysis on the path)
from va_world import VECTORS  # noqa: E402

TIMER = 1       # rules.VECTORS.index("TIMER")
SOFTIRQ = "void(%struct.softirq_action*)"


def lock_cons(names: list[str]) -> list[list[str]]:
    return [["addr", f"c:{n}", f"G:{n}"] for n in names]


class Masks(unittest.TestCase):
    a: va_order.Analysis

    @classmethod
    def setUpClass(cls) -> None:
        funcs = [
            straight("init", [0]),              # open_softirq(TIMER, th)
            straight("th", [1, 2], proto=SOFTIRQ),              # lc
            straight("sec", [3, 4, 5], loc="sec.c:1"),          # lb_bh { helper() }
            straight("helper", [6, 7]),                         # la
            straight("other", [8, 9, 10, 11]),                  # lc { la }
            straight("leaky", [12]),                            # ld_bh, never released
            straight("sec2", [13, 14, 15]),                     # le_bh { drop() }
            straight("drop", [16, 17, 18, 19]),                 # unlock le; lf; lock le
            straight("deep", [20, 21, 22, 23]),                 # la { lg }
        ]
        calls = [call("init", "open_softirq", ["", "c:th"], consts=[TIMER, None]),
                 call("th", LOCK, ["c:lc"]), call("th", UNLOCK, ["c:lc"]),
                 call("sec", LOCK_BH, ["c:lb"], loc="sec.c:3"), call("sec", "helper"),
                 call("sec", UNLOCK_BH, ["c:lb"]),
                 call("helper", LOCK, ["c:la"]), call("helper", UNLOCK, ["c:la"]),
                 call("other", LOCK, ["c:lc"]), call("other", LOCK, ["c:la"]),
                 call("other", UNLOCK, ["c:la"]), call("other", UNLOCK, ["c:lc"]),
                 call("leaky", LOCK_BH, ["c:ld"], loc="leaky.c:2"),
                 call("sec2", LOCK_BH, ["c:le"], loc="sec2.c:2"), call("sec2", "drop"),
                 call("sec2", UNLOCK_BH, ["c:le"]),
                 call("drop", UNLOCK, ["c:le"]), call("drop", LOCK, ["c:lf"]),
                 call("drop", UNLOCK, ["c:lf"]), call("drop", LOCK, ["c:le"]),
                 call("deep", LOCK, ["c:la"]), call("deep", LOCK, ["c:lg"]),
                 call("deep", UNLOCK, ["c:lg"]), call("deep", UNLOCK, ["c:la"])]
        names = ["la", "lb", "lc", "ld", "le", "lf", "lg"]
        cons = lock_cons(names) + [["addr", "c:th", "FN:th"]]
        cls.a = run(load(unit(funcs, calls, cons=cons, locks=[f"G:{n}" for n in names])))

    def test_order(self) -> None:
        # lf is taken while drop() has let go of le: not ordered after it
        self.assertEqual(dict(self.a.order), {"G:lb": {"G:la"}, "G:lc": {"G:la"},
                                              "G:la": {"G:lg"}})
        self.assertEqual(self.a.order_component(), set())

    def test_sections(self) -> None:
        secs = {s["loc"]: s for s in self.a.sections}
        self.assertEqual(sorted(secs), ["leaky.c:2", "sec.c:3", "sec2.c:2"])
        self.assertEqual(secs["sec.c:3"]["classes"], ["G:lb"])
        self.assertEqual(secs["sec.c:3"]["inner"], ["G:la"])
        self.assertNotIn("G:lf", secs["sec2.c:2"]["inner"])

    def test_class_masks(self) -> None:
        self.assertEqual(self.a.cmask["G:lc"], {"TIMER"})
        self.assertEqual(self.a.cmask_why["G:lc"]["TIMER"], ("takes", "G:lc"))
        # la is taken under lc, which TIMER takes
        self.assertEqual(self.a.cmask["G:la"], {"TIMER"})
        self.assertEqual(self.a.cmask_why["G:la"]["TIMER"], ("before", "G:lc"))
        # and lg under la: the evidence names the lock TIMER takes
        self.assertEqual(self.a.cmask_why["G:lg"]["TIMER"], ("before", "G:lc"))
        self.assertEqual(self.a.cmask.get("G:lb", set()), set())
        self.assertEqual(self.a.before["G:la"], {"G:lb", "G:lc"})

    def test_section_masks(self) -> None:
        secs = {s["loc"]: s for s in self.a.sections}
        self.assertEqual(secs["sec.c:3"]["mask"], {"TIMER"})
        self.assertEqual(secs["sec.c:3"]["why"], "")
        self.assertEqual(secs["leaky.c:2"]["mask"], set(VECTORS))
        self.assertEqual(secs["leaky.c:2"]["why"], "not released in this function on every path")

    def test_bits(self) -> None:
        self.assertEqual(self.a.unbits(self.a.bits({"G:la", "P:x"})), {"G:la", "P:x"})
        self.assertEqual(self.a.bits(frozenset()), 0)

    def test_counts(self) -> None:
        counts = va_order.LockOrder.counts
        self.assertFalse(counts("try", True))       # a trylock never waits
        self.assertTrue(counts("try", False))       # but holds the lock in a section
        self.assertFalse(counts("lock_irq", False))
        self.assertTrue(counts("lock_irq", True))
        self.assertFalse(counts("unlock", True))


class CycleAndUnresolved(unittest.TestCase):
    def test_cycle_and_stored_locks(self) -> None:
        funcs = [
            straight("init", [0]),
            fn("th", {"entry": ([["call", 1], ["call", 2]], [])}, params=["th/%a"],
               proto=SOFTIRQ),                  # lock(p->l), p unknown
            straight("ab", [3, 4, 5, 6]),       # x { y }
            straight("ba", [7, 8, 9, 10]),      # y { x }
            straight("keep", []),               # stores &x into memory
        ]
        calls = [call("init", "open_softirq", ["", "c:th"], consts=[TIMER, None]),
                 call("th", LOCK, ["th/%l"], loc="th.c:4"), call("th", UNLOCK, ["th/%l"]),
                 call("ab", LOCK, ["c:x"]), call("ab", LOCK, ["c:y"]),
                 call("ab", UNLOCK, ["c:y"]), call("ab", UNLOCK, ["c:x"]),
                 call("ba", LOCK, ["c:y"]), call("ba", LOCK, ["c:x"]),
                 call("ba", UNLOCK, ["c:x"]), call("ba", UNLOCK, ["c:y"])]
        cons = lock_cons(["x", "y"]) + [
            ["addr", "c:th", "FN:th"], ["load", "th/%l", "th/%a"],
            ["addr", "keep/%f", "F:%struct.s.0"], ["store", "keep/%f", "c:x"]]
        a = run(load(unit(funcs, calls, cons=cons, locks=["G:x", "G:y"])))
        self.assertEqual(a.order_component(), {"G:x", "G:y"})
        self.assertEqual(dict(a.unresolved_in), {"TIMER": [("th", "th.c:4", "")]})
        self.assertEqual(a.stored_locks(), {"G:x"})
        # the lock th cannot name may be x, whose address is stored; y
        # follows by order
        self.assertEqual(a.cmask["G:x"], {"TIMER"})
        self.assertEqual(a.cmask_why["G:y"]["TIMER"], ("before", "G:x"))
        self.assertIn("cannot resolve", a.vec_ev[("G:x", "TIMER")][2])

    def test_unknown_container_pointer_is_of_its_type(self) -> None:
        """A lock taken by a GEP into a wait queue through a pointer the
        solve cannot name may be any stored wait queue, never a stored
        skb queue; one the solve can name loses the skb queue too."""
        wq, skbq = "%struct.wait_queue_head", "%struct.sk_buff_head"
        funcs = [
            straight("init", [0]),
            fn("th", {"entry": ([["call", 1], ["call", 2], ["call", 3], ["call", 4]], [])},
               params=["th/%a"], proto=SOFTIRQ),
            straight("keep", []),               # stores &wq and &q
        ]
        calls = [call("init", "open_softirq", ["", "c:th"], consts=[TIMER, None]),
                 call("th", LOCK, ["th/%l"], loc="th.c:4"), call("th", UNLOCK, ["th/%l"]),
                 call("th", LOCK, ["th/%m"], loc="th.c:6"), call("th", UNLOCK, ["th/%m"])]
        cons = [["addr", "c:th", "FN:th"], ["load", "th/%l", "th/%a"],
                ["addr", "c:wq", "F:%struct.s.0"], ["addr", "c:q", "F:%struct.s.1"],
                ["addr", "keep/%f", "G:slot"], ["store", "keep/%f", "c:wq"],
                ["store", "keep/%f", "c:q"], ["load", "th/%v", "keep/%f"],
                ["copy", "th/%m", "th/%v"]]
        a = run(load(unit(funcs, calls, cons=cons, locks=["F:%struct.s.0", "F:%struct.s.1"],
                          lock_types={"F:%struct.s.0": wq, "F:%struct.s.1": skbq},
                          ctypes={"th/%l": wq, "th/%m": wq})))
        self.assertEqual(dict(a.unresolved_in), {"TIMER": [("th", "th.c:4", wq)]})
        self.assertEqual(a.stored_locks(), {"F:%struct.s.0", "F:%struct.s.1"})
        self.assertEqual(a.cmask["F:%struct.s.0"], {"TIMER"})
        self.assertEqual(a.cmask["F:%struct.s.1"], set())


class ComponentHubs(unittest.TestCase):
    def test_regions_cut_in_rounds(self) -> None:
        """The held regions that make the order cycle, most edges first:
        an edge given by two functions stays until both are cut."""
        funcs = [straight("ab", [0, 1, 2, 3]),          # x { y }
                 straight("ba", [4, 5, 6, 7, 8, 9]),    # y { x z }
                 straight("ba2", [10, 11, 12, 13]),     # y { x }
                 straight("zy", [14, 15, 16, 17])]      # z { y }

        def nest(f: str, outer: str, inner: list[str]) -> list[list[object]]:
            out = [call(f, LOCK, [f"c:{outer}"])]
            for i in inner:
                out += [call(f, LOCK, [f"c:{i}"]), call(f, UNLOCK, [f"c:{i}"])]
            return out + [call(f, UNLOCK, [f"c:{outer}"])]
        calls = nest("ab", "x", ["y"]) + nest("ba", "y", ["x", "z"]) + \
            nest("ba2", "y", ["x"]) + nest("zy", "z", ["y"])
        a = run(load(unit(funcs, calls, cons=lock_cons(["x", "y", "z"]),
                          locks=["G:x", "G:y", "G:z"])))
        self.assertEqual(a.order_component(), {"G:x", "G:y", "G:z"})
        self.assertEqual(a.order_by[("G:y", "G:x")], {"ba", "ba2"})
        # ba gives two edges; without it y -> x stays (ba2), so x and y
        # stay a cycle until ab goes too
        self.assertEqual(a.component_hubs(), [("ba", 2, 3, 2), ("ab", 1, 2, 0)])

    def test_same_edges_are_one_hub(self) -> None:
        """Functions that give the same edges (the page table lock's
        holders) are one hub: apart, dropping one removes nothing."""
        funcs = [straight("a1", [0, 1, 2, 3]),          # x { y }
                 straight("c1", [4, 5, 6, 7, 8, 9]),    # y { x z }
                 straight("c2", [10, 11, 12, 13, 14, 15]),  # y { x z }
                 straight("z1", [16, 17, 18, 19])]      # z { y }
        calls = []
        for f, outer, inner in (("a1", "x", ["y"]), ("c1", "y", ["x", "z"]),
                                ("c2", "y", ["x", "z"]), ("z1", "z", ["y"])):
            calls.append(call(f, LOCK, [f"c:{outer}"]))
            for i in inner:
                calls += [call(f, LOCK, [f"c:{i}"]), call(f, UNLOCK, [f"c:{i}"])]
            calls.append(call(f, UNLOCK, [f"c:{outer}"]))
        a = run(load(unit(funcs, calls, cons=lock_cons(["x", "y", "z"]),
                          locks=["G:x", "G:y", "G:z"])))
        self.assertEqual(a.component_hubs(), [("c1 (+1 with the same edges)", 2, 2, 0)])


if __name__ == "__main__":
    unittest.main()
