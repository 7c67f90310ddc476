# shellcheck shell=bash
# Helpers for the shell test suites: counted checks and the closing
# "N passed, N failed" line.  Sourced, never run.

passed=0
failed=0

# SOFTIRQ_MISUSE_WARNING (the misuse WARNING the KUnit suite provokes on
# purpose) is defined in scripts/lib.sh, which every suite sources first.

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

# expect_no_grep NAME REGEX FILE: check that no line of FILE matches REGEX
# (the first two that do are shown).
expect_no_grep() {
	if grep -Eq -- "$2" "$3"; then
		not_ok "$1" "$(grep -E -m 2 -- "$2" "$3")"
	else
		ok "$1"
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

# expect_fresh NAME FILE STAMP: FILE exists and was written after STAMP
# (a file the suite touched when it started), so a check never reads the
# output of a previous run that a failing command left in place.
expect_fresh() {
	if [ -f "$2" ] && [ "$2" -nt "$3" ]; then
		ok "$1"
	else
		not_ok "$1" "$2 is missing or older than this run"
	fi
}

# expect_traffic SUMMARY PATH PROTO: the "traffic PATH/PROTO:" line of a
# boot summary (scripts/kernel/parse-boot-log.py) has sane figures.  TCP:
# bytes were sent, every byte arrived (received = sent), lost=0, corrupt=0.
# UDP: loss is allowed but must add up: sent > 0, received > 0,
# lost = sent - received >= 0, dup=0, corrupt=0.
expect_traffic() {
	local sum=$1 path=$2 proto=$3 line kv k v why=""
	local -A f=()
	line=$(grep -m 1 -E "^  traffic $path/$proto: " "$sum" 2>/dev/null || true)
	if [ -z "$line" ]; then
		not_ok "traffic $path/$proto figures" "no 'traffic $path/$proto:' line in $sum"
		return 0
	fi
	for kv in ${line#*: }; do
		k=${kv%%=*}
		v=${kv#*=}
		f[$k]=$v
	done
	for k in sent received lost corrupt; do
		case ${f[$k]:-} in '' | *[!0-9]*) why="$k='${f[$k]:-}' is not a count" ;; esac
	done
	if [ -z "$why" ]; then
		if [ "${f[sent]}" -eq 0 ]; then
			why="nothing was sent"
		elif [ "${f[corrupt]}" -ne 0 ]; then
			why="corrupt=${f[corrupt]}"
		elif [ "$proto" = tcp ]; then
			[ "${f[lost]}" -eq 0 ] && [ "${f[received]}" -eq "${f[sent]}" ] ||
				why="TCP lost bytes: sent=${f[sent]} received=${f[received]} lost=${f[lost]}"
		elif [ "${f[received]}" -eq 0 ]; then
			why="nothing was received"
		elif [ "${f[lost]}" -ne $((f[sent] - f[received])) ]; then
			why="lost=${f[lost]} is not sent - received = $((f[sent] - f[received]))"
		elif [ "${f[dup]:-x}" != 0 ]; then
			why="dup='${f[dup]:-}'"
		fi
	fi
	if [ -z "$why" ]; then ok "traffic $path/$proto figures"; else
		not_ok "traffic $path/$proto figures" "$why ($line)"
	fi
}

# expect_bench_verdicts TABLE: every row of the API overhead table of a
# results/bench.md-style TABLE has a positive ratio, and its "within 10%"
# column says yes exactly when the median ratio is at most 1.10.
expect_bench_verdicts() {
	local out
	if out=$(awk -F' *[|] *' '
		/^[|] [a-z_]+_mask [|] (idle|pending) [|]/ {
			n++
			split($7, r, " ")
			ratio = r[1] + 0
			want = (ratio <= 1.10) ? "yes" : "no"
			if (ratio <= 0 || $8 != want) {
				printf "%s (%s): ratio %s but within 10%% says \"%s\"\n", $2, $3, r[1], $8
				bad++
			}
		}
		END { if (n < 2) { print "fewer than 2 overhead rows"; bad++ } exit bad > 0 }' "$1" 2>&1); then
		ok "overhead table verdicts match their ratios"
	else
		not_ok "overhead table verdicts match their ratios" "$out"
	fi
}

# require_core_state SUITE: this suite builds on the core suite's state
# (tag core in $TREE and the core kernel built from it in $OUT/build/core);
# exit with a message that says so when that state is missing.
require_core_state() {
	local core built
	core=$(git -C "$TREE" rev-parse -q --verify 'core^{commit}' 2>/dev/null) || core=""
	built=$(cat "$OUT/build/core/rev" 2>/dev/null) || built=""
	if [ -z "$core" ] || [ "$built" != "$core" ]; then
		not_ok "$1 needs the core suite's state" \
			"tag core in $TREE (${core:-missing}) and the core kernel built from it in $OUT/build/core (${built:-not built}); run it after the core suite: SUITES=\"core $1\" tests/run-tests.sh"
		tally
		exit 1
	fi
	ok "$1: tag core and the core build from it are there"
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
