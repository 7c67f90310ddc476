#!/usr/bin/env bash
# run-tests.sh: the project's test runner (make check).  Runs each suite,
# keeps its output in $OUT/check/SUITE.log, adds up the suites' closing
# "N passed, N failed" lines and ends with the total in the same form.
#
# Env: SUITES="static units ..." runs only those suites.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

# name:command; order matters (cheap first, kernel builds last).
all_suites=(
	"static:tests/test-static.sh"
	"units:tests/run-unit-tests.py"
	"scripts:tests/test-scripts.sh"
	"cocci:tests/test-cocci.sh"
	"analysis:tests/test-analysis.sh"
	"boot-base:tests/test-boot-base.sh"
	"bisect:tests/test-bisect.sh"
	"core:tests/test-core.sh"
	"bisect-lockdep:tests/test-bisect-lockdep.sh"
	"bench:tests/test-bench.sh"
)
want=${SUITES:-}
res="$OUT/check"
mkdir -p "$res"
cd "$TOP"

total_p=0
total_f=0
table=()
for entry in "${all_suites[@]}"; do
	name=${entry%%:*}
	cmd=${entry#*:}
	if [ -n "$want" ] && ! grep -qw -- "$name" <<<"$want"; then
		continue
	fi
	log check "suite $name: $cmd"
	t0=$SECONDS
	status=0
	if [ -x "$cmd" ]; then
		"$cmd" 2>&1 | tee "$res/$name.log" || status=$?
	else
		echo "suite $name: $cmd is missing" | tee "$res/$name.log"
		status=1
	fi
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$res/$name.log" | tail -n 1 || true)
	if [ -n "$line" ]; then
		p=${line%% passed*}
		f=${line#*passed, }
		f=${f%% failed}
	else
		p=0
		f=1 # no tally: the suite itself broke
	fi
	if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1 # nonzero exit without a counted failure still fails
	fi
	total_p=$((total_p + p))
	total_f=$((total_f + f))
	table+=("$(printf '%-14s %4d passed %4d failed %6ss' "$name" "$p" "$f" $((SECONDS - t0)))")
done

echo
echo "suite summary (logs in $res/):"
printf '  %s\n' "${table[@]}"
printf '%d passed, %d failed\n' "$total_p" "$total_f"
[ "$total_f" -eq 0 ]
