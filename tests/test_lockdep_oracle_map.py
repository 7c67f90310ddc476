"""Unit tests of the lockdep oracle's class naming
(scripts/analysis/lockdep-oracle.py, Mapper.map()): how a lockdep class
name finds the analysis's classes."""
import unittest
from pathlib import Path
from typing import Any

from script_module import load

oracle = load("lockdep_oracle", Path("scripts/analysis/lockdep-oracle.py"))

STATIC: dict[str, Any] = {"kernel/time/timekeeping.c:tk_core": {}, "kernel/x.c:jiffies_lock": {},
          "seqcount_rwlock.seqcount": {}, "sock.sk_lock": {}}


class SeqcountNames(unittest.TestCase):
    def setUp(self) -> None:
        self.m = oracle.Mapper(STATIC, [], {})

    def test_seqlock_counter_is_its_symbol(self) -> None:
        # DEFINE_SEQLOCK(jiffies_lock): lockdep's "jiffies_lock.seqcount"
        self.assertEqual(self.m.map("jiffies_lock.seqcount"),
                         ("symbol", ["kernel/x.c:jiffies_lock"]))

    def test_counter_in_a_static_struct_is_its_symbol(self) -> None:
        # SEQCNT_RAW_SPINLOCK_ZERO(tk_core.seq, ...) in the static tk_core:
        # lockdep's "tk_core.seq.seqcount" is tk_core, not the field
        # "seqcount" of some other struct
        self.assertEqual(self.m.map("tk_core.seq.seqcount"),
                         ("symbol", ["kernel/time/timekeeping.c:tk_core"]))

    def test_field_of_a_pointer_is_still_a_field(self) -> None:
        self.assertEqual(self.m.map("&s->seqcount"), ("field", ["seqcount_rwlock.seqcount"]))


class HardIrqUsage(unittest.TestCase):
    def test_taken_in_hard_irq(self) -> None:
        # i8042_lock in the campaign-check boot: hard irq, and RCU
        self.assertTrue(oracle.in_hardirq("-...................-."))
        self.assertEqual(oracle.usage_vectors("-...................-."), {"RCU"})

    def test_softirq_only(self) -> None:
        self.assertFalse(oracle.in_hardirq("+...-...............-."))
        self.assertFalse(oracle.in_hardirq("......................"))


if __name__ == "__main__":
    unittest.main()
