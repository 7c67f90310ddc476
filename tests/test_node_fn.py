"""Unit test of va_world.node_fn(): the function a value node belongs to.
A static function's id holds its file's path, so cutting a node at its
first '/' (what the solve's stores were matched by before) named the
directory, and no store of a static function was matched to its unit."""
import unittest

import va_kit  # noqa: F401  (scripts/analysis on the import path)
import va_world  # noqa: E402


class NodeFn(unittest.TestCase):
    def test_static_function(self) -> None:
        self.assertEqual(va_world.node_fn("kernel/locking/lockdep.c:__lock_acquire/%instance"),
                         "kernel/locking/lockdep.c:__lock_acquire")

    def test_global_function(self) -> None:
        self.assertEqual(va_world.node_fn("lock_acquire/%instance"), "lock_acquire")

    def test_first_slash_is_wrong(self) -> None:
        node = "kernel/rcu/tree.c:rcu_barrier/%rhp"
        self.assertNotEqual(va_world.node_fn(node), node.split("/", 1)[0])


if __name__ == "__main__":
    unittest.main()
