"""Unit tests of scripts/analysis/va_callgraph.py: the prototype fallback
of indirect calls, overrides that cut call edges (and their hashes), the
call graph's components, and the barriers: functions that sleep on every
path, what a function runs only after sleeping, allocations that may
sleep."""
import os
import tempfile
import unittest

from va_kit import call, fn, load, straight, unit

import va_callgraph  # noqa: E402  (va_kit puts scripts/analysis on the path)
from va_world import World  # noqa: E402

GFP_KERNEL = 0xcc0


def graph(w: World, overrides: list[dict[str, str]] | None = None) -> va_callgraph.CallGraph:
    g = va_callgraph.CallGraph(w, overrides or [])
    g.solve()
    g.callgraph()
    return g


class IndirectCalls(unittest.TestCase):
    def setUp(self) -> None:
        # run() calls through a pointer loaded from its parameter (may be
        # anything) and through ops.1, a field nothing is stored into;
        # reg() stores h1 and h2 into ops.0, so both are address-taken
        cons = [["addr", "c:h1", "FN:h1"], ["addr", "c:h2", "FN:h2"],
                ["addr", "reg/%f", "F:%struct.ops.0"],
                ["store", "reg/%f", "c:h1"], ["store", "reg/%f", "c:h2"],
                ["load", "run/%fp", "run/%o"],
                ["addr", "run/%f1", "F:%struct.ops.1"], ["load", "run/%fp1", "run/%f1"]]
        funcs = [straight("reg", []), fn("run", {"entry": ([["call", 0], ["call", 1]], [])},
                                         params=["run/%o"]),
                 straight("h1", [], proto="void(i8*)"), straight("h2", [], proto="void(i32)"),
                 straight("h3", [], proto="void(i8*)")]
        calls = [call("run", "", fp="run/%fp", proto="void(i8*)", loc="run.c:5"),
                 call("run", "", fp="run/%fp1", proto="void(i8*)", loc="run.c:6")]
        self.g = graph(load(unit(funcs, calls, cons=cons)))

    def test_unknown_pointer_reaches_taken_functions_of_its_prototype(self) -> None:
        # h2 is of another prototype, h3's address is never taken
        self.assertEqual(self.g.s.targets[0], {"h1"})
        self.assertEqual(self.g.proto_bound, {(0, "h1")})
        self.assertEqual(self.g.by_prototype(0, "h1"), ", bound by prototype")
        self.assertEqual(self.g.callees["run"], [(0, "h1")])
        self.assertEqual(self.g.callers["h1"], [0])

    def test_known_empty_field_calls_nothing(self) -> None:
        self.assertEqual(self.g.s.targets.get(1, set()), set())

    def test_precision_table(self) -> None:
        prec = self.g.precision()
        # two indirect sites: one target and none
        self.assertEqual(prec["typed"], (2, 0.5))
        self.assertEqual(prec["prototype-only"], (2, 1.0))


class Overrides(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        with open(os.path.join(self.tmp.name, "a.c"), "w", encoding="utf-8") as f:
            f.write("int x;\n\tb();  \nc();\n")
        funcs = [straight("a", [0, 1]), straight("b", []), straight("c", [])]
        self.w = load(unit(funcs, [call("a", "b", loc="a.c:2"), call("a", "c", loc="a.c:3")]))

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def test_hash_is_of_the_stripped_line(self) -> None:
        h = va_callgraph.override_hash(self.tmp.name, ["a.c:2"])
        self.assertEqual(h, va_callgraph.override_hash(self.tmp.name, ["a.c:2"]))
        self.assertEqual(len(h), 16)
        with open(os.path.join(self.tmp.name, "a.c"), "w", encoding="utf-8") as f:
            f.write("\n\n\nb();\n")
        # moved and reindented: the same hash
        self.assertEqual(va_callgraph.override_hash(self.tmp.name, ["a.c:4"]), h)

    def test_cut_edge(self) -> None:
        h = va_callgraph.override_hash(self.tmp.name, ["a.c:2"])
        g = graph(self.w, [{"caller": "a", "callee": "b", "hash": h, "reason": "r"}])
        self.assertEqual(g.callees["a"], [(1, "c")])
        self.assertEqual(g.cut_used, {("a", "b")})
        self.assertEqual(g.check_overrides(self.tmp.name), [])

    def test_stale_and_useless_overrides(self) -> None:
        g = graph(self.w, [{"caller": "a", "callee": "b", "hash": "0" * 16, "reason": "r"},
                           {"caller": "b", "callee": "c", "hash": "0" * 16, "reason": "r"}])
        errors = g.check_overrides(self.tmp.name)
        self.assertEqual(len(errors), 2)
        self.assertIn("override a -> b is stale", errors[0])
        self.assertEqual(errors[1], "override b -> c cuts no call edge")

    def test_read_overrides(self) -> None:
        path = os.path.join(self.tmp.name, "ov.txt")
        with open(path, "w", encoding="utf-8") as f:
            f.write("# a comment\n\ncut a b 0123456789abcdef the reason, in words\n")
        self.assertEqual(va_callgraph.read_overrides(path),
                         [{"caller": "a", "callee": "b", "hash": "0123456789abcdef",
                           "reason": "the reason, in words"}])
        with open(path, "w", encoding="utf-8") as f:
            f.write("cut a b\n")
        with self.assertRaises(SystemExit):
            va_callgraph.read_overrides(path)


class Barriers(unittest.TestCase):
    def setUp(self) -> None:
        funcs = [
            straight("s1", [0]),                        # might_sleep() on its one path
            straight("s2", [1]),                        # calls s1
            fn("early", {"entry": ([], ["b1", "b2"]),   # returns before sleeping on b2
                         "b1": ([["call", 2], ["call", 3]], []),
                         "b2": ([], [])}),
            straight("alloc", [4]),                     # kmalloc(size, GFP_KERNEL)
            straight("atomic", [5]),                    # kmalloc(size, GFP_ATOMIC)
            straight("top", [6, 7]),
        ]
        calls = [call("s1", "__might_sleep"), call("s2", "s1"),
                 call("early", "__might_sleep"), call("early", "x"),
                 call("alloc", "kmalloc", ["", ""], consts=[64, GFP_KERNEL]),
                 call("atomic", "kmalloc", ["", ""], consts=[64, 0x820]),
                 call("top", "early"), call("top", "do_softirq")]
        self.g = graph(load(unit(funcs, calls)))

    def test_sleepers(self) -> None:
        self.assertEqual(self.g.sleepers(), {"s1", "s2", "alloc"})

    def test_post_sleep(self) -> None:
        # early's call of x follows a sleep on every path that reaches it
        self.assertEqual(self.g.post_sleep()["early"], {("b1", 1)})
        self.assertEqual(self.g.post_sleep_sites()["early"], {3})
        self.assertNotIn("top", self.g.post_sleep())

    def test_marker_calls_and_barriers(self) -> None:
        self.assertTrue(self.g.marker_call(4))
        self.assertFalse(self.g.marker_call(5))
        self.assertTrue(self.g.is_barrier("do_softirq"))
        self.assertTrue(self.g.is_barrier("_raw_spin_lock"))
        self.assertFalse(self.g.is_barrier("s1"))

    def test_bottom_up(self) -> None:
        order = self.g.bottom_up()
        self.assertLess(order.index("s1"), order.index("s2"))
        self.assertLess(order.index("early"), order.index("top"))


if __name__ == "__main__":
    unittest.main()
