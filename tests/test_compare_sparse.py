"""Unit tests of scripts/kernel/compare-sparse.py: moved warnings are old, extra
copies and new messages are new."""
import tempfile
import unittest
from pathlib import Path

from script_module import load

cs = load("compare_sparse", Path("scripts/kernel/compare-sparse.py"))

OLD = """\
  CHECK   ../linux/net/core/sock.c
../linux/net/core/sock.c:120:9: warning: context imbalance in 'f' - wrong count at exit
../linux/include/linux/skbuff.h:30:1: warning: symbol 'x' was not declared. Should it be static?
"""
MOVED = """\
  CHECK   /root/.cache/softirq-mask/linux/net/core/sock.c
/root/.cache/softirq-mask/linux/net/core/sock.c:131:9: warning: context imbalance in 'f' - wrong count at exit
../linux/include/linux/skbuff.h:33:1: warning: symbol 'x' was not declared. Should it be static?
"""


class CompareTest(unittest.TestCase):
    def run_cmp(self, old: str, new: str) -> int:
        with tempfile.TemporaryDirectory() as d:
            a, b = Path(d) / "a", Path(d) / "b"
            a.write_text(old)
            b.write_text(new)
            return int(cs.main(["x", str(a), str(b)]))

    def test_moved_lines_are_not_new(self) -> None:
        self.assertEqual(self.run_cmp(OLD, MOVED), 0)

    def test_new_message_is_new(self) -> None:
        extra = MOVED + "../linux/net/core/sock.c:200:5: warning: incorrect type in argument 1\n"
        self.assertEqual(self.run_cmp(OLD, extra), 1)

    def test_second_copy_is_new(self) -> None:
        extra = MOVED + "../linux/net/core/sock.c:300:9: warning: context imbalance in 'f' - wrong count at exit\n"
        self.assertEqual(self.run_cmp(OLD, extra), 1)

    def test_removed_warning_is_fine(self) -> None:
        self.assertEqual(self.run_cmp(OLD, ""), 0)

    def test_paths_keep_their_kernel_part(self) -> None:
        self.assertEqual(cs.normalize("../linux/include/linux/skbuff.h"), "include/linux/skbuff.h")
        self.assertEqual(cs.normalize("/w/linux/net/core/sock.c"), "net/core/sock.c")

    def test_unreadable_input(self) -> None:
        self.assertEqual(cs.main(["x", "/nonexistent", "/nonexistent"]), 2)


if __name__ == "__main__":
    unittest.main()
