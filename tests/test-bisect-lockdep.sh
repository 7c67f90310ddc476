#!/usr/bin/env bash
# test-bisect-lockdep.sh: bisecting boots finds a commit whose wrong mask
# lockdep reports.  The fixture series (tests/fixtures/bisect-lockdep) sits
# on tag core: harmless, a commit that makes the boot-time lockdep test's
# "right" section hold back HRTIMER instead of TASKLET (like a conversion
# that picked the wrong vector), harmless.  Booted with
# softirq_mask_lockdep_test=right, only the commits from the second on get
# a lockdep report, so the bisection must name the second.
# Runs after the core suite (needs tag core and reuses its build folder):
# run alone (without that state) it fails at once, saying so.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=tests/lib-test.sh
. tests/lib-test.sh
# shellcheck source=scripts/lib.sh
. scripts/lib.sh

logs="$OUT/check/bisect-lockdep"
rm -rf "$logs"
mkdir -p "$logs"
require_core_state bisect-lockdep

expect_status "lockdep fixture series applies on core" 0 "$logs/apply.log" \
	scripts/kernel/apply-patches.sh tests/fixtures/bisect-lockdep core bisect-lockdep
start=$(git -C "$TREE" rev-parse HEAD)
expect_status "bisect core..bisect-lockdep (right-mask lockdep test) finds a commit" 0 "$logs/bisect.log" \
	env APPEND=softirq_mask_lockdep_test=right scripts/bisect/bisect-boot.sh core bisect-lockdep boot
sed 's/^/    /' "$logs/bisect.log" | tail -n 20
bad=$(git -C "$TREE" rev-parse --short bisect-lockdep~1)
expect_grep "first bad commit is the wrong-mask one" \
	"^first bad commit: $bad fixture: hold back HRTIMER instead of TASKLET" "$logs/bisect.log"
expect_grep "its verdict is a lockdep report" "^boot verdict: LOCKDEP" "$logs/bisect.log"
expect_grep "the decisive lines name the vector" \
	"softirq vector: TASKLET" "$logs/bisect.log"
expect_tree_restored "$start"
tally
