"""Unit tests of scripts/analysis/ir_facts.py's lock types: an array of
locks (nested too) has its element's type, without clang's numbered
suffix, as the lock events compare it with a container type."""
import unittest

import va_kit  # noqa: F401  (puts scripts/analysis on the path)

import ir_facts  # noqa: E402


class LockType(unittest.TestCase):
    def test_array_element(self) -> None:
        self.assertEqual(ir_facts.elem_type("[8 x %struct.wait_queue_head]"),
                         "%struct.wait_queue_head")
        self.assertEqual(ir_facts.elem_type("[2 x [4 x %struct.spinlock]]"), "%struct.spinlock")
        self.assertEqual(ir_facts.elem_type("%struct.spinlock"), "%struct.spinlock")

    def test_lock_type(self) -> None:
        self.assertEqual(ir_facts.lock_type("[8 x %struct.sk_buff_head.3]"),
                         "%struct.sk_buff_head")
        self.assertEqual(ir_facts.lock_type("%struct.raw_spinlock"), "%struct.raw_spinlock")
        # an array of wait queues is a lock of the LOCKTYPE, a plain array not
        self.assertTrue(ir_facts.LOCKTYPE.match(ir_facts.elem_type("[8 x %struct.wait_queue_head]")))
        self.assertFalse(ir_facts.LOCKTYPE.match(ir_facts.elem_type("[8 x i32]")))


if __name__ == "__main__":
    unittest.main()
