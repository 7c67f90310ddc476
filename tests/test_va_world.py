"""Unit tests of scripts/analysis/va_world.py: fact files are merged into
one world (call sites renumbered, the first definition kept), names for
people, the alloc_percpu() classes, the types of lock locations,
Tarjan's components, mask strings."""
import unittest

from va_kit import call, load, straight, unit

import va_world  # noqa: E402  (va_kit puts scripts/analysis on the path)


class Load(unittest.TestCase):
    def test_sites_renumbered_first_definition_kept(self) -> None:
        a = unit([straight("f", [0])], [call("f", "g")], tu="a.c")
        # b.c defines g, calling h, and a second f (weak): the first stays
        b = unit([straight("g", [0]), straight("f", [])], [call("g", "h")], tu="b.c")
        w = load(a, b)
        self.assertEqual(w.fn_tu["f"], "a.c")
        self.assertEqual(w.functions["f"]["blocks"]["entry"][0], [["call", 0]])
        # g's call is the world's site 1, after a.c's one call
        self.assertEqual(w.functions["g"]["blocks"]["entry"][0], [["call", 1]])
        self.assertEqual(w.calls[1][:2], ["g", "h"])
        # g is defined in b.c: no longer a declaration
        self.assertEqual(w.declared, {"h"})

    def test_generic_percpu_points_to_every_typed_class(self) -> None:
        cons = [["addr", "f/%p", "P:alloc_percpu"], ["addr", "g/%q", "P:alloc_percpu:foo"],
                ["addr", "g/%r", "P:alloc_percpu:bar"]]
        u = unit([straight("f", []), straight("g", [])], [], cons=cons,
                 pcpu_alias=[["P:alloc_percpu:foo", "P:alloc_percpu:bar"]])
        w = load(u)
        # foo and bar are joined, under the smaller name
        self.assertEqual(w.pcpu_merged, 1)
        self.assertIn(["addr", "g/%q", "P:alloc_percpu:bar"], w.cons)
        self.assertNotIn(["addr", "g/%q", "P:alloc_percpu:foo"], w.cons)
        # a pointer to no struct may be any of them
        self.assertIn(["addr", "f/%p", "P:alloc_percpu:bar"], w.cons)


class Naming(unittest.TestCase):
    def setUp(self) -> None:
        fields = {"%struct.foo.0": ["=lock"], "%struct.foo.1": ["q1", "q2"]}
        f = straight("d/x.c:helper", [], internal=True, loc="include/h.h:3")
        self.w = load(unit([f, straight("g", [])], [call("g", "_raw_spin_lock")],
                           fields=fields))

    def test_class_names(self) -> None:
        name = self.w.class_name
        self.assertEqual(name("F:%struct.foo.0"), "foo.lock")
        # numbered names of one stem: the stem
        self.assertEqual(name("F:%struct.foo.1"), "foo.q")
        self.assertEqual(name("G:jiffies_lock"), "jiffies_lock")
        self.assertEqual(name("P:softnet_data"), "percpu:softnet_data")
        self.assertEqual(name("A:f/%buf"), "f:buf")

    def test_functions(self) -> None:
        # a static function is named by the file that defines it
        self.assertEqual(self.w.disp("d/x.c:helper"), "include/h.h:helper")
        self.assertEqual(self.w.disp("g"), "g")
        self.assertEqual(self.w.prim("_raw_spin_lock"), "_raw_spin_lock")
        self.assertEqual(self.w.prim("g"), "")


class LockTypes(unittest.TestCase):
    def test_lock_type_and_container_filter(self) -> None:
        wq, skbq = "%struct.wait_queue_head", "%struct.sk_buff_head"
        # as ir_facts.py writes them (tests/test_ir_facts.py: an array of
        # wait queues is a wait queue lock)
        w = load(unit([], [], locks=["F:%struct.s.0", "F:%struct.s.1", "G:table", "G:l"],
                      lock_types={"F:%struct.s.0": wq, "F:%struct.s.1": skbq,
                                  "G:table": wq, "G:l": "%struct.spinlock"}))
        # no lock, no type
        self.assertEqual(w.lock_type("G:table"), wq)
        self.assertEqual(w.lock_type("F:%struct.s.1"), skbq)
        self.assertEqual(w.lock_type("F:%struct.t.0"), "")
        every = ["F:%struct.s.0", "F:%struct.s.1", "G:table", "G:l", "A:f/%x"]
        # through a wait queue: no skb queue, no plain spinlock; an
        # object of no known lock type may still be one
        self.assertEqual(w.of_container(every, wq), {"F:%struct.s.0", "G:table", "A:f/%x"})
        self.assertEqual(w.of_container(every, ""), set(every))


class Helpers(unittest.TestCase):
    def test_strong_components_callees_first(self) -> None:
        succ: dict[str, list[str]] = {"a": ["b"], "b": ["a", "c"], "c": [], "d": ["c"]}
        comps = va_world.strong_components(["a", "d"], lambda n: succ[n])
        self.assertEqual([sorted(c) for c in comps], [["c"], ["a", "b"], ["d"]])

    def test_mask_str(self) -> None:
        self.assertEqual(va_world.mask_str([]), "NONE")
        self.assertEqual(va_world.mask_str(va_world.VECTORS), "ALL")
        # the order of VECTORS, not of the argument
        self.assertEqual(va_world.mask_str(["TIMER", "HI"]), "HI|TIMER")


if __name__ == "__main__":
    unittest.main()
