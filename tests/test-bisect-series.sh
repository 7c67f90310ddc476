#!/usr/bin/env bash
# test-bisect-series.sh: make bisect works over the whole stacked series
# (base, the core patches, conversions/*/), not only over the core.  The
# lockdep fixture series (tests/fixtures/bisect-lockdep: harmless, wrong
# mask in the boot-time lockdep test, harmless) goes on top of tag series;
# booted with softirq_mask_lockdep_test=right, every commit from base up to
# the fixture passes (before the lockdep test exists the parameter is only
# an unknown one), so bisecting base..bisect-series must walk through the
# core and conversion commits and name the fixture's second commit.
# Runs after the core suite (tag core and its build).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=tests/lib-test.sh
. tests/lib-test.sh
# shellcheck source=scripts/lib.sh
. scripts/lib.sh

logs="$OUT/check/bisect-series"
rm -rf "$logs"
mkdir -p "$logs"
require_core_state bisect-series

expect_status "series stacks base, core and the conversions" 0 "$logs/series.log" \
	scripts/series/make-series.sh
expect_status "lockdep fixture series applies on the stacked series" 0 "$logs/apply.log" \
	scripts/kernel/apply-patches.sh tests/fixtures/bisect-lockdep series bisect-series
n_conv=$(git -C "$TREE" rev-list --count core..series)
if [ "$n_conv" -gt 0 ]; then
	ok "the stacked series has conversion commits ($n_conv)"
else
	not_ok "the stacked series has conversion commits" "core..series is empty: conversions/ has no patches?"
fi
start=$(git -C "$TREE" rev-parse HEAD)
expect_status "bisect base..bisect-series (right-mask lockdep test) finds a commit" 0 "$logs/bisect.log" \
	env APPEND=softirq_mask_lockdep_test=right scripts/bisect/bisect-boot.sh base bisect-series boot
sed 's/^/    /' "$logs/bisect.log" | tail -n 20
bad=$(git -C "$TREE" rev-parse --short bisect-series~1)
expect_grep "first bad commit is the wrong-mask one" \
	"^first bad commit: $bad fixture: hold back HRTIMER instead of TASKLET" "$logs/bisect.log"
expect_grep "its verdict is a lockdep report" "^boot verdict: LOCKDEP" "$logs/bisect.log"
# the commits of the stacked series (base..series) that a bisection step
# built and booted: the walk went through the series, not around it
inner=0
for c in $(git -C "$TREE" rev-list base..series); do
	[ ! -d "$OUT/bisect/steps/${c:0:12}" ] || inner=$((inner + 1))
done
if [ "$inner" -gt 0 ]; then
	ok "the bisection built and booted $inner commits of base..series"
else
	not_ok "the bisection went through the stacked series" "no step folder in $OUT/bisect/steps for a commit of base..series"
fi
expect_tree_restored "$start"
tally
