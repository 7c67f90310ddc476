"""Unit tests of scripts/convert/mask-decls.py: a mask variable counts as
declared only in the function that declares it (packet_getsockopt() and
packet_ioctl() in net/packet/af_packet.c use the same variable name, and
spatch could place the declaration in the first only)."""
import unittest
from pathlib import Path

from script_module import load

md = load("mask_decls", Path("scripts/convert/mask-decls.py"))

TWO = """static int getsockopt(struct sock *sk)
{
	unsigned int sk_q_lock_bh;
	int len;

	sk_q_lock_bh = spin_lock_bh_mask(&sk->q.lock,
					 BIT(NET_RX_SOFTIRQ));
	spin_unlock_bh_mask(&sk->q.lock, sk_q_lock_bh);
	return 0;
}

static int ioctl(struct sock *sk)
{
	int amount = 0;

	sk_q_lock_bh = spin_lock_bh_mask(&sk->q.lock, BIT(NET_RX_SOFTIRQ));
	amount = sk->q.len;
	spin_unlock_bh_mask(&sk->q.lock, sk_q_lock_bh);
	return amount;
}
"""


class Undeclared(unittest.TestCase):
    def test_declared_in_another_function_only(self) -> None:
        self.assertEqual(md.undeclared(TWO), [(13, "sk_q_lock_bh")])

    def test_declared_in_each_function(self) -> None:
        fixed = TWO.replace("\tint amount = 0;\n", "\tunsigned int sk_q_lock_bh;\n\tint amount = 0;\n")
        self.assertEqual(md.undeclared(fixed), [])

    def test_local_bh_disable_mask(self) -> None:
        text = "void f(void)\n{\n\tv = local_bh_disable_mask(0);\n\tlocal_bh_enable_mask(v);\n}\n"
        self.assertEqual(md.undeclared(text), [(2, "v")])


class Declare(unittest.TestCase):
    def test_declared_first_in_the_body(self) -> None:
        fixed = md.declare(TWO)
        self.assertEqual(md.undeclared(fixed), [])
        lines = fixed.split("\n")
        self.assertEqual(lines[12:14], ["{", "\tunsigned int sk_q_lock_bh;"])
        # the function that had its declaration is left as it was
        self.assertEqual(fixed.count("unsigned int sk_q_lock_bh;"), 2)


if __name__ == "__main__":
    unittest.main()
