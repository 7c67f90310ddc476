"""Unit tests of scripts/analysis/ir_facts.py's lock types: an array of
locks (nested too) has its element's type, without clang's numbered
suffix, as the lock events compare it with a container type; inside a
container only the step to its lock is part of the lock object; a
container's address cast to another struct is data until cast back; a
call's result cast to a lock pointer at once is recorded with its lock
type; a constant GEP by bytes into a global struct is the field it
lands on."""
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


# struct wait_queue_head { spinlock_t lock; struct list_head head; } and
# f(q) { init_list(&q->head); take(&q->lock); }, as clang 14 writes it
CONTAINER_IR = """
%struct.wait_queue_head = type { %struct.spinlock, %struct.list_head }
%struct.spinlock = type { %struct.raw_spinlock }
%struct.raw_spinlock = type { i32 }
%struct.list_head = type { %struct.list_head*, %struct.list_head* }
define dso_local void @f(%struct.wait_queue_head* noundef %q) {
entry:
  %head = getelementptr inbounds %struct.wait_queue_head, %struct.wait_queue_head* %q, i32 0, i32 1
  call void @init_list(%struct.list_head* noundef %head)
  %lock = getelementptr inbounds %struct.wait_queue_head, %struct.wait_queue_head* %q, i32 0, i32 0
  call void @take(%struct.spinlock* noundef %lock)
  ret void
}
declare void @init_list(%struct.list_head* noundef)
declare void @take(%struct.spinlock* noundef)
"""


class ContainerFields(unittest.TestCase):
    def test_list_of_a_wait_queue_is_its_own_field(self) -> None:
        u = ir_facts.TU(CONTAINER_IR, "t.c", [])
        u.parse()
        d = u.facts()
        # &q->head: a field of its own, not the queue's lock location
        self.assertIn(["addr", "f/%head", "F:%struct.wait_queue_head.1"], d["cons"])
        self.assertNotIn(["copy", "f/%head", "f/%q"], d["cons"])
        # &q->lock: the lock object is the queue, of the container's type
        self.assertIn(["copy", "f/%lock", "f/%q"], d["cons"])
        self.assertEqual(d["ctypes"], {"f/%lock": "%struct.wait_queue_head"})


class CastKind(unittest.TestCase):
    def test_container_address_as_data(self) -> None:
        # the sentinel: an skb queue head cast to struct sk_buff *
        self.assertEqual(ir_facts.cast_kind("%struct.sk_buff_head*", "%struct.sk_buff*"), "tag")
        self.assertEqual(ir_facts.cast_kind("%struct.wait_queue_head.3*", "%struct.foo*"), "tag")
        # back to a queue head (SCTP's event list), from a struct or a void *
        self.assertEqual(ir_facts.cast_kind("%struct.sk_buff*", "%struct.sk_buff_head*"), "untag")
        self.assertEqual(ir_facts.cast_kind("i8*", "%struct.wait_queue_head*"), "untag")
        # to a void *, to the lock inside (its first field), between
        # containers' own numbered types, and plain casts: the same value
        self.assertEqual(ir_facts.cast_kind("%struct.sk_buff_head*", "i8*"), "copy")
        self.assertEqual(ir_facts.cast_kind("%struct.wait_queue_head*", "%struct.spinlock*"),
                         "copy")
        self.assertEqual(ir_facts.cast_kind("%struct.sk_buff_head.1*", "%struct.sk_buff_head*"),
                         "copy")
        self.assertEqual(ir_facts.cast_kind("%struct.sock*", "i8*"), "copy")
        self.assertEqual(ir_facts.cast_kind("i64", "i8*"), "copy")


# l = kvmalloc_array(n, sizeof(*l)) (spinlock_t *), p = kmalloc(8) kept
# as a void *, and s = kmalloc(...) cast to a struct that is no lock
ALLOC_IR = """
%struct.spinlock = type { %struct.raw_spinlock }
%struct.raw_spinlock = type { i32 }
%struct.foo = type { i32 }
define dso_local void @g() {
entry:
  %call = call noalias i8* @kvmalloc_array(i64 noundef 8, i64 noundef 4)
  %0 = bitcast i8* %call to %struct.spinlock*
  call void @take(%struct.spinlock* noundef %0)
  %call1 = call noalias i8* @kmalloc(i64 noundef 8)
  call void @keep(i8* noundef %call1)
  %call2 = call noalias i8* @kmalloc(i64 noundef 4)
  %1 = bitcast i8* %call2 to %struct.foo*
  ret void
}
declare i8* @kvmalloc_array(i64 noundef, i64 noundef)
declare i8* @kmalloc(i64 noundef)
declare void @take(%struct.spinlock* noundef)
declare void @keep(i8* noundef)
"""


class LockCasts(unittest.TestCase):
    def test_result_cast_to_a_lock(self) -> None:
        u = ir_facts.TU(ALLOC_IR, "t.c", [])
        u.parse()
        self.assertEqual(u.facts()["lock_casts"], {"g/%call": "%struct.spinlock"})


# DECLARE_WAIT_QUEUE_HEAD(wq): the list points at itself, &wq.head,
# which clang folds to wq plus 8 bytes; @odd points 4 bytes into the list
BYTE_IR = """
%struct.wait_queue_head = type { %struct.spinlock, %struct.list_head }
%struct.spinlock = type { %struct.raw_spinlock }
%struct.raw_spinlock = type { i32 }
%struct.list_head = type { %struct.list_head*, %struct.list_head* }
@wq = dso_local global %struct.wait_queue_head { %struct.spinlock zeroinitializer, \
%struct.list_head { %struct.list_head* bitcast (i8* getelementptr (i8, i8* bitcast \
(%struct.wait_queue_head* @wq to i8*), i64 8) to %struct.list_head*), %struct.list_head* \
null } }, align 8
@odd = dso_local global i8* getelementptr (i8, i8* bitcast (%struct.wait_queue_head* @wq \
to i8*), i64 12), align 8
""".replace("\\\n", "")


class ByteGep(unittest.TestCase):
    def test_field_of_a_byte_offset(self) -> None:
        u = ir_facts.TU(BYTE_IR, "t.c", [])
        u.parse()
        cons = u.facts()["cons"]
        # the list's next holds &wq.head: the field, not the queue's lock
        head = [c[1] for c in cons if c[:1] == ["addr"] and c[2] == "F:%struct.wait_queue_head.1"]
        self.assertEqual(len(head), 1, cons)
        cast = [c[1] for c in cons if c[:1] == ["copy"] and c[2] == head[0]]
        self.assertIn(["store_at", "F:%struct.list_head.0", cast[0]], cons)
        # @odd keeps the global's location
        self.assertNotIn(["addr", "c:wq", "F:%struct.wait_queue_head.1"], cons)
        # 4 bytes into a pointer is no field: the global itself, as before
        self.assertEqual(u.field_path("%struct.wait_queue_head", 12), None)
        self.assertEqual(u.field_path("%struct.wait_queue_head", 8), [1])
        self.assertEqual(u.field_path("%struct.wait_queue_head", 16), [1, 1])


if __name__ == "__main__":
    unittest.main()
