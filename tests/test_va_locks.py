"""Unit tests of scripts/analysis/va_locks.py: a lock wrapper acquires at
its callers with their argument, a function that returns holding a lock
lifts the hold into its callers, a trylock kept without returning its
result is recorded, an acquisition and a release under one test are a
pair that stays put, held regions end at the release, and the events
that run with interrupts off."""
import unittest

from va_kit import (LOCK, LOCK_BH, LOCK_IRQSAVE, TRYLOCK, UNLOCK, UNLOCK_BH,
                    UNLOCK_IRQRESTORE, call, fn, load, run, straight, unit)

import rules  # noqa: E402  (va_kit puts scripts/analysis on the path)
import va_locks  # noqa: E402
from va_world import World  # noqa: E402

LOCKS = ["G:la", "G:lb", "G:lc"]
CONS = [["addr", f"c:{g[2:]}", g] for g in LOCKS]


def events(w: World) -> va_locks.LockEvents:
    a = va_locks.LockEvents(w, [])
    a.solve()
    a.callgraph()
    a.site_events()
    return a


def kinds(a: va_locks.LockEvents, site: int) -> list[tuple[str, list[str], str]]:
    return [(e.kind, sorted(e.classes), e.role) for e in a.events.get(site, [])]


class EventEquality(unittest.TestCase):
    def test_marks_are_not_identity(self) -> None:
        e1 = va_locks.Event("lock", frozenset({"G:la"}), LOCK, "c:la", "real")
        e2 = va_locks.Event("lock", frozenset({"G:la"}), LOCK, "c:la", "real")
        e2.lifted = True
        self.assertEqual(e1, e2)
        self.assertEqual(len({e1, e2}), 1)
        e2.cond = True
        self.assertNotEqual(e1, e2)


class Lifting(unittest.TestCase):
    def setUp(self) -> None:
        funcs = [
            fn("wrap", {"entry": ([["call", 0]], [])}, params=["wrap/%l"]),   # lock(l)
            straight("user", [1, 2]),           # wrap(&la); unlock(&la)
            straight("hold", [3]),              # lock(&lb), returns holding it
            straight("caller", [4, 5]),         # hold(); unlock(&lb)
            straight("tryer", [6]),             # trylock(&lc), result not returned
            straight("trywrap", [7]),           # returns trylock(&lc)
            straight("tryuser", [8, 9, 10]),
            straight("top", [11]),              # caller()
        ]
        calls = [call("wrap", LOCK, ["wrap/%l"]),
                 call("user", "wrap", ["c:la"]), call("user", UNLOCK, ["c:la"]),
                 call("hold", LOCK, ["c:lb"]),
                 call("caller", "hold"), call("caller", UNLOCK, ["c:lb"]),
                 call("tryer", TRYLOCK, ["c:lc"], dst="tryer/%r", proto="i32(i8*)"),
                 call("trywrap", TRYLOCK, ["c:lc"], dst="trywrap/%r", proto="i32(i8*)"),
                 call("tryuser", "tryer"), call("tryuser", "trywrap", dst="tryuser/%t",
                                                proto="i32()"),
                 call("tryuser", UNLOCK, ["c:lc"]), call("top", "caller")]
        cons = CONS + [["copy", "trywrap/#ret", "trywrap/%r"]]
        self.a = events(load(unit(funcs, calls, cons=cons, locks=LOCKS)))

    def test_wrapper_acquires_at_its_callers(self) -> None:
        own = self.a.events[0][0]
        self.assertTrue(own.lifted and own.attributed)
        self.assertEqual(kinds(self.a, 1), [("lock", ["G:la"], "real")])
        self.assertEqual(self.a.events[1][0].node, "c:la")

    def test_hold_lifted_into_callers(self) -> None:
        self.assertTrue(self.a.events[3][0].lifted)
        self.assertEqual(kinds(self.a, 4), [("lock", ["G:lb"], "real")])
        self.assertEqual(self.a.events[4][0].node, "lifted:hold")
        # caller releases it: nothing goes further up
        self.assertFalse(self.a.events[4][0].lifted)
        self.assertEqual(self.a.events.get(11, []), [])

    def test_trylock_kept_or_returned(self) -> None:
        self.assertEqual(dict(self.a.kept_cond), {"c:lc": {"tryer"}})
        self.assertEqual(self.a.events.get(8, []), [])
        # trywrap returns the trylock's result: a conditional hold of its callers
        self.assertEqual(kinds(self.a, 9), [("try", ["G:lc"], "real")])
        self.assertTrue(self.a.events[9][0].cond)


class Regions(unittest.TestCase):
    def setUp(self) -> None:
        funcs = [
            straight("sec", [0, 1, 2, 3]),      # lock_bh(&la); x(); unlock_bh(&la); y()
            fn("br", {"entry": ([["call", 4]], ["b1", "b2"]),     # lock(&lb);
                      "b1": ([["call", 5]], []),                  # if (..) unlock(&lb);
                      "b2": ([], [])}),
            # a BH-off region under a test, released under the same test
            fn("pair", {"entry": ([], ["on", "off"]),
                        "on": ([["call", 6]], ["work"]),
                        "off": ([], ["work"]),
                        "work": ([["call", 7]], ["en", "out"]),
                        "en": ([["call", 8]], ["out"]),
                        "out": ([], [])}),
            straight("pcaller", [9]),
        ]
        calls = [call("sec", LOCK_BH, ["c:la"]), call("sec", "x"),
                 call("sec", UNLOCK_BH, ["c:la"]), call("sec", "y"),
                 call("br", LOCK, ["c:lb"]), call("br", UNLOCK, ["c:lb"]),
                 call("pair", "__local_bh_disable_ip"), call("pair", "z"),
                 call("pair", "__local_bh_enable_ip"), call("pcaller", "pair")]
        self.a = events(load(unit(funcs, calls, cons=CONS, locks=LOCKS)))

    def test_region_ends_at_release(self) -> None:
        start = self.a.events[0][0]
        out, unended, hit = self.a.region("sec", "entry", 0, self.a.ends_for(start))
        self.assertEqual(out, [["call", 1]])
        self.assertFalse(unended)
        self.assertTrue(hit)
        self.assertEqual(self.a.bh_delta(["call", 0]), 1)
        self.assertEqual(self.a.bh_delta(["call", 2]), -1)
        self.assertEqual(self.a.bh_delta(["call", 1]), 0)

    def test_region_reaches_return(self) -> None:
        start = self.a.events[4][0]
        _out, unended, hit = self.a.region("br", "entry", 0, self.a.ends_for(start))
        self.assertTrue(unended)
        self.assertTrue(hit)

    def test_correlated_pair_not_lifted(self) -> None:
        self.assertTrue(self.a.events[6][0].paired)
        self.assertTrue(self.a.events[8][0].paired)
        self.assertFalse(self.a.events[6][0].lifted)
        self.assertEqual(self.a.events.get(9, []), [])


class InterruptState(unittest.TestCase):
    def setUp(self) -> None:
        funcs = [
            straight("irqf", [0, 1, 2, 3]),     # lock_irqsave; x(); unlock_irqrestore; y()
            straight("en", [4]),                # local_irq_enable()
            straight("calls_en", [5]),          # en()
            straight("restorer", [6]),          # local_irq_restore(), no save before
            straight("saver", [7, 8]),          # local_irq_save(); local_irq_restore()
        ]
        calls = [call("irqf", LOCK_IRQSAVE, ["c:la"]), call("irqf", "x"),
                 call("irqf", UNLOCK_IRQRESTORE, ["c:la"]), call("irqf", "y"),
                 call("en", "arch_local_irq_enable"), call("calls_en", "en"),
                 call("restorer", "arch_local_irq_restore"),
                 call("saver", "arch_local_irq_save"), call("saver", "arch_local_irq_restore")]
        self.a = events(load(unit(funcs, calls, cons=CONS, locks=LOCKS)))

    def test_events_with_interrupts_off(self) -> None:
        self.assertEqual(self.a.irq_off_events("irqf"), {("entry", 1), ("entry", 2)})
        self.assertEqual(self.a.irq_off_events("en"), set())

    def test_enablers(self) -> None:
        self.assertEqual(self.a.irq_enablers(), {"en", "calls_en", "restorer"})
        self.assertEqual(self.a.saved_sites("saver"), {8})


if __name__ == "__main__":
    unittest.main()


class LargeCycle(unittest.TestCase):
    """Call-graph cycles above rules.LIFT_CYCLE_MAX (the campaign
    kernel's one cycle of 18,558 functions), here by lowering the limit.
    hold() takes h and its callee drop() drops it (ep_remove() and
    ep_remove_file()); find() returns holding k, and walk() takes k
    through it and drops it (find_lock_task_mm() and oom_badness()).
    enter() enters each cycle at its inner function, so the call graph's
    order judges hold() before drop() and walk() before find()."""

    def setUp(self) -> None:
        self.saved = rules.LIFT_CYCLE_MAX, rules.LIFT_JUDGE_FACTOR
        rules.LIFT_CYCLE_MAX = 1
        funcs = [
            straight("enter", [12, 13]),        # drop(); find()
            straight("top", [4, 5, 6, 9]),      # hold(); lock(t); unlock(t); walk()
            straight("hold", [0, 1]),           # lock(h); drop()
            straight("drop", [2, 3]),           # unlock(h); hold()
            straight("walk", [7, 8]),           # find(); unlock(k)
            straight("find", [10, 11]),         # walk(); lock(k)
        ]
        calls = [call("hold", LOCK, ["c:la"]), call("hold", "drop"),
                 call("drop", UNLOCK, ["c:la"]), call("drop", "hold"),
                 call("top", "hold"), call("top", LOCK, ["c:lb"]),
                 call("top", UNLOCK, ["c:lb"]),
                 call("walk", "find"), call("walk", UNLOCK, ["c:lc"]),
                 call("top", "walk"),
                 call("find", "walk"), call("find", LOCK, ["c:lc"]),
                 call("enter", "drop"), call("enter", "find")]
        self.w = unit(funcs, calls, cons=CONS, locks=LOCKS)

    def tearDown(self) -> None:
        rules.LIFT_CYCLE_MAX, rules.LIFT_JUDGE_FACTOR = self.saved

    def test_settled_within_the_once_judged_lifts(self) -> None:
        a = events(load(self.w))
        self.assertEqual(a.lift_unsettled, [])
        # hold() returns with h dropped: top() holds nothing after it
        self.assertEqual(kinds(a, 4), [])
        # find() returns holding k; walk() drops it, not its caller's lock
        self.assertEqual(kinds(a, 7), [("lock", ["G:lc"], "real")])
        self.assertEqual(kinds(a, 9), [])
        self.assertEqual(kinds(a, 12), [("unlock", ["G:la"], "real")])

    def test_judged_once_when_not_settling(self) -> None:
        # no judgement left for the rounds: the once-judged lifts stand,
        # with their stale hold of h in top() and walk()'s unlock lifted
        # as a release of its callers' lock
        rules.LIFT_JUDGE_FACTOR = 0
        a = events(load(self.w))
        self.assertEqual(a.lift_unsettled, [2, 2])
        self.assertIn(("lock", ["G:la"], "real"), kinds(a, 4))
        self.assertIn(("unlock", ["G:lc"], "real"), kinds(a, 9))

    def test_hold_missed_once_stays_in_its_function(self) -> None:
        # g() returns holding la; f(), judged before g() in the call
        # graph's order, calls it and takes lb: judged once, f() does not
        # lift the hold (g() had lifted nothing yet) but holds la to its
        # return, so la is ordered before lb.  Settling may not lift the
        # hold (not lifted once) and may not drop it either.
        funcs = [straight("enter", [5]),       # g()
                 straight("g", [0, 1]),        # f(); lock(la)
                 straight("f", [2, 3, 4])]     # g(); lock(lb); unlock(lb)
        calls = [call("g", "f"), call("g", LOCK, ["c:la"]),
                 call("f", "g"), call("f", LOCK, ["c:lb"]), call("f", UNLOCK, ["c:lb"]),
                 call("enter", "g")]
        a = run(load(unit(funcs, calls, cons=CONS, locks=LOCKS)), until="sections_and_order")
        self.assertEqual(a.lift_unsettled, [])
        self.assertEqual(kinds(a, 0), [])
        self.assertIn("G:lb", a.order.get("G:la", set()))
