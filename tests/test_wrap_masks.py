"""Unit tests of scripts/convert/wrap-masks.py: a converted call deep in a
function stays within checkpatch's 100 columns (packet_getsockopt()'s
section in net/packet/af_packet.c reached 108 after the first split)."""
import unittest
from pathlib import Path

from script_module import load

wm = load("wrap_masks", Path("scripts/convert/wrap-masks.py"))

# the mask line spatch writes under "spin_lock_bh_mask(" of
# "\t\tsk_sk_receive_queue_lock_bh = spin_lock_bh_mask(&sk->...lock," (column 64)
DEEP = "\t" * 8 + "SOFTIRQ_ALL_MASK & ~(BIT(BLOCK_SOFTIRQ) | BIT(SCHED_SOFTIRQ)));\n"


class Wrap(unittest.TestCase):
    def test_short_line_kept(self) -> None:
        line = "\tx = spin_lock_bh_mask(&l, SOFTIRQ_ALL_MASK & ~BIT(HI_SOFTIRQ));\n"
        self.assertEqual(wm.wrap(line), [line])

    def test_split_after_the_and(self) -> None:
        # under "\tn_tbl_lock_bh = write_lock_bh_mask(" (column 43)
        line = "\t" * 5 + "   SOFTIRQ_ALL_MASK & ~(BIT(BLOCK_SOFTIRQ) | BIT(SCHED_SOFTIRQ)));\n"
        out = wm.wrap(line)
        self.assertEqual(len(out), 2)
        self.assertTrue(out[0].endswith("SOFTIRQ_ALL_MASK &\n"))
        self.assertTrue(all(wm.width(x.rstrip("\n")) <= 100 for x in out))

    def test_deep_call_split_inside_the_parenthesis(self) -> None:
        out = wm.wrap(DEEP)
        self.assertTrue(all(wm.width(x.rstrip("\n")) <= 100 for x in out), out)
        self.assertEqual("".join(out).replace("\n", " ").split(),
                         DEEP.replace("\n", " ").split())
        # the vector after the "|" sits under the first one, inside "~("
        col = wm.width(out[1]) - len(out[1].lstrip())
        self.assertEqual(wm.width(out[2]) - len(out[2].lstrip()), col + 2)

    def test_spaces_where_a_tab_goes(self) -> None:
        # spatch's layout in addrconf_dad_begin(): 4 tabs and 8 spaces
        line = "\t\t\t\t        SOFTIRQ_ALL_MASK & ~BIT(HI_SOFTIRQ));\n"
        self.assertEqual(wm.wrap(line), ["\t\t\t\t\tSOFTIRQ_ALL_MASK & ~BIT(HI_SOFTIRQ));\n"])


if __name__ == "__main__":
    unittest.main()
