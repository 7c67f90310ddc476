"""Unit tests of semantic-patches/bh_lock_mask.py, the decisions of
bh_lock_mask.cocci, without spatch: positions are stand-ins with the
attributes spatch's have, the find rules' results are filled in by hand."""
import json
import sys
import tempfile
import unittest
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "semantic-patches"))
import bh_lock_mask as blm  # noqa: E402


@dataclass
class Pos:
    file: str
    current_element: str
    line: str
    column: str


SOURCE = """\
#include <linux/spinlock.h>
static DEFINE_SPINLOCK(slock);
spinlock_t glock;
#define LOCKED(x) spin_lock_bh(x); \\
    do_it()
struct foo { spinlock_t lock; };
static int lock_bh;
void f(struct foo *p)
{
\tspin_lock_bh(&p->lock);
\tspin_unlock_bh(&p->lock);
}
"""


class ModuleTest(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)
        self.src = self.dir / "net" / "x.c"
        self.src.parent.mkdir()
        self.src.write_text(SOURCE)
        blm.start_file()
        blm.mask_table.clear()
        blm.site_table.clear()
        blm.pcpu_funcs.clear()
        blm.set_records("")

    def tearDown(self) -> None:
        blm.set_records("")
        self.tmp.cleanup()

    def table(self, text: str) -> Path:
        path = self.dir / "masks.txt"
        path.write_text(text)
        blm.load_masks(str(path))
        return path

    def pos(self, line: int = 10, col: int = 1, func: str = "f") -> Pos:
        return Pos(str(self.src), func, str(line), str(col))

    # --- the mask table
    def test_load_masks_orders_vectors_and_keeps_all(self) -> None:
        self.table("# comment\nstruct  foo.lock TIMER|NET_RX|TIMER\nglock ALL\n")
        self.assertEqual(blm.mask_table, {"struct foo.lock": ["TIMER", "NET_RX"],
                                          "glock": None})

    def test_load_masks_rejects_unknown_vector(self) -> None:
        with self.assertRaisesRegex(ValueError, r"masks.txt:1: unknown vector 'BOGUS'"):
            self.table("glock TIMER|BOGUS\n")

    def test_load_masks_rejects_malformed_line(self) -> None:
        with self.assertRaisesRegex(ValueError, r"masks.txt:2: expected"):
            self.table("glock TIMER\nglock TIMER NET_RX\n")

    def test_load_masks_site_lines(self) -> None:
        self.table("site net/x.c:10 NET_RX|TIMER\nsite net/y.c:3 NONE\nsite z.c:4 ALL\n")
        self.assertEqual(blm.site_table, {("net/x.c", 10): ["TIMER", "NET_RX"],
                                          ("net/y.c", 3): [], ("z.c", 4): None})
        self.assertEqual(blm.site_lookup(str(self.src), 10), (True, ["TIMER", "NET_RX"]))
        self.assertEqual(blm.site_lookup(str(self.src), 11), (False, None))
        self.assertEqual(blm.mask_expr([]), "0")

    def test_load_masks_rejects_malformed_site(self) -> None:
        with self.assertRaisesRegex(ValueError, r"masks.txt:1: expected 'site"):
            self.table("site net/x.c NET_RX\n")

    def test_decide_site_mode_ignores_class_and_pcpu(self) -> None:
        # a lock parameter (no class) with per-CPU data: the site's mask decides
        self.table("site net/x.c:10 TIMER\n")
        pk = ("10", "1")
        blm.first_unlocks[pk] = {("11", "1")}
        blm.pcpu_hit[pk] = "this_cpu_inc() at line 11"
        site = blm.decide(self.pos(), "spin", "lock")
        self.assertEqual((site["status"], site["mask"]), ("candidate", ["TIMER"]))
        blm.first_unlocks[("12", "1")] = {("13", "1")}
        site = blm.decide(self.pos(line=12), "spin", "lock")
        self.assertEqual(site["status"], "skipped")
        self.assertIn("no proven mask for this section", site["reason"])

    def test_lookup_exact_and_file_suffix(self) -> None:
        self.table("x.c:slock NET_RX\nbh:ipv4/tcp.c:f TIMER\n")
        self.assertEqual(blm.lookup("net/x.c:slock", "net/x.c"), (True, ["NET_RX"]))
        self.assertEqual(blm.lookup("bh:net/ipv4/tcp.c:f", "net/ipv4/tcp.c"),
                         (True, ["TIMER"]))
        # a suffix must end at a folder boundary, and bh: keys only match bh:
        self.assertEqual(blm.lookup("net/ax.c:slock", "net/ax.c"), (False, None))
        self.assertEqual(blm.lookup("bh:net/x.c:slock", "net/x.c"), (False, None))

    # --- lock classes
    def test_classify_struct_field(self) -> None:
        cls, why = blm.classify(str(self.src), "f", "&p->lock", ("10", "1"),
                                [("p", "struct foo")], set(), set())
        self.assertEqual((cls, why), ("struct foo.lock", None))

    def test_classify_anonymous_struct_is_unknown(self) -> None:
        cls, why = blm.classify(str(self.src), "f", "&p->lock", ("10", "1"),
                                [("p", "struct {int a;}")], set(), set())
        self.assertIsNone(cls)
        self.assertIn("lock class unknown", str(why))

    def test_classify_global_and_static(self) -> None:
        f = str(self.src)
        self.assertEqual(blm.classify(f, "f", "&glock", ("1", "1"), [], {"glock"}, set()),
                         ("glock", None))
        self.assertEqual(blm.classify(f, "f", "&slock", ("1", "1"), [], {"slock"}, set()),
                         (f + ":slock", None))

    def test_classify_alias_assigned_once_and_twice(self) -> None:
        f = str(self.src)
        blm.add_alias(self.pos(9, 2), "l", "& glock")
        blm.glob_bases[("9", "2")] = {"glock"}
        self.assertEqual(blm.classify(f, "f", "l", ("10", "1"), [], set(), {"l"}),
                         ("glock", None))
        blm.add_alias(self.pos(9, 2), "l", "&glock")  # same assignment again
        blm.add_alias(self.pos(11, 2), "l", "&other")
        cls, why = blm.classify(f, "f", "l", ("10", "1"), [], set(), {"l"})
        self.assertIsNone(cls)
        self.assertIn("assigned 2 times", str(why))

    def test_classify_pointer_parameter(self) -> None:
        cls, why = blm.classify(str(self.src), "f", "lk", ("10", "1"), [], set(), set())
        self.assertIsNone(cls)
        self.assertIn("through a pointer", str(why))

    # --- per-CPU, macros, names
    def test_is_pcpu(self) -> None:
        blm.pcpu_funcs.add("my_stats")
        for name in ("this_cpu_inc", "__this_cpu_add", "per_cpu_ptr", "get_cpu",
                     "__NET_INC_STATS", "SNMP_ADD_STATS", "my_stats"):
            self.assertTrue(blm.is_pcpu(name), name)
        for name in ("get_cpu_mask", "spin_lock", "net_stats", "printk"):
            self.assertFalse(blm.is_pcpu(name), name)

    def test_load_pcpu_skips_comments(self) -> None:
        path = self.dir / "pcpu.txt"
        path.write_text("# funcs\nfoo_stats\n\nbar\n")
        blm.load_pcpu(str(path))
        self.assertEqual(blm.pcpu_funcs, {"foo_stats", "bar"})

    def test_wrapper_macros_and_in_define(self) -> None:
        f = str(self.src)
        self.assertEqual(blm.wrapper_macros(f), {"LOCKED"})
        self.assertTrue(blm.in_define(f, 4))
        self.assertTrue(blm.in_define(f, 5))  # continuation line
        self.assertFalse(blm.in_define(f, 10))

    def test_var_name_avoids_names_in_use(self) -> None:
        blm.cur_file[0] = str(self.src)
        self.assertEqual(blm.var_name("f", "&p->lock"), "p_lock_bh")
        self.assertEqual(blm.var_name("f", "&p->lock"), "p_lock_bh")  # same expr, same var
        self.assertEqual(blm.var_name("f", "&lock"), "lock_bh2")  # 'lock_bh' is a static
        self.assertEqual(blm.var_name("g", ""), "bh_prev")

    def test_mask_expr(self) -> None:
        self.assertEqual(blm.mask_expr(["TIMER", "NET_RX"]),
                         "BIT(TIMER_SOFTIRQ) | BIT(NET_RX_SOFTIRQ)")
        most = [v for v in blm.VECTORS if v not in ("BLOCK", "IRQ_POLL")]
        self.assertEqual(blm.mask_expr(most),
                         "SOFTIRQ_ALL_MASK & ~(BIT(BLOCK_SOFTIRQ) | BIT(IRQ_POLL_SOFTIRQ))")
        self.assertEqual(blm.mask_expr([v for v in blm.VECTORS if v != "SCHED"]),
                         "SOFTIRQ_ALL_MASK & ~BIT(SCHED_SOFTIRQ)")

    # --- decisions
    def balanced(self, pk: tuple[str, str] = ("10", "1")) -> None:
        blm.ptr_bases[pk] = [("p", "struct foo")]
        blm.first_unlocks[pk] = {("11", "1")}

    def test_decide_candidate(self) -> None:
        self.table("struct foo.lock NET_RX|TIMER\n")
        self.balanced()
        site = blm.decide_and_record(self.pos(), "spin", "&p->lock")
        self.assertEqual((site["status"], site["mask"], site["var"]),
                         ("candidate", ["TIMER", "NET_RX"], "p_lock_bh"))
        self.assertTrue(blm.is_candidate([self.pos()]))
        self.assertEqual(blm.site_message(("10", "1")),
                         "spin section of struct foo.lock can mask only TIMER|NET_RX")

    def check_skipped(self, reason: str) -> None:
        site = blm.decide(self.pos(), "spin", "&p->lock")
        self.assertEqual(site["status"], "skipped")
        self.assertIn(reason, site["reason"])
        self.assertFalse(blm.is_candidate([self.pos()]))
        self.assertIn("left on the all-vector API: " + reason, blm.site_message(("10", "1")))

    def test_decide_no_mask(self) -> None:
        self.table("glock TIMER\n")
        self.balanced()
        self.check_skipped("no mask for lock class")

    def test_decide_mask_all(self) -> None:
        self.table("struct foo.lock ALL\n")
        self.balanced()
        self.check_skipped("mask is ALL")

    def test_decide_every_vector_is_all(self) -> None:
        self.table("struct foo.lock " + "|".join(blm.VECTORS) + "\n")
        self.balanced()
        self.check_skipped("mask is ALL")

    def test_decide_held_on_return(self) -> None:
        self.table("struct foo.lock TIMER\n")
        self.balanced()
        blm.held.add(("10", "1"))
        self.check_skipped("not released on every path")

    def test_decide_no_release(self) -> None:
        self.table("struct foo.lock TIMER\n")
        blm.ptr_bases[("10", "1")] = [("p", "struct foo")]
        self.check_skipped("not released on every path")

    def test_decide_release_without_acquire(self) -> None:
        self.table("struct foo.lock TIMER\n")
        self.balanced()
        blm.free_unlock.add(("f", "&p->lock"))
        self.check_skipped("conditional locking")

    def test_decide_percpu(self) -> None:
        self.table("struct foo.lock TIMER\n")
        self.balanced()
        blm.pcpu_hit[("10", "1")] = "this_cpu_inc() at line 11"
        self.check_skipped("per-CPU access in section (this_cpu_inc() at line 11)")

    def test_decide_nested(self) -> None:
        self.table("struct foo.lock TIMER\n")
        self.balanced()
        blm.nested.add(("10", "1"))
        self.check_skipped("taken again before its release (nested)")

    def test_decide_shared_unlock(self) -> None:
        self.table("struct foo.lock TIMER\n")
        self.balanced()
        blm.first_unlocks[("12", "1")] = {("11", "1")}
        self.check_skipped("unlock shared by several acquisitions")

    def test_decide_wrapper_macro(self) -> None:
        self.table("struct foo.lock TIMER\n")
        self.balanced()
        site = blm.decide(self.pos(4, 1, "f"), "spin", "&p->lock")
        self.assertIn("wrapper macro", site["reason"])

    def test_decide_unknown_class(self) -> None:
        self.table("struct foo.lock TIMER\n")
        blm.first_unlocks[("10", "1")] = {("11", "1")}
        self.check_skipped("lock class unknown")

    def test_local_bh_section_class(self) -> None:
        self.table("bh:x.c:f HRTIMER\n")
        self.balanced()
        site = blm.decide_and_record(self.pos(), "bh", "")
        self.assertEqual((site["class"], site["mask"], site["var"]),
                         ("bh:%s:f" % self.src, ["HRTIMER"], "bh_prev"))

    # --- records and per-file state
    def test_records_and_start_file(self) -> None:
        prefix = self.dir / "rec"
        blm.set_records(str(prefix))
        self.table("struct foo.lock TIMER\n")
        self.balanced()
        blm.decide_and_record(self.pos(), "spin", "&p->lock")
        blm.mark_converted(self.pos(), "p_lock_bh")
        blm.record_trylock(self.pos(20, 3), "& q->lock")
        (out,) = list(self.dir.glob("rec.*.jsonl"))
        recs = [json.loads(line) for line in out.read_text().splitlines()]
        self.assertEqual([r.get("status", r.get("event")) for r in recs],
                         ["candidate", "converted", "skipped"])
        self.assertEqual(recs[2]["expr"], "&q->lock")
        self.assertTrue(blm.has_decls("f"))
        blm.start_file()
        self.assertFalse(blm.has_decls("f") or blm.sites or blm.first_unlocks)

    def test_is_lock_ptr(self) -> None:
        blm.local_bases[("10", "1")] = {"l"}
        self.assertTrue(blm.is_lock_ptr("l"))
        self.assertFalse(blm.is_lock_ptr("m"))


if __name__ == "__main__":
    unittest.main()
