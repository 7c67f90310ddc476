"""Unit tests of scripts/analysis/va_pointsto.py: prototypes fit as kCFI
would let them, a function stored into a field reaches the indirect call
that loads it, a load through a pointer of unknown target is UNKNOWN,
stores through such a pointer escape, per-CPU addresses reach a
helper's writes only at the calls that pass them, and an allocator's
result is fresh memory, not what its body returns."""
import unittest

from va_kit import call, fn, load, straight, unit

import va_pointsto  # noqa: E402  (va_kit puts scripts/analysis on the path)
from va_world import World  # noqa: E402


def solved(w: World) -> va_pointsto.PointsTo:
    """The first layer with the solve run (no prototype fallback)."""
    p = va_pointsto.PointsTo(w, [])
    p.s.setup()
    p.s.run()
    return p


class Prototypes(unittest.TestCase):
    def test_parts(self) -> None:
        self.assertEqual(va_pointsto.proto_parts("void(%struct.sk_buff*, i8*, i32)"),
                         ("void", "%struct.sk_buff*", "ptr", "i32"))
        self.assertIsNone(va_pointsto.proto_parts("i32(i8*, ...)"))

    def test_fits(self) -> None:
        fits = va_pointsto.proto_fits
        # a callback declared with void * and defined with struct foo *
        self.assertTrue(fits("void(i8*)", "void(%struct.foo*)"))
        self.assertFalse(fits("void(%struct.bar*)", "void(%struct.foo*)"))
        self.assertFalse(fits("void(i8*)", "void(i8*, i32)"))
        self.assertFalse(fits("i32(i8*)", "void(i8*)"))
        self.assertTrue(fits("i32(i8*, ...)", "void(%struct.foo*)"))


class Solve(unittest.TestCase):
    def test_field_store_reaches_indirect_call(self) -> None:
        cons = [["addr", "c:h", "FN:h"], ["addr", "c:k", "FN:k"],
                ["addr", "reg/%f", "F:%struct.ops.0"],
                ["store", "reg/%f", "c:h"], ["store", "reg/%f", "c:k"],
                ["addr", "run/%f", "F:%struct.ops.0"], ["load", "run/%fp", "run/%f"]]
        funcs = [straight("reg", []), straight("run", [0]),
                 straight("h", [], proto="void(%struct.sk_buff*)"),
                 straight("k", [], proto="void(%struct.sk_buff*, i32)")]
        p = solved(load(unit(funcs, [call("run", "", fp="run/%fp", proto="void(i8*)")],
                             cons=cons)))
        self.assertEqual(p.fnodes("run/%fp"), {"h", "k"})
        # k does not fit the call's prototype: not a target
        self.assertEqual(p.s.targets[0], {"h"})
        # a field the solve knows: nothing escapes
        self.assertEqual(p.escaping("FN:"), set())

    def test_unknown_pointer(self) -> None:
        cons = [["load", "p/%v", "p/%o"], ["load", "p/%d", "p/%o", "data"],
                ["addr", "c:h", "FN:h"], ["store", "p/%o", "c:h"]]
        funcs = [fn("p", params=["p/%o"]), straight("h", [])]
        p = solved(load(unit(funcs, [], cons=cons)))
        self.assertIn(va_pointsto.UNKNOWN, p.s.pts["p/%v"])
        self.assertEqual(p.s.pts["p/%d"], {va_pointsto.DUNKNOWN})
        self.assertTrue(p.unknown_ptr("p/%d"))
        # stored through a parameter: any load the solve cannot name may
        # give it back
        self.assertEqual(p.escaping("FN:"), {"h"})

    def test_passed_out_of_the_world_escapes(self) -> None:
        cons = [["addr", "c:h", "FN:h"]]
        calls = [call("f", "register_ext", ["c:h"]), call("f", "_raw_spin_lock", ["c:h"])]
        p = solved(load(unit([straight("f", [0, 1]), straight("h", [])], calls, cons=cons)))
        self.assertEqual(p.args_leaving_world(), ["c:h"])
        self.assertEqual(p.escaping("FN:"), {"h"})

    def test_percpu_write_through_helper_parameter(self) -> None:
        cons = [["addr", "c:pv", "G:pv"], ["addr", "c:pv", "P:pv"],
                ["addr", "c:g", "G:plain"]]
        inc = fn("inc", {"entry": ([["st", "inc/%p", "inc.c:2"]], [])}, params=["inc/%p"])
        calls = [call("f", "inc", ["c:pv"], loc="f.c:1"), call("f", "inc", ["c:g"], loc="f.c:2")]
        p = solved(load(unit([inc, straight("f", [0, 1])], calls, cons=cons)))
        p.percpu_params()
        self.assertEqual(p.wparam, {"inc": {0}})
        # the per-CPU address does not travel into the parameter ...
        self.assertNotIn("P:pv", p.s.pts.get(p.s.find("inc/%p"), set()))
        # ... the call that passes it writes per-CPU data, the other not
        self.assertEqual(p.percpu_at(0, True), {"P:pv"})
        self.assertEqual(p.percpu_at(0, False), set())
        self.assertEqual(p.percpu_at(1, True), set())

    def test_classes_and_percpu_of(self) -> None:
        cons = [["addr", "f/%l", "G:lk"], ["addr", "f/%m", "G:other"], ["addr", "f/%x", "P:cnt"],
                ["copy", "f/%y", "f/%l"], ["copy", "f/%y", "f/%m"]]
        p = solved(load(unit([straight("f", [])], [], cons=cons, locks=["G:lk"])))
        # a lock travels along copies; the address of other data does not
        self.assertEqual(p.classes_of("f/%y"), {"G:lk"})
        self.assertEqual(p.classes_of("f/%m"), {"G:other"})
        self.assertEqual(p.percpu_of(["st", "f/%x", "f.c:1"]), {"P:cnt"})
        self.assertEqual(p.percpu_of(["st", "f/%l", "f.c:1"]), set())


class Allocations(unittest.TestCase):
    def test_result_is_the_site_not_the_body(self) -> None:
        # kmalloc's body returns what it loads from a freelist that once
        # held lk's address; a caller casts one result to a lock pointer
        # (lock_casts) and keeps the other as data
        cons = [["addr", "c:lk", "G:lk"], ["addr", "c:fl", "G:fl"],
                ["store", "c:fl", "c:lk"], ["load", "kmalloc/%p", "c:fl"],
                ["copy", "kmalloc/#ret", "kmalloc/%p"]]
        funcs = [straight("kmalloc", []), straight("setup", [0, 1])]
        calls = [call("setup", "kmalloc", dst="setup/%call"),
                 call("setup", "kmalloc", dst="setup/%call1")]
        w = load(unit(funcs, calls, cons=cons, locks=["G:lk"],
                      lock_casts={"setup/%call": "%struct.spinlock"}))
        p = solved(w)
        self.assertEqual(p.s.pts["setup/%call"], {"H:setup/%call"})
        self.assertEqual(p.s.pts["setup/%call1"], {va_pointsto.DUNKNOWN})
        self.assertEqual(w.lock_types["H:setup/%call"], "%struct.spinlock")
        self.assertEqual(w.class_name("H:setup/%call"), "kmalloc()@setup.c:kmalloc")
        # a function that is no allocator returns what its body returns
        self.assertIn("G:lk", p.s.pts["kmalloc/#ret"])


if __name__ == "__main__":
    unittest.main()
