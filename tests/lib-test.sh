# shellcheck shell=bash
# Helpers for the shell test suites: counted checks and the closing
# "N passed, N failed" line.  Sourced, never run.

passed=0
failed=0

# ok NAME: record a passing check.
ok() {
	passed=$((passed + 1))
	printf 'PASS %s\n' "$1"
}

# not_ok NAME WHY: record a failing check.
not_ok() {
	failed=$((failed + 1))
	printf 'FAIL %s: %s\n' "$1" "$2"
}

# expect_status NAME STATUS LOG CMD...: run CMD, output to LOG, and check
# its exit status.
expect_status() {
	local name=$1 want=$2 logf=$3 got=0
	shift 3
	"$@" >"$logf" 2>&1 || got=$?
	if [ "$got" -eq "$want" ]; then
		ok "$name"
	else
		not_ok "$name" "exit status $got, expected $want (output: $logf)"
		tail -n 15 "$logf" | sed 's/^/    /'
	fi
}

# expect_grep NAME REGEX FILE: check that FILE has a line matching REGEX.
expect_grep() {
	if grep -Eq -- "$2" "$3"; then
		ok "$1"
	else
		not_ok "$1" "no line matching /$2/ in $3"
	fi
}

# expect_tree_restored REV: the work tree ($TREE, from scripts/lib.sh) is
# back at commit REV with no bisection left open.
expect_tree_restored() {
	local name="tree back at its starting commit, no bisection left open"
	if [ "$(git -C "$TREE" rev-parse HEAD)" = "$1" ] && [ ! -f "$TREE/.git/BISECT_START" ]; then
		ok "$name"
	else
		not_ok "$name" "HEAD moved or BISECT_START left"
	fi
}

# tally: the closing line; exit status 1 when anything failed.
tally() {
	printf '%d passed, %d failed\n' "$passed" "$failed"
	[ "$failed" -eq 0 ]
}

# tally_result STAGE: tally, then the "RESULT STAGE PASS|FAIL" line of
# scripts/lib.sh's result() (for suites that are also a make stage, such
# as make cocci-test); status 1 when anything failed.
tally_result() {
	if tally; then
		result "$1" PASS "$passed cases"
	else
		result "$1" FAIL "$failed of $((passed + failed)) cases failed"
		return 1
	fi
}
