#!/usr/bin/env python3
"""Read one translation unit's LLVM IR (textual, LLVM 14 typed pointers)
and write the facts the vector analysis needs, as JSON.

Usage:  ir_facts.py TU.ll OUT.json [--tu NAME] [--srcroot DIR[=PREFIX]]...
Reads:  IR produced by `clang -O2 -Xclang -disable-llvm-passes
        -fno-discard-value-names -gline-tables-only -S -emit-llvm`, then
        `opt -passes=sroa` (SSA values, no inlining: static inline helpers
        stay functions, so evidence chains name them).
Writes: OUT.json: {"tu", "functions", "globals", "fields", "cons",
        "calls", "asm", "blocks"}; see scripts/analysis/README.md.
Exit:   0 done, 1 the IR could not be parsed, 2 usage error.

Facts are flow-insensitive constraints over named nodes (SSA values,
parameters, return values), in the vocabulary of a field-based points-to
analysis: a GEP into struct S at field k yields the location "F:S.k"
whatever its base (every instance of S shares one abstract field), except
inside lock types, whose internals stay the lock object itself.
"""

from __future__ import annotations

from typing import Any

import functools
import json
import os
import re
import sys

# Generic containers of a lock: an skb queue, a wait queue head.  The
# lock inside one is the container's own: its class is where the
# container sits (sock.sk_receive_queue, socket_wq.wait, a static queue),
# as lockdep keys each queue by the site that initialises it, not one
# class sk_buff_head.lock for every queue of the kernel.
CONTAINERS = r"sk_buff_head|wait_queue_head|swait_queue_head"
CONTAINER_TYPE = re.compile(r"^%struct\.(" + CONTAINERS + r")(\.\d+)?$")
# Struct types whose internals are "the lock": a GEP into them keeps the
# location of the lock object (spinlock_t -> rlock -> raw_lock).
TRANSPARENT = re.compile(
    r"^%(struct|union)\.(spinlock|raw_spinlock|arch_spinlock_t|rwlock_t|"
    r"arch_rwlock_t|qspinlock|qrwlock|seqlock_t|seqcount|seqcount_spinlock|"
    r"seqcount_raw_spinlock|seqcount_t|lockdep_map|anon|" + CONTAINERS + r")(\.\d+)?$")
# The lock types themselves: a location (field or global) of one of these
# types is a lock, whose address the points-to solve always follows.
LOCKTYPE = re.compile(
    r"^%(struct|union)\.(spinlock|raw_spinlock|arch_spinlock_t|rwlock_t|"
    r"arch_rwlock_t|qspinlock|qrwlock|seqlock_t|seqcount|seqcount_spinlock|"
    r"seqcount_raw_spinlock|seqcount_t|" + CONTAINERS + r")(\.\d+)?$")
ARRAY_OF = re.compile(r"^\[\d+ x (.*)\]$")


def cast_kind(src_t: str, dst_t: str) -> str:
    """The constraint of a pointer cast.  A container's address cast to
    another struct (an skb queue head to struct sk_buff *, the list's
    sentinel that __skb_queue_splice() stores into an skb's next) is data
    from then on: "tag" (the solve carries its lock as K:<lock>, no lock
    class).  A cast to a container type from anything else makes it the
    container's address again: "untag" (SCTP casts skb->prev back to the
    queue head).  Any other cast is a "copy"."""
    s, d = src_t.strip(), dst_t.strip()
    if not (s.endswith("*") and d.endswith("*")):
        return "copy"
    s, d = norm_type(s[:-1].strip()), norm_type(d[:-1].strip())
    sc, dc = CONTAINER_TYPE.match(s), CONTAINER_TYPE.match(d)
    if sc and not dc and d.startswith("%struct.") and not TRANSPARENT.match(d):
        return "tag"
    if dc and not sc:
        return "untag"
    return "copy"


def elem_type(t: str) -> str:
    """The element type of an array type, through nested arrays (an
    array of locks is one lock class, as arrays are one cell)."""
    t = t.strip()
    m = ARRAY_OF.match(t)
    while m:
        t = m.group(1).strip()
        m = ARRAY_OF.match(t)
    return t


def lock_type(t: str) -> str:
    """A lock location's type as the lock events compare it: an array's
    element type, no numbered suffix ("%struct.sk_buff_head")."""
    return re.sub(r"\.\d+$", "", elem_type(t))


ANON_SUFFIX = re.compile(r"(%(?:struct|union)\.[\w.$]*?)\.\d+\b")

ATTRS = {
    "noundef", "nonnull", "signext", "zeroext", "inreg", "noalias",
    "nocapture", "readonly", "readnone", "writeonly", "returned", "nest",
    "swiftself", "immarg", "noinline", "nofree", "volatile", "inbounds",
}
ATTR_PAREN = re.compile(
    r"^(align|dereferenceable|dereferenceable_or_null|elementtype|byval|"
    r"sret|byref|preallocated|inalloca|align)\b")


TYPE_TOKEN = re.compile(r'%[-\w.$]+|%"[^"]*"|[\w.]+')
WORD = re.compile(r"[\w]+")
# Memory from alloc_percpu() names no per-CPU variable: it is named by the
# type the pointer given to this_cpu_ptr() or per_cpu_ptr() points to
# (percpu:alloc_percpu:blk_rq_stat, percpu:alloc_percpu:i32 for the s32
# counters of a percpu_counter), the struct of the object a field
# address was taken in (this_cpu_ptr(&p->f) is p's struct), or, for a
# pointer that may point anywhere (a void * or byte pointer, or one cast
# from such a pointer that is not alloc_percpu()'s own result), the
# generic class, which vectors.py makes every such class at once.
PERCPU_DYNAMIC = "P:alloc_percpu"
TYPED_PTR = re.compile(r'^(%"?(?:struct|union)\.[^*()"]+"?|i16|i32|i64)\*$')
PERCPU_ALLOCATORS = {"__alloc_percpu", "__alloc_percpu_gfp"}


def dynamic_percpu(pointee: str | None) -> str:
    """The per-CPU class of alloc_percpu() memory reached through a
    pointer into a struct of this type (None or not a named struct: the
    generic class)."""
    if not pointee:
        return PERCPU_DYNAMIC
    n = norm_type(pointee).strip('%"')
    if n in ("i16", "i32", "i64"):
        return f"{PERCPU_DYNAMIC}:{n}"
    kind, _, name = n.partition(".")
    if kind not in ("struct", "union") or not name or name == "anon" or \
            name.startswith("anon."):
        return PERCPU_DYNAMIC
    return f"{PERCPU_DYNAMIC}:{name}"
META_TAIL = re.compile(r"(, !\w+ ![\w.]+)+\s*$")
META_TAIL2 = re.compile(r"(, !\w+ !\{[^}]*\})+\s*$")
ASSIGN = re.compile(r'(%[-\w.$"]+) = (.*)$')
CALL_HEAD = re.compile(r"^(tail |musttail |notail )?(call|callbr|invoke)\s*")
CALL_KW = re.compile(r"(^| )(fastcc|coldcc|noundef|signext|zeroext|inreg|nonnull|noalias)"
                     r"(?= |$)")
DEFINE_KW = re.compile(r"(^| )(internal|private|dso_local|noundef|signext|zeroext|hidden|"
                       r"weak|linkonce_odr|available_externally|nonnull|noalias|inreg|"
                       r"fastcc|cold|local_unnamed_addr)(?= |$)")
DEREF_ALIGN = re.compile(r"dereferenceable(_or_null)?\(\d+\)|align \d+")
DBG = re.compile(r"!dbg (![\d]+)")
SWITCH_END = re.compile(r"\](\s*,.*)?$")


# A lock-init call passes a struct lock_class_key * and the lockdep name
# of the class that key makes (spin_lock_init(), mutex_init(),
# init_waitqueue_head(), lockdep_set_class*(), ...): its name argument
# is recorded with the struct the lock argument points into (an
# rw_semaphore's dep_map), and, in a helper that passes its own
# parameter on as the name, the parameter's index (vectors.py follows the
# name from the helper's callers down to the call that inits the lock).
KEY_TYPE = "%struct.lock_class_key*"
STRING_CONST = re.compile(r'^@(\.str[\w.]*) = .*constant \[\d+ x i8\] c"(.*)"')


@functools.lru_cache(maxsize=65536)
def norm_type(t: str) -> str:
    """Canonical spelling of a type for prototype comparison."""
    t = ANON_SUFFIX.sub(r"\1", t)
    return re.sub(r"\s+", " ", t).strip()


def split_top(s: str, sep: str = ",") -> list[str]:
    """Split on sep outside brackets and quotes."""
    out, depth, cur, q = [], 0, [], False
    for ch in s:
        if q:
            cur.append(ch)
            if ch == '"':
                q = False
            continue
        if ch == '"':
            q = True
        elif ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        if ch == sep and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        out.append("".join(cur).strip())
    return out


def match_close(s: str, i: int) -> int:
    """Index of the bracket closing the one at s[i]."""
    opening = s[i]
    closing = {"(": ")", "[": "]", "{": "}", "<": ">"}[opening]
    depth, q = 0, False
    for j in range(i, len(s)):
        ch = s[j]
        if q:
            if ch == '"':
                q = False
            continue
        if ch == '"':
            q = True
        elif ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
            if depth == 0:
                if ch != closing:
                    raise ValueError(f"unbalanced {s!r}")
                return j
    raise ValueError(f"unbalanced {s!r}")


def read_type(s: str, i: int = 0) -> tuple[str, int]:
    """Parse a type at s[i:]; return (type, index after it)."""
    n = len(s)
    while i < n and s[i] == " ":
        i += 1
    start = i
    if s.startswith("<{", i):
        i = match_close(s, i) + 1
    elif i < n and s[i] in "{[<":
        i = match_close(s, i) + 1
    else:
        m = TYPE_TOKEN.match(s, i)
        if not m:
            raise ValueError(f"no type in {s[i:]!r}")
        i = m.end()
    while True:
        j = i
        while j < n and s[j] == " ":
            j += 1
        if j < n and s[j] == "*":
            i = j + 1
        elif s.startswith("addrspace(", j):
            i = s.index(")", j) + 1
        elif j < n and s[j] == "(" and not s[start:i].startswith(("asm",)):
            # a function type: ret (args)
            i = match_close(s, j) + 1
        else:
            break
    return s[start:i].strip(), i


def typed_operand(op: str) -> tuple[str, str]:
    """'T attrs value' -> (T, value)."""
    t, i = read_type(op)
    rest = op[i:].strip()
    while rest:
        m = WORD.match(rest)
        if m and m.group(0) in ATTRS:
            rest = rest[m.end():].strip()
            continue
        m = ATTR_PAREN.match(rest)
        if m:
            j = m.end()
            if j < len(rest) and rest[j] == "(":
                j = match_close(rest, j) + 1
            else:
                j2 = re.match(r"\s*\d+", rest[j:])
                j += j2.end() if j2 else 0
            rest = rest[j:].strip()
            continue
        break
    return t, rest


class TU:
    """Facts of one translation unit."""

    def __init__(self, text: str, tu: str, srcroots: list[str]):
        self.tu = tu
        # "DIR" or "DIR=PREFIX": file names under DIR become PREFIX + rest
        self.srcroots = []
        for r in srcroots:
            root, _, prefix = r.partition("=")
            self.srcroots.append((os.path.normpath(root), prefix + "/" if prefix else ""))
        self.lines = text.split("\n")
        self.structs: dict[str, list[str]] = {}
        self.functions: dict[str, dict[Any, Any] | None] = {}
        self.globals: dict[str, dict[Any, Any]] = {}
        self.internal: set[str] = set()
        self.fields: dict[str, list[Any]] = {}     # "S.k" -> value names seen
        self.cons: list[list[Any]] = []
        self.calls: list[list[Any]] = []
        self.asm: list[list[Any]] = []
        self.blocks: dict[str, list[Any]] = {}
        self.meta: dict[str, str] = {}
        self.const_nodes: dict[str, str] = {}
        self.global_struct: dict[str, str] = {}
        self.packed: dict[str, bool] = {}
        self._loc_cache: dict[str, str] = {}
        self._file_cache: dict[str, str] = {}
        self.nconst = 0
        self.unparsed = 0
        self.cur_global: str | None = None
        # F:/G: locations of a lock type, and that type (lock_type())
        self.locklocs: dict[str, str] = {}
        # a GEP to the lock inside a generic container: the container's
        # type (the object is one, whatever the pointer's value may be)
        self.ctypes: dict[str, str] = {}
        # per_cpu_ptr(): values that address __per_cpu_offset[] and the
        # offsets loaded from it
        self.pco_addr: set[str] = set()
        # the struct a GEP's last field step lands in, per GEP result
        self.gep_struct: dict[str, str] = {}
        self.pco_off: set[str] = set()
        # per SSA pointer made by a GEP or a cast: the type of the object
        # it points into (the GEP's base, through casts; "": any)
        self.ptr_origin: dict[str, str] = {}
        # results of alloc_percpu() (a void * the caller casts to its type)
        self.percpu_allocs: set[str] = set()
        # call results, and those cast to a lock pointer right away (the
        # implicit conversion of an allocator's void *: "spinlock_t *l =
        # kvmalloc_array(...)"), with the lock type (lock_casts())
        self.call_results: set[str] = set()
        self.lock_casts: dict[str, str] = {}
        # pointers passed on (call arguments, stored values, returns,
        # phi and select inputs) with their type, checked once the unit is
        # read (a phi may name a value defined further down)
        self.passed: list[tuple[str, str]] = []
        self._norm_structs: dict[str, list[str]] | None = None

    # ---- names -------------------------------------------------------
    def gname(self, sym: str) -> str:
        """Global id of @sym: internal symbols are qualified by the TU."""
        sym = sym.strip('"')
        return f"{self.tu}:{sym}" if sym in self.internal else sym

    # ---- first pass: types, globals, declarations, metadata ----------
    def scan(self) -> None:
        for ln in self.lines:
            if ln.startswith("%") and " = type " in ln:
                name, body = ln.split(" = type ", 1)
                body = body.strip()
                if body == "opaque":
                    self.structs[name] = []
                    continue
                if body.startswith("<{"):
                    body = body[2:-2]
                    self.packed[name] = True
                else:
                    body = body[1:-1]
                self.structs[name] = [t for t in split_top(body)]
            elif ln.startswith("define "):
                m = re.search(r'@("[^"]+"|[-\w.$]+)\(', ln)
                if m and re.match(r"define (dso_local )?(internal|private) ", ln):
                    self.internal.add(m.group(1).strip('"'))
            elif ln.startswith("@"):
                m = re.match(r'@("[^"]+"|[-\w.$]+) = ', ln)
                if m and re.search(r"= (dso_local )?(internal|private) ", ln):
                    self.internal.add(m.group(1).strip('"'))
            elif ln.startswith("!"):
                m = re.match(r"(![\w.]+) = (.*)$", ln)
                if m:
                    self.meta[m.group(1)] = m.group(2)
        # A global with a literal struct type is cast to its real type at
        # its uses: remember the first named struct it is cast to.
        for m in re.finditer(r"bitcast \((\{[^@]*?\}|<\{[^@]*?\}>)\* @([-\w.$]+) to "
                             r"(%struct\.[-\w.$]+)\*\)", "\n".join(self.lines)):
            self.global_struct.setdefault(m.group(2), m.group(3))

    # ---- member names from the debug info (-g) -------------------------
    def _size_align(self, t: str, depth: int = 0) -> tuple[int, int]:
        """Size and alignment in bytes of an IR type (x86_64 data layout)."""
        t = t.strip()
        if depth > 40:
            return 0, 1
        if t.endswith("*") or t == "ptr":
            return 8, 8
        m = re.match(r"^i(\d+)$", t)
        if m:
            b = (int(m.group(1)) + 7) // 8
            a = 1
            while a < b and a < 16:
                a *= 2
            return (b + a - 1) // a * a, a
        if t in ("float",):
            return 4, 4
        if t in ("double",):
            return 8, 8
        if t in ("x86_fp80", "fp128"):
            return 16, 16
        m = re.match(r"^\[(\d+) x (.*)\]$", t)
        if m:
            sz, al = self._size_align(m.group(2), depth + 1)
            return int(m.group(1)) * sz, al
        m = re.match(r"^<(\d+) x (.*)>$", t)
        if m:
            sz, al = self._size_align(m.group(2), depth + 1)
            return int(m.group(1)) * sz, int(m.group(1)) * sz
        if t.startswith("%"):
            fields = self.structs.get(t)
            if fields is None:
                return 0, 1
            packed = self.packed.get(t, False)
            offs, sz, al = self._layout(fields, packed, depth)
            return sz, al
        if t.startswith("<{"):
            offs, sz, al = self._layout(split_top(t[2:-2]), True, depth)
            return sz, al
        if t.startswith("{"):
            offs, sz, al = self._layout(split_top(t[1:-1]), False, depth)
            return sz, al
        return 0, 1

    def _layout(self, fields: list[str], packed: bool,
                depth: int = 0) -> tuple[list[int], int, int]:
        off, al_max, offs = 0, 1, []
        for f in fields:
            sz, al = self._size_align(f, depth + 1)
            if packed:
                al = 1
            off = (off + al - 1) // al * al
            offs.append(off)
            off += sz
            al_max = max(al_max, al)
        return offs, (off + al_max - 1) // al_max * al_max, al_max

    def di_fields(self) -> None:
        """IR field index -> member name, by offset, for every struct the
        debug info describes (the IR keeps no member names)."""
        comp: dict[str, tuple[str, str]] = {}
        typedef_of: dict[str, str] = {}
        for ref, md in self.meta.items():
            if "DICompositeType(tag: DW_TAG_structure_type" in md or \
                    "DICompositeType(tag: DW_TAG_union_type" in md:
                nm = re.search(r'\bname: "([^"]+)"', md)
                el = re.search(r"\belements: (![\d]+)", md)
                kind = "union" if "union_type" in md else "struct"
                if el:
                    comp[ref] = (f"%{kind}.{nm.group(1)}" if nm else "", el.group(1))
            elif "DW_TAG_typedef" in md:
                nm = re.search(r'\bname: "([^"]+)"', md)
                bt = re.search(r"\bbaseType: (![\d]+)", md)
                if nm and bt:
                    typedef_of[bt.group(1)] = nm.group(1)
        for ref, (irname, elems) in comp.items():
            if not irname and ref in typedef_of:
                irname = f"%struct.{typedef_of[ref]}"
            if irname not in self.structs or not self.structs[irname]:
                continue
            members: dict[int, str] = {}
            for mref in re.findall(r"![\d]+", self.meta.get(elems, "")):
                md = self.meta.get(mref, "")
                if "DW_TAG_member" not in md or "DIFlagBitField" in md:
                    continue
                nm = re.search(r'\bname: "([^"]+)"', md)
                off = re.search(r"\boffset: (\d+)", md)
                if nm:
                    members.setdefault(int(off.group(1)) if off else 0, nm.group(1))
            offs, _sz, _al = self._layout(self.structs[irname], self.packed.get(irname, False))
            key0 = norm_type(irname)
            for k, o in enumerate(offs):
                name = members.get(o * 8)
                if name:
                    self.fields[f"{key0}.{k}"] = ["=" + name]

    # ---- debug locations ---------------------------------------------
    def _file_of(self, ref: str, depth: int = 0) -> str:
        hit = self._file_cache.get(ref)
        if hit is None:
            hit = self._file_cache[ref] = self._file_of_uncached(ref, depth)
        return hit

    def _file_of_uncached(self, ref: str, depth: int) -> str:
        md = self.meta.get(ref, "")
        m = re.search(r"\bfile: (![\d]+)", md)
        if m:
            f = self.meta.get(m.group(1), "")
            fm = re.search(r'filename: "([^"]*)"', f)
            if fm:
                dm = re.search(r'directory: "([^"]*)"', f)
                path = os.path.normpath(os.path.join(dm.group(1) if dm else "",
                                                     fm.group(1)))
                for root, prefix in self.srcroots:
                    if path.startswith(root + "/"):
                        return prefix + path[len(root) + 1:]
                return path
        m = re.search(r"\bscope: (![\d]+)", md)
        if m and depth < 20:
            return self._file_of(m.group(1), depth + 1)
        return self.tu

    def loc(self, ln: str) -> str:
        m = DBG.search(ln)
        if not m:
            return ""
        ref = m.group(1)
        hit = self._loc_cache.get(ref)
        if hit is None:
            hit = self._loc_cache[ref] = self._loc(ref)
        return hit

    def _loc(self, ref: str) -> str:
        md = self.meta.get(ref, "")
        lm = re.search(r"line: (\d+)", md)
        sm = re.search(r"scope: (![\d]+)", md)
        if not lm or not sm:
            return ""
        return f"{self._file_of(sm.group(1))}:{lm.group(1)}"

    # ---- GEP paths -----------------------------------------------------
    def gep_steps(self, srctype: str, idxs: list[str]) -> list[tuple[str, int]]:
        """(struct, field) steps of a GEP with source element type srctype;
        array steps are skipped (arrays collapse to one element)."""
        steps: list[tuple[str, int]] = []
        cur = srctype.strip()
        for op in idxs[2:]:
            t, v = typed_operand(op)
            cur = cur.strip()
            if cur.startswith("%"):
                fields = self.structs.get(cur)
                if fields is None:
                    return steps
                try:
                    k = int(v)
                except ValueError:
                    return steps
                steps.append((self.step_name(cur), k))
                if k >= len(fields):
                    return steps
                cur = fields[k]
            elif cur.startswith("["):
                m = re.match(r"\[\d+ x (.*)\]$", cur)
                if not m:
                    return steps
                cur = m.group(1)
            elif cur.startswith(("{", "<{")):
                body = cur[2:-2] if cur.startswith("<{") else cur[1:-1]
                fields = split_top(body)
                try:
                    k = int(v)
                except ValueError:
                    return steps
                if k >= len(fields):
                    return steps
                cur = fields[k]
            else:
                return steps
        return steps

    def step_name(self, t: str) -> str:
        """The name a field location uses for struct type t.  An
        anonymous struct (clang numbers them per unit) is named by its
        field types, so that its fields stay apart in every unit: the
        union { struct { _skb_refdst; destructor; }; ... } of sk_buff, the
        first 50 fields of mm_struct.  One that holds a lock or a lockdep
        map stays transparent (part of the lock object), and so do
        anonymous unions, whose members clang reaches by a cast."""
        n = norm_type(t)
        if n != "%struct.anon":
            return n
        fields = self.structs.get(t.strip())
        if not fields:
            return n
        ft = [norm_type(f) for f in fields]
        if any(LOCKTYPE.match(f) or "lockdep_map" in f or
               (TRANSPARENT.match(f) and ".anon" not in f) for f in ft):
            return n
        return "%struct.anon{" + ";".join(ft) + "}"

    def transparent(self, st: str, k: int) -> bool:
        """Is the GEP step into field k of struct st part of the lock
        object (the location stays the object's)?  Inside a lock type,
        yes; inside a generic container, only the step to its lock: the
        list of a wait queue head or an skb queue is a field of its own.
        Read as the lock, INIT_LIST_HEAD(&q->head) stored the queue's lock
        class into every list_head's next, and every pointer loaded from
        a list (the slab freelist, so kmem_cache_alloc()'s result and the
        page table lock it allocates) could be any such queue's lock."""
        if not TRANSPARENT.match(st):
            return False
        if CONTAINER_TYPE.match(norm_type(st)):
            return bool(LOCKTYPE.match(self.field_type(f"F:{norm_type(st)}.{k}")))
        return True

    @staticmethod
    def field_loc(steps: list[tuple[str, int]],
                  real: list[int]) -> tuple[str | None, str | None]:
        """Location of a GEP result, and of the object whose field it is:
        the innermost non-transparent struct step (real: their indices,
        gep()) decides."""
        if not real:
            return None, None
        last = real[-1]
        s, k = steps[last]
        loc = f"F:{s}.{k}"
        outer = None
        if len(real) >= 2:
            s2, k2 = steps[real[-2]]
            outer = f"F:{s2}.{k2}"
        return loc, outer

    # ---- constants ---------------------------------------------------
    def const_node(self, t: str, v: str) -> str | None:
        """A node for a constant pointer-ish operand (or None).  A constant
        expression this reader cannot take apart still gives a node: one
        that may point to every symbol it names (sound, less precise)."""
        try:
            return self._const_node(t, v)
        except (ValueError, IndexError):
            syms = re.findall(r'@("[^"]+"|[-\w.$]+)', v)
            if not syms:
                return None
            self.nconst += 1
            node = f"k{self.nconst}:{self.tu}"
            for sym in syms:
                sym = sym.strip('"')
                kind = "FN:" if (sym in self.functions_defined or
                                 sym in self.functions_declared) else "G:"
                self.cons.append(["addr", node, kind + self.gname(sym)])
                if kind == "G:" and self.globals.get(self.gname(sym), {}).get("percpu"):
                    self.cons.append(["addr", node, "P:" + self.gname(sym)])
            self.unparsed += 1
            return node

    def _const_node(self, t: str, v: str) -> str | None:
        v = v.strip()
        if not v or v in ("null", "undef", "poison", "zeroinitializer", "true", "false") \
                or re.match(r"^-?\d", v) or v.startswith(("c\"", "!")):
            return None
        key = v
        if key in self.const_nodes:
            return self.const_nodes[key]
        node = None
        if v.startswith("@"):
            sym = v[1:].strip('"')
            node = f"c:{self.gname(sym)}"
            if sym in self.functions_defined or sym in self.functions_declared:
                self.cons.append(["addr", node, "FN:" + self.gname(sym)])
            else:
                self.cons.append(["addr", node, "G:" + self.gname(sym)])
                if self.globals.get(self.gname(sym), {}).get("percpu"):
                    self.cons.append(["addr", node, "P:" + self.gname(sym)])
        else:
            m = re.match(r"(getelementptr|bitcast|ptrtoint|inttoptr|addrspacecast|"
                         r"add|sub|or|and|xor|select|icmp|trunc|zext|sext)\b(?: inbounds)?\s*\(", v)
            if not m:
                return None
            inner = v[v.index("(", m.end() - 1) + 1:match_close(v, v.index("(", m.end() - 1))]
            self.nconst += 1
            node = f"k{self.nconst}:{self.tu}"
            if m.group(1) == "getelementptr":
                parts = split_top(inner)
                src = parts[0]
                bt, bv = typed_operand(parts[1])
                fields = self.byte_gep(src, bv, parts[2:])
                if fields:
                    self.gep(node, fields[0], self.const_node(fields[0] + "*", fields[1]),
                             fields[2])
                else:
                    base = self.const_node(bt, bv)
                    self.gep(node, src, base, parts[1:])
            elif m.group(1) in ("bitcast", "ptrtoint", "inttoptr", "addrspacecast",
                                "trunc", "zext", "sext"):
                inner2 = re.sub(r"\s+to\s+[^()]*$", "", inner)
                ot, ov = typed_operand(inner2)
                sub = self.const_node(ot, ov)
                if sub:
                    kind = cast_kind(ot, t) if m.group(1) == "bitcast" else "copy"
                    self.cons.append([kind, node, sub])
            else:
                for op in split_top(inner):
                    ot, ov = typed_operand(op)
                    sub = self.const_node(ot, ov)
                    if sub:
                        self.cons.append(["copy", node, sub])
        self.const_nodes[key] = node
        return node

    BYTE_BASE = re.compile(r'^bitcast \((%"?struct\.[^*()"]+"?)\* (@"[^"]+"|@[-\w.$]+) '
                           r'to i8\*\)$')

    def byte_gep(self, src: str, base: str,
                 idxs: list[str]) -> tuple[str, str, list[str]] | None:
        """A constant GEP by bytes into a global struct, as clang folds
        &g.f in an initializer (DECLARE_WAIT_QUEUE_HEAD's list points at
        the head plus 64 bytes), as the struct GEP it stands for: (the
        struct type, the global, the GEP's operands).  None unless the
        offset is exactly where a field starts; read as the global
        itself, the list of a static wait queue head was its lock."""
        m = self.BYTE_BASE.match(base.strip())
        if src.strip() != "i8" or not m or len(idxs) != 1:
            return None
        try:
            off = int(typed_operand(idxs[0])[1])
        except ValueError:
            return None
        path = self.field_path(m.group(1), off)
        if not path:
            return None
        return (m.group(1), m.group(2),
                [f"{m.group(1)}* {m.group(2)}", "i64 0"] + [f"i32 {k}" for k in path])

    def field_path(self, t: str, off: int) -> list[int] | None:
        """The field indexes from struct t down to the outermost field
        that starts at byte off (x86_64 layout), or None when off falls
        inside a field, in an array or outside t."""
        path: list[int] = []
        cur = t
        while off > 0:
            fields = self.structs.get(cur)
            if not fields:
                return None
            offs, _sz, _al = self._layout(fields, self.packed.get(cur, False))
            k = next((i for i, f in enumerate(fields)
                      if offs[i] <= off < offs[i] + self._size_align(f)[0]), None)
            if k is None:
                return None
            path.append(k)
            off -= offs[k]
            cur = fields[k].strip()
            if off and not cur.startswith("%"):
                return None
        return path or None

    def gep(self, node: str, srctype: str, base: str | None, idxs: list[str]) -> None:
        steps = self.gep_steps(srctype, idxs)
        real = [i for i, (st, k) in enumerate(steps) if not self.transparent(st, k)]
        loc, outer = self.field_loc(steps, real)
        for st, _k in steps[real[-1] + 1 if real else 0:]:
            cm = CONTAINER_TYPE.match(norm_type(st))
            if cm:
                self.ctypes[node] = "%struct." + cm.group(1)
                break
        if loc and loc not in self.locklocs:
            ft = self.field_type(loc)
            if LOCKTYPE.match(ft):
                self.locklocs[loc] = lock_type(ft)
        if loc:
            self.cons.append(["addr", node, loc])
            if base:
                # per-CPU origin survives field steps
                self.cons.append(["pcpu", node, base])
                self.cons.append(["base", node, base, outer or ""])
        elif base:
            self.cons.append(["copy", node, base])

    def note_origin(self, dst: str, src: str | None, src_type: str,
                    gep: bool = False) -> None:
        """dst points into the object src points into: keep the type of
        that object (src's own origin, or src's pointee type).  A GEP on,
        or a cast of, a pointer to no named type (byte arithmetic on a
        void *, a void * loaded from memory) may point into any object:
        origin "", the generic class; only the void * that alloc_percpu()
        returns names nothing, so the type it is cast to counts."""
        if src and src in self.ptr_origin:
            self.ptr_origin[dst] = self.ptr_origin[src]
            return
        m = TYPED_PTR.match(src_type.strip())
        if m:
            self.ptr_origin[dst] = m.group(1)
        elif gep or (src and "/%" in src and src not in self.percpu_allocs):
            self.ptr_origin[dst] = ""

    def field_type(self, loc: str) -> str:
        """The type of the field location F:S.k, an array's element type
        ("" when the field is not known)."""
        if self._norm_structs is None:
            self._norm_structs = {norm_type(k): v for k, v in self.structs.items()}
        sname, _, k = loc[2:].rpartition(".")
        fields = self._norm_structs.get(sname, [])
        if not (k.isdigit() and int(k) < len(fields)):
            return ""
        return elem_type(norm_type(fields[int(k)]))

    # ---- globals -------------------------------------------------------
    def init_values(self, t: str, v: str, struct: str | None, path: str) -> None:
        """Constraints for a global initializer of type t."""
        v = v.strip()
        t = t.strip()
        if v.startswith("<{") or v.startswith("{"):
            body = v[2:-2] if v.startswith("<{") else v[1:-1]
            sname = self.step_name(t) if t.startswith("%") else struct
            ops = split_top(body)
            if norm_type(t) == "%struct.lockdep_map":
                self.static_map(ops)
            self.vstack.append((path, norm_type(t) if t.startswith("%") else (struct or "")))
            for k, op in enumerate(ops):
                ft, fv = typed_operand(op)
                if sname:
                    self.init_values(ft, fv, None, f"F:{sname}.{k}")
                else:
                    self.init_values(ft, fv, None, path)
            self.vstack.pop()
            return
        if v.startswith("["):
            for op in split_top(v[1:-1]):
                ft, fv = typed_operand(op)
                self.init_values(ft, fv, None, path)
            return
        node = self.const_node(t, v)
        if node:
            self.cons.append(["store_at", path, node])
            if self.cur_global and path.startswith("F:"):
                # which global holds the value (per-object dispatch:
                # the notifier_call of one notifier_block)
                self.cons.append(["ginit", self.cur_global, path, node])

    def static_map(self, ops: list[str]) -> None:
        """A lockdep_map in a global's initializer (DEFINE_SPINLOCK(),
        DEFINE_MUTEX(), a lock in a static struct): its name, with the
        lock that holds it (the outermost lock-typed value around it, or
        the struct the map is a field of) and that lock's type, in
        static_maps."""
        if len(ops) < 5:
            return
        sm = re.search(r'@(\.str[\w.]*)\b', ops[2])
        if not sm or sm.group(1) not in self.strtab:
            return
        # a lockdep map of its own (console_lock_dep_map) is its owner
        stack = self.vstack or [(self.cur_global or "", "%struct.lockdep_map")]
        owner = next((e for e in stack if LOCKTYPE.match(e[1])), stack[-1])
        inner = typed_operand(ops[4])[1]
        self.static_maps.append([owner[0], owner[1], self.strtab[sm.group(1)],
                                 int(inner) if inner.isdigit() else None])

    def scan_strings(self) -> None:
        """The unit's string constants (@.str.N = ... c"..."), for the
        names lock-init calls pass."""
        self.strtab: dict[str, str] = {}
        self.inits: list[list[Any]] = []
        self.pinits: list[list[Any]] = []
        self.static_maps: list[list[Any]] = []
        self.vstack: list[tuple[str, str]] = []
        for ln in self.lines:
            m = STRING_CONST.match(ln)
            if m:
                raw = re.sub(r"\\([0-9A-Fa-f]{2})", lambda x: chr(int(x.group(1), 16)), m.group(2))
                self.strtab[m.group(1)] = raw.rstrip("\0")

    def scan_globals(self) -> None:
        for ln in self.lines:
            if not ln.startswith("@"):
                continue
            m = re.match(r'@("[^"]+"|[-\w.$]+) = (.*)$', ln)
            if not m:
                continue
            sym = m.group(1).strip('"')
            rest = m.group(2)
            if " alias " in f" {rest}" or rest.startswith(("alias", "ifunc")):
                continue
            km = re.match(r"((?:[\w]+ )*?)(global|constant) ", rest)
            if not km:
                continue
            gid = self.gname(sym)
            info: dict[str, Any] = {"percpu": '".data..percpu' in rest,
                                    "internal": sym in self.internal}
            self.globals[gid] = info
            body = rest[km.end():]
            if "external" in km.group(1) or km.group(1).strip().startswith("extern"):
                continue
            try:
                t, i = read_type(body)
            except ValueError:
                continue
            val = body[i:].strip()
            # cut ", section ...", ", align N", metadata
            parts = split_top(val)
            val = parts[0] if parts else ""
            struct = self.global_struct.get(sym)
            # the type of an object defined here (a notifier_block global
            # is a block itself, not one nested in a larger object)
            literal = t.startswith("{") or t.startswith("<{")
            info["type"] = norm_type(struct if struct and literal else t)
            self.cur_global = "G:" + gid
            gt = elem_type(norm_type(t))
            if LOCKTYPE.match(gt):
                self.locklocs["G:" + gid] = lock_type(gt)
            if t.startswith("%struct."):
                self.init_values(t, val, None, "G:" + gid)
            elif struct and (t.startswith("{") or t.startswith("<{")):
                self.init_values(struct, val, norm_type(struct), "G:" + gid)
            else:
                self.init_values(t, val, None, "G:" + gid)
            self.cur_global = None

    # ---- functions -----------------------------------------------------
    def operand(self, fid: str, t: str, v: str) -> str | None:
        v = v.strip()
        if v.startswith("%"):
            return f"{fid}/{v}"
        return self.const_node(t, v)

    def parse_function(self, start: int) -> int:
        head = self.lines[start]
        m = re.search(r'@("[^"]+"|[-\w.$]+)\(', head)
        if not m:
            raise ValueError(f"no function name in {head!r}")
        sym = m.group(1).strip('"')
        fid = self.gname(sym)
        pstart = m.end() - 1
        pend = match_close(head, pstart)
        # the return type: what stands before @name, less the keywords
        rtype = DEFINE_KW.sub(" ", head[len("define "):m.start()].strip())
        rtype = DEREF_ALIGN.sub(" ", rtype).strip()
        params, ptypes = [], []
        for p in split_top(head[pstart + 1:pend]):
            if p == "...":
                ptypes.append("...")
                continue
            t, v = typed_operand(p)
            ptypes.append(norm_type(t))
            params.append(f"{fid}/{v}" if v.startswith("%") else "")
        proto = f"{norm_type(rtype)}({','.join(ptypes)})"
        fn: dict[str, Any] = {"name": sym, "internal": sym in self.internal, "params": params,
              "proto": proto, "loc": "", "blocks": {}, "entry": ""}
        dm = re.search(r"!dbg (![\d]+)", head)
        if dm:
            md = self.meta.get(dm.group(1), "")
            lm = re.search(r"line: (\d+)", md)
            fn["loc"] = f"{self._file_of(dm.group(1))}:{lm.group(1) if lm else 0}"
        self.functions[fid] = fn
        i = start + 1
        block = "entry"
        first = True
        events: list[Any] = []
        succ: list[str] = []
        blocks: dict[str, list[Any]] = {}
        pending = ""
        while i < len(self.lines):
            ln = self.lines[i]
            i += 1
            if ln.startswith("}"):
                break
            s = ln.strip()
            if not s or s.startswith(";"):
                continue
            if pending:
                s = pending + " " + s
                pending = ""
            # a switch spans lines until its "]" (followed by ", !dbg !N"
            # in a -g build)
            if s.startswith("switch ") and not SWITCH_END.search(s):
                pending = s
                continue
            lm = re.match(r'^([-\w.$"]+):(\s|$)', s)
            if lm and not s.startswith("%"):
                if not first or events or succ:
                    blocks[block] = [events, succ]
                block = lm.group(1).strip('"')
                if first:
                    fn["entry"] = block
                first = False
                events, succ = [], []
                continue
            if first:
                fn["entry"] = block
                first = False
            self.instr(fid, s, events, succ)
        blocks[block] = [events, succ]
        fn["blocks"] = blocks
        return i

    def instr(self, fid: str, s: str, events: list[Any], succ: list[Any]) -> None:
        body = META_TAIL.sub("", s)
        body = META_TAIL2.sub("", body)
        dst = None
        m = ASSIGN.match(body)
        if m:
            dst = f"{fid}/{m.group(1)}"
            body = m.group(2)
        op = body.split(" ", 1)[0]
        rest = body[len(op):].strip()
        if op in ("br", "switch", "indirectbr"):
            succ.extend(x.strip('"') for x in re.findall(r'label %([-\w.$"]+)', body))
            return
        if op == "unreachable":
            # after a noreturn call (BUG()): not a way out of the function
            succ.append("<unreachable>")
            return
        if op == "ret":
            if rest != "void":
                t, v = typed_operand(rest)
                node = self.operand(fid, t, v)
                if node:
                    self.cons.append(["copy", f"{fid}/#ret", node])
                    self.passed.append((node, t))
            return
        if op in ("call", "tail", "musttail", "notail", "callbr", "invoke"):
            self.call(fid, dst, body, s, events, succ)
            return
        if op == "getelementptr":
            parts = split_top(rest.replace("inbounds ", "", 1))
            bt, bv = typed_operand(parts[1])
            base = self.operand(fid, bt, bv)
            if dst:
                self.gep(dst, parts[0], base, parts[1:])
                self.note_origin(dst, base, bt, gep=True)
                if "@__per_cpu_offset" in bv:
                    self.pco_addr.add(dst)
            if m and parts[0].strip().startswith("%"):
                steps = self.gep_steps(parts[0], parts[1:])
                if steps and dst:
                    self.gep_struct[dst] = steps[-1][0]
                if steps:
                    name = m.group(1)[1:].strip('"')
                    s0, k0 = steps[-1]
                    if not re.match(r"^\d+$", name):
                        names = self.fields.setdefault(f"{s0}.{k0}", [])
                        if name not in names and len(names) < 4 and \
                                not (names and names[0].startswith("=")):
                            names.append(name)
            return
        if op == "load":
            parts = split_top(rest.replace("volatile ", "", 1))
            pt, pv = typed_operand(parts[1])
            ptr = self.operand(fid, pt, pv)
            if dst and ("@__per_cpu_offset" in pv or ptr in self.pco_addr):
                self.pco_off.add(dst)
            if ptr and dst:
                # a value loaded as a struct pointer is data, never a
                # function (kCFI would stop a call through it)
                data = re.fullmatch(r'%"?(struct|union)\.[^*()"]+"?\*+', parts[0].strip())
                self.cons.append(["load", dst, ptr] + (["data"] if data else []))
                events.append(["ld", ptr, self.loc(s)])
            return
        if op == "store":
            parts = split_top(rest.replace("volatile ", "", 1))
            vt, vv = typed_operand(parts[0])
            pt, pv = typed_operand(parts[1])
            val = self.operand(fid, vt, vv)
            ptr = self.operand(fid, pt, pv)
            if val:
                self.passed.append((val, vt))
            if ptr:
                if val:
                    self.cons.append(["store", ptr, val])
                events.append(["st", ptr, self.loc(s)])
            return
        if op in ("bitcast", "ptrtoint", "inttoptr", "addrspacecast", "trunc",
                  "zext", "sext", "freeze"):
            inner, *to = re.split(r"\s+to\s+", rest, maxsplit=1)
            t, v = typed_operand(inner)
            src = self.operand(fid, t, v)
            if src and dst:
                kind = cast_kind(t, to[0]) if op == "bitcast" and to else "copy"
                self.cons.append([kind, dst, src])
                if op == "bitcast" and to and src in self.call_results:
                    self.lock_cast(src, to[0])
                if op in ("bitcast", "ptrtoint", "addrspacecast"):
                    self.note_origin(dst, src, t)
            return
        if op == "phi":
            t, i = read_type(rest)
            for vv in re.findall(r"\[\s*(.*?),\s*%[-\w.$\"]+\s*\]", rest[i:]):
                src = self.operand(fid, t, vv)
                if src and dst:
                    self.cons.append(["copy", dst, src])
                    self.passed.append((src, t))
            return
        if op == "select":
            for p in split_top(rest)[1:]:
                t, v = typed_operand(p)
                src = self.operand(fid, t, v)
                if src and dst:
                    self.cons.append(["copy", dst, src])
                    self.passed.append((src, t))
            return
        if op in ("add", "sub", "or", "and", "xor"):
            r2 = re.sub(r"^((nuw|nsw|exact|disjoint) )+", "", rest)
            t, i = read_type(r2)
            srcs = [self.operand(fid, t, v) for v in split_top(r2[i:])]
            for src in srcs:
                if src and dst:
                    self.cons.append(["copy", dst, src])
            # per_cpu_ptr(p, cpu): p + __per_cpu_offset[cpu]; a p that is
            # no constant address (an SSA value, fid/%x) may be memory
            # from alloc_percpu()
            if dst and op == "add" and any(src in self.pco_off for src in srcs):
                for src in srcs:
                    if src and src.startswith(f"{fid}/%") and src not in self.pco_off:
                        self.cons.append(["addr", dst, dynamic_percpu(
                            self.ptr_origin.get(src))])
            return
        if op in ("extractvalue", "insertvalue"):
            for p in split_top(rest):
                try:
                    t, v = typed_operand(p)
                except ValueError:
                    continue
                src = self.operand(fid, t, v)
                if src and dst:
                    self.cons.append(["copy", dst, src])
            return
        if op == "alloca" and dst:
            self.cons.append(["addr", dst, f"A:{dst}"])
            return
        if op in ("atomicrmw", "cmpxchg"):
            parts = split_top(re.sub(r"^(volatile |weak )+", "", rest))
            i0 = 1 if op == "atomicrmw" else 0
            try:
                pt, pv = typed_operand(parts[i0] if op == "cmpxchg" else
                                       re.sub(r"^\w+ ", "", parts[0]))
            except ValueError:
                return
            ptr = self.operand(fid, pt, pv)
            if ptr:
                events.append(["st", ptr, self.loc(s)])
            return

    def call(self, fid: str, dst: str | None, body: str, raw: str,
             events: list[Any], succ: list[Any]) -> None:
        if body.startswith("callbr"):
            succ.extend(x.strip('"') for x in re.findall(r'label %([-\w.$"]+)', body))
            body = body[:body.index(" to label")] if " to label" in body else body
        body = re.sub(r"\s*#\d+\s*$", "", body)
        body = re.sub(r"\s*(\[[^\]]*\]\s*)$", "", body)  # operand bundles
        if not body.endswith(")"):
            return
        # the argument list is the last top-level (...)
        depth = 0
        q = False
        start = -1
        for j in range(len(body) - 1, -1, -1):
            ch = body[j]
            if ch == '"':
                q = not q
            if q:
                continue
            if ch in ")]}>":
                depth += 1
            elif ch in "([{<":
                depth -= 1
                if depth == 0:
                    start = j
                    break
        if start < 0:
            return
        args_s = body[start + 1:-1]
        head = body[:start].rstrip()
        loc = self.loc(raw)
        if re.search(r'\basm\b', head):
            side = " sideeffect" in head
            cm = re.search(r'asm[^"]*"((?:[^"\\]|\\.)*)", "((?:[^"\\]|\\.)*)"', head)
            constraints = cm.group(2).split(",") if cm else []
            text = cm.group(1) if cm else ""
            aargs = split_top(args_s)
            ai = 0
            tied: list[tuple[str, str, str]] = []
            reads_cpu_off = False
            for c in constraints:
                if c.startswith("=") and "*" not in c:
                    continue
                if c.startswith("~"):
                    break
                if ai >= len(aargs):
                    break
                t, v = typed_operand(aargs[ai])
                node = self.operand(fid, t, v)
                if node and "*" in c:
                    write = c.startswith("=") or c.startswith("+")
                    self.asm.append([fid, node, side, write, loc])
                    events.append(["pc", node, write, side, loc])
                    reads_cpu_off |= v.strip() == "@this_cpu_off"
                elif node and dst and text.strip() == "":
                    # RELOC_HIDE-style laundering: asm "" "=r,0"(ptr)
                    self.cons.append(["copy", dst, node])
                elif node and dst and c.isdigit():
                    tied.append((node, v.strip(), t))
                ai += 1
            if dst and reads_cpu_off:
                # x86 this_cpu_ptr(): asm "add %gs:this_cpu_off, reg" on
                # the pointer, a tied operand; one that is no constant
                # address may be memory from alloc_percpu()
                for node, v, t in tied:
                    self.cons.append(["copy", dst, node])
                    if v.startswith("%"):
                        m = TYPED_PTR.match(t.strip())
                        origin = self.ptr_origin[node] if node in self.ptr_origin \
                            else (m.group(1) if m else None)
                        self.cons.append(["addr", dst, dynamic_percpu(origin)])
            return
        # callee: the token before the argument list
        cm = re.search(r'(@("[^"]+"|[-\w.$]+)|%[-\w.$"]+)$', head)
        callee_direct = None
        fp = None
        if cm:
            tok = cm.group(1)
            if tok.startswith("@"):
                callee_direct = self.gname(tok[1:].strip('"'))
            else:
                fp = f"{fid}/{tok}"
            pre = head[:cm.start()]
        elif head.endswith(")"):
            # bitcast (T @f to U)
            j = head.rindex("(", 0, len(head))
            depth = 0
            for j in range(len(head) - 1, -1, -1):
                if head[j] == ")":
                    depth += 1
                elif head[j] == "(":
                    depth -= 1
                    if depth == 0:
                        break
            inner = head[j + 1:-1]
            bm = re.search(r'@("[^"]+"|[-\w.$]+) to ', inner)
            if bm:
                callee_direct = self.gname(bm.group(1).strip('"'))
            else:
                return
            pre = re.sub(r"\b(bitcast|getelementptr)\s*$", "", head[:j]).rstrip()
        else:
            return
        pre = CALL_HEAD.sub("", pre.strip())
        pre = CALL_KW.sub(" ", pre)
        pre = DEREF_ALIGN.sub(" ", pre).strip()
        args: list[str] = []
        atypes: list[str] = []
        consts: list[int | None] = []
        for a in split_top(args_s):
            try:
                t, v = typed_operand(a)
            except ValueError:
                args.append("")
                atypes.append("?")
                consts.append(None)
                continue
            atypes.append(norm_type(t))
            node = self.operand(fid, t, v)
            args.append(node or "")
            consts.append(int(v) if re.match(r"^-?\d+$", v) else None)
        rtype = pre
        if "(" in rtype:        # explicit function type (varargs)
            proto = norm_type(rtype.replace(" (", "(", 1))
        else:
            proto = f"{norm_type(rtype)}({','.join(atypes)})"
        if callee_direct and callee_direct.startswith("llvm."):
            if callee_direct.startswith(("llvm.memcpy", "llvm.memmove")) and len(args) >= 2:
                if args[0] and args[1]:
                    self.cons.append(["memcpy", args[0], args[1]])
            return
        self.passed.extend((a, t) for a, t in zip(args, atypes) if a)
        if callee_direct in PERCPU_ALLOCATORS and dst:
            self.percpu_allocs.add(dst)
        if dst:
            self.call_results.add(dst)
        site = len(self.calls)
        self.calls.append([fid, callee_direct or "", fp or "", args, dst or "",
                           loc, proto, consts])
        events.append(["call", site])
        if KEY_TYPE in atypes:
            self.lock_init(fid, site, split_top(args_s), args, atypes)

    def lock_cast(self, result: str, to_t: str) -> None:
        """A call's result cast to a pointer to a lock type: the memory it
        returns holds that lock at its start (vectors.py makes the result
        of an allocator so cast a lock class of its own)."""
        t = to_t.strip()
        if t.endswith("*") and LOCKTYPE.match(norm_type(t[:-1].strip())):
            self.lock_casts[result] = lock_type(norm_type(t[:-1].strip()))

    def lock_init(self, fid: str, site: int, raw_args: list[str], args: list[str],
                  atypes: list[str]) -> None:
        """Record the lockdep name a call passing a lock_class_key gives
        (the lockdep oracle maps lockdep's class names back to the
        classes of these sites): [site, name, name's argument index, the
        struct argument 0 points into] in inits; [site, the caller's
        parameter index, the name's argument index] in pinits when the
        name is a parameter of the calling function."""
        fn = self.functions.get(fid)
        params = fn["params"] if fn else []
        hint = ""
        if args and args[0]:
            hint = self.gep_struct.get(args[0], "")
            gm = re.search(r"getelementptr (?:inbounds )?\(%struct\.([\w.]+),", raw_args[0])
            if not hint and gm:
                hint = norm_type(f"%struct.{gm.group(1)}")
        for k, (raw, t) in enumerate(zip(raw_args, atypes)):
            if t != "i8*":
                continue
            sm = re.search(r'@(\.str[\w.]*)\b', raw)
            if sm and sm.group(1) in self.strtab:
                self.inits.append([site, self.strtab[sm.group(1)], k, hint])
                return
            if args[k] and args[k] in params:
                self.pinits.append([site, params.index(args[k]), k])
                return

    def parse(self) -> None:
        self.scan()
        self.functions_defined: set[str] = set()
        self.functions_declared: set[str] = set()
        for ln in self.lines:
            if ln.startswith(("define ", "declare ")):
                m = re.search(r'@("[^"]+"|[-\w.$]+)\(', ln)
                if m:
                    (self.functions_defined if ln.startswith("define")
                     else self.functions_declared).add(m.group(1).strip('"'))
        self.di_fields()
        self.scan_strings()
        self.scan_globals()
        i = 0
        while i < len(self.lines):
            if self.lines[i].startswith("define "):
                i = self.parse_function(i)
            else:
                i += 1
        for sym in self.functions_declared:
            self.functions.setdefault(self.gname(sym), None)
        self.percpu_aliases()

    def percpu_aliases(self) -> None:
        """A pointer to type B (a struct or an integer) that points into an
        object of another type A (&a->b, a cast of a void *: origin "") and
        leaves the function it was made in: a callee that gives it to
        this_cpu_ptr() names the class B for memory of type A.  Each such
        pair [B, A] is kept; vectors.py makes the classes of a pair one
        (or B generic, for an origin it cannot name) when B is the class
        of some this_cpu_ptr() or per_cpu_ptr() of the world."""
        pairs: set[tuple[str, str]] = set()
        for node, t in self.passed:
            origin = self.ptr_origin.get(node)
            if origin is None:
                continue
            m = TYPED_PTR.match(t.strip())
            if not m:
                continue        # a void * or byte pointer: generic already
            own = dynamic_percpu(m.group(1))
            other = dynamic_percpu(origin) if origin else PERCPU_DYNAMIC
            if own != other and own != PERCPU_DYNAMIC:
                pairs.add((own, other))
        self.pcpu_alias = sorted([a, b] for a, b in pairs)

    def facts(self) -> dict[Any, Any]:
        return {"tu": self.tu, "inits": self.inits, "pinits": self.pinits,
                "static_maps": self.static_maps,
                "functions": {k: v for k, v in self.functions.items() if v},
                "declared": sorted(k for k, v in self.functions.items() if not v),
                "globals": self.globals, "fields": self.fields,
                "cons": self.cons, "calls": self.calls, "asm": self.asm,
                "locks": sorted(self.locklocs),
                "ctypes": self.ctypes,
                "lock_types": dict(sorted(self.locklocs.items())),
                "pcpu_alias": getattr(self, "pcpu_alias", []),
                "lock_casts": dict(sorted(self.lock_casts.items()))}


def main() -> int:
    args = sys.argv[1:]
    if len(args) < 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    tu = os.path.basename(args[0])
    if "--tu" in args:
        tu = args[args.index("--tu") + 1]
    tu = re.sub(r"\.ll$", ".c", tu)
    srcroots = [args[i + 1] for i, a in enumerate(args) if a == "--srcroot" and i + 1 < len(args)]
    try:
        with open(args[0], encoding="utf-8", errors="replace") as f:
            unit = TU(f.read(), tu, srcroots)
        unit.parse()
    except (ValueError, IndexError, AttributeError) as e:
        print(f"ir_facts: {args[0]}: cannot parse: {e}", file=sys.stderr)
        return 1
    tmp = args[1] + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(unit.facts(), f, separators=(",", ":"))
    os.replace(tmp, args[1])
    return 0


if __name__ == "__main__":
    sys.exit(main())
