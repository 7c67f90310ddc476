# shellcheck shell=bash
# Common helpers for the campaign scripts: progress lines, results, errors,
# and the work-folder layout.  Sourced, never run.
#
# Reads:  WORK (work folder; default $HOME/.cache/softirq-mask)
# Writes: nothing by itself.

WORK=${WORK:-$HOME/.cache/softirq-mask}
TREE=${TREE:-$WORK/linux}        # the one kernel source path (git repo)
OBJ=${OBJ:-$WORK/obj}            # the one O= build folder (ccache hits need a fixed path)
OUT=${OUT:-$WORK/out}            # per-stage results: $OUT/<stage>/
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Only WORK is exported: every script derives the rest from it, so a
# caller that sets WORK for a child is not overridden by its own TREE.
export WORK
# semantic-patches/bh_lock_mask.cocci imports its Python helpers
# (semantic-patches/bh_lock_mask.py) from spatch's embedded Python.
export PYTHONPATH="$TOP/semantic-patches${PYTHONPATH:+:$PYTHONPATH}"

# The console line of the WARNING that the core series prints for each
# kind of misuse of the masking API (softirq_mask_report()).  The KUnit
# suite provokes misuse on purpose in every kernel that builds it in, so
# boot-kernel.sh excuses it whenever the kernel's configuration has the
# suite.
# shellcheck disable=SC2034 # used by the scripts that source this file
SOFTIRQ_MISUSE_WARNING='at kernel/softirq\.c:[0-9]+ softirq_mask_report\+'
# The message of the WARNING that call_timer_fn() prints when the suite's
# timer callback leaks a partial section on purpose (the case
# leaked_section_is_forgotten); matched on the message printed before the
# WARNING line (parse-boot-log.py --allow-after: another CPU's lines may
# come between), so a leak by any other timer callback is still reported.
# shellcheck disable=SC2034 # used by the scripts that source this file
SOFTIRQ_LEAK_TIMER_MESSAGE='^timer: smt_leak_timer_fn\+0x[0-9a-f]+/0x[0-9a-f]+ preempt leak'

# The converted kernel's configuration: the campaign configuration the
# masks are proven for (guest + campaign fragments, as variant "campaign"
# at tag base) plus the core series' KUnit suite and lockdep test.  make
# check builds the core kernel with it too, so that the converted kernel
# after it recompiles only the converted files.
# shellcheck disable=SC2034 # used by the scripts that source this file
NET_KFRAGMENTS="$TOP/scripts/kconfig/guest.config $TOP/scripts/kconfig/campaign.config $TOP/scripts/kconfig/core.config"

_t0=$(date +%s)

# log STAGE MESSAGE...: a progress line with wall-clock time.
# first_lines N: the first N lines of stdin.  Unlike head, it reads all of
# its input: a reader that stops early kills its writer with SIGPIPE while
# the writer still has output, and under pipefail the pipeline then fails
# at random.  has_line ERE: status 0 when a line of stdin matches the awk
# ERE, likewise reading all of it (in place of grep -q).
first_lines() {
	awk -v n="$1" 'NR <= n'
}

has_line() {
	awk -v re="$1" '$0 ~ re { found = 1 } END { exit !found }'
}

log() {
	local stage=$1
	shift
	printf '[%s] %s: %s\n' "$(date +%H:%M:%S)" "$stage" "$*"
}

# result STAGE PASS|FAIL|SKIP REASON: the one line a stage ends with.
result() {
	printf 'RESULT %s %s: %s (%ss)\n' "$1" "$2" "$3" "$(($(date +%s) - _t0))"
}

# die STAGE MESSAGE [STATUS]: print an error that says what failed, exit.
die() {
	printf '[%s] %s: error: %s\n' "$(date +%H:%M:%S)" "$1" "$2" >&2
	exit "${3:-1}"
}

# need_tool STAGE TOOL...: exit 2 when a tool is missing.
need_tool() {
	local stage=$1 t
	shift
	for t in "$@"; do
		command -v "$t" >/dev/null 2>&1 ||
			die "$stage" "'$t' is not installed; run 'make deps' first" 2
	done
}

# need_tree STAGE: exit 2 when the work tree is missing.
need_tree() {
	[ -e "$TREE/.git" ] ||
		die "$1" "no kernel tree at $TREE; run 'make tree' first" 2
}

# need_revs STAGE REV...: exit 2 naming the first REV that is no commit of
# the work tree.
need_revs() {
	local stage=$1 r
	shift
	for r in "$@"; do
		git -C "$TREE" rev-parse -q --verify "$r^{commit}" >/dev/null ||
			die "$stage" "revision '$r' not found in $TREE (run 'make tree', 'make core' or 'make series' first?)" 2
	done
}

# need_clean_tree STAGE: exit 1 when the work tree has uncommitted changes
# to tracked files (a checkout would carry them along or fail).
need_clean_tree() {
	[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ] ||
		die "$1" "$TREE has uncommitted changes; commit or discard them (make tree FORCE=1)" 1
}
