"""The analysis's knowledge of the kernel: lock primitives, the softirq
dispatcher (a barrier), vector roots and per-dispatcher resolution.
Names are linux-6.1's; tests/analysis-worlds/stub/ uses the same ones.
Every entry is a fact about the kernel, with the reason it holds."""

from typing import Any

VECTORS = ("HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL",
           "TASKLET", "SCHED", "HRTIMER", "RCU")

# Event kinds of a call to a primitive.
# "lock_irqoff": a plain acquisition lifted out of callees that turned
# interrupts off first (LockEvents.irq_off_lifts(): rq_lock_irqsave()); no
# event has it as its kind, acquisitions count as it (LockEvents.acq_kind())
ACQUIRE_KINDS = {"lock", "lock_irq", "lock_irqoff", "lock_bh", "try", "try_bh", "read1"}
HOLD_KINDS = {"lock", "lock_irq", "lock_bh", "try", "try_bh", "bh_off"}
# held with interrupts off: no softirq runs inside
IRQ_KINDS = {"lock_irq", "lock_irqoff"}
# Calls that turn hard interrupts off or (maybe) on again outside the lock
# primitives: local_irq_save()/local_irq_disable() and
# local_irq_restore()/local_irq_enable() (static inline wrappers, which
# the IR keeps as calls).
IRQ_OFF_CALLS = {"arch_local_irq_save", "arch_local_irq_disable", "native_irq_disable"}
IRQ_ON_CALLS = {"arch_local_irq_restore", "arch_local_irq_enable", "native_irq_enable",
                "trace_hardirqs_on"}
# Of those, the ones that turn interrupts on whatever they were before
# (a restore gives back what the matching save found).
IRQ_ENABLE_CALLS = {"arch_local_irq_enable", "native_irq_enable"}
# The restore: it turns interrupts on only when they were on at the save
# whose flags it is given.  Its body (a conditional enable) is not read;
# a call of it, or of an _irqrestore release, after a save in the same
# function gives back that save's state, otherwise its caller's.
IRQ_RESTORE_CALLS = {"arch_local_irq_restore"}
# Reporting functions that run in hard interrupt and NMI context: they
# keep the interrupt state as they found it (lockdep reports interrupts
# turned on in a hard interrupt), so a call of one does not end an
# interrupts-off stretch, whatever the static call graph behind them
# (console drivers through indirect calls) seems to reach.  They are
# called with any lock held and return with their caller's locks as they
# found them: a release or hold that the path-insensitive reading of the
# code behind them seems to leave over (a console's lock taken and
# dropped under the same test) is not their callers' event.
IRQ_KEEPING_CALLS = {"_printk", "printk", "vprintk", "vprintk_emit", "vprintk_default",
                     "vprintk_deferred", "_printk_deferred", "__warn_printk", "__warn",
                     "warn_slowpath_fmt", "dump_stack", "dump_stack_lvl", "show_stack"}
# A seqcount read inside a section holds nothing: a vector that writes
# the sequence while it interrupts the read finishes, and the read
# retries; only a writer in the section (the sequence odd) makes a
# reading vector spin.  Lock order still counts reads: a reader that
# holds a lock spins on a writer that may wait for that lock.
READ_KINDS = {"read1"}
# Acquisitions inside a section that add nothing to its mask: those with
# interrupts off and the reads.
QUIET_KINDS = IRQ_KINDS | READ_KINDS
BH_KINDS = {"lock_bh", "try_bh", "bh_off"}
BH_RELEASE_KINDS = {"unlock_bh", "bh_on"}     # each turns BH back on once
TRY_KINDS = {"try", "try_bh"}
LOCKLESS_KINDS = {"bh_off"}
RELEASE_OF = {
    "lock": {"unlock", "unlock_bh"},
    "lock_irq": {"unlock", "unlock_bh"},
    "try": {"unlock", "unlock_bh"},
    "lock_bh": {"unlock_bh", "unlock"},
    "try_bh": {"unlock_bh", "unlock"},
    "bh_off": {"bh_on"},
}


def _prims() -> dict[Any, Any]:
    p = {}
    for pre in ("_raw", "__raw"):
        for lk in ("spin", "read", "write"):
            for suf in ("", "_nested", "_nest_lock"):
                p[f"{pre}_{lk}_lock{suf}"] = ("lock", 0)
            for suf in ("_irq", "_irqsave", "_irqsave_nested"):
                p[f"{pre}_{lk}_lock{suf}"] = ("lock_irq", 0)
            p[f"{pre}_{lk}_lock_bh"] = ("lock_bh", 0)
            p[f"{pre}_{lk}_trylock"] = ("try", 0)
            p[f"{pre}_{lk}_trylock_bh"] = ("try_bh", 0)
            for suf in ("", "_irq", "_irqrestore"):
                p[f"{pre}_{lk}_unlock{suf}"] = ("unlock", 0)
            p[f"{pre}_{lk}_unlock_bh"] = ("unlock_bh", 0)
    # bit spinlocks: the word is the lock (include/linux/bit_spinlock.h)
    p["bit_spin_lock"] = ("lock", 1)
    p["bit_spin_trylock"] = ("try", 1)
    p["bit_spin_unlock"] = ("unlock", 1)
    p["__bit_spin_unlock"] = ("unlock", 1)
    # a seqlock reader spins while a writer is inside: an acquisition
    # that is not held (include/linux/seqlock.h)
    p["read_seqbegin"] = ("read1", 0)
    p["read_seqbegin_or_lock"] = ("read1", 0)
    # seqcount writers and readers (include/linux/seqlock.h): a reader
    # spins while the sequence is odd, so a vector that reads interrupting
    # a writer on the same CPU never finishes
    for w in ("do_write_seqcount_begin", "do_write_seqcount_begin_nested",
              "do_raw_write_seqcount_begin"):
        p[w] = ("lock", 0)
    for w in ("do_write_seqcount_end", "do_raw_write_seqcount_end"):
        p[w] = ("unlock", 0)
    for lk in ("", "_raw_spinlock", "_spinlock", "_rwlock", "_mutex"):
        p[f"__seqprop{lk}_sequence"] = ("read1", 0)
    # BH sections without a lock (include/linux/bottom_half.h)
    p["__local_bh_disable_ip"] = ("bh_off", -1)
    p["__local_bh_enable_ip"] = ("bh_on", -1)
    p["_local_bh_enable"] = ("bh_on", -1)
    p["__local_bh_enable"] = ("bh_on", -1)      # kernel/softirq.c, static
    return p


PRIMITIVES = _prims()

# Calls that say "this may sleep": might_sleep() and cond_resched() (with
# CONFIG_DEBUG_ATOMIC_SLEEP, which the campaign configuration sets), and
# schedule() itself (schedule_debug() reports "scheduling while atomic"
# whatever the configuration).  A function that makes one on every path
# never runs in a softirq: the kernel reports "sleeping function called
# from invalid context" if it does.  might_fault() is not one (a softirq
# may copy with page faults disabled).
SLEEP_MARKERS = {"__might_sleep", "__might_resched", "schedule"}

# Allocators that check might_sleep_if(gfp & __GFP_DIRECT_RECLAIM) on
# every path (might_alloc() in the slab and page allocators,
# mempool_alloc()), with the index of their gfp argument and of a size
# argument: a call with a constant mask that allows direct reclaim
# (GFP_KERNEL, GFP_NOFS, GFP_NOIO) sleeps as might_sleep() does.  Left
# out on purpose: kmalloc_array() and kcalloc() (an overflow returns
# NULL first), kstrdup() (NULL in, NULL out), skb_clone() (the fclone
# twin needs no allocation), the page allocator (order >= MAX_ORDER
# returns first).  A constant kmalloc() size of 4 MiB or more reaches
# that page allocator test: such a call is not counted.
GFP_DIRECT_RECLAIM = 0x400      # ___GFP_DIRECT_RECLAIM, gfp_types.h
GFP_MAX_CONST_SIZE = 1 << 22    # PAGE_SIZE << MAX_ORDER, x86_64
GFP_ARG: dict[str, tuple[int, int | None]] = {
    "might_alloc": (0, None),
    "kmalloc": (1, 0), "kzalloc": (1, 0), "kmalloc_node": (1, 0),
    "kzalloc_node": (1, 0),
    "__kmalloc": (1, None), "__kmalloc_node": (1, None),
    "kmem_cache_alloc": (1, None), "kmem_cache_zalloc": (1, None),
    "kmem_cache_alloc_node": (1, None), "kmem_cache_alloc_lru": (2, None),
    "kvmalloc": (1, None), "kvzalloc": (1, None), "kvmalloc_node": (1, None),
    "kvzalloc_node": (1, None),
    "kmemdup": (2, None), "alloc_skb": (1, None), "mempool_alloc": (1, None),
}

# The allocators whose result is memory nobody else holds yet
# (Solver.bind(), rule 1): a call gives its result a value of its own,
# "H:<node>", the allocation site, instead of what the allocator's body
# returns (a pointer loaded from a freelist, which carries whatever the
# field-based solve stored into list pointers).  A lock in such memory
# taken through the result itself (a kvmalloc()ed lock array:
# inet_hashinfo.ehash_locks) is a class per allocation site.  The
# static inline wrappers (kmalloc(), kzalloc(), kvmalloc_array(), ...)
# are listed so the site is the caller's call, not the wrapper's.  Not
# listed: krealloc() (may return its argument), mempool_alloc() (returns
# what its pool's allocator returned earlier), the page allocator, and
# the per-CPU allocator (its memory is per-CPU data, rule 6).
ALLOCATORS = {
    "kmalloc", "kzalloc", "kmalloc_array", "kcalloc", "kmalloc_node",
    "kzalloc_node", "kmalloc_array_node", "kcalloc_node", "__kmalloc",
    "__kmalloc_node", "kmalloc_trace", "kmalloc_node_trace", "kmalloc_large",
    "kmalloc_large_node", "__kmalloc_node_track_caller",
    "kmem_cache_alloc", "kmem_cache_zalloc", "kmem_cache_alloc_node",
    "kmem_cache_alloc_lru",
    "kvmalloc", "kvzalloc", "kvmalloc_node", "kvzalloc_node", "kvmalloc_array",
    "kvcalloc",
    "vmalloc", "vzalloc", "vmalloc_node", "vzalloc_node", "vmalloc_array",
    "vcalloc", "vmalloc_huge", "vmalloc_user", "vmalloc_32", "__vmalloc",
    "__vmalloc_node", "__vmalloc_node_range",
    "kmemdup", "kstrdup", "kstrndup", "kmemdup_nul", "devm_kmalloc",
    "devm_kzalloc", "alloc_large_system_hash",
}

# How many rounds the functions of one call-graph cycle are judged in
# (Analysis.site_events()) before the analysis gives up on the lifts
# settling and judges them once each, in the call graph's order; and the
# largest cycle judged in rounds at all.  The campaign kernel's small
# cycles settle in two or three rounds; its one large cycle (18,558
# functions) does not settle in free rounds (releases climb through its
# imprecise indirect calls): it is judged once, then settled within what
# it lifted then (LockEvents._settle_large(), at most LIFT_JUDGE_FACTOR
# judgements per function; 50,378 in all on the campaign kernel).
LIFT_ROUNDS = 12
LIFT_CYCLE_MAX = 1000

# How many rounds LockEvents.irq_off_lifts() marks acquisitions lifted out
# of callees that turned interrupts off (each round can make more calls
# saves, so fewer callees restore what they did not save).
IRQ_OFF_ROUNDS = 6
LIFT_JUDGE_FACTOR = 20

# Functions never traversed from a vector: softirq handlers do not nest,
# so the dispatcher returns at once when a handler enables BH again
# (kernel/softirq.c: do_softirq() and irq exit test in_interrupt()).
BARRIERS = {
    "do_softirq", "__do_softirq", "handle_softirqs", "invoke_softirq",
    "do_softirq_own_stack", "irq_exit", "irq_exit_rcu", "__irq_exit_rcu",
    "run_ksoftirqd", "__local_bh_run_unmasked",
    # Dead ends: panic() never returns; it stops the other CPUs and runs
    # its notifiers on the way down, so a lock they take cannot deadlock
    # a section the vector interrupted in any way that outlives the
    # panic (and every vector reaches panic() through WARN paths, which
    # would give every lock a panic notifier takes every vector).
    "panic", "nmi_panic",
    # The scheduler proper: schedule() and preempt_schedule_common()
    # enter __schedule() with a preempt count of exactly one (their own
    # preempt_disable()), and __cond_resched() calls it only when
    # should_resched(0) finds the count at zero; __schedule() reports
    # "scheduling while atomic" otherwise.  A softirq handler runs with
    # the softirq count raised and a BH section with BH off, so neither
    # ever enters it, whatever path cond_resched() or a wake-up seems to
    # give them.
    "__schedule",
}

# Units whose stores of a lock's address are bookkeeping no code loads
# to acquire a lock through: lockdep keeps every held lock's address
# (__lock_acquire(): hlock->instance = lock; assign_lock_key(): a static
# lock's key is its own address), read back only to print and to match
# a release.  Without this the analysed world (PROVE_LOCKING) stores
# every lock, and an acquisition through a pointer the solve cannot
# resolve may be any of them.
BOOKKEEPING_UNITS = {"kernel/locking/lockdep.c"}
# mm/percpu.c: __is_kernel_percpu_address(addr, can_addr) stores the
# canonical address of addr for lockdep's static_obj(), which compares
# it and drops it (every other caller passes NULL).
BOOKKEEPING_FUNCTIONS = {"__is_kernel_percpu_address"}

# Lock debugging, which the kernels the masks are for do not run.  The
# analysed world is the campaign configuration, built with PROVE_LOCKING,
# DEBUG_LOCK_ALLOC, DEBUG_SPINLOCK and LOCK_STAT because the campaign
# tests under lockdep; a distribution kernel builds without them, and then
# lock_acquire(), lock_release(), lockdep_rcu_suspicious() and the
# spinlock checks are empty inlines or absent.  Their report paths
# (print_usage_bug(), lockdep_rcu_suspicious(), spin_bug(): printk with
# vsnprintf(), console drivers, kobject releases behind %pfw) would give
# every vector that takes a lock, and every section that calls one,
# everything a report can reach.  Calls into these units are not
# followed (CallGraph.is_barrier()): the lock itself is taken by the
# primitive at its call site, which the analysis reads whatever runs
# inside it.  In a lockdep kernel a report runs only after lockdep found
# a bug; the locks its printing takes are not covered by the masks.
DEBUG_UNITS = {"kernel/locking/lockdep.c", "kernel/locking/spinlock_debug.c"}

# Wrappers whose lock argument must not be lifted to their callers.
NO_LIFT: set[Any] = set()

OPEN_SOFTIRQ = "open_softirq"

# Per-dispatcher resolution of the indirect calls inside a function:
# ("param", [(api, argument index)], (struct, field)): the functions given
# to those APIs, plus those the dispatcher's own unit stores into
# struct.field directly;
# ("hrtimer", None, None): callbacks of hrtimer objects set up with a
# soft mode.
DISPATCH = {
    # kernel/rcu/tree.c: rcu_do_batch() runs what call_rcu() queued; the
    # same struct callback_head carries task_work callbacks (process
    # context), which type alone would mix in.
    "rcu_do_batch": ("param", [("call_rcu", 1), ("call_rcu_hurry", 1)],
                     ("%struct.callback_head", "func")),
    # kernel/time/hrtimer.c: __run_hrtimer() runs hard timers from the
    # hard interrupt and soft ones from HRTIMER_SOFTIRQ.
    "__run_hrtimer": ("hrtimer", None, None),
}
# A dispatcher that serves two vectors from one function, the list being
# data: per vector, the API that puts work on that vector's list and the
# argument holding the object.  kernel/softirq.c: tasklet_action_common()
# walks the HI list for tasklet_hi_action() and the TASKLET list for
# tasklet_action(); only tasklets given to __tasklet_hi_schedule() are on
# the HI list, only those given to __tasklet_schedule() on the TASKLET
# list (takeover_tasklets() moves a dead CPU's lists onto the same lists).
# Every call of the dispatcher is in its walk of the list: for a list
# nothing queues on, it calls nothing.
LIST_DISPATCH = {"tasklet_action_common": {"HI": ("__tasklet_hi_schedule", 0),
                                           "TASKLET": ("__tasklet_schedule", 0)}}
# The APIs that set an object's callback: (object argument, callback
# argument); the struct whose fields hold the callbacks (any store of a
# function into it elsewhere counts for every object).
LIST_SETUP = {"tasklet_setup": (0, 1), "tasklet_init": (0, 1)}
LIST_STRUCT = "%struct.tasklet_struct"
# Ops objects: two calls of one function through fields of the same
# object run functions that one object holds together (seq_read_iter()
# calls start, show, next and stop of one struct seq_operations; a lock
# one start() returns holding is held while that object's show() runs,
# not every show() of the kernel).  The object is the same when the two
# function pointers are loaded through one pointer value, or through
# pointers loaded from the same field of one object when that field never
# changes while the object is used: a holder field below, with the only
# functions that may store into it (the solve checks that no other
# function does, and leaves the entry out, saying so, if one does).
# fs/seq_file.c: seq_open() stores seq_file.op on the seq_file it has
# just allocated, from the file's open(), before any read of the file
# can run; nothing else in 6.1 writes the field (tcp_ipv4.c and
# dlm/debug_fs.c only compare it).
STABLE_OPS_FIELDS = {("%struct.seq_file", "op"): {"seq_open"}}
# Functions that build an ops object field by field in memory they have
# just allocated: their stores through the allocation's result are that
# object's, not every object's of the struct.  fs/seq_file.c:
# single_open() kmalloc()s a seq_operations, sets start, next, stop and
# show, and hands it to seq_open(); nothing copies into it (single_release()
# frees it).  Every other store into an ops struct's field counts for
# every object of that struct.
OPS_BUILDERS = {"single_open"}
# Allocators whose memory starts as a copy of another object (not empty):
# an object they return holds what the source held.
COPYING_ALLOCATORS = {"kmemdup", "kstrdup", "kstrndup", "kmemdup_nul"}
# kernel/notifier.c: notifier_call_chain(nl, ...) runs the notifier_call
# of the blocks notifier_chain_register(nl, n) put on that head, not
# every notifier of the kernel.  The head is an object (a global, or a
# field: every object of that type is one head); the block is a global
# whose initializer names the function, or an object whose field a
# store sets (then every function stored into that field counts).
NOTIFIER_CALL = ("notifier_call_chain", 0)           # name, head parameter
NOTIFIER_REGISTER = ("notifier_chain_register", 0, 1)  # name, head, block
NOTIFIER_FIELD = "F:%struct.notifier_block.0"        # notifier_call
# The chain heads.  A global head's address travels through copies,
# parameters and memory like a function's (the solve sends no other
# object address along): register_sys_off_handler() stores the head it
# registers on in a void * field and loads it again.
NOTIFIER_HEAD_TYPES = {"%struct.atomic_notifier_head", "%struct.blocking_notifier_head",
                       "%struct.raw_notifier_head", "%struct.srcu_notifier_head"}
HRTIMER_STRUCT = "%struct.hrtimer"
HRTIMER_FIELD = "function"
HRTIMER_MODE_SOFT = 0x04
HRTIMER_INIT = {"hrtimer_init": (0, 2), "hrtimer_init_on_stack": (0, 2),
                "hrtimer_init_sleeper": (0, 2),
                "hrtimer_init_sleeper_on_stack": (0, 2)}

RELEASE_KINDS = {"unlock", "unlock_bh", "bh_on"}

# Per-CPU variables (a static one by its unit) whose raw (non-this_cpu)
# accesses never need a vector masked: each is changed by its own CPU
# only, in balanced nesting steps or once at boot, so a softirq that runs
# in between leaves it as it was.
PERCPU_IGNORE = {
    "__preempt_count": "preempt_count_add/sub: balanced at every level",
    "this_cpu_off": "set once at boot",
    "cpu_number": "set once at boot",
    "current_task": "switched only by the scheduler with interrupts off",
    "pcpu_hot": "current task and preempt count: as above",
    "hardirq_stack_ptr": "set once at boot",
    "hardirq_stack_inuse": "hard interrupt entry and exit, balanced",
    "softirq_masked": "the masking state itself (core series)",
    "kernel/locking/qspinlock.c:qnodes":
        "queued spinlock MCS nodes: one per nesting level (task, softirq, "
        "hardirq, NMI), the count raised on entry to the slow path and "
        "lowered on its exit",
    "lockdep_recursion": "lockdep's own recursion count: raised and lowered "
                         "around each lockdep call with interrupts off",
    "hardirqs_enabled": "lockdep's copy of the interrupt flag: written with "
                        "interrupts off, and every interrupt returns with the "
                        "flag as it found it",
}


def percpu_ignored(gid: str) -> bool:
    """A global by its name, a static by its unit and name."""
    return gid in PERCPU_IGNORE or gid.split(":")[-1] in PERCPU_IGNORE


# Functions outside the world that keep nothing they are given: a pointer
# passed to them does not escape.  Tracepoints call their probes through
# a static-call trampoline (__SCT__tp_func_<event>, assembly): the probes
# are the trace_event_raw_event_*() functions of the world, which copy the
# arguments' values into the ring buffer and never call or lock through
# them.  Without this, every callback a tracepoint names (cpuhp's, the
# timer's) and every lock lockdep's tracepoints name would escape.
NO_ESCAPE_PREFIXES = ("__SCT__tp_func_",)


def keeps_nothing(callee: str) -> bool:
    return callee.startswith(NO_ESCAPE_PREFIXES)

# Headers of the BH API: a section that starts at a call of one of their
# static inline wrappers (spin_lock_bh(), local_bh_disable(),
# rcu_read_lock_bh(), write_seqlock_bh(), netif_tx_lock_bh() is not one)
# is a call the converter can rewrite.
API_HEADERS = ("include/linux/bottom_half.h", "include/linux/spinlock.h",
               "include/linux/rwlock.h", "include/linux/seqlock.h",
               "include/linux/rcupdate.h", "include/linux/spinlock_api_smp.h",
               "include/linux/rwlock_api_smp.h")
# The lock API's own wrappers by name, wherever they are defined (a
# world's stub defines them in its kernel.h): a call of one is the
# section's own acquisition or release, not a callee that drops its lock.
API_WRAPPERS = {f"{k}_{op}{sfx}" for k in ("spin", "read", "write", "raw_spin")
                for op in ("lock", "unlock", "trylock")
                for sfx in ("", "_bh", "_irq", "_irqsave", "_irqrestore", "_nested")} | \
    {"local_bh_disable", "local_bh_enable", "rcu_read_lock_bh", "rcu_read_unlock_bh"}
