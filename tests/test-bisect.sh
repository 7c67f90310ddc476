#!/usr/bin/env bash
# test-bisect.sh: bisecting boots finds the deliberately broken commit of a
# fixture series (tests/fixtures/bisect: harmless, panics at boot,
# harmless), names it with its decisive console lines, and leaves the tree
# where it was; bad arguments and endpoints that do not differ are refused.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=tests/lib-test.sh
. tests/lib-test.sh
# shellcheck source=scripts/lib.sh
. scripts/lib.sh

logs="$OUT/check/bisect"
rm -rf "$logs"
mkdir -p "$logs"
touch "$logs/.start"

expect_status "bisect with TEST=bogus exits 2" 2 "$logs/args.log" scripts/bisect/bisect-boot.sh base base bogus
expect_status "fixture series applies" 0 "$logs/apply.log" \
	scripts/kernel/apply-patches.sh tests/fixtures/bisect base bisect-fixture
expect_status "bisect with BAD before GOOD exits 2" 2 "$logs/order.log" \
	scripts/bisect/bisect-boot.sh bisect-fixture base boot

start=$(git -C "$TREE" rev-parse HEAD)
expect_status "bisect base..bisect-fixture finds a commit" 0 "$logs/bisect.log" \
	scripts/bisect/bisect-boot.sh base bisect-fixture boot
sed 's/^/    /' "$logs/bisect.log" | tail -n 20
bad=$(git -C "$TREE" rev-parse --short bisect-fixture~1)
expect_grep "first bad commit is the panicking one" "^first bad commit: $bad fixture: panic at boot" "$logs/bisect.log"
expect_grep "its decisive console line is shown" "bisect fixture: deliberate boot failure" "$logs/bisect.log"
expect_fresh "bisect log written by this run" "$OUT/bisect/bisect.log" "$logs/.start"
expect_grep "bisect log saved" "git bisect start" "$OUT/bisect/bisect.log"
expect_tree_restored "$start"
expect_status "endpoints that both pass are refused" 1 "$logs/same.log" \
	scripts/bisect/bisect-boot.sh base bisect-fixture~2 boot
expect_grep "refusal names the endpoint" "does not fail the boot test" "$logs/same.log"
tally
